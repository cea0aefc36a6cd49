"""The pages read their tables by HTTP ranges (lib/remote.js) from a static copy (``serve --export``) on a
host that answers ``Range`` (tests/rangeserver.py): each page's first answer comes after fetching a bounded
number of a table's bytes, never the whole file; the answers are the Python API's; a damaged block is
refused in the page's words when a question reads it; and where the host refuses ranges the page reads the
whole file, its size and progress shown, and answers alike."""

from __future__ import annotations

import os
import random
import re
import subprocess
import threading

import pytest

from rangeserver import RangeHandler, serving
from serving import COMMAND, page_opener, wait_for
from test_web_goat import fixed_expected
from shutthebox.engine.format import BLOCK_SIZE
from shutthebox.games.goat.table import load as load_goat

BLOCK = BLOCK_SIZE  # the shipped tables' blocks (docs/FORMAT.md section 5)
# What a first answer may read of a table: the first 4 KiB, the descriptors and a few blocks (Yahtzee's
# Coach reads the values after each of the 13 boxes).
FIRST_ANSWER_BYTES = 4096 + 16384 + 20 * BLOCK
PAGES = {"shutthebox": ("index.html", "standard.msgpack"), "goat": ("games.html?game=goat", "goat-g100.msgpack"),
         "pig": ("games.html?game=pig", "pig-pig-g100-s6.msgpack"), "yazy": ("games.html?game=yazy", "yazy.msgpack"),
         "yahtzee": ("games.html?game=yahtzee", "yahtzee-official.msgpack")}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The static copy of the pages and shipped tables."""
    folder = tmp_path_factory.mktemp("range") / "site"
    subprocess.run(COMMAND + ["serve", "--export", str(folder)], check=True, capture_output=True, timeout=300)
    return folder


def asked(requests, name):
    """-> (bytes asked of table ``name`` by ranges, requests without a range)."""
    total, whole = 0, 0
    for path, wanted in requests:
        if path.split("?")[0] != "/" + name:
            continue
        if wanted is None:
            whole += 1
            continue
        first, last = map(int, re.fullmatch(r"bytes=(\d+)-(\d+)", wanted).groups())
        total += last - first + 1
    return total, whole


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_first_answer_reads_a_few_blocks_of_the_table(browser, site, game):
    query, name = PAGES[game]
    for mode in ("coach", "play"):
        with serving(site) as (url, requests), page_opener(browser, url) as open_page:
            page = open_page(query + ("&" if "?" in query else "?") + "mode=" + mode)
            fetched, whole = asked(requests, name)
            assert whole == 0 and 0 < fetched <= FIRST_ANSWER_BYTES, (mode, fetched)
            assert fetched < os.path.getsize(site / name) / 3
            assert page.evaluate("document.body.dataset.state") == "ready"


class Together(RangeHandler):
    """Holds each range of a table but its first (up to HOLD seconds) until WANT of them are asked at once."""

    WANT, HOLD = 4, 3.0
    state = {"asked": 0, "most": 0}
    lock = threading.Condition()

    def send_head(self):
        wanted = self.headers.get("Range") or ""
        if not self.path.endswith(".msgpack") or not wanted or wanted.startswith("bytes=0-"):
            return super().send_head()
        state = self.state
        with self.lock:
            state["asked"] += 1
            state["most"] = max(state["most"], state["asked"])
            self.lock.notify_all()
            self.lock.wait_for(lambda: state["most"] >= self.WANT, timeout=self.HOLD)
        try:
            return super().send_head()
        finally:
            with self.lock:
                state["asked"] -= 1


def test_the_blocks_of_a_first_answer_are_asked_side_by_side(browser, site):
    """A browser lets one request at a time fill a URL's cache entry, so ranges of one table asked through
    its cache would come one after another, a round trip each (on a phone, 150 ms). The page asks the
    blocks of Yahtzee's first answer (13 boxes: 9 requests) and the file's end side by side."""
    Together.state.update(asked=0, most=0)
    with serving(site, base=Together) as (url, requests), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=yahtzee", wait_ms=60000)
        assert page.get_attribute("#yahtzee-answer .answer-value", "data-answer")
    assert len([path for path, wanted in requests if path == "/yahtzee-official.msgpack"]) >= 1 + Together.WANT
    assert Together.state["most"] >= Together.WANT, Together.state


# Synchronous requests (a block read before it came: the page waits) and the tables' fetches counted as they
# start; every request kept in the resource timings as it ends (set before the page's scripts).
SYNC_READS = """
performance.setResourceTimingBufferSize(100000);
window.__syncReads = 0;
window.__tableFetches = 0;
const openRequest = XMLHttpRequest.prototype.open, fetchFirst = window.fetch;
XMLHttpRequest.prototype.open = function (method, url, async) {
  if (async === false) window.__syncReads += 1;
  return openRequest.apply(this, arguments);
};
window.fetch = function (url) {
  if (String(url).endsWith(".msgpack")) window.__tableFetches += 1;
  return fetchFirst.apply(this, arguments);
};
"""


def settled(page, name):
    """Until every request of table ``name`` the page started has ended (its prefetches done)."""
    ended = ("(n) => window.__tableFetches + window.__syncReads === "
             "performance.getEntriesByType('resource').filter(e => e.name.endsWith('/' + n)).length")
    wait_for(lambda: page.evaluate(ended, name), "the requests of %s ending" % name)


def test_yahtzee_play_fetches_each_turns_blocks_before_its_decisions(browser, site):
    """Once a box is scored, the blocks the next turn's decisions read (the value after every box and points
    they may take) are fetched ahead: its hints and costs read no block the page must wait for."""
    with serving(site) as (url, _), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=yahtzee&mode=play&seed=7&anim=0", init_script=SYNC_READS)
        for turn in range(4):
            settled(page, "yahtzee-official.msgpack")
            page.click("#yahtzee-roll")
            page.keyboard.press("h")
            moves = [item.get_attribute("data-move") for item in page.query_selector_all("#yahtzee-choices li")]
            box = next(move.split()[1] for move in moves if move.startswith("score "))
            page.click("#yahtzee-play .yazy-cat[data-cat='%s']" % box)
            assert page.evaluate("window.games.yahtzee.play.state().decisions.length") == turn + 1
        assert page.evaluate("window.__syncReads") == 0


def test_goat_play_fetches_each_decisions_blocks_ahead(browser, site):
    """Each of your decisions had its values fetched ahead (after the move before it, the computer's turn
    included): its hint reads no block the page must wait for."""
    state = "document.getElementById('goat-play').dataset.state"
    with serving(site) as (url, _), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=goat&mode=play&seed=7&anim=0", init_script=SYNC_READS)
        decided = 0
        for decided in range(15):
            page.wait_for_function("['yours', 'over'].includes(%s)" % state)
            if page.evaluate(state) == "over":
                break
            settled(page, "goat-g100.msgpack")
            before = page.evaluate("window.__syncReads")
            page.keyboard.press("h")
            action = page.get_attribute("#goat-play li.best", "data-action")
            assert page.evaluate("window.__syncReads") == before, page.evaluate("window.games.goat.play.state().position")
            page.keyboard.press("s" if action == "0" else action)
        assert decided >= 10


def test_goat_answers_by_ranges_are_the_python_apis(browser, site):
    table = load_goat()
    rng = random.Random(7)
    questions = [(rng.randrange(100), rng.randint(1, 6), rng.randint(1, 50)) for _ in range(120)] + [(0, 7, 3), (100, 2, 5)]
    with serving(site) as (url, requests), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=goat")
        answers = page.evaluate("qs => window.games.goat.answers(qs.map(([score, dice, stopAt]) => "
                                "({kind: 'fixed', score, dice, stopAt})))", questions)
        # two-player questions read blocks of the 5 MB arrays one by one
        pairs = [(rng.randrange(100), rng.randrange(100)) for _ in range(6)]
        chances = page.evaluate("ps => ps.map(([my, opp]) => window.games.goat.answer({player: 1, my, opp, turn: 0, rolls: 0}))",
                                pairs)
        fetched, whole = asked(requests, "goat-g100.msgpack")
    assert answers == [fixed_expected(table, *q) for q in questions]
    assert [c["value"] for c in chances] == ["%.6f" % table.probe_win(1, my, opp) for my, opp in pairs]
    # the header, the descriptors and, on average, at most a block a question: never most of the file
    bound = 16384 + 16384 + (len(questions) + len(pairs)) * BLOCK
    assert whole == 0 and fetched < bound < (site / "goat-g100.msgpack").stat().st_size / 10, fetched


def test_first_answers_fetched_ahead_are_the_python_apis(browser, site):
    """Each game's first question is read ahead on stand-in blocks of zeros (lib/remote.js's warm): what the
    page then shows is the table's, never a value read from zeros and kept (Yahtzee keeps its solved turns)."""
    from shutthebox.games.yahtzee.table import load as load_yahtzee

    yahtzee, goat = load_yahtzee(), load_goat()
    with serving(site) as (url, _), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=yahtzee")
        value = page.get_attribute("#yahtzee-answer .answer-value", "data-answer")
        # each cell's exact form (a number's data-exact, lib/numbers.js), as the command line prints it
        options = page.evaluate("[...document.querySelectorAll('#yahtzee-options tbody tr')]"
                                ".map(tr => [...tr.cells].map(td => td.querySelector('span.num')?.dataset.exact"
                                " ?? td.textContent).join(' ')).join('; ')")
        page = open_page("?game=goat")
        solo = page.get_attribute("#goat-answer .answer-value", "data-answer")
    assert value == "%.6f" % yahtzee.probe_expect("all", "13366", 2)
    assert options == yahtzee.options_line("all", "13366", 2)
    assert solo == "%.6f" % goat.probe_solo(0, 0, 0)


