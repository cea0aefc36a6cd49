"""Support for the web tests: ``ShutTheBox serve`` started on a free port and always stopped."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = [sys.executable, os.path.join(ROOT, "ShutTheBox")]
TABLE = os.path.join(ROOT, "data", "standard.msgpack")
# Browser tests: Debian's chromium driven by Playwright (no browser download); screenshots go to OUTPUT.
OUTPUT = os.path.join(ROOT, "test-output")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 15000


# Every server running_server started that is still running, or that stopped since the current test began
# (``MARK``): conftest.py adds their state and output to the report of a failing test.
SERVERS: list = []
MARK = 0.0
TAIL = 6000  # characters of each stream shown


class _Served:
    """One ``ShutTheBox serve`` run: its command, process, output files (never a pipe nobody reads: a server
    that writes much never blocks) and, once stopped, what state it was found in."""

    def __init__(self, args, proc, out, err):
        self.args, self.proc, self.out, self.err = args, proc, out, err
        self.stopped_at = None
        self.state = None
        self.kept: dict = {}  # stream -> its text, read when the server stopped

    def text(self, stream) -> str:
        if stream in self.kept:
            return self.kept[stream]
        handle = self.out if stream == "stdout" else self.err
        try:
            return os.pread(handle.fileno(), 1 << 24, 0).decode("utf-8", "replace")
        except (OSError, ValueError):
            return "(unreadable)"

    def report(self) -> str:
        state = self.state or ("running (pid %d)" % self.proc.pid if self.proc.poll() is None else
                               "exited with status %s" % self.proc.returncode)
        parts = ["$ %s" % " ".join(self.args), "state: %s" % state]
        for stream in ("stdout", "stderr"):
            text = self.text(stream)
            cut = "...%s" % text[-TAIL:] if len(text) > TAIL else text
            parts.append("%s:%s" % (stream, ("\n" + cut.rstrip("\n")) if text else " (empty)"))
        return "\n".join(parts)


def servers_report(since: float) -> str:
    """The state and output of every server running now or stopped after ``since`` (time.monotonic())."""
    return "\n\n".join(served.report() for served in SERVERS
                       if served.stopped_at is None or served.stopped_at >= since)


@contextlib.contextmanager
def running_server(*args, timeout=15.0, command=None, env=None):
    """Start ``ShutTheBox serve --port 0 ARGS`` and yield (its base URL, the process); always stopped.
    ``env``: variables added to the server's environment. Its standard output and error go to files; once
    stopped, ``proc.stderr_text`` holds the latter. A failing test's report shows the state and output of
    every server it used (conftest.py, ``servers_report``)."""
    argv = (command or COMMAND + ["serve"]) + ["--port", "0", *args]
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT, env={**os.environ, **(env or {})})
    served = _Served(argv, proc, out, err)
    SERVERS.append(served)
    try:
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline:
            text = served.text("stdout")
            if "\n" in text:
                line = text.split("\n", 1)[0]
                break
            if proc.poll() is not None:
                break
            time.sleep(0.02)
        found = re.search(r"http://[^/\s]+:\d+/", line)  # 127.0.0.1, or the --host given
        if not found:
            proc.kill()
            proc.wait(timeout=5)
            raise AssertionError("serve did not print its address in %.0f s:\n%s" % (timeout, served.report()))
        yield found.group(0), proc
    finally:
        exited = proc.poll()
        served.state = ("exited with status %s before the test stopped it" % exited if exited is not None else
                        "was running; stopped at the end of its test")
        if exited is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        served.kept = {stream: served.text(stream) for stream in ("stdout", "stderr")}
        proc.stderr_text = served.kept["stderr"]
        served.stopped_at = time.monotonic()
        for stream in (out, err):
            stream.close()
        SERVERS[:] = [each for each in SERVERS if each.stopped_at is None or each.stopped_at >= MARK]


def missing(what, fix):
    """Skip a browser test whose tools are missing; under CI that is a failure."""
    if os.environ.get("CI"):
        pytest.fail("%s is missing, but CI must run the browser tests (%s)" % (what, fix))
    pytest.skip("%s is missing: the browser tests need it (%s)" % (what, fix))


@contextlib.contextmanager
def launched_browser():
    """Headless chromium under Playwright; always closed."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package", "pip install -e '.[test]'")
    if not os.path.exists(CHROMIUM):
        missing("chromium (%s)" % CHROMIUM, "apt-get install chromium")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=30000)
        # Playwright's wait_for_function compiles its expression in the page (new Function), which the pages'
        # Content-Security-Policy forbids (no 'unsafe-eval'): the tests' contexts bypass the policy unless asked
        # not to (bypass_csp=False: the policy's own tests, which wait by evaluate, never by wait_for_function).
        # The pages' service worker answers a page it controls before page.route can (Playwright's word): it is
        # bypassed unless asked for (service_workers="allow": tests/test_web_offline.py).
        for name in ("new_context", "new_page"):
            made = getattr(launched, name)
            setattr(launched, name, lambda made=made, **options: made(**{"bypass_csp": True, "service_workers": "block",
                                                                          **options}))
        try:
            yield launched
        finally:
            launched.close()


