"""``ShutTheBox serve --export DIR``: the pages, games.json and the shipped tables as a static site, served
by a plain ``python -m http.server``: Shut the Box played to the end, a Coach question of the games page,
and rules whose table is not exported saying that solving is unavailable there; the folders it refuses,
and a failed export leaving no half file under a final name."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from rangeserver import serving as ranged_server
from serving import COMMAND, ROOT, TABLE, page_opener, screenshot

STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
DATA = os.path.join(ROOT, "data")


def export(folder, *args, preexec_fn=None):
    return subprocess.run(COMMAND + ["serve", "--export", str(folder), *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, preexec_fn=preexec_fn)


def page_files():
    """Every file of static/, relative to it."""
    found = set()
    for base, _, names in os.walk(STATIC):
        found.update(os.path.relpath(os.path.join(base, name), STATIC) for name in names)
    return found


def page_bytes(name):
    """A page file as the export writes it: its bytes, sw.js with its version and files filled in."""
    from shutthebox.web.tables import static_files
    from shutthebox.web.worker import WORKER, render

    if name == WORKER:
        return render(static_files())
    with open(os.path.join(STATIC, name), "rb") as handle:
        return handle.read()


def shipped_tables():
    """The registry's shipped tables, by the names serve serves them under (from the build modules)."""
    import build_tables

    return set(build_tables.shipped())


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site") / "copy"
    done = export(folder)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return folder, done


@contextlib.contextmanager
def static_server(folder):
    """``python -m http.server`` on 127.0.0.1 and a free port, serving ``folder``: its base URL."""
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(proc.stdout.readline().split(" port ")[1].split()[0])
        base = "http://127.0.0.1:%d/" % port
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "games.json", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


# -- what is written ------------------------------------------------------------------------------------


def test_the_export_is_the_pages_games_json_and_the_shipped_tables(exported):
    from shutthebox.web.tables import games_list

    folder, done = exported
    said = done.stdout.splitlines()
    assert "MB" in said[0] and "writing" in said[0] and str(folder) in said[0], said  # the size, before writing
    assert "wrote" in said[-1] and "solving is unavailable" in said[-1], said
    assert "answers HTTP ranges" in said[-1] and "not python3 -m http.server" in said[-1], said  # where to put it
    games = json.loads((folder / "games.json").read_text())
    assert games["solving"] is False
    assert games["games"] == games_list()["games"]  # as the server makes it
    assert set(games["tables"]) == shipped_tables() and games["tables"] == sorted(games["tables"])
    written = {os.path.relpath(os.path.join(base, name), folder) for base, _, names in os.walk(folder) for name in names}
    assert written == page_files() | set(games["tables"]) | {"games.json"}
    for name in page_files():
        assert (folder / name).read_bytes() == page_bytes(name), name
    for name in games["tables"]:
        source = TABLE if name == "standard.msgpack" else os.path.join(DATA, name)
        assert (folder / name).read_bytes() == open(source, "rb").read(), name
        assert (folder / name).stat().st_mode & 0o444 == 0o444, name  # a web host may read it


def test_an_earlier_export_is_exported_again_keeping_the_host_s_own_files(tmp_path):
    folder = tmp_path / "site"
    assert export(folder).returncode == 0
    (folder / "CNAME").write_text("example.org\n")  # the host's own file: kept
    games = json.loads((folder / "games.json").read_text())
    games["tables"].append("t5-2d6-one6-p3.msgpack")  # a table an older export had
    (folder / "games.json").write_text(json.dumps(games))
    (folder / "t5-2d6-one6-p3.msgpack").write_bytes(b"old")
    (folder / "app.js").write_text("changed")
    done = export(folder)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert (folder / "CNAME").read_text() == "example.org\n"
    assert not (folder / "t5-2d6-one6-p3.msgpack").exists()
    assert (folder / "app.js").read_bytes() == open(os.path.join(STATIC, "app.js"), "rb").read()
    assert "t5-2d6-one6-p3.msgpack" not in json.loads((folder / "games.json").read_text())["tables"]