def damaged_copy(site, folder, name, array, element, itemsize=8):
    """A copy of the site (links) whose table ``name`` has one byte flipped in element ``element`` of ``array``."""
    folder.mkdir()
    for entry in os.listdir(site):
        if entry != name:
            os.symlink(site / entry, folder / entry)
    data = bytearray((site / name).read_bytes())
    key = bytes([0xA0 + len(array)]) + array.encode()
    at = data.index(b"\xa4data", data.index(key + b"\x86")) + 5
    start = at + 1 + {0xC4: 1, 0xC5: 2, 0xC6: 4}[data[at]]
    data[start + element * itemsize] ^= 0x10
    (folder / name).write_bytes(bytes(data))
    return element * itemsize // BLOCK


def test_a_damaged_block_is_refused_when_a_question_reads_it(browser, site, tmp_path):
    my, opp = 50, 40
    block = damaged_copy(site, tmp_path / "damaged", "goat-g100.msgpack", "one", (my * 100 + opp) * 63)
    errors = []
    with serving(tmp_path / "damaged") as (url, _):
        context = browser.new_context()
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url + "games.html?game=goat")
            page.wait_for_selector("body[data-state=ready]")  # the solo question reads no damaged block
            assert page.get_attribute("#goat-answer .answer-value", "data-answer")
            page.check("input[name=goat-player][value='1']")
            page.fill("#goat-my", str(my))
            page.fill("#goat-opp", str(opp))
            page.wait_for_selector("body[data-state=error]")
            message = page.inner_text("#error")
        finally:
            context.close()
    assert message == ("The table goat-g100.msgpack is damaged (checksum mismatch in array one, block %d); "
                       "rebuild it with `make tables`." % block)