def screenshot(page, name):
    os.makedirs(OUTPUT, exist_ok=True)
    page.screenshot(path=os.path.join(OUTPUT, name), full_page=True)


PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 900, "height": 1000}


@contextlib.contextmanager
def page_opener(browser, server, page_file=""):
    """Yield ``open_page(query="", phone=False, ready=True, routes=(), color_scheme=None, init_script=None,
    wait_ms=WAIT_MS)``: ``server + page_file + query`` loaded in a fresh context until the page says it is no
    longer loading, and (``ready``) that it is ready. ``phone``: True for a 375-pixel phone, or a viewport.
    Every script error of every page opened fails the test; the contexts are always closed."""
    contexts, errors = [], []

    def opener(query="", phone=False, ready=True, routes=(), color_scheme=None, init_script=None,
               wait_ms=WAIT_MS):
        viewport = phone if isinstance(phone, dict) else PHONE if phone else DESKTOP
        context = browser.new_context(viewport=viewport, color_scheme=color_scheme or "light")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        if init_script:
            page.add_init_script(init_script)
        page.on("pageerror", lambda error: errors.append(str(error)))
        for pattern, handler in routes:
            page.route(pattern, handler)
        page.goto(server + page_file + query)
        page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'loading'",
                               timeout=wait_ms)
        if ready:
            state = page.evaluate("document.body.dataset.state")
            assert state == "ready", page.inner_text("#error") or page.inner_text("main")
        return page

    try:
        yield opener
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def percent(chance: float) -> str:
    """A chance as the pages show it (lib/numbers.js): one decimal, "<0.1%", ">99.9%"."""
    if 0.9995 <= chance < 1:
        return ">99.9%"
    return "<0.1%" if 0 < chance * 100 < 0.05 else "%.1f%%" % (chance * 100)


def points(cost: float) -> str:
    """A cost of winning chance as the pages show it (lib/numbers.js): "1.2 percentage points", "<0.1 ..."."""
    return "%s percentage points" % ("<0.1" if 0 < cost * 100 < 0.05 else "%.1f" % (cost * 100))


class Mulberry32:
    """The pages' dice (lib/random.js ``mulberry32``), written again from its definition: one draw per die."""

    def __init__(self, seed):
        self.a = seed & 0xFFFFFFFF

    def draw(self) -> float:
        self.a = (self.a + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.a
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + ((t ^ (t >> 7)) * (t | 61) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    def die(self, sides=6) -> int:
        return 1 + int(self.draw() * sides)


# -- requests to a server: HTTP through urllib, raw bytes through a socket -------------------------------------

DEADLINE = 120  # seconds for an event to happen: a bound, not a timing assertion


def call(url, method="GET", headers=None, timeout=30):
    """(status, headers with lower-case names, body); JSON bodies decoded."""
    request = urllib.request.Request(url, method=method, headers=headers or {},
                                     data=b"" if method in ("POST", "DELETE") else None)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, got, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, got, body = error.code, error.headers, error.read()
    got = {name.lower(): value for name, value in got.items()}
    if got.get("content-type", "").startswith("application/json"):
        body = json.loads(body)
    return status, got, body


def address(url):
    host, port = re.match(r"http://([^:/\]]+|\[[^\]]+\]):(\d+)/", url).groups()
    return host.strip("[]"), int(port)


def exchange(url, request: bytes, source="127.0.0.1", timeout=30.0) -> bytes:
    """Raw bytes sent from ``source``; everything the server answers until it closes."""
    with socket.create_connection(address(url), timeout=timeout, source_address=(source, 0)) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(1 << 16):
            chunks.append(chunk)
    return b"".join(chunks)


def head_of(answer: bytes) -> dict:
    lines = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}


def wait_for(check, what, deadline=DEADLINE, pause=0.1):
    """Until ``check()`` is true (its value returned), within a generous deadline."""
    end = time.monotonic() + deadline
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < end, "never happened: %s" % what
        time.sleep(pause)


def children(pid) -> list:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found
