"""The Python reader given a table's URL (``--table URL``, ``load(path=URL)``): it reads the table by HTTP
ranges (shutthebox/engine/remote.py, standard library only), only the blocks a question reads, each
verified, and answers the shared corpus (tests/data/) as from the file; a host that refuses ranges is read
from its whole answer; every damaged table of the corpus is refused for the reason its file is."""

from __future__ import annotations

import os
import re

import pytest

from rangeserver import serving
from test_corpus import DATA, GOLDEN, golden, golden_command

from conftest import run

from shutthebox.engine.format import BLOCK_SIZE
from shutthebox.engine.remote import PAGE
from shutthebox.games.goat.table import load


def url_command(path, url):
    """The golden file's command with its table given by URL."""
    return [url + "good/" + os.path.basename(word) if word.startswith(os.path.join(DATA, "good")) else word
            for word in golden_command(path)]


@pytest.mark.parametrize("refuse", [False, True], ids=["ranges", "ranges refused"])
@pytest.mark.parametrize("name", GOLDEN)
def test_golden_answers_by_url(name, refuse):
    path = os.path.join(DATA, "good", name)
    pairs = golden(path)
    with serving(DATA, refuse_ranges=refuse) as (url, requests):
        command = url_command(path, url)
        assert any(word.startswith(url) for word in command)
        batch = run(*command, "--batch", stdin="\n".join(question for question, _ in pairs) + "\n")
        question, answer = pairs[0]
        one = run(*command, *question.split())
    assert batch.stdout.splitlines() == [answer for _, answer in pairs], batch.stderr
    assert (one.stdout.strip() or one.stderr.strip().replace("ShutTheBox: ", "error: ", 1)) == answer
    if refuse:  # each opening asked its first range, and read the whole answer
        assert {wanted for _, wanted in requests} == {"bytes=0-16383"}


def test_a_large_table_by_url_reads_only_the_blocks_asked():
    name = "goat-g100.msgpack"
    with serving(os.path.join(os.path.dirname(os.path.dirname(DATA)), "data")) as (url, requests):
        table = load(path=url + name)
        value = table.probe_win(1, 50, 40, 10, 1)
        fetched = sum(int(b) - int(a) + 1 for a, b in (re.fullmatch(r"bytes=(\d+)-(\d+)", w).groups() for _, w in requests))
    assert value == load().probe_win(1, 50, 40, 10, 1)
    # its header, descriptors and a few blocks, each asked as whole pages of the URL reader
    assert fetched < 12 * max(BLOCK_SIZE, PAGE) < os.path.getsize(os.path.join(DATA, "..", "..", "data", name)) / 50


def test_every_damaged_table_is_refused_by_url_as_its_file_is():
    folder = os.path.join(DATA, "bad")
    with serving(folder) as (url, _):
        for name in sorted(os.listdir(folder)):
            by_file = run("--one", "--table", os.path.join(folder, name), "--expect", "1234")
            by_url = run("--one", "--table", url + name, "--expect", "1234")
            assert by_url.returncode == by_file.returncode == 3, name
            assert by_url.stderr.replace(url + name, "TABLE") == by_file.stderr.replace(os.path.join(folder, name), "TABLE"), name
        missing = run("--one", "--table", url + "absent.msgpack", "--expect", "1234")
    assert missing.returncode == 3 and "HTTP 404" in missing.stderr
