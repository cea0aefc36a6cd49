"""``ShutTheBox serve``: serves the page and the very table bytes on 127.0.0.1;
mistakes on its command line are one line on stderr and exit status 2."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from serving import COMMAND, running_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "data", "standard.msgpack")


SOLO = {variant: os.path.join(ROOT, "data", "solo-%s.msgpack" % variant)
        for variant in ("standard", "two-dice", "two-tiles")}


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
        for name in ("app.js", "shutthebox/table.js", "lib/format.js", "solve.js", "style.css", "vendor/msgpack.min.js",
                     "vendor/msgpack.LICENSE.txt"):
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


# The server under load and abuse: escaped logs, only the registry's tables, validators and
# gzip, bounded threads, timeouts, quiet disconnects. Behaviour only, never timings.

SHORT = {"SHUTTHEBOX_SERVE_TIMEOUT": "1"}  # idle and half-sent connections are closed after 1 s
WORKERS = 16  # shutthebox.web.pool.THREADS
SERVE_WITH_DATA = ("import os, sys, shutthebox.engine.store as store; store.SEARCH_PATH = (sys.argv[1],); "
                   "os.environ['SHUTTHEBOX_CACHE'] = sys.argv[1]; "
                   "from shutthebox.web.server import main; sys.exit(main(sys.argv[2:]))")


def address(url):
    host, port = re.match(r"http://([^:/]+):(\d+)/", url).groups()
    return host, int(port)


def exchange(url, request: bytes, timeout=10.0) -> bytes:
    """Send raw bytes, return everything the server answers until it closes."""
    with socket.create_connection(address(url), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def fetch(url, path, headers=None, method="GET"):
    """(status, headers, body) by http.client, which never decompresses by itself."""
    import http.client

    connection = http.client.HTTPConnection(*address(url), timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def thread_count(proc) -> int:
    with open("/proc/%d/status" % proc.pid) as status:
        return int(re.search(r"^Threads:\s+(\d+)", status.read(), re.M).group(1))


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="counts threads in /proc")


def test_log_lines_escape_control_characters():
    with running_server() as (url, proc):
        answer = exchange(url, b"GET /\x1b[31mred\x07\x9b HTTP/1.0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 404 ")
        answer = exchange(url, b"BREW\x1b[2J / HTTP/1.0\r\n\r\n")  # an unknown method: logged by the standard library
        assert answer.startswith(b"HTTP/1.1 501 ")
    log = proc.stderr_text
    assert "GET /\\x1b[31mred\\x07\\x9b HTTP/1.0" in log and "BREW\\x1b[2J" in log, log
    assert not any(ord(c) < 0x20 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in log), repr(log)


def test_serves_only_the_tables_of_the_registry_games(tmp_path):
    from shutthebox.engine.writer import encode, pack_array

    # The data folder the Python API reads: a toggle table (a registry game), a sound table file of a game
    # the registry does not know, junk under a table's name, and a file that is no table at all.
    toggle = open(os.path.join(ROOT, "data", "toggle-c4-s2.msgpack"), "rb").read()
    (tmp_path / "toggle-c4-s2.msgpack").write_bytes(toggle)
    (tmp_path / "chess.msgpack").write_bytes(encode("chess", {}, {"x": pack_array([1], "<u2", (1,))},
                                                    generator="test"))
    (tmp_path / "notes.msgpack").write_bytes(b"not a table")
    (tmp_path / "notes.txt").write_bytes(b"hello")
    command = [sys.executable, "-c", SERVE_WITH_DATA, str(tmp_path)]
    with running_server("--table", TABLE, command=command) as (url, proc):
        status, headers, body = get(url + "toggle-c4-s2.msgpack")
        assert status == 200 and body == toggle and headers["Content-Type"] == "application/vnd.msgpack"
        for name in ("chess.msgpack", "notes.msgpack", "notes.txt", "yazy.msgpack", "standard.msgpack/x",
                     "..%2fdata%2fstandard.msgpack", "data/standard.msgpack", "pyproject.toml"):
            assert get(url + name)[0] == 404, name
        assert get(url + "standard.msgpack")[2] == open(TABLE, "rb").read()
    assert "Traceback" not in proc.stderr_text
    # --table names the two-player table, never any file: another game's table or a text file is refused.
    for path, message in ((SOLO["two-dice"], "holds a one-player table"),
                          (os.path.join(ROOT, "pyproject.toml"), "is not a ShutTheBox table (wrong magic)")):
        done = run("serve", "--port", "0", "--table", path)
        assert done.returncode == 3 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_validators_answer_304_and_gzip_is_the_very_bytes(tmp_path):
    import gzip

    table = tmp_path / "standard.msgpack"
    table.write_bytes(open(TABLE, "rb").read())
    with running_server("--table", str(table)) as (url, proc):
        status, plain, body = fetch(url, "/standard.msgpack")
        assert status == 200 and body == table.read_bytes() and "content-encoding" not in plain
        assert plain["etag"] and plain["last-modified"] and plain["vary"] == "Accept-Encoding"
        status, packed, body = fetch(url, "/standard.msgpack", {"Accept-Encoding": "br, gzip;q=0.8"})
        assert status == 200 and packed["content-encoding"] == "gzip"
        assert int(packed["content-length"]) == len(body) < 100_000
        assert gzip.decompress(body) == table.read_bytes()
        assert packed["etag"] != plain["etag"]  # two representations, two tags
        assert fetch(url, "/standard.msgpack", {"Accept-Encoding": "gzip"})[2] == body  # kept, the same bytes
        status, headers, head = fetch(url, "/standard.msgpack", {"Accept-Encoding": "gzip"}, method="HEAD")
        assert status == 200 and head == b"" and headers["content-length"] == packed["content-length"]
        assert fetch(url, "/standard.msgpack", {"Accept-Encoding": "gzip;q=0"})[2] == table.read_bytes()
        for tag in (plain["etag"], packed["etag"], "W/" + plain["etag"], '"other", ' + packed["etag"]):
            status, headers, body = fetch(url, "/standard.msgpack", {"If-None-Match": tag, "Accept-Encoding": "gzip"})
            assert status == 304 and body == b"" and headers["etag"] == packed["etag"], tag
        assert fetch(url, "/standard.msgpack", {"If-Modified-Since": plain["last-modified"]})[0] == 304
        assert fetch(url, "/standard.msgpack", {"If-None-Match": '"other"'})[0] == 200
        status, headers, body = fetch(url, "/app.js", {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert gzip.decompress(body) == open(os.path.join(ROOT, "shutthebox", "web", "static", "app.js"), "rb").read()
        # A changed file is a new version: a new tag, and the old tag no longer answers 304.
        info = table.stat()
        os.utime(table, ns=(info.st_atime_ns, info.st_mtime_ns + 10**9))
        status, headers, body = fetch(url, "/standard.msgpack", {"If-None-Match": plain["etag"]})
        assert status == 200 and headers["etag"] != plain["etag"] and body == table.read_bytes()
        status, headers, body = fetch(url, "/standard.msgpack", {"Accept-Encoding": "gzip"})
        assert headers["etag"] != packed["etag"] and gzip.decompress(body) == table.read_bytes()
    assert proc.stderr_text == ""


def test_large_files_and_ranges_are_sent_as_they_are():
    """A file over the gzip limit (here lowered to 100 kB) is sent as it is, to a client that accepts gzip too, and
    says no Vary: it has one representation; a smaller one is gzipped, with Vary. A range is never gzipped, and
    says no Vary either."""
    code = ("import sys, shutthebox.web.handler as handler; handler.GZIP_LIMIT = 100_000; "
            "from shutthebox.web.server import main; sys.exit(main(sys.argv[1:]))")
    with running_server("--table", TABLE, command=[sys.executable, "-c", code]) as (url, proc):
        status, headers, body = fetch(url, "/standard.msgpack", {"Accept-Encoding": "gzip"})
        assert status == 200 and "content-encoding" not in headers and "vary" not in headers
        assert body == open(TABLE, "rb").read()
        status, headers, body = fetch(url, "/app.js", {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
        status, headers, body = fetch(url, "/app.js", {"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
        assert status == 206 and len(body) == 100 and "content-encoding" not in headers and "vary" not in headers
    assert proc.stderr_text == ""


@pytest.mark.slow
@needs_proc
def test_half_sent_requests_hold_no_threads_and_time_out():
    with running_server(env=SHORT) as (url, proc):
        socks = []
        try:
            for n in range(300):  # from three loopback addresses: one address may hold PER_CLIENT connections
                source = ("127.0.0.%d" % (2 + n % 3), 0)
                sock = socket.create_connection(address(url), timeout=20, source_address=source)
                sock.sendall(b"GET /standard.msgpack HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
                socks.append(sock)
            assert thread_count(proc) <= WORKERS + 2
            # While all 300 are open, a whole request is answered.
            status, headers, body = fetch(url, "/app.js")
            assert status == 200 and body
            # Each half-sent connection is closed by the server without an answer.
            assert [sock.recv(100) for sock in socks] == [b""] * 300
            assert thread_count(proc) <= WORKERS + 2
        finally:
            for sock in socks:
                sock.close()
        assert fetch(url, "/")[0] == 200
    assert proc.stderr_text == ""


def test_a_client_leaving_mid_download_prints_nothing():
    with running_server() as (url, proc):
        for n in range(20):
            encoding = b"Accept-Encoding: gzip\r\n" if n % 2 else b""
            with socket.create_connection(address(url), timeout=10) as sock:
                sock.sendall(b"GET /goat-g100.msgpack HTTP/1.1\r\nHost: 127.0.0.1\r\n" + encoding + b"\r\n")
                assert sock.recv(1 << 16).startswith(b"HTTP/1.1 200 ")
                if n % 4 == 3:  # a reset rather than a close
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        assert fetch(url, "/standard.msgpack")[2] == open(TABLE, "rb").read()
    assert proc.stderr_text == ""


@pytest.mark.slow
@needs_proc
def test_slow_clients_disconnects_and_2000_parallel_requests():
    import gzip
    import threading

    static = os.path.join(ROOT, "shutthebox", "web", "static")
    expected = {"/": open(os.path.join(static, "index.html"), "rb").read(),
                "/app.js": open(os.path.join(static, "app.js"), "rb").read(),
                "/standard.msgpack": open(TABLE, "rb").read(),
                "/solo-two-dice.msgpack": open(SOLO["two-dice"], "rb").read()}
    paths = list(expected)
    results, problems, most_threads = [], [], [0]
    lock = threading.Lock()

    def note(problem):
        with lock:
            problems.append(problem)

    def client(n, url, tags):  # 50 requests each: plain, gzip and revalidations
        for i in range(50):
            path = paths[(n + i) % len(paths)]
            headers = {"Accept-Encoding": "gzip"} if i % 3 == 1 else {}
            if i % 3 == 2 and path in tags:
                headers["If-None-Match"] = tags[path]
            status, answer, body = fetch(url, path, headers)
            if answer.get("content-encoding") == "gzip":
                body = gzip.decompress(body)
            with lock:
                results.append(status)
            if not (status == 200 and body == expected[path] or status == 304 and "If-None-Match" in headers):
                note("%s %s %s" % (path, headers, status))

    def slow_sender(url):  # a request a few bytes at a time
        for _ in range(3):
            request = b"GET /app.js HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
            with socket.create_connection(address(url), timeout=20) as sock:
                for start in range(0, len(request), 4):
                    sock.sendall(request[start : start + 4])
                    time.sleep(0.02)
                answer = b""
                while chunk := sock.recv(1 << 16):
                    answer += chunk
            if not (answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(expected["/app.js"])):
                note("slow sender: %r" % answer[:40])

    def slow_reader(url):  # reads the two-player table 8 KB at a time
        with socket.create_connection(address(url), timeout=20) as sock:
            sock.sendall(b"GET /standard.msgpack HTTP/1.0\r\n\r\n")
            answer = b""
            while chunk := sock.recv(8192):
                answer += chunk
                time.sleep(0.002)
        if not answer.endswith(expected["/standard.msgpack"]):
            note("slow reader: %d bytes" % len(answer))

    def leaver(url):  # leaves after the first bytes of a big table
        for n in range(5):
            with socket.create_connection(address(url), timeout=20) as sock:
                sock.sendall(b"GET /yazy.msgpack HTTP/1.0\r\n" + b"Accept-Encoding: gzip\r\n" * (n % 2) + b"\r\n")
                sock.recv(32768)

    def idler(url):  # connects and says nothing: closed by the server
        with socket.create_connection(address(url), timeout=20) as sock:
            if sock.recv(10) != b"":
                note("idle connection answered")

    with running_server(env=SHORT) as (url, proc):
        tags = {path: fetch(url, path)[1]["etag"] for path in paths}
        workers = [threading.Thread(target=client, args=(n, url, tags)) for n in range(40)]
        workers += [threading.Thread(target=job, args=(url,)) for job in (slow_sender, slow_reader, leaver, idler)
                    for _ in range(5)]

        def watch():
            while any(worker.is_alive() for worker in workers):
                most_threads[0] = max(most_threads[0], thread_count(proc))
                time.sleep(0.05)

        watcher = threading.Thread(target=watch)
        for worker in workers:
            worker.start()
        watcher.start()
        for worker in workers + [watcher]:
            worker.join(timeout=120)
        assert not any(worker.is_alive() for worker in workers)
        assert fetch(url, "/")[0] == 200 and proc.poll() is None
    assert problems == [] and len(results) == 2000
    assert results.count(200) + results.count(304) == 2000 and results.count(304) > 0
    assert most_threads[0] <= WORKERS + 2, most_threads
    assert proc.stderr_text == ""
