"""The pages installable and usable offline (shutthebox/web/static/sw.js, lib/offline.js, manifest.webmanifest):
the manifest and its icons as a browser reads them; the worker served with its version and files, and in
control after a reload; offline reloads answering from the blocks read before (on the very first visit too)
and from a table kept whole ("Keep for offline", its size said before and its progress while it comes); the
banner when the network goes and its going when it comes back, a question left unanswered meanwhile
answered then. The answers are the command line's own. The pages' policy stays on (no bypass): the worker
and the manifest must pass it. Needs /usr/bin/chromium and the playwright package, like test_web_games.py.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import time
import zlib

import pytest

from serving import COMMAND, ROOT, call, wait_for

STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
PIG = "pig-pig-g100-s6.msgpack"
# every violation of the pages' Content-Security-Policy, kept for the test to read
RECORD = ("window.violations = []; document.addEventListener('securitypolicyviolation', "
          "(event) => window.violations.push(event.violatedDirective + ' ' + event.blockedURI));")


def pig_lines(*states):
    """What ``ShutTheBox pig --batch`` prints for ``--expect``, ``--move`` and ``--options`` of each (I, J, K)."""
    lines = ["--%s %d %d %d" % (kind, *state) for state in states for kind in ("expect", "move", "options")]
    done = subprocess.run(COMMAND + ["pig", "--batch"], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, timeout=120)
    said = done.stdout.splitlines()
    assert len(said) == len(lines), done.stderr
    return [tuple(said[3 * n : 3 * n + 3]) for n in range(len(states))]


def pig_shown(page):
    """(value, move, the --options line) as Pig's Coach shows them."""
    return tuple(page.get_attribute(selector, attribute) for selector, attribute in (
        ("#pig-answer .answer-value", "data-answer"), ("#pig-answer .answer-move", "data-answer"),
        ("#pig-options", "data-line")))


def until(page, expression, what):
    """Until ``expression`` is true in the page (evaluate: the policy forbids wait_for_function's eval)."""
    from playwright.sync_api import Error

    def check():
        try:
            return page.evaluate(expression)
        except Error:  # the page navigating: asked again
            return False
    return wait_for(check, what, deadline=30)


def opened(context, url):
    """``url`` in a new page of ``context`` until it is ready."""
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(url)
    return settled(page)


def settled(page):
    until(page, "document.body.dataset.state === 'ready'", "the page is ready")
    return page


def reload(page):
    page.reload()
    return settled(page)


@pytest.fixture
def context(browser):
    """A context with the pages' policy on and service workers allowed (the other tests block them)."""
    made = browser.new_context(bypass_csp=False, service_workers="allow", viewport={"width": 900, "height": 1000})
    try:
        yield made
    finally:
        made.close()


def controlled(page):
    """The worker controls the page, and what the page read before it did is kept."""
    until(page, "document.documentElement.dataset.worker === 'ready'", "the worker controls the page")
    return page.evaluate("navigator.serviceWorker.controller !== null")


# -- installable --------------------------------------------------------------------------------------------


