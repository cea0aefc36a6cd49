"""``ShutTheBox serve`` against other sites, big solves, slow readers, damaged tables and other machines:
no page can be framed and no solve starts without a click in the page that showed its cost; solves above
the limit are refused, and a solve runs in a child process that Cancel, ``DELETE`` or nobody asking stops,
its memory given back; slow readers hold no worker and every answer has a time limit; one client address
holds a bounded number of connections; a damaged table in the cache is never called ready, and is solved
again; other machines cannot start solves unless allowed; refusals and errors echo once, escaped, on one
line. Behaviour only, never timings: every wait is a generous bound on an event."""

from __future__ import annotations

import base64
import hashlib
import html.parser
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from serving import COMMAND, DEADLINE, ROOT, address, call, children, exchange, head_of, running_server, wait_for

SOLVE = {"X-ShutTheBox": "solve"}
FRAMES = {"x-frame-options": "DENY", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff",
          "server": "ShutTheBox"}
UNFRAMED = {key: value for key, value in FRAMES.items() if key != "x-frame-options"}
BIG = "t11-2d6-one6-p4.msgpack"  # under the default limit (about 450 MB), seconds to solve: long enough to stop
SMALL = "toggle-c5-s3.msgpack"
STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads processes in /proc")










def cache_folder(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    return cache


def status_of(url, name):
    return call(url + "solve/" + name)[2]




def memory_of(pid) -> int:
    """Resident bytes of a process (0 when it is gone)."""
    try:
        with open("/proc/%d/status" % pid) as status:
            found = re.search(r"^VmRSS:\s+(\d+) kB", status.read(), re.M)
    except OSError:
        return 0
    return int(found.group(1)) * 1024 if found else 0


def alive(pid) -> bool:
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False




def answer_words(url, name):
    """The estimate's words of ``name``, from the game's declaration."""
    from shutthebox import registry

    for game in registry.declarations():
        family, rules = game.family(name)
        if family is not None:
            return family.solver(rules).estimate().words()
    raise AssertionError(name)


def solving_child(url, proc, name):
    """POST ``name``, then follow it until its child process is there: (child pid, statuses seen)."""
    status, _, answer = call(url + "solve/" + name, "POST", SOLVE)
    assert status == 202 and answer["state"] == "queued", answer

    def started():
        seen = status_of(url, name)
        assert seen["state"] in ("queued", "solving"), seen
        kids = children(proc.pid)
        return seen["state"] == "solving" and kids and kids[0]

    return wait_for(started, "the child process solving %s" % name)


def serve_on(host, *args, env=None):
    """``ShutTheBox serve --host HOST --port 0 ARGS``: (its URL as printed, the process); always stopped."""
    return running_server("--host", host, *args, env=env)


# -- 1. no framing; a solve starts only on a click that showed its cost --------------------------------------


class _InlineScripts(html.parser.HTMLParser):
    """The text of each <script> without src, as an HTML parser reads it (the browser hashes that)."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.scripts, self._inside = [], False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and "src" not in dict(attrs):
            self._inside = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        self._inside = self._inside and tag != "script"

    def handle_data(self, data):
        if self._inside:
            self.scripts[-1] += data


def inline_script_hashes():
    found = set()
    for name in sorted(os.listdir(STATIC)):
        if name.endswith(".html"):
            parser = _InlineScripts()
            with open(os.path.join(STATIC, name), encoding="utf-8") as page:
                parser.feed(page.read())
            found.update("'sha256-%s'" % base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
                         for script in parser.scripts)
    return found


def check_policy(policy, where):
    """The Content-Security-Policy every answer carries: this server's files only, the pages' inline scripts
    by their hashes, no framing."""
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives["default-src"] == ["'self'"] and directives["connect-src"] == ["'self'"], where
    assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"], where
    hashes = inline_script_hashes()
    assert len(hashes) >= 2 and set(directives["script-src"]) == {"'self'", *hashes}, (where, policy)
    assert "'unsafe-inline'" not in directives["script-src"] + directives["style-src"], where


def test_documents_carry_the_policy_every_answer_nosniff_and_no_python(tmp_path):
    cache = cache_folder(tmp_path)
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        answers = {
            "page": call(url), "script": call(url + "solve.js"), "table": call(url + "standard.msgpack"),
            "games.json": call(url + "games.json"), "missing": call(url + "nothing.html"),
            "status": call(url + "solve/" + SMALL), "refused POST": call(url + "solve/" + SMALL, "POST"),
            "refused DELETE": call(url + "solve/" + SMALL, "DELETE"), "POST elsewhere": call(url, "POST", SOLVE),
            "foreign Host": call(url, headers={"Host": "evil.example:%d" % address(url)[1]}),
            "range": call(url + "standard.msgpack", headers={"Range": "bytes=0-9"}),
            "416": call(url + "standard.msgpack", headers={"Range": "bytes=99999999-"}),
            "long": call(url + "a" * 5000),  # its log line is cut short
        }
        tag = answers["table"][1]["etag"]
        answers["304"] = call(url + "standard.msgpack", headers={"If-None-Match": tag})
        assert [answers[name][0] for name in answers] == [200, 200, 200, 200, 404, 200, 403, 403, 405, 403, 206,
                                                          416, 404, 304]
        answers["worker"] = call(url + "sw.js")
        policy = answers["page"][1]["content-security-policy"]
        check_policy(policy, "the page")
        # A browser reads the policy only from what it runs as a document or a worker: a page's parts go without.
        subresources = {"script", "table", "games.json", "status", "range"}
        for name, (status, headers, _) in answers.items():
            if name in subresources:
                assert {key: headers.get(key) for key in UNFRAMED} == UNFRAMED, (name, status, headers)
                assert "content-security-policy" not in headers and "x-frame-options" not in headers, (name, headers)
            else:
                assert {key: headers.get(key) for key in FRAMES} == FRAMES, (name, status, headers)
                assert headers["content-security-policy"] == policy, (name, status)
        # The standard library's own error pages, the pool's answers, and a request without a version.
        raws = ((b"501", b"BREW / HTTP/1.0\r\n\r\n"),
                (b"400", b"GET / HTTP/9.x\r\n\r\n"),
                (b"414", b"GET /" + b"a" * 70000 + b" HTTP/1.0\r\n\r\n"),
                (b"431", b"GET / HTTP/1.0\r\n" + b"X: x\r\n" * 120 + b"\r\n"),  # too many header lines
                (b"431", b"GET / HTTP/1.0\r\nX: " + b"x" * 70000 + b"\r\n\r\n"),  # a head too long (the pool's)
                (b"400", b"GET /\r\n\r\n"),  # HTTP/0.9: no status line and no headers, unless refused
                (b"400", b"POST /\r\n\r\n"))
        for code, raw in raws:
            answer = exchange(url, raw)
            assert answer.startswith(b"HTTP/1.1 %s " % code), (code, answer[:80])
            head = head_of(answer)
            assert {key: head.get(key) for key in FRAMES} == FRAMES, (code, answer[:600])
            assert head["content-security-policy"] == policy, (code, answer[:600])
    lines = proc.stderr_text.splitlines()
    assert any("/aaaa" in line for line in lines) and all(len(line) <= 500 for line in lines), \
        [len(line) for line in lines]
    assert any(line.endswith("...") for line in lines), lines


def test_the_pages_run_under_their_policy(browser, tmp_path):
    """Both pages load and work with the policy on: no script, style or request of theirs is blocked, and the
    inline scripts run (their hashes are right)."""
    record = ("window.violations = []; document.addEventListener('securitypolicyviolation', "
              "(event) => window.violations.push(event.violatedDirective + ' ' + event.blockedURI));")
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache_folder(tmp_path))}) as (url, proc):
        context = browser.new_context(bypass_csp=False)  # the policy on (evaluate only: no wait_for_function)
        try:
            page = context.new_page()
            page.add_init_script(record)
            for link in (url + "?mode=coach", url + "?mode=play&seed=3&anim=0", url + "?mode=solo&seed=3",
                         *(url + "games.html?game=%s&mode=%s&seed=5&anim=0" % (game, mode)
                           for game in ("toggle", "goat", "yazy", "yahtzee", "pig") for mode in ("coach", "play"))):
                page.goto(link)
                wait_for(lambda: page.evaluate("document.body.dataset.state") in ("ready", "error"), link)
                assert page.evaluate("document.body.dataset.state") == "ready", page.inner_text("body")[:400]
                assert page.evaluate("window.violations") == [], link
            # The inline script runs: with the modules refused, it says the page's scripts did not load.
            page.route("**/*.js", lambda route: route.continue_() if route.request.url.endswith("msgpack.min.js")
                       else route.abort())
            for link in (url + "games.html", url):
                page.goto(link)
                wait_for(lambda: page.evaluate("document.body.dataset.state") == "error", "the inline script's error")
                assert "did not load" in page.inner_text("#error")
                assert page.evaluate("window.violations") == [], link
        finally:
            context.close()


def test_get_of_a_table_not_asked_for_says_what_solving_it_costs(tmp_path):
    from shutthebox import registry

    family, rules = registry.declaration("shutthebox").family(BIG)
    estimate = family.solver(rules).estimate()
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache_folder(tmp_path))}) as (url, proc):
        status, _, answer = call(url + "solve/" + BIG)
    assert status == 200 and answer == {
        "name": BIG, "state": "absent", "done": 0, "total": 0, "size": estimate.size, "memory": estimate.memory,
        "seconds": round(estimate.seconds, 1), "words": estimate.words(), "limit": 2 * 10**9}
    assert re.fullmatch(r"a [\d.]+ MB table, about [\d.]+ MB of memory and \d+ seconds", answer["words"]), answer


ATTACK = """<!doctype html><title>another site</title>
<iframe id="a" src="{url}games.html?game=toggle&cards=5&sides=3" style="opacity:0"
 onload="window.loaded.push('a')"></iframe>
<iframe id="b" src="{url}?mode=coach&tiles=6&players=3" style="opacity:0" onload="window.loaded.push('b')"></iframe>
<script>window.loaded = [];</script>"""


def test_another_site_cannot_frame_the_page_and_a_link_only_asks(tmp_path, browser):
    cache = cache_folder(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        # Another local origin frames the page with rules whose tables are not solved: the frames stay empty.
        (site / "index.html").write_text(ATTACK.format(url=url))
        plain = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d",
                                  str(site)],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        context = browser.new_context()
        try:
            port = int(plain.stdout.readline().split(" port ")[1].split()[0])
            page = context.new_page()
            page.goto("http://127.0.0.1:%d/index.html" % port)
            page.wait_for_function("window.loaded.length === 2", timeout=30000)
            framed = [frame for frame in page.frames if frame != page.main_frame]
            assert len(framed) == 2
            for frame in framed:  # blocked: chromium's error page, none of the server's scripts ran
                assert not frame.url.startswith(url), frame.url
                assert frame.evaluate("typeof window.games === 'undefined' && typeof window.shutTheBox === 'undefined'")
        finally:
            context.close()
            plain.terminate()
            plain.wait(timeout=10)
            plain.stdout.close()
        assert os.listdir(cache) == []
        for name in (SMALL, "t6-2d6-one6-p3.msgpack"):
            assert status_of(url, name)["state"] == "absent"

        # The same links opened by the player show the rules and what solving them costs, and wait for a click.
        context = browser.new_context()
        errors = []
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url + "games.html?game=toggle&cards=5&sides=3")
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            words = status_of(url, SMALL)["words"]
            question = page.text_content("#solve-question")
            assert SMALL in question and words in question, question
            assert page.evaluate("document.body.dataset.state") == "asking"
            assert os.listdir(cache) == [] and status_of(url, SMALL)["state"] == "absent"  # nothing started
            page.click("#solve-start")
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=DEADLINE * 1000)
            assert (cache / SMALL).exists() and status_of(url, SMALL)["state"] == "ready"
            assert page.evaluate("window.games.toggle.answers([{up: 31, x: 1, y: 2}])")[0]["value"]

            name = "t6-2d6-one6-p3.msgpack"
            page.goto(url + "?mode=coach&tiles=6&players=3")
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            assert name in page.text_content("#solve-question") and status_of(url, name)["words"] in page.text_content(
                "#solve-question")
            assert page.evaluate("document.body.dataset.state") == "asking"
            page.click("#solve-cancel")  # no: the page goes on with its own table, and says why
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=30000)
            assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"
            assert "tiles" in page.inner_text("#link-problems") and "not solved" in page.inner_text("#link-problems")
            assert status_of(url, name)["state"] == "absent" and not (cache / name).exists()
            page.goto(url + "?mode=coach&tiles=6&players=3")
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            page.click("#solve-start")
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=DEADLINE * 1000)
            assert page.evaluate("window.shutTheBox.tableName()") == name and (cache / name).exists()
        finally:
            context.close()
        assert errors == []


# -- 2. a limit, a child process, Cancel, nobody asking, progress ----------------------------------------------


@pytest.mark.slow
def test_solves_above_the_limit_are_refused_and_serve_can_raise_it(tmp_path):
    cache = cache_folder(tmp_path)
    env = {"SHUTTHEBOX_CACHE": str(cache)}
    with running_server("--solve-limit", "1MB", env=env) as (url, proc):
        answer = status_of(url, SMALL)
        assert answer["state"] == "absent" and answer["limit"] == 10**6 and answer["memory"] > 10**6, answer
        assert answer["refused"] == ("solving %s would make %s, above this server's limit of 1 MB of memory; start "
                                     "ShutTheBox serve --solve-limit %dMB to allow it, or solve it with the command "
                                     "line" % (SMALL, answer["words"], -(-answer["memory"] // 10**6)))
        status, _, refused = call(url + "solve/" + SMALL, "POST", SOLVE)
        assert status == 403 and refused["state"] == "failed" and refused["error"] == answer["refused"], refused
        assert status_of(url, SMALL)["state"] == "absent" and os.listdir(cache) == []
    huge = "t12-2d6-one6-p8.msgpack"  # about 4.3 GB of memory: above the default limit, the command line's
    with running_server(env=env) as (url, proc):
        answer = status_of(url, huge)
        assert answer["limit"] == 2 * 10**9 and "--solve-limit 5GB" in answer["refused"], answer
        status, _, refused = call(url + "solve/" + huge, "POST", SOLVE)
        assert status == 403 and refused["error"] == answer["refused"]
        assert status_of(url, huge)["state"] == "absent" and os.listdir(cache) == []
    with running_server("--solve-limit=5GB", env=env) as (url, proc):
        answer = status_of(url, huge)
        assert answer["limit"] == 5 * 10**9 and "refused" not in answer, answer  # not asked for here: no solve
    for value in ("2", "lots", "0.5MB", "5 GiB", "-1GB", "9" * 20 + "GB"):
        done = subprocess.run(COMMAND + ["serve", "--solve-limit", value], capture_output=True, text=True,
                              timeout=30, cwd=ROOT)
        assert done.returncode == 2 and done.stdout == "", value
        assert done.stderr.count("\n") == 1 and "--solve-limit must be a memory size" in done.stderr, done.stderr


class _NoTables:
    """Routes with no table at all (a unit test of Solves)."""

    def path(self, url):
        return None

    def damaged(self, url):
        return None


def test_a_solve_whose_cost_nobody_can_say_is_refused():
    from shutthebox.web.solving import Solves

    solves = Solves(_NoTables(), find=lambda name: (True, None, True))
    status, answer = solves.status("x-1.msgpack")
    assert status == 200 and answer["state"] == "absent" and "cannot be said beforehand" in answer["refused"]
    status, answer = solves.start("x-1.msgpack")
    assert status == 403 and answer["state"] == "failed"
    assert answer["error"] == solves.status("x-1.msgpack")[1]["refused"]


# A stand-in for the solver's child process: it reports all its steps done, then, as a table is written,
# waits, until standard input closes (its server is gone) or it is killed. Its pid goes to a file.
WRITING = """import json, sys, os
open(sys.argv[1], 'w').write(str(os.getpid()))
print(json.dumps({"done": 40, "total": 40}), flush=True)
sys.stdin.read()
"""


def test_progress_reaches_all_done_only_when_the_table_is_written(tmp_path):
    from shutthebox.web.solving import Solves

    pid_file = tmp_path / "pid"

    class Written(_NoTables):
        ready = False

        def path(self, url):
            return str(tmp_path / "t.msgpack") if self.ready else None

    class Cost:
        size, memory, seconds = 1000, 10**6, 1.0

        def words(self):
            return "a small table"

    routes = Written()
    solves = Solves(routes, command=[sys.executable, "-c", WRITING, str(pid_file)],
                    find=lambda name: (True, Cost(), True))
    assert solves.start("t.msgpack")[0] == 202
    seen = wait_for(lambda: (lambda a: a["state"] == "solving" and a["done"] > 0 and a)(solves.status("t.msgpack")[1]),
                    "the child's progress")
    assert seen["done"] == 40 and seen["total"] > 40, seen  # every step solved, the table not written yet
    child = int(wait_for(lambda: pid_file.exists() and pid_file.read_text(), "the child's pid"))
    status, answer = solves.cancel("t.msgpack")
    assert status == 200 and answer["state"] == "cancelled"
    assert answer["error"] == "the solve of t.msgpack was cancelled"
    assert not alive(child)  # stopped by the time DELETE answers
    assert solves.status("t.msgpack")[1]["state"] == "cancelled"

    # The child that writes its table and says so: ready, all done.
    done = "import json; print(json.dumps({'done': 7, 'total': 7})); print(json.dumps({'ready': 't.msgpack'}))"
    solves.command = [sys.executable, "-c", done]
    routes.ready = False
    solves.start("t.msgpack")

    def finished():
        routes.ready = True  # written: the routes find it
        answer = solves.status("t.msgpack")[1]
        return answer["state"] == "ready" and answer

    answer = wait_for(finished, "ready")
    assert answer["done"] == answer["total"] > 7, answer
    solves.close()


def test_a_solve_nobody_asks_about_is_stopped(tmp_path):
    from shutthebox.web.solving import Solves

    pid_file = tmp_path / "pid"
    cost = type("Cost", (), {"size": 1, "memory": 1, "seconds": 1.0, "words": lambda self: "tiny"})
    solves = Solves(_NoTables(), idle=0.5, command=[sys.executable, "-c", WRITING, str(pid_file)],
                    find=lambda name: (True, cost(), True))
    assert solves.start("t.msgpack")[0] == 202
    child = int(wait_for(lambda: pid_file.exists() and pid_file.read_text(), "the child's pid"))
    wait_for(lambda: not alive(child), "the child stopped, nobody asking")  # no status asked meanwhile
    status, answer = solves.status("t.msgpack")
    assert status == 200 and answer["state"] == "cancelled", answer
    assert answer["error"] == "the solve of t.msgpack was stopped: nobody asked about it for 0.5 seconds"
    solves.close()


@pytest.mark.slow
@needs_proc
def test_cancel_stops_the_child_and_gives_its_memory_back(tmp_path):
    cache = cache_folder(tmp_path)
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        child = solving_child(url, proc, BIG)
        # The solve's memory is the child's, not the server's.
        wait_for(lambda: status_of(url, BIG)["state"] == "solving" and memory_of(child) > 150 * 10**6,
                 "the child's memory growing")
        assert memory_of(proc.pid) < 150 * 10**6, memory_of(proc.pid)
        for headers in ({}, {**SOLVE, "Origin": "http://evil.example"}):  # only the page stops a solve
            status, _, answer = call(url + "solve/" + BIG, "DELETE", headers)
            assert status == 403 and ("stopped" in answer["error"] or "header" in answer["error"]), answer
        assert alive(child)
        status, headers, answer = call(url + "solve/" + BIG, "DELETE", SOLVE)
        assert status == 200 and answer["state"] == "cancelled", answer
        assert answer["error"] == "the solve of %s was cancelled" % BIG
        assert not alive(child) and children(proc.pid) == []  # stopped and its memory given back, as DELETE answers
        again = status_of(url, BIG)
        assert again["state"] == "cancelled" and again["words"] == answer_words(url, BIG), again  # may be asked again
        # The worker goes on with the next table; nothing of the cancelled one was written.
        assert call(url + "solve/" + SMALL, "POST", SOLVE)[0] == 202
        wait_for(lambda: status_of(url, SMALL)["state"] == "ready", "the next table solved")
        assert os.listdir(cache) == [SMALL]
        # Asked again, the cancelled table starts again (queued, then solving).
        assert call(url + "solve/" + BIG, "POST", SOLVE)[0] == 202
        assert call(url + "solve/" + BIG, "DELETE", SOLVE)[2]["state"] == "cancelled"
    assert "Traceback" not in proc.stderr_text


@pytest.mark.slow
@needs_proc
def test_a_solve_nobody_polls_is_stopped_by_the_server(tmp_path):
    cache = cache_folder(tmp_path)
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache), "SHUTTHEBOX_SOLVE_IDLE": "1"}) as (url, proc):
        child = solving_child(url, proc, BIG)
        wait_for(lambda: not alive(child), "the child stopped, nobody asking")  # nothing asked meanwhile
        # The server records the stop just after the child is gone: ask until it has.
        wait_for(lambda: status_of(url, BIG)["state"] != "solving", "the stop recorded")
        answer = status_of(url, BIG)
        assert answer["state"] == "cancelled", answer
        assert answer["error"] == "the solve of %s was stopped: nobody asked about it for 1 second" % BIG
        assert os.listdir(cache) == []


@needs_proc
def test_the_page_s_cancel_and_closing_the_page_stop_the_solve(tmp_path, browser):
    cache = cache_folder(tmp_path)
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(url + "games.html?game=goat&goal=150")  # about 600 MB and seconds to solve
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            page.click("#solve-start")
            page.wait_for_function("document.body.dataset.solve === 'solving'", timeout=30000)
            wait_for(lambda: children(proc.pid), "the child")
            page.click("#solve-cancel")  # the page falls back to the shipped goal, and says why
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=30000)
            assert "not solved" in page.inner_text("#goat-error")
            wait_for(lambda: status_of(url, "goat-g150.msgpack")["state"] == "cancelled", "cancelled by the page")
            wait_for(lambda: children(proc.pid) == [], "the child gone")
            page.goto(url + "games.html?game=goat&goal=150")  # asked again: the question again, saying why
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            question = page.text_content("#solve-question")
            assert "the solve of goat-g150.msgpack was cancelled" in question, question
            assert answer_words(url, "goat-g150.msgpack") in question, question

            page.goto(url + "?mode=coach&tiles=11&players=4")
            page.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            page.click("#solve-start")
            page.wait_for_function("document.body.dataset.solve === 'solving'", timeout=30000)
            assert wait_for(lambda: children(proc.pid), "the child")
            page.close()  # the page goes: its solve goes too (long before nobody asking would stop it)
            wait_for(lambda: status_of(url, BIG)["state"] == "cancelled", "cancelled as the page closed")
            assert status_of(url, BIG)["error"] == "the solve of %s was cancelled" % BIG
            wait_for(lambda: children(proc.pid) == [], "the child gone")
        finally:
            context.close()
        assert os.listdir(cache) == []


# -- 3. slow readers, answer time, connections per client --------------------------------------------------------


@needs_proc
def test_slow_readers_hold_no_worker():
    size = os.path.getsize(os.path.join(ROOT, "data", "yazy.msgpack"))
    # A minute before a silent reader is dropped: before, each held a worker all that time.
    with running_server(env={"SHUTTHEBOX_SERVE_TIMEOUT": "60"}) as (url, proc):
        readers = []
        try:
            for _ in range(20):
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.settimeout(30)
                sock.connect(address(url))
                sock.sendall(b"GET /yazy.msgpack HTTP/1.0\r\n\r\n")
                readers.append(sock)
            for sock in readers:  # every answer has started; none is read further
                assert sock.recv(12) == b"HTTP/1.1 200"
            results = []

            def other(n):
                results.append(call(url + ("app.js", "games.json", "standard.msgpack", "solve/" + SMALL)[n % 4],
                                    timeout=15)[0])

            threads = [threading.Thread(target=other, args=(n,)) for n in range(40)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            assert sorted(results) == [200] * 40, results  # solve/NAME of a table not there: 200, "absent"
            with open("/proc/%d/status" % proc.pid) as status:
                assert int(re.search(r"^Threads:\s+(\d+)", status.read(), re.M).group(1)) <= 16 + 3
        finally:
            for sock in readers:
                sock.close()
        assert call(url)[0] == 200
    assert "Traceback" not in proc.stderr_text and size > 10**7


@pytest.mark.slow
def test_an_answer_has_a_time_limit_even_while_read():
    size = os.path.getsize(os.path.join(ROOT, "data", "yazy.msgpack"))
    # A 1-second timeout: an answer must be sent within 12 seconds. This reader takes bytes every 50 ms,
    # never silent for a second, but would need minutes for the 14 MB: it is cut off.
    with running_server(env={"SHUTTHEBOX_SERVE_TIMEOUT": "1"}) as (url, proc):
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
            sock.settimeout(DEADLINE)
            sock.connect(address(url))
            sock.sendall(b"GET /yazy.msgpack HTTP/1.0\r\n\r\n")
            got = 0
            while chunk := sock.recv(16384):
                got += len(chunk)
                time.sleep(0.05)
        assert 0 < got < size, (got, size)
        assert call(url + "app.js")[0] == 200
    assert proc.stderr_text == ""


def test_an_answer_that_fails_is_a_500_never_a_closed_connection(capsys):
    from shutthebox.web import handler, pool

    class Failing(handler.RequestHandler):
        def handle_one_request(self):
            raise RuntimeError("a defect of ours")

    server = pool.Server(("127.0.0.1", 0), Failing, timeout=5, threads=2)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = "http://127.0.0.1:%d/" % server.server_address[1]
        answer = exchange(url, b"GET /app.js HTTP/1.0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 500 ") and b"standard error says why" in answer, answer[:120]
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
    assert "error answering 127.0.0.1: a defect of ours" in capsys.readouterr().err


# -- 4. a damaged table in the cache -------------------------------------------------------------------------------


def test_a_damaged_table_in_the_cache_is_never_ready_and_is_solved_again(tmp_path, monkeypatch):
    from shutthebox.games.toggle.rules import Rules
    from shutthebox.games.toggle.table import load

    cache = cache_folder(tmp_path)
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(cache))
    load(Rules(5, 3)).close()  # solved by the Python API into the cache
    good = (cache / SMALL).read_bytes()
    damaged = bytearray(good)
    damaged[-40] ^= 0x10  # an array's byte: the header is sound, the Python reader opens the file
    (cache / SMALL).write_bytes(bytes(damaged))
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        assert call(url + SMALL)[0] == 404  # never served: the page would refuse it
        status, _, answer = call(url + "solve/" + SMALL)
        assert status == 200 and answer["state"] == "absent" and answer["words"], answer
        assert "is damaged (checksum mismatch)" in answer["damaged"], answer
        assert call(url + "solve/" + SMALL, "POST", SOLVE)[0] == 202  # solved again (the page: on a click)
        wait_for(lambda: status_of(url, SMALL)["state"] == "ready", "solved again")
        status, _, served = call(url + SMALL)
        assert status == 200 and served == good == (cache / SMALL).read_bytes()
        # Damaged again while the server runs (a new version of the file): not ready, not served.
        (cache / SMALL).write_bytes(bytes(damaged))
        assert call(url + SMALL)[0] == 404 and status_of(url, SMALL)["state"] == "absent", status_of(url, SMALL)
    assert "warning: table file %s is damaged (checksum mismatch)" % (cache / SMALL) in proc.stderr_text


# -- 5. other machines; escaping -------------------------------------------------------------------------------------


def outside_address():
    """This machine's address on a network (not loopback), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing address
            found = probe.getsockname()[0]
        except OSError:
            return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


def test_other_machines_cannot_start_solves_unless_allowed(tmp_path):
    outside = outside_address()
    if outside is None:
        pytest.skip("this machine has no network address but loopback")
    cache = cache_folder(tmp_path)
    env = {"SHUTTHEBOX_CACHE": str(cache)}
    with serve_on("0.0.0.0", env=env) as (url, proc):
        port = address(url)[1]
        outside_url = "http://%s:%d/" % (outside, port)
        for method in ("POST", "DELETE"):
            request = ("%s /solve/%s HTTP/1.0\r\nHost: %s:%d\r\nX-ShutTheBox: solve\r\n\r\n"
                       % (method, SMALL, outside, port)).encode()
            answer = exchange(outside_url, request, source=outside)
            assert answer.startswith(b"HTTP/1.1 403 "), answer[:80]
            error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
            assert error == ("a solve is started and stopped only from this machine, not from %s (ShutTheBox serve "
                             "--allow-remote-solves allows other machines)" % outside), error
        page = exchange(outside_url, b"GET / HTTP/1.0\r\n\r\n", source=outside)  # the pages: readable
        assert page.startswith(b"HTTP/1.1 200 ")
        assert call("http://127.0.0.1:%d/solve/%s" % (port, SMALL), "POST", SOLVE)[0] == 202  # this machine may
    assert proc.stderr_text.startswith("ShutTheBox serve: warning: listening on 0.0.0.0: every machine that can "
                                       "reach it can read the pages and tables; solves are refused to them "
                                       "(--allow-remote-solves allows them)\n"), proc.stderr_text
    with serve_on("0.0.0.0", "--allow-remote-solves", env=env) as (url, proc):
        port = address(url)[1]
        request = ("POST /solve/goat-g20.msgpack HTTP/1.0\r\nHost: %s:%d\r\nX-ShutTheBox: solve\r\n\r\n"
                   % (outside, port)).encode()
        assert exchange("http://%s:%d/" % (outside, port), request, source=outside).startswith(b"HTTP/1.1 202 ")
    assert "and start and stop solves (--allow-remote-solves)" in proc.stderr_text
    with running_server() as (url, proc):  # this machine only: no warning
        pass
    assert "warning" not in proc.stderr_text


def test_refusals_echo_once_escaped_and_command_line_errors_are_one_escaped_line(tmp_path):
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache_folder(tmp_path))}) as (url, proc):
        for header, words in ((b"Host: evil\x1b[31m.example\r\n", "through this server's address, not "
                               "'evil\\x1b[31m.example'"),
                              (b"Origin: http://evil\x07.example\r\n", "by this server's own pages, not by "
                               "'http://evil\\x07.example'")):
            if not header.startswith(b"Host"):
                header = b"Host: 127.0.0.1:%d\r\n" % address(url)[1] + header
            request = b"POST /solve/%s HTTP/1.0\r\nX-ShutTheBox: solve\r\n%s\r\n" % (SMALL.encode(), header)
            answer = exchange(url, request)
            assert answer.startswith(b"HTTP/1.1 403 "), answer[:80]
            error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
            assert words in error and "\\\\" not in error and error.isprintable(), error
    for args, words in ((["--host", "\x1b[31mevil"], "cannot listen on address '\\x1b[31mevil'"),
                        (["--host", "a\nb"], "cannot listen on address 'a\\nb'"),
                        (["--port", "8\x1b[2J"], "--port must be a whole number from 0 to 65535, not '8\\x1b[2J'"),
                        (["--\x1b[2Jx"], "unknown argument '--\\x1b[2Jx'"),
                        (["--solve-limit", "\x075GB"], "not '\\x075GB'")):
        done = subprocess.run(COMMAND + ["serve", "--port", "0", *args], capture_output=True, text=True, timeout=30,
                              cwd=ROOT)
        assert done.returncode == 2 and done.stdout == "", (args, done.stderr)
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("ShutTheBox serve: "), done.stderr
        assert words in done.stderr and done.stderr[:-1].isprintable(), done.stderr