def test_a_damaged_block_of_the_first_answer_is_refused_before_any_answer(browser, site, tmp_path):
    damaged_copy(site, tmp_path / "damaged", "goat-g100.msgpack", "solo", 0)
    with serving(tmp_path / "damaged") as (url, _), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=goat", ready=False)
        assert page.evaluate("document.body.dataset.state") == "error"
        assert "goat-g100.msgpack is damaged (checksum mismatch in array solo, block 0)" in page.inner_text("main")
        assert not page.get_attribute("#goat-answer .answer-value", "data-answer")


# Every text the status line shows, and whether it held a progress bar then (set before the page's scripts).
WATCH_STATUS = """
window.__status = [];
new MutationObserver(() => {
  const s = document.getElementById("status");
  if (s && !s.hidden && s.textContent) window.__status.push([s.textContent, Boolean(s.querySelector("progress"))]);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def test_a_host_that_refuses_ranges_gets_the_whole_file_with_its_size_and_progress(browser, site):
    with serving(site, refuse_ranges=True) as (url, requests), page_opener(browser, url, "games.html") as open_page:
        page = open_page("?game=goat", init_script=WATCH_STATUS)
        shown = page.evaluate("window.__status")
        value = page.get_attribute("#goat-answer .answer-value", "data-answer")
    table = load_goat()
    assert value == "%.6f" % table.probe_solo(0, 0, 0)
    assert len([path for path, _ in requests if path == "/goat-g100.msgpack"]) == 1
    sized = [text for text, bar in shown if bar and "11.6 MB" in text]
    assert sized and "0.0 MB of 11.6 MB" in sized[0], shown  # the size before the download, then its progress
    assert any(re.search(r"[1-9][0-9.]* MB of 11\.6 MB", text) for text in sized), shown


def test_the_shut_the_box_page_refused_ranges_reads_whole_files(browser, site):
    with serving(site, refuse_ranges=True) as (url, requests), page_opener(browser, url, "index.html") as open_page:
        open_page("")
    assert [wanted for path, wanted in requests if path == "/standard.msgpack"] == ["bytes=0-4095"]


def test_the_game_section_is_hidden_until_the_table_answers(browser, site):
    """Nothing of a game can be used before its table answers: its section appears with the first answer."""
    with serving(site) as (url, _), page_opener(browser, url, "games.html") as open_page:
        script = ("window.__early = []; new MutationObserver(() => { const s = document.getElementById('goat');"
                  " if (s && !s.hidden) window.__early.push(document.body.dataset.state); })"
                  ".observe(document, { subtree: true, attributes: true, childList: true });")
        page = open_page("?game=goat", init_script=script)
        early = page.evaluate("window.__early")
    assert early and "loading" not in early[:1], early
