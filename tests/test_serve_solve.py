"""``ShutTheBox serve``: ``/games.json`` from the registry, and tables solved on first use for the page
(``POST``/``GET /solve/NAME.msgpack``), checked against the Python API."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from serving import COMMAND, ROOT, running_server

STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
SOLVE = {"X-ShutTheBox": "solve"}
DEADLINE = 120  # seconds for a small table to be solved: a bound, not a timing assertion


def call(url, method="GET", headers=None):
    """(status, headers, body) of one request; JSON bodies decoded."""
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, got, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, got, body = error.code, error.headers, error.read()
    if (got.get("Content-Type") or "").startswith("application/json"):
        body = json.loads(body)
    return status, got, body


def solve(url, name, headers=SOLVE):
    """POST, then poll until ready or failed: every status seen."""
    status, _, answer = call(url + "solve/" + name, "POST", headers)
    assert status in (200, 202), (status, answer)
    seen = [answer]
    deadline = time.monotonic() + DEADLINE
    while answer["state"] not in ("ready", "failed"):
        assert time.monotonic() < deadline, seen[-3:]
        time.sleep(0.1)
        status, _, answer = call(url + "solve/" + name)
        assert status == 200, (status, answer)
        seen.append(answer)
    for answer in seen:
        assert answer["name"] == name and answer["state"] in ("queued", "solving", "ready", "failed"), answer
        assert 0 <= answer["done"] <= answer["total"] or answer["total"] == answer["done"] == 0, answer
    return seen


def estimate_of(name):
    """The game's own estimate of solving the table file ``name`` (engine.game.Estimate)."""
    from shutthebox import registry

    for game in registry.declarations():
        family, rules = game.family(name)
        if family is not None:
            return family.solver(rules).estimate()
    raise AssertionError(name)


def absent(name, limit=2 * 10**9):
    """What GET /solve/NAME answers for a table neither there nor asked for: the estimate, before any click."""
    estimate = estimate_of(name)
    return {"name": name, "state": "absent", "done": 0, "total": 0, "size": estimate.size,
            "memory": estimate.memory, "seconds": round(estimate.seconds, 1), "words": estimate.words(),
            "limit": limit}


def cli(*args, env=None):
    return subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, **(env or {})})


# -- /games.json ----------------------------------------------------------------------------------


def test_games_json_is_the_registry_s_list_with_each_package_s_words():
    from shutthebox import registry

    expected = []
    for game in registry.declarations():
        module = game.page if game.page and game.page.endswith(".js") else None
        page = "games.html?game=" + game.id if module else game.page
        own = {"module": module} if module else {}  # the games page's module, and a family game's rules
        if module and hasattr(game.hooks, "page_data"):
            own["family"] = game.hooks.page_data()
        expected.append({"id": game.id, "title": game.title, "about": game.about, "page": page, **own})
    assert [game["id"] for game in expected] == list(registry.GAMES)
    assert expected[0]["page"] == "index.html"
    with running_server() as (url, proc):
        status, headers, games = call(url + "games.json")
        assert status == 200 and headers["Content-Type"] == "application/json"
        assert games == {"games": expected, "solving": True}  # a static copy (serve --export) says False
        for game in games["games"]:
            assert game["title"] and game["about"] and "\n" not in game["about"], game
            if game["page"] is not None:  # every page is a file the server serves
                assert os.path.isfile(os.path.join(STATIC, game["page"].split("?")[0])), game
                assert call(url + game["page"])[0] == 200, game
        again = call(url + "games.json", headers={"If-None-Match": headers["ETag"]})
        assert again[0] == 304 and again[1]["ETag"] == headers["ETag"]
        assert call(url + "games.json")[2] == games  # the same bytes each time