def test_a_failed_export_leaves_no_half_file_under_a_final_name(tmp_path):
    """Files above 5 MB cannot be written (RLIMIT_FSIZE: the write fails as on a full disk): the export
    stops with one line, and every file under its final name is whole."""
    import resource

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG) rather than killing the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (5 * 10**6, 5 * 10**6))

    folder = tmp_path / "site"
    done = export(folder, preexec_fn=small_files)
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr and "cannot write" in lines[0], done.stderr
    written = [os.path.join(base, name) for base, _, names in os.walk(folder) for name in names]
    assert not [path for path in written if path.endswith(".part")], written
    for path in written:
        name = os.path.relpath(path, folder)
        if name.endswith(".msgpack"):
            source = open(TABLE if name == "standard.msgpack" else os.path.join(DATA, name), "rb").read()
        else:
            source = None if name == "games.json" else page_bytes(name)
        if source is not None:
            assert open(path, "rb").read() == source, name  # whole, or not there
    assert not any(os.path.getsize(os.path.join(DATA, name)) > 5 * 10**6 and (folder / name).exists()
                   for name in os.listdir(DATA)), written
    assert export(folder).returncode == 0  # run again: an earlier export, completed


# -- refusals: one line, exit status 2, nothing written -----------------------------------------------------


def _not_empty(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    return tmp_path / "mine", "is not empty and holds no earlier export"


def _a_file(tmp_path):
    (tmp_path / "file").write_text("a file")
    return tmp_path / "file", "not a folder"


def _under_a_file(tmp_path):
    (tmp_path / "file").write_text("a file")
    return tmp_path / "file" / "site", "cannot write there"


def _unwritable(tmp_path):
    if os.geteuid() != 0:
        (tmp_path / "locked").mkdir(mode=0o555)
        return tmp_path / "locked" / "site", "cannot write there"
    if not os.path.isdir("/sys/kernel") or os.path.exists("/sys/kernel/shutthebox-site"):
        pytest.skip("no folder that root cannot write here")
    return "/sys/kernel/shutthebox-site", "cannot write there"  # sysfs: no new folder, even for root


def _inside_the_pages(tmp_path):
    return os.path.join(STATIC, "shutthebox-test-copy"), "inside the pages' own folder"


@pytest.mark.parametrize("where", [_not_empty, _a_file, _under_a_file, _unwritable, _inside_the_pages])
def test_folders_that_cannot_take_the_export_are_refused(tmp_path, where):
    folder, words = where(tmp_path)
    before = sorted(os.listdir(tmp_path))
    done = export(folder)
    assert done.returncode == 2 and not done.stdout, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("ShutTheBox serve: --export %s" % folder), lines
    assert sorted(os.listdir(tmp_path)) == before and not os.path.exists(_inside_the_pages(tmp_path)[0])  # nothing made


@pytest.mark.parametrize("args, words", [
    (["--port", "0"], "--port makes no sense with it"),
    (["--host", "0.0.0.0"], "--host makes no sense with it"),
    (["--solve-limit", "5GB"], "--solve-limit makes no sense with it"),
    (["--allow-remote-solves", "--port", "9"], "--allow-remote-solves and --port make no sense with it"),
])
def test_options_of_a_server_are_refused_with_export(tmp_path, args, words):
    done = export(tmp_path / "site", *args)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.splitlines() == ["ShutTheBox serve: --export writes a static copy and starts no server: "
                                        + words], done.stderr
    assert not (tmp_path / "site").exists()


def test_export_needs_a_folder_and_takes_a_table(tmp_path):
    done = subprocess.run(COMMAND + ["serve", "--export="], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and done.stderr == "ShutTheBox serve: --export needs a folder to write the static " \
                                                   "copy into\n", done.stderr
    other = os.path.join(DATA, "t10-2d6-one6-p2.msgpack")
    done = export(tmp_path / "site", "--table", other)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "standard.msgpack").read_bytes() == open(other, "rb").read()
    done = export(tmp_path / "other", "--table", os.path.join(DATA, "yazy.msgpack"))  # not a two-player table
    assert done.returncode == 3 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "other").exists()


