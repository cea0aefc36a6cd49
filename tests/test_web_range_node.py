"""The Node.js reader (web/answer.mjs) given a table's URL: it reads the table by HTTP ranges (lib/remote.js),
only the blocks its questions need, each verified, and answers the shared corpus (tests/data/) as it answers
from the file; a host that refuses ranges gets the whole-file read; every damaged table of the corpus is
refused for the same reason. The host is tests/rangeserver.py, a static server that answers Range."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from rangeserver import serving
from test_corpus import golden, golden_command
from test_web_node import CORPUS_BAD, GOLDEN_KINDS, python_solo_answer, random_solo_questions

import shutthebox
from shutthebox.engine.format import BLOCK_SIZE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSWER_JS = os.path.join(ROOT, "web", "answer.mjs")
DATA = os.path.join(ROOT, "tests", "data")
NODE = shutil.which("node")
pytestmark = pytest.mark.node


def node(*args, stdin=""):
    if not NODE:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, but CI must run the Node.js reader tests")
        pytest.skip("node is not installed (apt-get install nodejs)")
    return subprocess.run([NODE, ANSWER_JS, *args], input=stdin, capture_output=True, text=True, timeout=120)


def asked_bytes(requests, path):
    """The bytes the reader asked of ``path`` by ranges, and whether it ever asked for the whole file."""
    total, whole = 0, False
    for got, wanted in requests:
        if got != path:
            continue
        if wanted is None:
            whole = True
            continue
        first, last = map(int, re.fullmatch(r"bytes=(\d+)-(\d+)", wanted).groups())
        total += last - first + 1
    return total, whole


def shutthebox_golden():
    """The two-player corpus table's golden lines as the Node reader's questions, and the answers printed."""
    questions, expected = [], []
    for question, answer in golden(os.path.join(DATA, "good", "two-player-t4-golden.txt")):
        words = question.split()
        questions.append([GOLDEN_KINDS[tuple(words[:2])], words[2]] + [int(word) for word in words[3:]])
        expected.append(answer)
    return questions, expected


def printed(answer):
    return ("%.6f" % answer["value"] if "value" in answer else
            "[%s]" % ", ".join(map(str, answer["move"])) if "move" in answer else "error: " + answer["error"])


@pytest.mark.parametrize("refuse", [False, True], ids=["ranges", "ranges refused"])
def test_the_golden_lines_by_url_as_from_the_file(refuse):
    questions, expected = shutthebox_golden()
    stdin = "".join(json.dumps(q) + "\n" for q in questions)
    from_file = node(os.path.join(DATA, "good", "two-player-t4.msgpack"), stdin=stdin)
    with serving(DATA, refuse_ranges=refuse) as (url, requests):
        done = node(url + "good/two-player-t4.msgpack", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stdout == from_file.stdout
    answers = [printed(json.loads(line)) for line in done.stdout.splitlines()]
    assert len(answers) == len(expected) >= 8
    for question, got, want in zip(questions, answers, expected):
        assert got.startswith("error: ") == want.startswith("error: "), (question, got, want)
        if not want.startswith("error: "):
            assert got == want, question
    asked = [wanted for path, wanted in requests if path.endswith("two-player-t4.msgpack")]
    # refused: the first request's whole-file answer is read (one request); else ranges only
    assert len(asked) == 1 if refuse else all(asked)


def test_the_solo_table_by_url_answers_like_the_python_api():
    path = os.path.join(DATA, "good", "one-player-t4.msgpack")
    solo = shutthebox.load_solo(path=path)
    questions = random_solo_questions(solo.rules, 200, seed=9)
    with serving(DATA) as (url, _):
        done = node(url + "good/one-player-t4.msgpack", stdin="".join(json.dumps(q) + "\n" for q in questions))
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    answers = ["error" if "error" in answer else answer for answer in answers]  # as python_solo_answer says a refusal
    assert answers == [python_solo_answer(solo, q) for q in questions]
    assert sum(answer == "error" for answer in answers) >= 5


def test_pig_golden_lines_by_url():
    path = os.path.join(DATA, "good", "pig-two-dice-g8-golden.txt")
    command = golden_command(path)
    assert command[0] == "pig" and "--table" in command
    pairs = golden(path)
    with serving(DATA) as (url, requests):
        at = command.index("--table") + 1
        command[at] = url + "good/" + os.path.basename(command[at])
        done = node(*command, "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    assert done.stdout.splitlines() == [answer for _, answer in pairs]
    assert done.returncode == 1  # some golden questions are errors
    assert asked_bytes(requests, "/good/pig-two-dice-g8.msgpack")[1] is False


def test_a_large_table_by_url_fetches_only_the_blocks_asked():
    """Pig to 100 (4.5 MB): one question reads its header, the descriptors and a few blocks."""
    name = "pig-pig-g100-s6.msgpack"
    table = os.path.join(ROOT, "data", name)
    with serving(os.path.join(ROOT, "data")) as (url, requests):
        done = node("pig", "--table", url + name, "--options", "0", "0", "25")
        by_file = node("pig", "--table", table, "--options", "0", "0", "25")
    assert done.returncode == 0 and done.stdout == by_file.stdout, done.stderr
    fetched, whole = asked_bytes(requests, "/" + name)
    assert not whole and fetched < 16384 + 16384 + 8 * BLOCK_SIZE < os.path.getsize(table) / 10, fetched


def test_every_damaged_table_of_the_corpus_is_refused_by_url():
    with serving(os.path.join(DATA, "bad")) as (url, _):
        for name, reason in CORPUS_BAD.items():
            done = node(url + name, stdin=json.dumps(["e1", "1234"]) + "\n")
            assert done.returncode == 3 and done.stdout == "", (name, done.stdout, done.stderr)
            assert reason in done.stderr and len(done.stderr.strip().splitlines()) == 1, (name, done.stderr)
        missing = node(url + "absent.msgpack", stdin=json.dumps(["e1", "1234"]) + "\n")
    assert missing.returncode == 3 and "HTTP 404" in missing.stderr