def test_game_packages_import_no_build_code():
    code = ("import sys, shutthebox.registry as r; [__import__(p) for p in r.GAMES.values()]; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('shutthebox') "
            "and not hasattr(sys.modules[m], '__path__'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    modules = done.stdout.split()
    assert "shutthebox.games.goat" not in modules and "shutthebox.registry" in modules  # packages left out
    # packages only (a game's, a family engine's): no table, build or solver module
    assert not [m for m in modules if m.count(".") >= 3], modules


# -- table names -> what to solve --------------------------------------------------------------------


def test_table_names_round_trip_through_each_game_s_rules():
    from shutthebox import registry
    from shutthebox.games.goat.rules import Rules as GoatRules
    from shutthebox.games.shutthebox.rules import Rules
    from shutthebox.games.shutthebox.table import rules_of_name, table_name
    from shutthebox.games.toggle.rules import Rules as ToggleRules

    for rules in (Rules(), Rules(tiles=12), Rules(tiles=5, dice=1, one_die_at_most=None), Rules(one_die_at_most=None),
                  Rules(one_die_optional=True), Rules(one_die_at_most=None, one_die_high_shut=True),
                  Rules(one_die_at_most=8, one_die_high_shut=True, one_die_optional=True, max_move_tiles=2),
                  Rules(tiles=10, sides=20, dice=4, one_die_at_most=0), Rules(tiles=3, max_move_tiles=3)):
        for players in (2, 3, 8):
            assert rules_of_name(table_name(rules, players)) == (rules, players), (rules, players)
    assert rules_of_name("goat-g20.msgpack") is None and rules_of_name("standard.msgpack") == (Rules(), 2)
    goat_game, toggle_game = registry.declaration("goat"), registry.declaration("toggle")
    for goal in (2, 20, 150):
        assert goat_game.opener(goat_game.tables[0].name(GoatRules(goal))) is not None
    for cards, sides in ((1, 2), (5, 3), (16, 8), (12, 6)):
        assert toggle_game.opener(toggle_game.tables[0].name(ToggleRules(cards, sides))) is not None
    assert goat_game.opener("toggle-c5-s3.msgpack") is None and toggle_game.opener("goat-g20.msgpack") is None


def test_progress_observers_see_every_update_and_the_terminal_is_unchanged():
    from shutthebox.engine.progress import Progress, observed

    seen, stream = [], io.StringIO()
    with observed(lambda done, total: seen.append((done, total))):
        with Progress(10, "solving", stream=stream, enabled=False) as bar:
            for done in range(11):
                bar.update(done)
    with Progress(3, stream=stream, enabled=False) as bar:  # outside: nobody told
        bar.update(1)
    assert seen == [(done, 10) for done in range(11)] and stream.getvalue() == ""


# -- solving on first use ------------------------------------------------------------------------------


def _api_tables(name, cache, monkeypatch):
    """(the served bytes read by the Python reader, the Python API's own table solved in ``cache``)."""
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(cache))
    if name.startswith("t5"):
        from shutthebox.games.shutthebox.rules import Rules
        from shutthebox.games.shutthebox.table import load

        return (lambda path: load(path)), load(rules=Rules(tiles=5), players=3, progress=False)
    if name.startswith("goat"):
        from shutthebox.games.goat.rules import Rules
        from shutthebox.games.goat.table import load

        return (lambda path: load(Rules(20), path)), load(Rules(20))
    from shutthebox.games.toggle.rules import Rules
    from shutthebox.games.toggle.table import load

    return (lambda path: load(Rules(5, 3), path)), load(Rules(5, 3))


def _answers(name, table):
    if name.startswith("t5"):
        return [(table.expect(position, scores), table.get_move(position, roll, scores))
                for position in ("12345", "1245", "35", "5") for scores in ((), (3,), (4, 7))
                for roll in (2, 5, 7, 9, 12)]
    if name.startswith("goat"):
        return [(table.probe_solo(score), table.get_win(player, score, opp), table.get_move(player, score, opp, 0, 0))
                for score in (0, 7, 19) for opp in (0, 12, 19) for player in (1, 2)]
    return [(table.probe_expect(state), table.get_flip(state, x, y))
            for state in ("all", "1,3,5", "2", "4,5") for x in (1, 2, 3) for y in (1, 3)]


@pytest.mark.parametrize("name", ["t5-2d6-one6-p3.msgpack", pytest.param("goat-g20.msgpack", marks=pytest.mark.slow),
                                  "toggle-c5-s3.msgpack"])