def test_help_says_what_export_does():
    done = subprocess.run(COMMAND + ["serve", "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and "--export DIR" in done.stdout and "static" in done.stdout


# -- in the browser, from a plain static server -------------------------------------------------------------


def play_to_the_end(page, table):
    """Click the human's side of a Play game to its end, always the table's move; the final state."""
    waited = ("n => window.shutTheBox.play.state().chances.length > n "
              "&& ['roll', 'move', 'over'].includes(document.body.dataset.play)")
    page.wait_for_function("['roll', 'move', 'over'].includes(document.body.dataset.play)")
    for _ in range(60):
        state = page.evaluate("window.shutTheBox.play.state()")
        if state["over"]:
            return state
        if state["awaiting"] == "roll":
            page.click("#roll")
        else:
            if state["player"] == 1:
                move = list(table.move_one(state["position"], state["roll"]))
            else:
                move = list(table.move_two(state["position"], state["score1"], state["roll"]))
            for tile in move:
                page.click("#play-tiles [data-tile='%d']" % tile)
            page.click("#confirm")
        page.wait_for_function(waited, arg=len(state["chances"]))
    raise AssertionError("the game did not end")


def test_the_static_copy_plays_coaches_and_says_solving_is_unavailable(browser, exported, table):
    from shutthebox.games.toggle.table import load as load_toggle

    folder, _ = exported
    with static_server(folder) as base, page_opener(browser, base) as open_page:
        errors = []
        page = open_page("index.html?mode=play&seed=12345&seat=1&anim=0")
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.reload()  # heard from its first moment
        page.wait_for_function("document.body.dataset.state === 'ready'")
        assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"
        state = play_to_the_end(page, table)
        assert state["over"] and state["result"] in (0, 0.5, 1) and state["lost"] == 0, state
        assert page.is_visible("#summary")
        assert page.evaluate("[...document.querySelectorAll('#games-nav a')].length") >= 1  # games.json read

        page.goto(base + "games.html?game=toggle")
        page.wait_for_function("document.body.dataset.state === 'ready'")
        for card in (2, 5, 9):  # cards 2, 5 and 9 face down: 1,3,4,6,7,8,10,11,12 up
            page.click("#toggle-cards-up [data-value='%d']" % card)
        page.fill("#toggle-x", "3")
        page.fill("#toggle-y", "5")
        up = [1, 3, 4, 6, 7, 8, 10, 11, 12]
        toggle = load_toggle()
        page.wait_for_function("document.querySelector('#toggle-answer .answer-move').dataset.answer")
        assert page.get_attribute("#toggle-answer .answer-value", "data-answer") == "%.6f" % toggle.probe_expect(up)
        assert page.get_attribute("#toggle-answer .answer-move", "data-answer") == str(toggle.probe_flip(up, 3, 5))
        assert errors == [], errors  # everything the pages asked for was there

        # Rules whose table is not exported: said plainly, with the command that solves it; no Solve button.
        page = open_page("index.html?mode=coach&tiles=5&players=3")
        text = page.inner_text("#link-problems")
        assert "t5-2d6-one6-p3.msgpack" in text and "solving is unavailable here" in text, text
        assert "`ShutTheBox --tiles 5 --players 3 --one --expect 12345`" in text and "`ShutTheBox serve`" in text, text
        assert page.locator("#solve-start").count() == 0 and page.is_hidden("#solve-status")
        assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"  # its own table kept
        screenshot(page, "export-unavailable.png")

        page = open_page("games.html?game=toggle&cards=5&sides=3", ready=False)
        page.wait_for_function("!document.getElementById('toggle-error').hidden")
        text = page.inner_text("#toggle-error")
        assert "toggle-c5-s3.msgpack" in text and "solving is unavailable here" in text, text
        assert "`ShutTheBox toggle --cards 5 --sides 3 --expect all`" in text and "`ShutTheBox serve`" in text, text
        assert page.locator("#solve-start").count() == 0


def test_the_static_copy_on_a_host_answering_ranges_reads_tables_by_ranges(browser, exported):
    """On a static host that answers ``Range`` (not ``python -m http.server``), the pages of the export read
    their tables by byte ranges, with no server logic, and answer."""
    folder, _ = exported
    with ranged_server(folder) as (base, _), page_opener(browser, base) as open_page:
        answers = []
        for link, table in (("index.html?mode=coach", "standard.msgpack"), ("games.html?game=goat", "goat-g100.msgpack"),
                            ("games.html?game=toggle", "toggle-c12-s6.msgpack")):
            page = open_page(link, ready=False)
            page.on("response", lambda response: answers.append((response.url.rsplit("/", 1)[-1], response.status)))
            answers.clear()
            page.reload()
            page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'loading'")
            assert page.evaluate("document.body.dataset.state") == "ready", page.inner_text("body")[:400]
            statuses = {status for name, status in answers if name == table}
            assert statuses == {206}, (link, answers)  # by ranges only, never the whole file