def png_size(data):
    """(width, height) of a PNG, every chunk's CRC checked and its pixels decompressed to the length they must have."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body), kind
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 6)  # 8-bit RGBA, as written
    assert len(zlib.decompress(chunks[b"IDAT"])) == height * (1 + 4 * width)
    return width, height


def test_the_manifest_of_every_page_names_its_icons(server):
    for page in ("", "games.html"):
        status, _, body = call(server + page)
        assert status == 200 and b'<link rel="manifest" href="manifest.webmanifest">' in body, page
    status, headers, body = call(server + "manifest.webmanifest")
    assert status == 200 and headers["content-type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] and manifest["short_name"] and manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert all(re.fullmatch(r"#[0-9a-f]{6}", manifest[key]) for key in ("theme_color", "background_color"))
    sizes = {}
    for icon in manifest["icons"]:
        status, headers, data = call(server + icon["src"])
        assert status == 200 and headers["content-type"] == icon["type"] == "image/png", icon
        width, height = png_size(data)
        assert icon["sizes"] == "%dx%d" % (width, height), icon
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}


def test_the_worker_is_served_with_its_version_and_every_page_file(server):
    from shutthebox import __version__

    status, headers, body = call(server + "sw.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache"  # an upgrade is seen at the next load
    text = body.decode()
    version = re.search(r'^const VERSION = "([^"]+)";$', text, re.M).group(1)
    assert re.fullmatch(re.escape(__version__) + r"\+[0-9a-f]{12}", version)
    files = json.loads(re.search(r"^const FILES = (\[.*\]);$", text, re.M).group(1))
    on_disk = {os.path.relpath(os.path.join(base, name), STATIC).replace(os.sep, "/")
               for base, _, names in os.walk(STATIC) for name in names}
    assert set(files) == on_disk - {"sw.js"} | {"games.json"}
    assert {"index.html", "games.html", "lib/remote.js", "manifest.webmanifest", "icons/icon-192.png"} <= set(files)
    for name in files:
        assert call(server + name)[0] == 200, name


def test_the_worker_version_follows_the_pages_bytes(tmp_path):
    from shutthebox.web.worker import version

    for name, text in (("a.js", "one"), ("b.html", "two")):
        (tmp_path / name).write_text(text)
    files = {"/a.js": str(tmp_path / "a.js"), "/b.html": str(tmp_path / "b.html")}
    before = version(files)
    assert version(files) == before
    (tmp_path / "a.js").write_text("onf")
    assert version(files) != before


# -- offline -----------------------------------------------------------------------------------------------


def test_after_a_first_visit_an_offline_reload_answers_from_the_blocks_read(context, server):
    """No reload online between: what the page read before the worker controlled it is kept too."""
    link = server + "?mode=coach&player=2&score=17&pos=13456789&roll=12"
    page = opened(context, link)
    ask = "window.shutTheBox.coach(2, '13456789', 17, 12)"
    online, summary = page.evaluate(ask), page.inner_text("#coach-summary")
    assert controlled(page)
    context.set_offline(True)
    reload(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate(ask) == online and page.inner_text("#coach-summary") == summary
    assert page.evaluate("window.violations") == []


def test_an_offline_reload_answers_from_kept_blocks_and_the_banner_comes_and_goes(context, server):
    page = opened(context, server + "games.html?game=pig&i=50&j=60&k=10")
    want, unread = pig_lines((50, 60, 10), (3, 97, 40))
    assert pig_shown(page) == want
    assert controlled(page)
    reload(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.is_hidden("#offline")
    context.set_offline(True)
    until(page, "!document.getElementById('offline').hidden", "the banner on going offline")
    assert page.get_attribute("#offline", "role") == "status"
    assert page.inner_text("#offline").startswith("Offline: answers from kept tables only")
    reload(page)  # the pages from the worker's cache, the answer from the blocks it kept
    assert pig_shown(page) == want
    # a question whose blocks were never read: the banner says so, the page goes on (no error box)
    for name, value in zip("ijk", (3, 97, 40)):
        page.fill("#pig-" + name, str(value))
    until(page, "document.getElementById('offline').textContent.includes('%s')" % PIG, "the banner naming the table")
    assert page.is_hidden("#error") and page.evaluate("document.body.dataset.state") == "ready"
    context.set_offline(False)
    until(page, "document.getElementById('offline').hidden", "the banner gone once the network is back")
    page.fill("#pig-k", "41")
    page.fill("#pig-k", "40")  # asked again: answered
    until(page, "document.querySelector('#pig-options').dataset.line === %s" % json.dumps(unread[2]), "the answer")
    assert pig_shown(page) == unread
    assert page.evaluate("window.violations") == []


def test_a_table_kept_for_offline_answers_any_question(context, server):
    page = opened(context, server + "games.html?game=pig")
    assert controlled(page)
    size = "%.1f MB" % (os.path.getsize(os.path.join(ROOT, "data", PIG)) / 1e6)
    until(page, "document.getElementById('keep-text').textContent.includes('MB')", "the size said")
    assert page.inner_text("#keep-text").startswith("%s, %s: fetched whole" % (PIG, size))  # before it is fetched
    page.evaluate("""() => { window.said = [];
        new MutationObserver(() => window.said.push(document.getElementById('keep-text').textContent))
          .observe(document.getElementById('keep-text'), { childList: true, characterData: true, subtree: true }); }""")
    page.click("#keep-offline")
    until(page, "document.getElementById('keep-text').textContent.includes('kept on this device')", "the table kept")
    said = page.evaluate("window.said")
    assert "Keeping %s: 0.0 MB of %s…" % (PIG, size) in said and "Keeping %s: %s of %s…" % (PIG, size, size) in said
    assert page.inner_text("#keep-offline") == "Remove"
    states = [(0, 0, 25), (99, 0, 0), (12, 88, 7)]  # never asked on this page: read from the kept table alone
    want = pig_lines(*states)
    context.set_offline(True)
    for state, lines in zip(states, want):
        page.goto(server + "games.html?game=pig&i=%d&j=%d&k=%d" % state)
        settled(page)
        assert pig_shown(page) == lines, state
    assert page.is_hidden("#error")
    context.set_offline(False)
    reload(page)
    until(page, "document.getElementById('keep-offline').textContent === 'Remove'", "kept still")
    page.click("#keep-offline")
    until(page, "document.getElementById('keep-offline').textContent === 'Keep for offline'", "removed")
    assert page.evaluate("caches.open('shutthebox-kept').then((c) => c.keys()).then((k) => k.length)") == 0


def test_the_shut_the_box_page_keeps_its_table_for_offline(context, server):
    page = opened(context, server + "?mode=coach")
    assert controlled(page)
    until(page, "document.getElementById('keep-text').textContent.includes('standard.msgpack, 0.8 MB')", "its size")
    page.click("#keep-offline")
    until(page, "document.getElementById('keep-offline').textContent === 'Remove'", "the table kept")
    context.set_offline(True)
    page.goto(server + "?mode=coach&player=1&pos=2458")
    settled(page)
    import shutthebox

    table = shutthebox.load(os.path.join(ROOT, "data", "standard.msgpack"))
    for position in ("2458", "1345", "13579"):  # never asked online: read from the kept table alone
        answer = page.evaluate("p => window.shutTheBox.coach(1, p, null, null)", position)
        assert answer["position"] == position and answer["expect"] == table.expect_one(position)


def test_a_game_goes_on_when_the_network_comes_back(context, server):
    """Goat, played with the network gone: a decision whose blocks are not kept waits with the banner, never
    the red box, and is made once the network is back."""
    page = opened(context, server + "games.html?game=goat&mode=play&seed=5&anim=0")
    assert controlled(page)
    context.set_offline(True)
    until(page, "!document.getElementById('offline').hidden", "the banner")
    for _ in range(12):  # rolls of one die: most decisions read blocks never read before
        page.keyboard.press("1")
        if "goat-g100.msgpack" in page.inner_text("#offline"):
            break
        time.sleep(0.05)
    assert "goat-g100.msgpack" in page.inner_text("#offline")
    assert page.is_hidden("#error") and page.evaluate("document.body.dataset.state") == "ready"
    moves = page.evaluate("window.games.goat.play.state()")
    context.set_offline(False)
    until(page, "document.getElementById('offline').hidden", "the banner gone")
    page.keyboard.press("1")
    until(page, "JSON.stringify(window.games.goat.play.state()) !== %s" % json.dumps(json.dumps(moves)), "a move made")
    assert page.is_hidden("#error")


def test_a_static_copy_works_offline_from_a_host_without_ranges(context, tmp_path):
    """``--export`` served by ``python -m http.server`` (whole files, no ranges): its worker is versioned, and
    a table read whole is kept whole, so that an offline reload answers any question of it."""
    from test_serve_export import export, static_server

    folder = tmp_path / "site"
    assert export(folder).returncode == 0
    text = (folder / "sw.js").read_text()
    assert 'const VERSION = "unversioned";' not in text and '"manifest.webmanifest"' in text
    with static_server(folder) as base:
        page = opened(context, base + "games.html?game=pig&i=50&j=60&k=10")
        want, other = pig_lines((50, 60, 10), (12, 88, 7))
        assert pig_shown(page) == want
        assert controlled(page)
        reload(page)  # now through the worker, which keeps the whole file it is sent
        until(page, "caches.open('shutthebox-kept').then((c) => c.match(new URL('%s', location.href).href))" % PIG
              + ".then(Boolean)", "the table kept whole")
        context.set_offline(True)
        page.goto(base + "games.html?game=pig&i=12&j=88&k=7")
        settled(page)
        assert pig_shown(page) == other
        assert page.evaluate("window.violations") == []
        # An upgrade: another version of the pages is a new worker, which serves them and drops the old copy.
        context.set_offline(False)
        (folder / "games.html").write_text((folder / "games.html").read_text() + "<!-- upgraded -->\n")
        (folder / "sw.js").write_text(re.sub(r'^const VERSION = "[^"]+";$', 'const VERSION = "9.9.9+upgraded";', text,
                                             flags=re.M))
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        until(page, "caches.keys().then((names) => names.some((n) => n.endsWith(' 9.9.9+upgraded')))", "the new copy")
        until(page, "caches.keys().then((names) => names.filter((n) => n.startsWith('shutthebox-pages')).length === 1)",
              "the old copy dropped")
        assert "<!-- upgraded -->" in page.evaluate("fetch('games.html').then((r) => r.text())")



# The ranges the worker keeps, "START-END" each, oldest first.
KEPT_RANGES = ("caches.open('shutthebox-blocks').then((c) => c.keys()).then((keys) => keys.map((k) => "
               "/shutthebox-range=(\\d+)-(\\d+)/.exec(k.url).slice(1, 3).join('-')))")


def test_the_ranges_read_are_kept_up_to_the_worker_s_limit_the_least_recent_dropped(context, tmp_path):
    """A static copy whose worker keeps at most 100,000 bytes of ranges (a page load reads 45,000): Coach's
    questions read their blocks synchronously, past the worker, and the page hands them over, so the last
    question's blocks are kept; what is kept stays under the limit (but for the newest piece), the least
    recently read dropped; the page visited last online (its header read again) answers offline."""
    from rangeserver import serving
    from test_serve_export import export

    folder = tmp_path / "site"
    assert export(folder).returncode == 0
    text = (folder / "sw.js").read_text()
    limited = text.replace("const BLOCKS_LIMIT = 32 * 2 ** 20;", "const BLOCKS_LIMIT = 100000;")
    assert limited != text
    (folder / "sw.js").write_text(limited)
    states = [(50, 60, 10), (3, 97, 40), (90, 5, 2), (12, 88, 7), (70, 30, 15), (40, 99, 0), (95, 98, 3)]
    wanted = pig_lines(*states)
    with serving(folder) as (base, requests):
        page = opened(context, base + "games.html?game=pig&i=50&j=60&k=10")
        assert controlled(page)
        reload(page)  # through the worker from now on
        for state, want in zip(states[1:], wanted[1:]):
            asked = len(requests)
            for name, value in zip("ijk", state):
                page.fill("#pig-" + name, str(value))
            until(page, "document.querySelector('#pig-options').dataset.line === %s" % json.dumps(want[2]),
                  "the answer to %s" % (state,))
        last = {asked[len("bytes="):] for _, asked in requests[asked:] if asked}
        assert last, "the last question read no block"
        until(page, KEPT_RANGES + ".then((kept) => %s.every((r) => kept.includes(r)))" % json.dumps(sorted(last)),
              "the last question's blocks kept")
        kept = page.evaluate(KEPT_RANGES)
        sizes = [int(end) + 1 - int(start) for start, end in (r.split("-") for r in kept)]
        fetched = {asked for _, asked in requests if asked}
        assert sum(sizes[:-1]) <= 100000 and len(kept) < len(fetched), (kept, fetched)
        page.goto(base + "games.html?game=pig&i=95&j=98&k=3")  # online: its header and blocks read again
        settled(page)
        context.set_offline(True)
        reload(page)
        assert pig_shown(page) == wanted[-1]