def test_a_missing_table_is_solved_on_first_use_and_served(name, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        assert call(url + name)[0] == 404  # not there yet (and this 404 must not be remembered)
        status, _, answer = call(url + "solve/" + name)
        assert status == 200 and answer == absent(name), answer  # expected, not an error: no 404
        seen = solve(url, name)
        assert seen[0]["state"] in ("queued", "solving") and seen[-1]["state"] == "ready", seen
        status, headers, served = call(url + name)
        assert status == 200 and headers["Content-Type"] == "application/vnd.msgpack"
        assert served == (cache / name).read_bytes()
        final = call(url + "solve/" + name)[2]
        if name.startswith("t5"):  # Shut the Box's solver reports its progress: all done
            assert final["state"] == "ready" and final["done"] == final["total"] > 0, final
        else:  # these solvers report none: the page shows "Solving..."
            assert all(answer["done"] == answer["total"] == 0 for answer in seen + [final])
        again = call(url + "solve/" + name, "POST", SOLVE)  # there now: nothing to do
        assert again[0] == 200 and again[2]["state"] == "ready"
    assert proc.stderr_text.count(" 404 ") == 1, proc.stderr_text  # the table asked before: nothing else failed
    # The served bytes, read by the Python reader, answer as the Python API's own table solved apart.
    served_path = tmp_path / name
    served_path.write_bytes(served)
    open_served, own = _api_tables(name, tmp_path / "own", monkeypatch)
    assert _answers(name, open_served(str(served_path))) == _answers(name, own)
    assert served == (tmp_path / "own" / name).read_bytes()  # deterministic: the very same bytes


def test_refused_names_say_why_in_the_command_line_s_words(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    refusals = {
        "t13-2d6-one6-p2.msgpack": ("--tiles", "13", "--one", "--expect", "1"),
        "t9-2d6-one6-p9.msgpack": ("--players", "9", "--scores", "1", "--expect", "1"),
        "goat-g151.msgpack": ("goat", "--goal", "151", "--solo", "--expect", "0"),
        "toggle-c13-s6.msgpack": ("toggle", "--cards", "13", "--sides", "6", "--expect", "all"),
    }
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        for name, args in refusals.items():
            said = cli(*args).stderr.strip().removeprefix("ShutTheBox: ")
            assert said
            for method, headers in (("POST", SOLVE), ("GET", None)):
                status, _, answer = call(url + "solve/" + name, method, headers)
                assert status == 400 and answer["state"] == "failed", (name, answer)
                assert answer["error"] == "%s: %s" % (name, said), answer
        for name, words in (("standard-x.msgpack", "not the name of a table of any game"),
                            ("t9-2d6-one6-p2.msgpack", "the table of these rules is standard.msgpack"),
                            ("goat-g020.msgpack", "the table of these rules is goat-g20.msgpack"),
                            ("solo-other.msgpack", "not the name of a table of any game"),
                            ("solo-t13-2d6-one6.msgpack", "--tiles must be a whole number from 1 to 12, not '13'")):
            status, _, answer = call(url + "solve/" + name, "POST", SOLVE)
            assert status in (400, 404) and answer["state"] == "failed" and words in answer["error"], answer
        for path in ("../standard.msgpack", "%2e%2e%2fstandard.msgpack", "a/b.msgpack", "X.msgpack", "toggle",
                     ".msgpack", "", "t5-2d6-one6-p3.msgpack/"):
            status, _, answer = call(url + "solve/" + path, "POST", SOLVE)
            assert status == 400 and "never a path" in answer["error"], (path, answer)
        status, _, answer = call(url + "standard.msgpack", "POST", SOLVE)
        assert status == 405 and answer["state"] == "failed"
        assert call(url + "solve/yazy.msgpack", "POST", SOLVE)[2]["state"] == "ready"  # shipped
        assert os.listdir(cache) == []  # nothing solved
        assert call(url)[0] == 200


def test_only_the_page_itself_can_start_a_solve(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    name = "toggle-c5-s3.msgpack"
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        port = url.split(":")[2].strip("/")
        for headers in ({},  # no X-ShutTheBox header: a plain form or a cross-site fetch
                        {"X-ShutTheBox": "yes"},
                        {**SOLVE, "Origin": "http://evil.example"},
                        {**SOLVE, "Origin": "null"},
                        {**SOLVE, "Origin": "http://127.0.0.1:%d" % (int(port) + 1)},
                        {**SOLVE, "Host": "evil.example:%s" % port},  # DNS rebinding: another name for this machine
                        {**SOLVE, "Host": "evil.example:%s" % port, "Origin": "http://evil.example:%s" % port}):
            status, _, answer = call(url + "solve/" + name, "POST", headers)
            assert status == 403 and answer["state"] == "failed" and "solve" in answer["error"], (headers, answer)
        assert call(url + "solve/" + name, "GET", SOLVE)[2]["state"] == "absent"  # a GET never starts one
        assert os.listdir(cache) == []
        own = {**SOLVE, "Origin": "http://127.0.0.1:%s" % port}
        status, _, answer = call(url + "solve/" + name, "POST", own)
        assert status in (200, 202) and answer["state"] in ("queued", "solving", "ready"), answer
        localhost = {**SOLVE, "Host": "localhost:%s" % port, "Origin": "http://localhost:%s" % port}
        assert call(url + "solve/goat-g20.msgpack", "POST", localhost)[0] in (200, 202)


def test_beyond_the_queue_the_answer_is_busy(tmp_path):
    from shutthebox.web.solving import WAITING

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    # Large tables under the memory limit (each takes seconds): the first is being solved while the others wait.
    names = ["t12-2d6-one6-p3.msgpack", "t12-2d6-one6-p4.msgpack", "t11-2d6-one6-p3.msgpack",
             "t11-2d6-one6-p4.msgpack", "t11-2d6-one6-p5.msgpack", "t10-2d6-one6-p3.msgpack"][: WAITING + 2]
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        answers = [call(url + "solve/" + name, "POST", SOLVE) for name in names]
        shown = [(status, body) for status, _, body in answers] + [call(url + "solve/" + names[0])[2]]
        assert [status for status, _, _ in answers[:WAITING]] == [202] * WAITING, shown
        assert answers[-1][0] == 503 and answers[-1][1]["Retry-After"] == "1", shown
        assert answers[-1][2]["state"] == "failed" and answers[-1][2]["error"].startswith("busy"), answers[-1]
        status, _, answer = call(url + "solve/" + names[1])  # queued ones say so
        assert status == 200 and answer["state"] in ("queued", "solving"), answer
        again = call(url + "solve/" + names[0], "POST", SOLVE)  # asked twice: still one solve
        assert again[0] == 200 and again[2]["state"] in ("solving", "ready"), again
        assert call(url + "games.json")[0] == 200  # the request threads never wait for a solve


@pytest.mark.slow
def test_a_failed_solve_is_a_message_and_the_server_goes_on(tmp_path):
    cache = tmp_path / "not-a-folder"
    cache.write_text("a file where the cache folder should be\n")
    env = {"SHUTTHEBOX_CACHE": str(cache)}
    name = "toggle-c5-s3.msgpack"
    said = cli("toggle", "--cards", "5", "--sides", "3", "--expect", "all", env=env)
    assert said.returncode == 3
    with running_server(env=env) as (url, proc):
        seen = solve(url, name)
        assert seen[-1]["state"] == "failed" and seen[-1]["error"] == said.stderr.strip().removeprefix("ShutTheBox: ")
        assert call(url + "solve/" + name)[2] == seen[-1]  # remembered for the page
        assert call(url + name)[0] == 404
        assert call(url)[0] == 200 and call(url + "games.json")[0] == 200
        assert solve(url, name)[-1]["state"] == "failed"  # asked again: tried again
        assert solve(url, "goat-g20.msgpack")[-1]["state"] == "failed"  # the worker goes on
    assert proc.stderr_text.count("cannot solve table") == 3, proc.stderr_text  # refused before each solve


# -- the page's client, solve.js, in chromium -------------------------------------------------------------

SOLVE_JS = """async ([name, refused]) => {
  const {solveTable} = await import('/solve.js');
  const seen = [];
  const ready = await solveTable(name, (progress) => seen.push(progress), {interval: 50});
  let error = null;
  try { await solveTable(refused, () => {}); } catch (e) { error = [e.name, e.message]; }
  return {seen, ready, error, status: (await fetch('/' + name)).status};
}"""


def test_solve_js_solves_follows_and_explains(tmp_path, browser):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    name = "t6-2d6-one6-p4.msgpack"
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        page = browser.new_page()
        page.goto(url + "games.html")
        got = page.evaluate(SOLVE_JS, [name, "t13-2d6-one6-p2.msgpack"])
        assert got["ready"]["state"] == "ready" and got["status"] == 200, got
        assert got["seen"][-1]["state"] == "ready" and got["seen"][-1]["done"] == got["seen"][-1]["total"] > 0
        assert all(0 <= p["done"] <= p["total"] for p in got["seen"]), got["seen"]
        assert got["error"] == ["TableError", "t13-2d6-one6-p2.msgpack: --tiles must be a whole number from 1 "
                                "to 12, not '13'"], got["error"]
        assert (cache / name).exists()
        page.close()
    # Under a plain static server there is no /solve/: the message says what to run.
    plain = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", STATIC],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(plain.stdout.readline().split(" port ")[1].split()[0])
        page = browser.new_page()
        page.goto("http://127.0.0.1:%d/games.html" % port)
        error = page.evaluate("""async () => {
          const {solveTable} = await import('/solve.js');
          try { await solveTable('goat-g50.msgpack', () => {}, {command: 'ShutTheBox goat --goal 50 --rules'}); }
          catch (e) { return [e.name, e.message]; }
        }""")
        assert error[0] == "TableError" and "run `ShutTheBox serve`" in error[1], error
        assert "`ShutTheBox goat --goal 50 --rules`" in error[1], error
        page.close()
    finally:
        plain.terminate()
        plain.wait(timeout=10)
        plain.stdout.close()


# -- solve.js: no failed request for an expected absence; "waiting" only behind another solve ---------------

# Every text the progress line shows, kept from the page's first moment; Solve clicked when asked.
WATCH_SOLVE = """
window.__texts = [];
new MutationObserver(() => {
  document.getElementById('solve-start')?.click();
  const text = document.getElementById('solve-text');
  if (text && text.textContent && !document.getElementById('solve-status').hidden) window.__texts.push(text.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def _watched_page(browser, errors):
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(WATCH_SOLVE)
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page


def test_a_first_use_solve_logs_no_console_error_and_waits_for_no_one(tmp_path, browser):
    """Asking whether a table is there is no failed request (GET /solve/NAME answers 200, "absent"); and
    with nothing else solving, the page never says it waits for another solve (the POST's answer is
    "queued" with nothing ahead)."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    errors = []
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        context, page = _watched_page(browser, errors)
        try:
            page.goto(url + "?mode=coach&tiles=5&players=3")
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=DEADLINE * 1000)
            assert page.evaluate("window.shutTheBox.tableName()") == "t5-2d6-one6-p3.msgpack"
            texts = page.evaluate("window.__texts")
            assert any(text.startswith("Solving t5-2d6-one6-p3.msgpack") for text in texts), texts
            assert not any("waiting for another solve" in text for text in texts), texts
            page.goto(url + "games.html?game=toggle&cards=5&sides=3")
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=DEADLINE * 1000)
            assert (cache / "toggle-c5-s3.msgpack").exists()
        finally:
            context.close()
    assert errors == [], errors
    assert " 404 " not in proc.stderr_text, proc.stderr_text


def test_a_queued_solve_says_how_many_solves_are_ahead(tmp_path):
    from shutthebox.web.solving import Solves

    class Nothing:
        def path(self, url):
            return None

        def damaged(self, url):
            return None

    cost = type("Cost", (), {"size": 1, "memory": 1, "seconds": 1.0, "words": lambda self: "tiny"})
    waits = "import sys; sys.stdin.read()"  # a solve that goes on until stopped
    solves = Solves(Nothing(), command=[sys.executable, "-c", waits], find=lambda name: (True, cost(), True))
    try:
        status, first = solves.start("a.msgpack")
        assert status == 202 and first["state"] == "queued" and first["ahead"] == 0, first  # it starts at once
        deadline = time.monotonic() + DEADLINE
        while solves.status("a.msgpack")[1]["state"] != "solving":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert "ahead" not in solves.status("a.msgpack")[1]
        assert solves.start("b.msgpack")[1]["ahead"] == 1
        assert solves.start("c.msgpack")[1]["ahead"] == 2
        assert solves.status("b.msgpack")[1]["ahead"] == 1 and solves.status("c.msgpack")[1]["ahead"] == 2
        solves.cancel("b.msgpack")
        assert solves.status("c.msgpack")[1]["ahead"] == 1
    finally:
        solves.close()


@pytest.mark.slow
def test_waiting_for_another_solve_is_said_while_another_solve_is_ahead(tmp_path, browser):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    big = "t11-2d6-one6-p4.msgpack"  # seconds to solve: ahead of the page's while the page asks
    errors = []
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        assert call(url + "solve/" + big, "POST", SOLVE)[0] == 202
        context, page = _watched_page(browser, errors)
        try:
            page.goto(url + "?mode=coach&tiles=5&players=3")
            page.wait_for_function("window.__texts.some((text) => text.includes('waiting for another solve'))",
                                   timeout=DEADLINE * 1000)
            assert call(url + "solve/t5-2d6-one6-p3.msgpack")[2]["ahead"] == 1
            assert call(url + "solve/" + big, "DELETE", SOLVE)[2]["state"] == "cancelled"
            page.wait_for_function("document.body.dataset.state === 'ready'", timeout=DEADLINE * 1000)
            assert page.evaluate("window.shutTheBox.tableName()") == "t5-2d6-one6-p3.msgpack"
        finally:
            context.close()
    assert errors == [], errors
