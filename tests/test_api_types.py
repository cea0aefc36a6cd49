"""The Python API refuses odd argument types with InvalidQuery, for every registered game's table classes.

Each ``probe_*`` is called with an answered question, then with each argument replaced by an odd value (a
float, a bool, None, text where a number goes, a number of 5000 digits, numpy values, containers...) and
with containers holding them: it answers or raises InvalidQuery, never TypeError, AttributeError or
ValueError, and its ``get_*`` returns the default instead. A numpy integer is a whole number: it gets the
answer the int gets. The walk covers every table header of every game of the registry; a new table class or
probe fails here until its answered question is added to EXAMPLES."""

import os

import numpy as np
import pytest

import shutthebox
from conftest import ROOT
from shutthebox import registry
from shutthebox.engine.text import shown_value
from shutthebox.errors import InvalidQuery

GOOD = os.path.join(ROOT, "tests", "data", "good")
# Table headers left out, and why.
WITHOUT: dict = {}

ODD = [2.5, 3.0, float("nan"), float("inf"), True, False, None, "7", "abc", "", "\0", 10**5000, -10**5000, 10**30,
       -1, np.int64(3), np.int8(-1), np.uint64(2**64 - 1), np.float64(2.0), np.bool_(True), b"12", [], [1], (3,),
       {"a": 1}, {1, 2}, object(), "9" * 5000, np.array([1, 2]), np.array(3),
       10**4999]


def _target(tmp_path):
    from forge import yazy_target_table
    from shutthebox.games.yazy.table import load_target

    path = tmp_path / "yazy-target.msgpack"  # its real table is not shipped and takes about 15 s to solve
    path.write_bytes(yazy_target_table())
    return load_target(str(path))


def _duel(tmp_path):
    from shutthebox.games.yazy.duel.table import load_duel
    from shutthebox.games.yazy.rules import Rules

    return load_duel(Rules(categories="ones,yazy"))  # solved into the test's cache in a second


def _yahtzee_target(tmp_path):
    """A Yahtzee target table of the game from a late card (the whole game's is 1.7 GB: not shipped)."""
    from shutthebox.games.yahtzee.rules import FIFTY, categories
    from shutthebox.games.yahtzee.target.build import solve_table
    from shutthebox.games.yahtzee.target.table import load_target

    path = tmp_path / "yahtzee-target.official.msgpack"
    path.write_bytes(solve_table("official", (categories("fours,chance"), 51, FIFTY), progress=False))
    return load_target("official", str(path))


def _shipped(game, header):
    def opened(tmp_path):
        family = next(family for family in registry.declaration(game).tables if header in family.headers)
        return family.table().open_rules(family.shipped_rules()[0])

    return opened


# table header -> (how the test opens such a table, {probe: the arguments of an answered question}).
EXAMPLES = {
    "two-player": (lambda tmp_path: shutthebox.load(), {"probe_expect": ("1234", [5]),
                                                        "probe_move": ("1234", 7, [5])}),
    "multi-player": (lambda tmp_path: shutthebox.load(os.path.join(GOOD, "multi-player-t4-p3.msgpack")),
                     {"probe_expect": ("1234", [5, 7]), "probe_move": ("1234", 7, [5])}),
    "one-player": (lambda tmp_path: shutthebox.load_solo(), {"probe_expect": ("1234", "score"),
                                                             "probe_move": ("1234", 7, "score")}),
    "toggle": (_shipped("toggle", "toggle"), {"probe_expect": ("all",), "probe_flip": ("all", 3, 4),
                                              "probe_move": ("all", 3, 4)}),
    "goat": (_shipped("goat", "goat"), {"probe_fixed": (0, 2, 23), "probe_solo": (0, 5, 1),
                                        "probe_solo_move": (0, 5, 1), "probe_win": (1, 0, 0, 5, 1),
                                        "probe_move": (2, 10, 20, 5, 1)}),
    "pig": (_shipped("pig", "pig"), {"probe_win": (0, 0, 5), "probe_expect": (0, 0, 5), "probe_move": (0, 0, 5),
                                     "probe_options": (0, 0, 5)}),
    "threes": (_shipped("threes", "threes"), {"probe_expect": ("13356",), "probe_move": ([1, 3, 3, 5, 6],),
                                              "probe_options": ("36",)}),
    "yazy": (_shipped("yazy", "yazy"), {"probe_expect": ("all", "13366", 2), "probe_move": ("all", [1, 3, 3, 6, 6], 2)}),
    "yazy-target": (_target, {"probe_target": (200, "all", "13366", 2),
                              "probe_target_move": (200, "ones,sixes", "13366", 1)}),
    "yazy-duel": (_duel, {"probe_win": ("all", "yazy", "0,3", "13366", 2),
                          "probe_move": ("all", "yazy", "0,3", [1, 3, 3, 6, 6], 1),
                          "probe_options": ("ones,yazy", "yazy", "0,3", "13366", 0)}),
    # (x, card, dice, rerolls, upper, box) on the late card the table was solved from
    "yahtzee-target": (_yahtzee_target, {"probe_target": (20, "fours,chance", "13366", 2, 51, 50),
                                         "probe_target_move": (20, "fours,chance", [1, 3, 3, 6, 6], 1, 51, "50")}),
    # (card, dice, rerolls, upper, box): a late card whose upper total and yahtzee box are both asked.
    "yahtzee": (_shipped("yahtzee", "yahtzee"), {"probe_expect": ("ones,chance", "13366", 2, 30, 50),
                                                 "probe_move": ("ones,chance", [1, 3, 3, 6, 6], 1, 30, "0"),
                                                 "probe_options": ("ones,chance", "13366", 0, 30, 50)}),
}


