"""Support for the web tests: ``ShutTheBox serve`` started on a free port and always stopped."""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import shutil
import subprocess
import sys
import time

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


@contextlib.contextmanager
def running_server(*args, timeout=15.0, command=None, env=None):
    """Start ``ShutTheBox serve --port 0 ARGS`` and yield its base URL; always stopped.
    ``env``: variables added to the server's environment."""
    proc = subprocess.Popen((command or COMMAND + ["serve"]) + ["--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, **(env or {})})
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
        found = re.search(r"http://[^/\s]+:\d+/", line)  # 127.0.0.1, or the --host given
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
