"""``ShutTheBox serve``: serves the page and the very table bytes on 127.0.0.1;
mistakes on its command line are one line on stderr and exit status 2."""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = [sys.executable, os.path.join(ROOT, "ShutTheBox")]
TABLE = os.path.join(ROOT, "data", "standard.msgpack")


SOLO = {variant: os.path.join(ROOT, "data", "solo-%s.msgpack" % variant)
        for variant in ("standard", "two-dice", "two-tiles")}


@contextlib.contextmanager
def running_server(*args, timeout=15.0, command=None):
    """Start ``ShutTheBox serve --port 0 ARGS`` and yield its base URL; always stopped."""
    proc = subprocess.Popen((command or COMMAND + ["serve"]) + ["--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        line = ""
        while not line and time.monotonic() < deadline:
            if selector.select(timeout=max(0.0, deadline - time.monotonic())):
                line = proc.stdout.readline()
                if not line:
                    break
        selector.close()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            proc.kill()
            raise AssertionError("serve did not print its address in %.0f s: %r %r"
                                 % (timeout, line, proc.stderr.read()))
        yield found.group(0), proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        proc.stderr_text = proc.stderr.read()
        for stream in (proc.stdout, proc.stderr):
            stream.close()


def get(url, method="GET"):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def run(*args, timeout=20):
    return subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def test_serves_the_page_and_the_very_table_bytes():
    with running_server() as (url, proc):
        status, headers, body = get(url)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b"Shut the Box" in body and b"vendor/msgpack.min.js" in body
        for name in ("app.js", "table.js", "style.css", "vendor/msgpack.min.js", "vendor/msgpack.LICENSE.txt"):
            status, headers, body = get(url + name)
            assert status == 200 and body, name
        assert get(url + "app.js")[1]["Content-Type"].startswith("text/javascript")
        status, headers, body = get(url + "standard.msgpack?x=1")
        assert status == 200
        assert body == open(TABLE, "rb").read()  # unconverted
        status, headers, body = get(url + "standard.msgpack", method="HEAD")
        assert status == 200 and body == b"" and int(headers["Content-Length"]) == os.path.getsize(TABLE)


def test_serves_the_solo_tables_where_the_python_api_finds_them():
    import shutthebox

    with running_server() as (url, proc):
        for variant, path in SOLO.items():
            assert shutthebox.load_solo(variant).path == path
            status, headers, body = get(url + "solo-%s.msgpack" % variant)
            assert status == 200 and headers["Content-Type"] == "application/vnd.msgpack"
            assert body == open(path, "rb").read()  # unconverted
        assert get(url + "solo-other.msgpack")[0] == 404
    assert "warning" not in proc.stderr_text


def test_missing_solo_tables_are_a_warning_and_404(tmp_path):
    # The Python API's data folders, emptied: the two-player table is given, the solo ones are missing.
    code = ("import os, sys, shutthebox.engine.store as store; store.SEARCH_PATH = (sys.argv[1],); "
            "os.environ['SHUTTHEBOX_CACHE'] = sys.argv[1]; "
            "from shutthebox.web.server import main; sys.exit(main(sys.argv[2:]))")
    with running_server("--table", TABLE, command=[sys.executable, "-c", code, str(tmp_path)]) as (url, proc):
        assert get(url + "standard.msgpack")[0] == 200
        status, headers, body = get(url + "solo-two-dice.msgpack")
        assert status == 404 and b"the table file is not here" in body
    assert proc.stderr_text.count("warning: no table file solo-") == 3, proc.stderr_text


def test_damaged_solo_tables_are_a_warning_and_served_all_the_same(tmp_path):
    # The Python API's data folders: copies of the solo tables, one with a flipped bit in an array
    # (its header is sound, so the Python reader opens it; every byte is checked at start).
    for variant, path in SOLO.items():
        data = bytearray(open(path, "rb").read())
        if variant == "two-dice":
            data[len(data) // 2] ^= 0x08
        (tmp_path / os.path.basename(path)).write_bytes(bytes(data))
    damaged = tmp_path / "solo-two-dice.msgpack"
    code = ("import os, sys, shutthebox.engine.store as store; store.SEARCH_PATH = (sys.argv[1],); "
            "os.environ['SHUTTHEBOX_CACHE'] = sys.argv[1]; "
            "from shutthebox.web.server import main; sys.exit(main(sys.argv[2:]))")
    with running_server("--table", TABLE, command=[sys.executable, "-c", code, str(tmp_path)]) as (url, proc):
        status, headers, body = get(url + "solo-two-dice.msgpack")
        assert status == 200 and body == damaged.read_bytes()  # the page says why it refuses it
        assert get(url + "solo-two-tiles.msgpack")[0] == 200
    assert proc.stderr_text.count("warning") == 1, proc.stderr_text
    assert "warning: table file %s is damaged (checksum mismatch)" % damaged in proc.stderr_text


def test_serves_nothing_but_the_page():
    with running_server() as (url, proc):
        for path in ("nothing.html", "../pyproject.toml", "%2e%2e/serve.py", "serve.py", "web/index.html"):
            assert get(url + path)[0] == 404, path


def test_serves_another_table_and_warns_when_it_is_damaged(tmp_path):
    damaged = tmp_path / "damaged.msgpack"
    data = bytearray(open(TABLE, "rb").read())
    data[1000] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with running_server("--table", str(damaged)) as (url, proc):
        assert get(url + "standard.msgpack")[2] == bytes(data)  # the page says why it refuses it
    assert "warning: table file %s is damaged (checksum mismatch)" % damaged in proc.stderr_text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--port", "abc"], "--port must be a whole number"),
        (["--port", "70000"], "--port must be a whole number"),
        (["--port"], "--port needs a value"),
        (["--bogus"], "unknown argument '--bogus'"),
        (["extra"], "unknown argument 'extra'"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args, message):
    done = run("serve", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stderr.startswith("ShutTheBox serve: ") and "Traceback" not in done.stderr


def test_port_in_use_is_one_line_and_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run("serve", "--port", str(port))
    assert done.returncode == 2
    assert done.stderr == "ShutTheBox serve: port %d on 127.0.0.1 is in use; choose another with --port " \
        "(0 picks a free one)\n" % port


def test_missing_table_exit_3(tmp_path):
    done = run("serve", "--port", "0", "--table", str(tmp_path / "none.msgpack"))
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr


def test_help():
    done = run("serve", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: ShutTheBox serve")
    assert "ShutTheBox serve" in run("--help").stdout


def test_serves_a_table_damaged_in_its_last_array_with_a_warning(tmp_path):
    damaged = tmp_path / "damaged.msgpack"
    data = bytearray(open(TABLE, "rb").read())
    data[-20] ^= 0x01  # m2's last bytes: the header is sound, the Python reader opens the file
    damaged.write_bytes(bytes(data))
    with running_server("--table", str(damaged)) as (url, proc):
        assert get(url + "standard.msgpack")[2] == bytes(data)
    assert "warning: table file %s is damaged (checksum mismatch)" % damaged in proc.stderr_text


def test_the_server_checks_tables_without_numpy_msgpack_or_build_time_code():
    """Starting the server reads and checks every table with the query-time reader only."""
    code = (
        "import json, sys; from shutthebox.web import server; "
        "server._warn_if_damaged(server.find_table_path(None)); routes = server.find_solo_tables(); "
        "server.make_handler(server.static_files(), server.find_table_path(None), routes); "
        "print(json.dumps([sorted(routes.values()), sorted(sys.modules)]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    routes, modules = json.loads(done.stdout)
    assert routes == sorted(SOLO.values())
    heavy = [m for m in modules if m.split(".")[0] in ("numpy", "msgpack")
             or m in ("shutthebox.engine.writer", "shutthebox.engine.progress")
             or m.startswith("shutthebox.games.") and m.rsplit(".", 1)[-1] in ("build", "solver")]
    assert heavy == [], heavy
    assert "shutthebox.engine.reader" in modules  # the tables were read


def test_query_path_does_not_import_the_server():
    code = (
        "import sys; from shutthebox.cli import main; main(['--one', '--expect', '123456789']); "
        "print(sorted(m for m in ('shutthebox.web', 'shutthebox.web.server', 'http.server', 'socketserver') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["0.502810", "[]"]
