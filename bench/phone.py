#!/usr/bin/env python3
"""The pages on an emulated phone (``make bench-phone``): for every game's page, Coach and Play, the time
to the first answer and the bytes fetched before it; and the bytes of a whole game of Goat and of Yahtzee
in Play. Nothing asserts: these are figures for people (bench/README.md records them).

The phone: Debian's chromium under Playwright (as the browser tests launch it), a 390 px viewport, the
network of DevTools' "Slow 4G" preset (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up;
Network.emulateNetworkConditions) and the CPU slowed 4x (Emulation.setCPUThrottlingRate). Each page is
opened in a fresh context (an empty cache). The first answer is when the page says it is ready
(``body[data-state=ready]``, set once the table can answer); its bytes are those received for the requests
finished by then, the whole game's those of every request: DevTools' ``encodedDataLength``, the bytes on the
wire with the real response headers (Resource Timing's ``transferSize`` counts a fixed 300 B of headers in
chromium, under half of what ``serve`` sends with a range). A whole
game also counts its pauses: the synchronous requests of a block a decision read before it came (their
count, their time in all, the longest); ``--think`` waits that long before each decision, as a player
thinks, while the page fetches ahead.

    python3 bench/phone.py                   # the static copy (serve --export), served with ranges and gzip
    python3 bench/phone.py --against serve   # ShutTheBox serve
    python3 bench/phone.py --no-ranges       # the static copy from a host that refuses ranges
    python3 bench/phone.py --only goat       # one game's pages
    python3 bench/phone.py --think 1         # the whole games with a second's thought before each decision
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from rangeserver import serving  # noqa: E402
from serving import launched_browser, running_server  # noqa: E402

SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWDOWN = 4
PHONE = {"width": 390, "height": 844}
EMULATE = {"on": True}
TARGETS = {"seconds": 3.0, "bytes": 200_000, "game": 2_000_000}
THINK = {"seconds": 0.0}  # before each decision of a whole game
# The moment the page is ready, and what it had fetched by then (set before any script of the page runs).
WATCH = """
new MutationObserver(() => {
  const state = document.body && document.body.dataset.state;
  if (window.__ready || !["ready", "error"].includes(state)) return;
  const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  window.__ready = { state, ms: performance.now(), requests: entries.length };
  if (window.__atReady) window.__atReady();  // phone_page's count of the bytes received so far
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""
PAGES = [("shutthebox", "index.html"), ("toggle", "games.html?game=toggle"), ("goat", "games.html?game=goat"),
         ("pig", "games.html?game=pig"), ("yazy", "games.html?game=yazy"), ("yahtzee", "games.html?game=yahtzee")]
# The synchronous requests (a block read before it came: the page waits), timed (set before the page's scripts).
PAUSES = """
window.__pauses = { count: 0, ms: 0, longest: 0 };
const openRequest = XMLHttpRequest.prototype.open, sendRequest = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.open = function (method, url, async) {
  this.__sync = async === false;
  return openRequest.apply(this, arguments);
};
XMLHttpRequest.prototype.send = function () {
  const start = performance.now();
  try {
    return sendRequest.apply(this, arguments);
  } finally {
    if (this.__sync) {
      const ms = performance.now() - start, p = window.__pauses;
      Object.assign(p, { count: p.count + 1, ms: p.ms + ms, longest: Math.max(p.longest, ms) });
    }
  }
};
"""


def think(page):
    """A player's thought before a decision (--think)."""
    if THINK["seconds"]:
        page.wait_for_timeout(THINK["seconds"] * 1000)


def phone_page(browser):
    """A fresh context and page on the emulated phone, and its DevTools session (whose bytes it counts)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.add_init_script(WATCH)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if EMULATE["on"]:
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    received: dict = {}
    cdp.on("Network.loadingFinished", lambda e: received.__setitem__(e["requestId"], e["encodedDataLength"]))
    # The binding's call reaches Python after every DevTools event sent before it: the count at that moment.
    page.expose_function("__atReady", lambda: received.setdefault("ready", sum(received.values())))
    return context, page, received


def first_answer(browser, url, timeout=180):
    """-> (seconds to the first answer, bytes before it, its state) of the page at ``url``."""
    context, page, received = phone_page(browser)
    try:
        page.goto(url, timeout=timeout * 1000)
        page.wait_for_function("window.__ready", timeout=timeout * 1000, polling=100)
        ready = page.evaluate("window.__ready")
        for _ in range(100):  # the binding's call, on its way
            if "ready" in received:
                break
            page.wait_for_timeout(50)
        return ready["ms"] / 1000, received["ready"], ready["state"]
    finally:
        context.close()


def play_goat(page):
    """Goat in Play to the end: each of your decisions the table's (the hint's best); the computer plays at once."""
    for _ in range(500):
        page.wait_for_function("['yours', 'over'].includes(document.getElementById('goat-play').dataset.state)", timeout=120000)
        if page.evaluate("document.getElementById('goat-play').dataset.state") == "over":
            return
        think(page)
        page.keyboard.press("h")
        action = page.get_attribute("#goat-play li.best", "data-action", timeout=120000)
        page.keyboard.press("s" if action == "0" else action)
    raise AssertionError("the Goat game did not end")


def play_yahtzee(page):
    """Yahtzee in Play to the end: roll, then each decision the hint's best (keep those dice, or score that box)."""
    for _ in range(200):
        page.wait_for_function("['yours', 'over'].includes(document.getElementById('yahtzee-play').dataset.state)", timeout=120000)
        if page.evaluate("document.getElementById('yahtzee-play').dataset.state") == "over":
            return
        if not page.evaluate("window.games.yahtzee.play.state().dice"):
            page.click("#yahtzee-roll")
            continue
        think(page)
        page.keyboard.press("h")
        best = page.get_attribute("#yahtzee-choices li.best", "data-move", timeout=120000).split()
        if best[0] == "score":
            page.click("#yahtzee-play .yazy-cat[data-cat='%s']" % best[1])
            continue
        keep = [int(d) for d in best[1:] if d.isdigit()]
        dice = page.evaluate("window.games.yahtzee.play.state().dice")
        pressed = page.evaluate("[...document.querySelectorAll('#yahtzee-play .yazy-die')]"
                                ".map(b => b.getAttribute('aria-pressed') === 'true')")
        want = [False] * len(dice)
        for d in keep:
            i = next(i for i, x in enumerate(dice) if x == d and not want[i])
            want[i] = True
        for i, (now, wanted) in enumerate(zip(pressed, want)):
            if now != wanted:
                page.keyboard.press(str(i + 1))
        page.click("#yahtzee-roll")
    raise AssertionError("the Yahtzee game did not end")


def whole_game(browser, url, play, timeout=600):
    """-> (seconds, bytes, pauses {count, ms, longest}) of a whole game in Play: from opening the page to the
    game's end."""
    context, page, received = phone_page(browser)
    page.add_init_script(PAUSES)
    try:
        page.set_default_timeout(timeout * 1000)
        started = time.monotonic()
        page.goto(url, timeout=timeout * 1000)
        page.wait_for_function("window.__ready", timeout=timeout * 1000, polling=100)
        state = page.evaluate("window.__ready.state")
        if state != "ready":
            raise AssertionError("the page is not ready: %s: %s" % (state, page.inner_text("main")[:300]))
        play(page)
        page.wait_for_timeout(500)  # prefetches in flight
        received.pop("ready", None)
        return time.monotonic() - started, sum(received.values()), page.evaluate("window.__pauses")
    finally:
        context.close()


def figures(base, only, games):
    rows = []
    with launched_browser() as browser:
        for game, path in PAGES:
            if only and game not in only:
                continue
            for mode in ("coach", "play"):
                url = base + path + ("&" if "?" in path else "?") + "mode=" + mode
                seconds, size, state = first_answer(browser, url)
                rows.append((game, mode, seconds, size, state))
                mark = "" if seconds <= TARGETS["seconds"] and size <= TARGETS["bytes"] else "  (over the target)"
                print("%-10s %-5s first answer %6.1f s  %9s bytes  %s%s" % (game, mode, seconds, format(size, ","), state, mark),
                      flush=True)
        for game, play in (("goat", play_goat), ("yahtzee", play_yahtzee)):
            if game not in games or (only and game not in only):
                continue
            seconds, size, pauses = whole_game(browser, base + "games.html?game=%s&mode=play&anim=0&seed=7" % game, play)
            mark = "" if size <= TARGETS["game"] else "  (over the target)"
            print("%-10s whole game in Play: %9s bytes, %.0f s; %d pauses (synchronous requests), %.1f s in all, "
                  "the longest %.2f s%s" % (game, format(size, ","), seconds, pauses["count"], pauses["ms"] / 1000,
                                          pauses["longest"] / 1000, mark), flush=True)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", choices=("export", "serve"), default="export")
    parser.add_argument("--no-ranges", action="store_true", help="the static copy from a host that refuses ranges")
    parser.add_argument("--no-gzip", action="store_true", help="the static copy from a host that sends text as it is")
    parser.add_argument("--only", action="append", help="one game's pages (repeat for more)")
    parser.add_argument("--no-game", action="store_true", help="skip the whole games")
    parser.add_argument("--root", default=ROOT, help="the checkout whose pages and tables are served (another commit's)")
    parser.add_argument("--throttle", type=float, default=1.0, help="1 (the phone), 0: no emulation (to try the script)")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="in the whole games, wait this long before each decision (default 0: at once)")
    args = parser.parse_args(argv)
    THINK["seconds"] = max(args.think, 0.0)
    games = () if args.no_game else ("goat", "yahtzee")
    command = [sys.executable, os.path.join(os.path.abspath(args.root), "ShutTheBox")]
    EMULATE["on"] = args.throttle > 0
    print("Emulated phone: Slow 4G (150 ms, 1.6 Mbit/s), CPU slowed %dx; targets: first answer within %.0f s, "
          "at most %s bytes before it, a whole game under %s bytes" % (CPU_SLOWDOWN, TARGETS["seconds"],
                                                                      format(TARGETS["bytes"], ","), format(TARGETS["game"], ",")))
    if args.against == "serve":
        with running_server(env={"SHUTTHEBOX_CACHE": tempfile.mkdtemp()}, command=command + ["serve"]) as (url, _):
            print("against ShutTheBox serve at", url, flush=True)
            figures(url, args.only, games)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        site = os.path.join(folder, "site")
        subprocess.run(command + ["serve", "--export", site], check=True, stdout=subprocess.DEVNULL)
        with serving(site, refuse_ranges=args.no_ranges, gzip=not args.no_gzip) as (url, _):
            print("against the static copy (serve --export) on a host that %s ranges%s" % (
                "refuses" if args.no_ranges else "answers", "" if args.no_gzip else " and gzips text"), flush=True)
            figures(url, args.only, games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
