"""``ShutTheBox serve`` against a rebound domain name, slow clients on this machine, a flood of table names,
pages that share a solve, and a Python without msgpack: a foreign ``Host`` reads nothing and keeps no solve
going; slow request heads are dropped by their rate, so the page's own user (on 127.0.0.1 like any local
program) still gets answers; names asked cost no memory; a solve stops only when no page waits for it.
Behaviour only: every wait is a generous bound on an event."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import tracemalloc

import pytest

from serving import COMMAND, ROOT, address, call, children, exchange, running_server, wait_for

SOLVE = {"X-ShutTheBox": "solve"}
BIG = "t11-2d6-one6-p4.msgpack"  # seconds to solve: long enough to act while it runs
SMALL = "toggle-c5-s3.msgpack"
needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads processes in /proc")




def cache_env(tmp_path, **more):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700, exist_ok=True)
    return {"SHUTTHEBOX_CACHE": str(cache), **more}


def state_of(url, name, page=None):
    return call(url + "solve/" + name, headers={"X-ShutTheBox-Page": page} if page else {})[2]


# -- a foreign Host --------------------------------------------------------------------------------------------


def test_a_foreign_host_is_refused_on_get_and_head_too(tmp_path):
    with running_server(env=cache_env(tmp_path)) as (url, proc):
        port = address(url)[1]
        paths = ("", "standard.msgpack", "games.json", "solve/" + SMALL, "app.js", "nothing.html")
        for host in ("evil.example:%d" % port, "evil.example", "127.0.0.1.evil.example:%d" % port,
                     "localhost.evil.example"):
            for path in paths:
                for method in ("GET", "HEAD"):
                    status, _, body = call(url + path, method, headers={"Host": host})
                    assert status == 403, (host, path, method, status)
                    assert method == "HEAD" or b"not to '%s'" % host.encode() in body, body
        for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "LOCALHOST", "[::1]:%d" % port):
            assert call(url + "standard.msgpack", headers={"Host": host})[0] == 200, host
        # HTTP/1.0 without Host: no browser's request (a browser always names the host).
        assert exchange(url, b"GET /games.json HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 200 ")


def test_own_names_are_an_address_localhost_the_host_given_or_this_machine_s_beyond_loopback():
    from shutthebox.web.handler import machine_names, own_host

    assert machine_names("127.0.0.1") == machine_names("::1") == frozenset()
    beyond = machine_names("0.0.0.0")
    assert socket.gethostname().lower() in beyond
    assert own_host("%s:8765" % socket.gethostname(), "0.0.0.0", beyond)
    assert not own_host("%s:8765" % socket.gethostname(), "127.0.0.1", machine_names("127.0.0.1")) or \
        socket.gethostname().lower() == "localhost"
    for host in ("evil.example", "evil.example:80", "127.0.0.1.nip.io", "", "[::1", "localhost.evil"):
        assert not own_host(host, "0.0.0.0", beyond), host
    for host in ("10.1.2.3:99", "[fe80::1]:8765", "localhost", "box.lan:1"):
        assert own_host(host, "box.lan", beyond), host


@pytest.mark.slow
@needs_proc
def test_status_asked_under_a_foreign_host_keeps_no_solve_going(tmp_path):
    with running_server(env=cache_env(tmp_path, SHUTTHEBOX_SOLVE_IDLE="1")) as (url, proc):
        foreign = {"Host": "evil.example:%d" % address(url)[1]}
        assert call(url + "solve/" + BIG, "POST", SOLVE)[0] == 202
        child = wait_for(lambda: state_of(url, BIG)["state"] == "solving" and children(proc.pid), "the child")[0]

        def asked_from_elsewhere():  # a rebound page asks every 100 ms: refused, and the solve is left idle
            assert call(url + "solve/" + BIG, headers=foreign)[0] == 403
            return child not in children(proc.pid)

        wait_for(asked_from_elsewhere, "the solve stopped though a foreign page kept asking")
        wait_for(lambda: state_of(url, BIG)["state"] == "cancelled", "the stop recorded")
        assert "nobody asked about it for 1 second" in state_of(url, BIG)["error"]


# -- slow clients ----------------------------------------------------------------------------------------------


class Trickle:
    """``count`` connections from 127.0.0.1 sending a request head a byte every half second, each opened again
    as soon as the server drops it (a sustained attack); ``dropped`` counts the drops without an answer."""

    def __init__(self, url, count):
        self.url, self.count = url, count
        self.socks, self.dropped, self.answered = [], 0, 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self):
        sock = socket.create_connection(address(self.url), timeout=30, source_address=("127.0.0.1", 0))
        sock.sendall(b"GET /standard.msgpack HTTP/1.1\r\n")
        sock.setblocking(False)
        return sock

    def _run(self):
        self.socks = [self._open() for _ in range(self.count)]
        self.started.set()
        while not self.stop.wait(0.5):
            for n, sock in enumerate(self.socks):
                try:
                    if sock.recv(1 << 16):
                        self.answered += 1
                    else:
                        self.dropped += 1
                    sock.close()
                    self.socks[n] = self._open()
                    continue
                except BlockingIOError:
                    pass  # open, nothing said: go on sending
                except OSError:
                    self.dropped += 1
                    sock.close()
                    self.socks[n] = self._open()
                    continue
                try:
                    sock.send(b"X")
                except OSError:
                    pass

    def __enter__(self):
        self.started = threading.Event()
        self.thread.start()
        assert self.started.wait(60)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)
        for sock in self.socks:
            sock.close()


@pytest.mark.slow
def test_slow_connections_from_loopback_do_not_lock_out_its_user():
    # A minute of silence allowed: the slow heads are dropped for their rate, long before that.
    with running_server(env={"SHUTTHEBOX_SERVE_TIMEOUT": "60"}) as (url, proc):
        with Trickle(url, 200) as attack:  # more than one address could hold before (128)
            results = []
            for n in range(27):  # the user's page, while the attack lasts
                results.append(call(url + ("", "app.js", "games.json", "standard.msgpack")[n % 4], timeout=30)[0])
                time.sleep(0.1)
            assert results == [200] * 27, results
            wait_for(lambda: attack.dropped >= 200, "every slow connection dropped", deadline=40)
            assert attack.answered == 0
        assert call(url)[0] == 200
    assert "Traceback" not in proc.stderr_text


def test_a_flood_of_slow_connections_gives_way_to_a_new_one():
    """When as many connections as the server lets arrive at once are still sending their heads, a new
    connection takes the place of the one furthest behind: a browser's request gets through."""
    from shutthebox.web import pool, server

    handler = server.make_handler(server.static_files(), server.find_table_path(None), {}, timeout=30)
    served = pool.Server(("127.0.0.1", 0), handler, timeout=30, threads=2, open_limit=16)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    url = "http://127.0.0.1:%d/" % served.server_address[1]
    silent = []
    try:
        for _ in range(60):  # connections that say nothing: four times the limit
            silent.append(socket.create_connection(address(url), timeout=30))
            silent[-1].sendall(b"GET / HTTP/1.1\r\n")
        for _ in range(10):
            assert exchange(url, b"GET /games.json HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 200 ")
        closed = 0
        for sock in silent:
            sock.settimeout(0.5)
            try:
                closed += sock.recv(100) == b""  # dropped without a word
            except ConnectionResetError:  # dropped before its bytes were read
                closed += 1
            except TimeoutError:
                pass
        assert closed >= 60 + 10 - 16, closed  # all but the last few still arriving were dropped
    finally:
        for sock in silent:
            sock.close()
        served.shutdown()
        thread.join(timeout=10)
        served.server_close()
        handler.solves.close()