def headers():
    found = []
    for game in registry.GAMES:
        for family in registry.declaration(game).tables:
            found.extend(header for header in family.headers if header not in WITHOUT)
    return found


def test_every_table_header_of_the_registry_is_walked():
    walked = set(headers()) | set(WITHOUT)
    for game in registry.GAMES:
        for family in registry.declaration(game).tables:
            assert set(family.headers) <= walked
    assert set(EXAMPLES) == set(headers()), "give every table class's answered questions in EXAMPLES"


def _outcome(method, args):
    """("answer", value) or ("refused", message); anything else raised fails the test."""
    try:
        return "answer", method(*args)
    except InvalidQuery as error:
        return "refused", str(error)


@pytest.mark.parametrize("header", headers())
def test_odd_argument_types_are_answered_or_refused_with_invalid_query(header, tmp_path):
    opened, examples = EXAMPLES[header]
    table = opened(tmp_path)
    probes = sorted(name for name in dir(table) if name.startswith("probe_"))
    assert probes == sorted(examples), "EXAMPLES[%r] must give every probe of %s" % (header, type(table).__name__)
    for probe, args in examples.items():
        method, getter = getattr(table, probe), getattr(table, "get_" + probe[len("probe_"):])
        kind, answer = _outcome(method, args)
        assert kind == "answer", (probe, args, answer)
        for position, given in enumerate(args):
            odd = list(ODD)
            if isinstance(given, (list, tuple)):  # odd values inside a collection too
                odd += [type(given)([*given[:-1], value]) for value in ODD]
            for value in odd:
                call = [*args[:position], value, *args[position + 1:]]
                try:
                    kind, _ = _outcome(method, call)
                except Exception as error:  # noqa: BLE001 - the failure this test reports
                    pytest.fail("%s.%s(%s) raised %s" % (header, probe, ", ".join(map(shown_value, call)),
                                                         type(error).__name__))
                if kind == "refused":
                    assert getter(*call, default="refused") == "refused", (probe, call)
            if type(given) is int:  # a numpy integer is a whole number
                for numpy_type in (np.int64, np.int32, np.uint8):
                    call = [*args[:position], numpy_type(given), *args[position + 1:]]
                    assert _outcome(method, call) == ("answer", answer), (probe, call)


# The loaders and rule sets take odd values too: InvalidQuery (or InvalidRules), never a raw exception.
LOADERS = {
    "open goat goal": lambda value: shutthebox.open("goat", goal=value),
    "open shutthebox tiles": lambda value: shutthebox.open("shutthebox", tiles=value),
    "load_solo variant": lambda value: shutthebox.load_solo(value),
    "Shut the Box rules": lambda value: __import__("shutthebox.games.shutthebox.rules", fromlist=["Rules"]).Rules(
        tiles=value),
    "load_duel rules": lambda value: __import__("shutthebox.games.yazy.duel.table", fromlist=["load_duel"]).load_duel(
        value),
}


@pytest.mark.parametrize("loader", LOADERS)
def test_odd_rules_and_loader_arguments_are_refused_with_invalid_query(loader):
    for value in ODD:
        try:
            LOADERS[loader](value)
        except InvalidQuery:
            pass
        except Exception as error:  # noqa: BLE001 - the failure this test reports
            pytest.fail("%s(%s) raised %s" % (loader, shown_value(value), type(error).__name__))


def test_load_duel_says_what_rules_it_takes():
    from shutthebox.games.yazy.duel.table import load_duel

    with pytest.raises(InvalidQuery, match="Rules") as refused:
        load_duel("ones,twos,yazy")
    assert "ones,twos,yazy" in str(refused.value)
