"""The Node.js reader (web/answer.mjs) trusts a table's host no more than the Python reader does: a host that
misbehaves (a refused or reset connection, a bad or garbage status, a 416, other bytes than asked, a body cut
short, longer than asked or than the file's declared size, a redirect loop, bytes dripped past the deadline
of $SHUTTHEBOX_URL_TIMEOUT) is one line on stderr and exit status 3, never a stack trace, a wait without end
or a body held whole; a malformed URL or deadline is one line and exit status 2, in the command's words.
The hosts are tests/rangeserver.py's."""

from __future__ import annotations

import json
import os
import socket
import subprocess

import pytest

import rangeserver as host
from conftest import run
from test_web_range_node import ANSWER_JS, DATA, NODE, ROOT

pytestmark = pytest.mark.node

TWO_PLAYER = os.path.join(DATA, "good", "two-player-t4.msgpack")  # 7 KB: read by several ranges
QUESTION = json.dumps(["e1", "1234"]) + "\n"
DRIP_WAIT = 30  # seconds: the reader must have given up long before


def node(*args, stdin=QUESTION, timeout=60, **env):
    return subprocess.run([NODE, ANSWER_JS, *args], input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env})


def refused(done, status, *words):
    """One line on stderr, in the reader's words, holding ``words`` and saying why (never Node.js's bare "fetch
    failed"); nothing on stdout; no stack trace."""
    assert done.returncode == status and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("answer.mjs: "), done.stderr
    assert "    at " not in done.stderr and "(fetch failed)" not in done.stderr, done.stderr
    assert all(word in done.stderr for word in words), done.stderr


@pytest.mark.parametrize("misbehave", [host.truncated, host.garbage_status, host.long_header, host.range_not_satisfiable,
                                       host.short_range, host.other_range, host.unavailable, host.redirect_loop,
                                       host.reset], ids=lambda misbehave: misbehave.__name__)
def test_a_host_that_misbehaves_is_one_line_and_exit_status_3(misbehave):
    with host.raw_host(TWO_PLAYER, misbehave) as (url, sent):
        done = node(url)
    refused(done, 3, url)
    assert sent, "the table was read by more than its first range"


@pytest.mark.parametrize("misbehave, first", [(host.oversized, False), (host.range_without_length, False),
                                              (host.whole_without_length, True)], ids=["declared", "undeclared", "whole"])
def test_a_body_longer_than_asked_is_refused_without_holding_it(misbehave, first):
    with host.raw_host(TWO_PLAYER, misbehave, first_too=first) as (url, sent):
        done = node(url)
    refused(done, 3, url)
    assert sent and max(sent) < 1 << 26, sent  # the reader hung up long before: it held no such body


def test_a_whole_file_cut_short_is_refused():
    with host.raw_host(TWO_PLAYER, host.whole_truncated, first_too=True) as (url, sent):
        done = node(url)
    refused(done, 3, url)
    assert sent


def test_a_refused_connection_is_exit_status_3():
    with socket.socket() as sock:  # a port just free: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = "http://127.0.0.1:%d/two-player-t4.msgpack" % port
    refused(node(url), 3, url, "ECONNREFUSED")


@pytest.mark.parametrize("misbehave", [host.drip, host.drip_head], ids=["body", "status line"])
def test_a_host_that_drips_bytes_is_cut_off_at_the_deadline(misbehave):
    with host.raw_host(TWO_PLAYER, misbehave) as (url, sent):
        done = node(url, timeout=DRIP_WAIT, SHUTTHEBOX_URL_TIMEOUT="1")
    refused(done, 3, url, "no whole answer within 1 s; SHUTTHEBOX_URL_TIMEOUT=SECONDS gives it longer")


def test_pig_and_a_set_aside_game_by_url_are_refused_alike():
    pig = os.path.join(ROOT, "data", "pig-pig-g100-s6.msgpack")
    with host.raw_host(pig, host.reset) as (url, _):
        done = node("pig", "--table", url, "--expect", "0", "0", "0", stdin="")
    refused(done, 3, url)
    with host.raw_host(pig, host.drip) as (url, _):
        done = node("pig", "--table", url, "--batch", stdin="--expect 0 0 0\n", timeout=DRIP_WAIT,
                    SHUTTHEBOX_URL_TIMEOUT="1")
    refused(done, 3, url, "within 1 s")
    threes = os.path.join(ROOT, "data", "threes-d5-s6.msgpack")
    with host.raw_host(threes, host.whole_without_length, first_too=True) as (url, sent):
        done = node("threes", "--table", url, "--expect", stdin="")
    refused(done, 3, url)
    assert sent and max(sent) < 1 << 26, sent


MALFORMED = ["http://[::1", "http://127.0.0.1:99999/t.msgpack", "http://127.0.0.1:x/t.msgpack", "http:///t.msgpack",
             "http://", "http://:80/t.msgpack", "http://127.0.0.1/a b.msgpack", "http://127.0.0.1/\u00e9.msgpack"]


@pytest.mark.parametrize("url", MALFORMED)
def test_a_malformed_url_is_a_bad_question_in_the_command_s_words(url):
    command = run("--one", "--table", url, "--expect", "1234")
    assert command.returncode == 2 and command.stderr.startswith("ShutTheBox: "), command.stderr
    words = command.stderr.removeprefix("ShutTheBox: ")
    for done in (node(url), node("pig", "--table", url, "--expect", stdin="")):
        refused(done, 2)
        assert done.stderr.removeprefix("answer.mjs: ") == words


@pytest.mark.parametrize("seconds", ["abc", "0", "nan", "0x10", "3601"])
def test_a_bad_deadline_is_a_bad_question_in_the_command_s_words(seconds):
    with host.raw_host(TWO_PLAYER, host.unavailable) as (url, _):
        command = run("--one", "--table", url, "--expect", "1234", env={"SHUTTHEBOX_URL_TIMEOUT": seconds})
        done = node(url, SHUTTHEBOX_URL_TIMEOUT=seconds)
    assert command.returncode == 2, command.stderr
    refused(done, 2, "SHUTTHEBOX_URL_TIMEOUT")
    assert done.stderr.removeprefix("answer.mjs: ") == command.stderr.removeprefix("ShutTheBox: ")


@pytest.mark.parametrize("line", ["not json", '{"e1": "1234"}', "[1, 2", '"e1"'])
def test_a_question_line_that_is_not_a_json_array_is_one_line_and_exit_status_2(line):
    refused(node(TWO_PLAYER, stdin=line + "\n"), 2, "is not a question: a JSON array")
