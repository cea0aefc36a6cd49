"""Cards as people type them (``rules.categories``, its port ``cardOf`` in games/yahtzee-rules.js): any letter
case, aliases, Verhoeff's letters 123456TFHSLYC, ``all -CLOSED``; ambiguous words refused.

- Random cards written long and in compact forms give the same answers (the API, a batch of the command,
  review files), and the answers of yatzy-solver (a test-only dependency: skipped without it).
- The shared notation corpus tests/data/questions/yahtzee.txt through the page's modules in Node.js: each
  question's answer or refusal, word for word, as the Python session gives it; random compact cards and
  their refusals read alike by both parsers.
"""

import json
import os
import random
import shutil
import subprocess

import pytest

from conftest import ROOT, run
from shutthebox.errors import InvalidQuery
from test_yahtzee import NAMES, table_of

CODES = "123456TFHSLYC"
ALIASES = {"ones": "aces", "three-kind": "3k", "four-kind": "4k", "full-house": "fh", "small-straight": "ss",
           "large-straight": "ls"}
STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
QUESTIONS = os.path.join(ROOT, "tests", "data", "questions", "yahtzee.txt")


def cased(word, rng):
    return "".join(letter.upper() if rng.random() < 0.4 else letter.lower() for letter in word)


def compact_forms(card, rng):
    """Ways to type ``card`` (a bitmask) other than the canonical one."""
    open_ = [c for c in range(13) if card >> c & 1]
    closed = [c for c in range(13) if not card >> c & 1]
    forms = []

    def listed(boxes):
        items = [rng.choice([NAMES[c], CODES[c], ALIASES.get(NAMES[c], NAMES[c])]) for c in boxes]
        text = ",".join(cased(item, rng) for item in items)
        return text + ("," if len(items) == 1 or rng.random() < 0.2 else "")  # fh alone reads two ways: fh,

    if open_:
        word = "".join(CODES[c] for c in rng.sample(open_, len(open_)))
        if word.lower() not in ("fh", "ls"):  # the aliases of full-house and large-straight
            forms.append(cased(word, rng))
        forms.append(listed(rng.sample(open_, len(open_))))
    if closed:
        forms.append(rng.choice(["all -", "ALL -", "all-", "All-"]) + listed(closed))
    return forms


def random_cards(count, seed):
    """(card, upper, box) on random cards, the box text None where yahtzee is open."""
    from shutthebox.games.yahtzee.rules import reach

    rng = random.Random(seed)
    for _ in range(count):
        card = rng.randrange(1, 1 << 13)
        upper = rng.choice([t for t in range(106) if reach()[63 & ~card] >> t & 1])
        yield card, upper, None if card >> 11 & 1 else rng.choice(["0", "50"]), rng


def test_compact_and_long_cards_answer_alike():
    """300 random cards, each in every compact form: the same start value as the long form; the mid-turn
    answers of 40 of them through one batch of the command, long and compact lines alike."""
    from shutthebox.games.yahtzee.rules import categories, format_categories

    table = table_of("official")
    lines, forms_seen = [], 0
    for number, (card, upper, box, rng) in enumerate(random_cards(300, 5)):
        long = format_categories(card)
        for form in compact_forms(card, rng):
            forms_seen += 1
            assert categories(form) == card, (form, long)
            assert table.probe_expect(form, upper=upper, box=box) == table.probe_expect(long, upper=upper, box=box)
            if number < 40:
                tail = "--upper %d%s %s %d" % (upper, "" if box is None else " --yahtzee-box " + box,
                                               "".join(rng.choice("123456") for _ in range(5)), rng.randrange(3))
                words = form.split(" ", 1)
                lines.append(("--move %s %s" % (" ".join(words), tail), "--move %s %s" % (long, tail)))
    assert forms_seen > 700
    batch = run("yahtzee", "--batch", stdin="".join("%s\n%s\n" % pair for pair in lines))
    answers = batch.stdout.splitlines()
    assert batch.returncode == 0 and len(answers) == 2 * len(lines), batch.stderr
    assert answers[0::2] == answers[1::2]


@pytest.mark.slow
def test_compact_cards_answer_as_yatzy_solver():
    ys = pytest.importorskip("yatzy_solver")
    from test_yahtzee_rules import their_state

    solver = ys.Solver.build(ys.Variant("american+forced-joker"))
    table = table_of("official")
    for card, upper, box, rng in random_cards(200, 6):
        theirs = solver.state_value(their_state("official", card, upper, box))
        for form in compact_forms(card, rng):
            assert abs(table.probe_expect(form, upper=upper, box=box) - theirs) < 1e-9, form


AMBIGUOUS = [("fh", "full-house"), ("FH", "full-house"), ("ls", "large-straight"), ("Ls", "large-straight"),
             ("all -fh", "full-house")]