# -- memory per name asked ---------------------------------------------------------------------------------------


def test_names_of_no_table_cost_no_memory_kept():
    from shutthebox.web import tables

    routes = tables.Routes(tables.static_files(), tables.find_table_path(None), {})
    routes.path("/warm-up.msgpack")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(2000):
            assert routes.path("/no-such-%d.msgpack" % n) is None
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 20000, kept  # 2000 names: about 190 bytes each were kept before


# -- a solve several pages wait for ------------------------------------------------------------------------------


@pytest.mark.slow
@needs_proc
def test_a_solve_stops_only_when_no_page_waits_for_it(tmp_path):
    with running_server(env=cache_env(tmp_path)) as (url, proc):
        first, second = ({**SOLVE, "X-ShutTheBox-Page": word} for word in ("tab-one", "tab-two"))
        assert call(url + "solve/" + BIG, "POST", first)[0] == 202
        child = wait_for(lambda: state_of(url, BIG, "tab-two")["state"] == "solving" and children(proc.pid),
                         "the child")[0]
        # The page that pressed Solve goes (Cancel, closed or reloaded): the other one still waits.
        status, _, answer = call(url + "solve/" + BIG, "DELETE", first)
        assert status == 200 and answer["state"] == "solving" and answer["waiting"] == 1, answer
        status, _, answer = call(url + "solve/" + BIG, "DELETE", SOLVE)  # a DELETE naming no page: the same
        assert answer["state"] == "solving" and answer["waiting"] == 1, answer
        assert child in children(proc.pid)
        # The last page waiting goes: the solve stops, its child with it.
        status, _, answer = call(url + "solve/" + BIG, "DELETE", second)
        assert status == 200 and answer["state"] == "cancelled", answer
        wait_for(lambda: child not in children(proc.pid), "the child gone")
        # One page alone: its DELETE stops it at once, as before.
        assert call(url + "solve/" + SMALL, "POST", first)[0] == 202
        assert call(url + "solve/" + SMALL, "DELETE", first)[2]["state"] in ("cancelled", "ready")