@pytest.mark.parametrize("word, box", AMBIGUOUS)
def test_a_word_that_reads_two_ways_is_refused(word, box):
    from shutthebox.games.yahtzee.rules import categories

    with pytest.raises(InvalidQuery, match="reads two ways: the box %s" % box):
        categories(word)
    done = run("yahtzee", "--expect", *word.split(), "--yahtzee-box", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "reads two ways" in done.stderr


def test_review_reads_compact_cards(tmp_path):
    """A logged game, its cards rewritten compactly (letters run together, all -CLOSED, aliases): the same
    review, line for line."""
    from shutthebox.games.yahtzee import analysis
    from shutthebox.games.yahtzee.rules import categories

    table = table_of("official")
    log = tmp_path / "game.txt"
    with open(log, "w", encoding="utf-8") as handle:
        analysis.play(table, 1, 9, log=handle)
    rng = random.Random(3)
    rewritten = []
    for line in log.read_text().splitlines():
        if line.startswith("#"):
            rewritten.append(line)
            continue
        card, rest = line.split(" ", 1)
        forms = compact_forms(categories(card), rng)
        rewritten.append("%s %s" % (rng.choice(forms) if forms else card, rest))
    assert rewritten != log.read_text().splitlines()
    first = run("yahtzee", "review", str(log))
    again = run("yahtzee", "review", stdin="\n".join(rewritten) + "\n")
    assert first.returncode == again.returncode == 0, again.stderr
    assert first.stdout == again.stdout


def test_help_documents_the_short_forms():
    shown = run("yahtzee", "--help").stdout
    for words in ("aces (ones), 3k, 4k, fh, ss, ls", "T three-kind", "F four-kind", "H full-house",
                  "S small-straight", "L large-straight", "Y yahtzee, C chance", "all -twos,chance",
                  "reads two ways is refused"):
        assert words in shown, words


# -- the page's parser: the notation corpus and random cards through Node.js ----------------------------

NODE_SCRIPT = """
import fs from 'node:fs';
import { createRequire } from 'node:module';
const [static_, tablePath] = process.argv.slice(1);
globalThis.MessagePack = createRequire(static_ + '/')(static_ + '/vendor/msgpack.min.js');
const { readTable } = await import(static_ + '/lib/format.js');
const Y = await import(static_ + '/games/yahtzee.js');
const R = await import(static_ + '/games/yahtzee-rules.js');
const { questions, cards } = JSON.parse(fs.readFileSync(0, 'utf8'));
const spec = Y.tableSpec();
const table = readTable(new Uint8Array(fs.readFileSync(tablePath)), { ...spec.options, name: tablePath });
const answers = questions.map((q) => Y.answer(table, q));
const read = cards.map((text) => { try { return R.cardOf(text); } catch (error) { return 'error: ' + error.message; } });
console.log(JSON.stringify({ answers, read }));
"""


def run_node(table_path, questions, cards):
    node = shutil.which("node")
    if not node:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, but CI must run the Node.js tests")
        pytest.skip("node is not installed (apt-get install nodejs)")
    done = subprocess.run([node, "--input-type=module", "-e", NODE_SCRIPT, "--", STATIC, table_path],
                          input=json.dumps({"questions": questions, "cards": cards}), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def page_question(line):
    """A corpus question as the page's ``answer`` takes it ({cats, upper, box, dice, rerolls}) with the word its
    answer is read from, or None for a question the command's grammar refuses before reading the card, or a
    target question (the page has no target mode)."""
    from shutthebox.games.yahtzee.grammar import card_words, query_options

    try:
        words, options = query_options(line.split())
    except InvalidQuery:
        return None
    if "--target" in options:
        return None
    words = card_words(words)
    if not words or words[0] not in ("--expect", "--move", "--options"):
        return None
    asked, args = words[0], words[1:]
    if asked == "--expect" and len(args) in (0, 1):
        return {"cats": args[0] if args else "all", "upper": options.get("--upper"),
                "box": options.get("--yahtzee-box"), "dice": None}, "start"
    if len(args) != 3 or not args[2].isdigit():
        return None
    return {"cats": args[0], "upper": options.get("--upper"), "box": options.get("--yahtzee-box"), "dice": args[1],
            "rerolls": int(args[2])}, {"--expect": "value", "--move": "move", "--options": "line"}[asked]


@pytest.mark.node
def test_the_notation_corpus_reads_alike_in_the_page():
    """Each question of the corpus (and its "= twin") the page can be asked: the Python session's answer,
    or its refusal word for word; and random compact cards (and words refused) read alike."""
    from shutthebox.games.yahtzee.grammar import open_game
    from shutthebox.games.yahtzee.rules import categories

    session = open_game({}, None)
    asked, expected = [], []
    with open(QUESTIONS, encoding="utf-8") as handle:
        for line in handle:
            if "\t" not in line or line.startswith("#"):
                continue
            question, answer = line.rstrip("\n").split("\t")
            for text in [question] + ([answer[2:]] if answer.startswith("= ") else []):
                found = page_question(text)
                if found is None:
                    continue
                try:
                    said = session.answer(text.split())
                except InvalidQuery as error:
                    said = "error: %s" % error
                asked.append(found)
                expected.append(said)
    assert len(asked) >= 60
    rng = random.Random(11)
    cards = ["fh", "LS", "ss", "11", "12,chance", "1x", ",", "ones,,chance", "all-", "all -y,", "Aces,FH,"]
    for card, _, _, _ in random_cards(200, 12):
        cards += compact_forms(card, rng)
    got = run_node(table_of("official").path, [q for q, _ in asked], cards)
    for (q, field), said, answer in zip(asked, expected, got["answers"]):
        page = "error: " + answer["error"] if answer["error"] else answer[field]
        assert page == said, (q, said, page)
    for text, read in zip(cards, got["read"]):
        try:
            python = categories(text)
        except InvalidQuery as error:
            python = "error: %s" % error
        assert read == python, text