@needs_proc
def test_closing_the_tab_that_pressed_solve_leaves_another_tab_s_solve(tmp_path, browser):
    cache = tmp_path / "cache"
    with running_server(env=cache_env(tmp_path)) as (url, proc):
        context = browser.new_context()
        try:
            pressed = context.new_page()
            pressed.goto(url + "?mode=coach&tiles=11&players=4")
            pressed.wait_for_function("document.body.dataset.solve === 'ask'", timeout=30000)
            pressed.click("#solve-start")
            pressed.wait_for_function("document.body.dataset.solve === 'solving'", timeout=30000)
            waiting = context.new_page()  # another tab, the same rules: it follows the solve under way
            waiting.goto(url + "?mode=coach&tiles=11&players=4")
            waiting.wait_for_function("document.body.dataset.solve === 'solving'", timeout=30000)
            pressed.close()  # its pagehide DELETE: another tab waits, so the solve goes on
            waiting.wait_for_function("document.body.dataset.state === 'ready'", timeout=120000)
            assert waiting.evaluate("window.shutTheBox.tableName()") == BIG
            assert state_of(url, BIG)["state"] == "ready" and (cache / BIG).exists()
        finally:
            context.close()


# -- no msgpack ---------------------------------------------------------------------------------------------------


def test_serve_without_msgpack_refuses_to_start_in_the_command_line_s_words():
    from shutthebox.engine.command import guarded

    def missing():
        raise ImportError("No module named 'msgpack'", name="msgpack")

    hidden = ("import runpy, sys; sys.modules['msgpack'] = None; sys.argv = [sys.argv[1], 'serve', '--port', '0']; "
              "runpy.run_path(sys.argv[0], run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", hidden, COMMAND[-1]], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert done.returncode == 4 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    import contextlib
    import io

    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        assert guarded(missing, "ShutTheBox serve") == 4  # the command line's words for a missing package
    assert done.stderr == said.getvalue() and done.stderr.count("\n") == 1, done.stderr
