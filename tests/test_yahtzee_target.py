"""Yahtzee's target mode (``--target X``) against an independent exact solver.

The reference below is written from the rules alone (docs/YAHTZEE.md): its own scores, joker
rules and bonuses, a direct recursion over the card and the dice (every keep, every outcome of
the dice rolled with its multinomial chance), in floats; its values and the table's agree within
1e-10, far below the 5e-7 of a printed digit. The tables are reduced builds: the game from a
late-game card only, solved in a second or so. Also: the same bytes on one and two workers.
"""

import math
import os
import subprocess
import sys
from itertools import combinations_with_replacement

import pytest

from conftest import ROOT

pytest.importorskip("numpy")

from shutthebox.games.yahtzee.rules import FIFTY, OPEN, ZERO, categories  # noqa: E402
from shutthebox.games.yahtzee.target.build import solve_table  # noqa: E402
from shutthebox.games.yahtzee.target.table import load_target  # noqa: E402

TOLERANCE = 1e-10
NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
         "small-straight", "large-straight", "yahtzee", "chance")
YAHTZEE, FULL_HOUSE, SMALL, LARGE = 11, 8, 9, 10


# -- the reference: the rules, written again ------------------------------------------------------

def printed_score(box: int, dice: tuple) -> int:
    counts = [dice.count(face) for face in range(7)]
    if box < 6:
        return (box + 1) * counts[box + 1]
    if box == 6:
        return sum(dice) if max(counts) >= 3 else 0
    if box == 7:
        return sum(dice) if max(counts) >= 4 else 0
    if box == FULL_HOUSE:
        return 25 if sorted(c for c in counts if c) == [2, 3] else 0
    if box == SMALL:
        return 30 if any(set(run) <= set(dice) for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))) else 0
    if box == LARGE:
        return 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box == YAHTZEE:
        return 50 if max(counts) == 5 else 0
    return sum(dice)


def placements(joker: str, card: frozenset, box_holds, dice: tuple) -> list:
    """[(box, points)]: where ``dice`` may go and for how much (the Yahtzee bonus not included)."""
    face = dice[0]
    if len(set(dice)) > 1 or box_holds is None or joker in ("none", "bonus-only"):
        return [(b, printed_score(b, dice)) for b in card]
    joker_pay = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}
    lower = [b for b in card if b >= 6]
    if joker == "official":
        if face - 1 in card:
            return [(face - 1, 5 * face)]
        if lower:
            return [(b, joker_pay.get(b, 5 * face)) for b in lower]
        return [(b, 0) for b in card]
    # free: any box; full house and straights pay only once the face's upper box is filled
    out = []
    for b in card:
        if b < 6:
            out.append((b, 5 * face if b == face - 1 else 0))
        elif b in joker_pay:
            out.append((b, joker_pay[b] if face - 1 not in card else 0))
        else:
            out.append((b, 5 * face))
    return out


def outcomes(count: int) -> list:
    """[(sorted dice, chance)] of rolling ``count`` dice."""
    out = []
    for dice in combinations_with_replacement(range(1, 7), count):
        ways = math.factorial(count)
        for face in set(dice):
            ways //= math.factorial(dice.count(face))
        out.append((dice, ways / 6 ** count))
    return out


OUTCOMES = [outcomes(count) for count in range(6)]


def keeps(dice: tuple) -> set:
    return {tuple(sorted(dice[i] for i in range(5) if mask >> i & 1)) for mask in range(32)}


BEST = (5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30)  # each box's best score, jokers included


class Reference:
    """T(card, upper, box, x) and a turn's values, by recursion; ``box``: None (open), 0 or 50."""

    def __init__(self, joker: str):
        self.joker = joker
        self._T, self._V, self._E = {}, {}, {}

    def T(self, card: frozenset, upper: int, box, x: int) -> float:
        if x <= 0:
            return 1.0
        if not card or x > sum(BEST[b] for b in card) + 35 + 100 * len(card):
            return 0.0  # more than every box at its best and every bonus
        key = (card, upper, box, x)
        found = self._T.get(key)
        if found is None:
            found = self._T[key] = sum(chance * self.V(card, upper, box, x, dice, 2) for dice, chance in OUTCOMES[5])
        return found

    def choices(self, card, upper, box, x, dice) -> list:
        """[(box scored, chance after it)]."""
        out = []
        bonus = 100 if box == 50 and self.joker != "none" and len(set(dice)) == 1 else 0
        for b, points in placements(self.joker, card, box, dice):
            gain, new_upper, new_box = points + bonus, upper, box
            if b < 6:
                new_upper = upper + points
                if upper < 63 <= new_upper:
                    gain += 35
                new_upper = min(new_upper, 63)
            if b == YAHTZEE:
                new_box = 50 if points else 0
            out.append((b, self.T(card - {b}, new_upper, new_box, x - gain)))
        return out

    def V(self, card, upper, box, x, dice, rerolls) -> float:
        key = (card, upper, box, x, dice, rerolls)
        found = self._V.get(key)
        if found is None:
            found = max(chance for _, chance in self.choices(card, upper, box, x, dice))
            if rerolls:
                found = max([found] + [self.E(card, upper, box, x, keep, rerolls)
                                       for keep in keeps(dice) if len(keep) < 5])
            self._V[key] = found
        return found

    def E(self, card, upper, box, x, keep, rerolls) -> float:
        key = (card, upper, box, x, keep, rerolls)
        found = self._E.get(key)
        if found is None:
            found = self._E[key] = sum(chance * self.V(card, upper, box, x, tuple(sorted(keep + more)), rerolls - 1)
                                       for more, chance in OUTCOMES[5 - len(keep)])
        return found

    def move_value(self, card, upper, box, x, dice, rerolls, move: str) -> float:
        word, _, rest = move.partition(" ")
        if word == "score":
            return dict(self.choices(card, upper, box, x, dice))[NAMES.index(rest)]
        kept = () if rest == "none" else tuple(int(d) for d in rest.split())
        return self.E(card, upper, box, x, kept, rerolls)


_REFERENCES: dict = {}


def reference(case) -> Reference:
    """One reference a case, shared by its tests (its values are remembered)."""
    found = _REFERENCES.get(case)
    if found is None:
        found = _REFERENCES[case] = Reference(case[0])
    return found


# -- the cases: late-game cards, several upper totals and yahtzee boxes, each joker rule ----------------

CASES = [  # joker, card, upper total, what the yahtzee box holds (None: open)
    ("official", "sixes,chance", 45, 50),
    ("official", "twos,threes", 40, 0),
    ("official", "small-straight,large-straight", 63, 50),
    ("free", "ones,full-house", 62, 50),
    ("free", "fives,yahtzee", 30, None),
    ("bonus-only", "fours,yahtzee,chance", 20, None),
    ("bonus-only", "full-house,chance", 0, 50),
    ("none", "twos,three-kind,large-straight", 50, 0),
]
QUICK = [("official", "fours", 60, 50), ("free", "full-house", 63, 50), ("bonus-only", "yahtzee", 10, None)]
BOX = {None: OPEN, 0: ZERO, 50: FIFTY}
# the late-game cases take seconds each in pure Python (the reference): slow; the one-box ones run always
PARAMS = [pytest.param(case, marks=pytest.mark.slow) for case in CASES] + QUICK


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("target")
    out = {}
    for joker, card, upper, box in CASES + QUICK:
        path = str(folder / ("%s-%s-%d-%s.msgpack" % (joker, card.replace(",", "."), upper, box)))
        with open(path, "wb") as handle:
            handle.write(solve_table(joker, (categories(card), upper, BOX[box]), progress=False))
        out[joker, card, upper, box] = path
    return out


def card_set(card: str) -> frozenset:
    return frozenset(NAMES.index(name) for name in card.split(","))


def options(box) -> dict:
    return {} if box is None else {"box": str(box)}


def most(card: frozenset) -> int:
    return sum((5 * (b + 1) if b < 6 else 50) for b in card) + 35 + 100 * len(card)


@pytest.mark.parametrize("case", PARAMS, ids=lambda case: "-".join(map(str, case)))
def test_turn_start_chances_equal_the_reference(tables, case):
    joker, card, upper, box = case
    ref, cards = reference(case), card_set(card)
    table = load_target(joker, tables[case])
    targets = {0, 1, 20, 50, 80, 130, 250} if len(cards) < 3 else {0, 1, 25, 60, 100}  # the reference's time
    for x in sorted(targets | {most(cards)}):
        want = ref.T(cards, upper, box, x)
        got = table.probe_target(x, card, upper=upper, **options(box))
        assert abs(got - want) <= TOLERANCE, (x, got, want)
    if len(cards) == 1:
        return
    # a state one box later, inside the reduced game
    first = min(cards)
    rest = ",".join(NAMES[b] for b in sorted(cards - {first}))
    later_upper = min(upper + (first + 1) * 3, 63) if first < 6 else upper
    later_box = box if first != YAHTZEE else 50
    for x in (10, 40, 90):
        want = ref.T(cards - {first}, later_upper, later_box, x)
        got = table.probe_target(x, rest, upper=upper + (first + 1) * 3 if first < 6 else upper,
                                 **options(later_box))
        assert abs(got - want) <= TOLERANCE, (x, got, want)


@pytest.mark.parametrize("case", PARAMS, ids=lambda case: "-".join(map(str, case)))
def test_mid_turn_chances_and_moves_equal_the_reference(tables, case):
    joker, card, upper, box = case
    ref, cards = reference(case), card_set(card)
    table = load_target(joker, tables[case])
    for dice, rerolls, x in (("66666", 0, 60), ("66612", 1, 40), ("11111", 2, 120), ("12345", 1, 45),
                             ("22335", 2, 30), ("44445", 1, 150), ("55555", 0, 200)):
        if len(cards) > 2 and x > 120 and rerolls:
            continue  # the reference's time
        roll = tuple(sorted(map(int, dice)))
        want = ref.V(cards, upper, box, x, roll, rerolls)
        got = table.probe_target(x, card, dice, rerolls, upper=upper, **options(box))
        assert abs(got - want) <= TOLERANCE, (dice, rerolls, x, got, want)
        move = table.probe_target_move(x, card, dice, rerolls, upper=upper, **options(box))
        assert ref.move_value(cards, upper, box, x, roll, rerolls, move) >= want - 1e-9, (dice, x, move)


def test_the_move_changes_with_the_target(tables):
    """Needing little, take the sure points; needing much, chase the Yahtzee (hand-checked: with sixes and
    chance open and 45 in the upper section, 66612 scores 18 in sixes, reaching the 35 bonus)."""
    case = ("official", "sixes,chance", 45, 50)
    table = load_target("official", tables[case])
    assert table.probe_target_move(18 + 35, "sixes,chance", "66612", 0, upper=45, box="50") == "score sixes"
    assert table.probe_target(18 + 35 + 5, "sixes,chance", "66612", 0, upper=45, box="50") == 1.0
    assert table.probe_target_move(150, "sixes,chance", "66612", 1, upper=45, box="50") == "keep 6 6 6"


def run(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_command_line(tables):
    path = tables[("official", "sixes,chance", 45, 50)]
    done = run("--target", "53", "--move", "sixes,chance", "--upper", "45", "--yahtzee-box", "50", "66612", "0",
               "--table", path)
    assert (done.returncode, done.stdout) == (0, "score sixes\n")
    done = run("--target=0", "--expect", "sixes,chance", "--upper", "45", "--yahtzee-box", "50", "--table", path)
    assert (done.returncode, done.stdout) == (0, "1.000000\n")


@pytest.mark.parametrize("args, words", [
    (["--target", "-3", "--expect", "chance"], "the target X is the points still to come"),
    (["--target", "1576", "--expect", "chance"], "0 to 1575"),
    (["--target", "ten", "--expect", "chance"], "target X"),
    (["--target", "50", "--options", "chance", "11111", "1"], "--target takes --expect or --move"),
    (["--target", "50", "--expect", "chance,bogus"], "unknown category 'bogus'"),
    (["--target", "50", "--expect", "all", "--upper", "7"], "--upper 7"),
    (["--target", "50", "--move", "chance"], "--move takes"),
    (["--variant", "yatzy", "--target", "50", "--expect", "chance"], "Yatzy has no target table"),
])
def test_bad_targets_and_cards_are_refused_in_one_line(args, words):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


def test_a_reduced_table_refuses_states_outside_its_game(tables):
    table = load_target("official", tables[("official", "twos,threes", 40, 0)])
    with pytest.raises(Exception, match="holds only the game from twos,threes"):
        table.probe_target(10, "ones,twos", upper=40, box="0")


def test_the_docs_example_prints_what_it_shows(tmp_path):
    """docs/YAHTZEE.md's "my opponent finished with 260": its reduced build, then each question's line."""
    with open(os.path.join(ROOT, "docs", "YAHTZEE.md"), encoding="utf-8") as handle:
        text = handle.read()
    block = text.split("### The typical use: my opponent finished with 260", 1)[1].split("```text\n", 1)[1]
    block = block.split("```", 1)[0]
    examples = [part.partition("\n") for part in block.split("$ ")[1:]]
    assert len(examples) >= 4
    for command_line, _, shown in examples:
        words = command_line.split()
        if words[:2] == ["python", "-m"]:
            program = [sys.executable] + words[1:]
        else:
            assert words[:2] == ["ShutTheBox", "yahtzee"]
            program = [sys.executable, os.path.join(ROOT, "ShutTheBox")] + words[1:]
        done = subprocess.run(program, capture_output=True, text=True, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, shown), (command_line, done.stderr)


@pytest.mark.parametrize("case", QUICK + [CASES[0]], ids=lambda case: "-".join(map(str, case)))
def test_the_query_time_turn_finds_the_stored_chance_bit_for_bit(tables, case):
    """turn.py does the solver's operations in its order: its turn-start chance is the stored float64 (and it
    states the solver's bounds and tie)."""
    from shutthebox.games.yahtzee.target import solver, turn as target_turn

    assert (target_turn.ERROR_BOUND, target_turn.ABSOLUTE_BOUND, target_turn.TIE) == \
        (solver.ERROR_BOUND, solver.ABSOLUTE_BOUND, solver.TIE)
    joker, card, upper, box = case
    table = load_target(joker, tables[case])
    for x in (1, 17, 40, 75, 120, 200):
        turn = table.turn(x, card, upper=upper, **options(box))
        assert turn.start() == table.probe_target(x, card, upper=upper, **options(box)), x


def test_a_batch_on_a_target_table_answers_target_questions_only(tables):
    path = tables[("official", "sixes,chance", 45, 50)]
    lines = ("--target 53 --move sixes,chance --upper 45 --yahtzee-box 50 66612 0\n"
             "--target 0 --expect sixes,chance --upper 45 --yahtzee-box 50\n--expect all\n")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", "--batch", "--table", path],
                          input=lines, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1
    assert done.stdout.splitlines()[:2] == ["score sixes", "1.000000"]
    assert "answers --target questions only" in done.stdout.splitlines()[2]


def test_a_forged_position_or_offset_is_refused_in_one_line(tables, tmp_path):
    """Checksums right, a row pointing outside the arrays: exit status 3 and one line (the command), TableError
    (Python), never an index error."""
    from forge import forge
    from shutthebox.errors import TableError
    from shutthebox.games.yahtzee.rules import state_index

    path = tables[("official", "sixes,chance", 45, 50)]
    with open(path, "rb") as handle:
        data = handle.read()
    table = load_target("official", path)
    number = state_index(categories("sixes,chance"), 45, FIFTY)
    row = table._position[number]
    for array, index, value in (("position", number, len(table._offsets) - 1),
                                ("offsets", row, len(table._chance) + 1)):
        forged = tmp_path / ("forged-%s.msgpack" % array)
        forged.write_bytes(forge(data, array, index, value))
        done = run("--target", "53", "--expect", "sixes,chance", "--upper", "45", "--yahtzee-box", "50",
                   "--table", str(forged))
        assert done.returncode == 3 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert "impossible value: %s[" % array in done.stderr, done.stderr
        with pytest.raises(TableError, match="impossible value"):
            load_target("official", str(forged)).probe_target(53, "sixes,chance", upper=45, box="50")


def test_the_format_s_worked_example_reads_what_it_shows():
    """docs/FORMAT.md section 12: its reduced table's arrays hold the positions, offsets and chances it reads."""
    import msgpack
    import numpy as np

    from shutthebox.games.yahtzee.rules import state_index

    with open(os.path.join(ROOT, "docs", "FORMAT.md"), encoding="utf-8") as handle:
        section = " ".join(handle.read().split("## 12. ", 1)[1].split())
    card = categories("fours,full-house,large-straight,chance")
    data = solve_table("official", (card, 51, FIFTY), progress=False)
    arrays = msgpack.unpackb(data, raw=False)["arrays"]
    position, offsets, chance = (np.frombuffer(arrays[name]["data"], arrays[name]["dtype"])
                                 for name in ("position", "offsets", "chance"))
    index = state_index(card, 51, FIFTY)
    i = int(position[index])
    said = ["{:,} bytes".format(len(data)), "{:,} of its entries held".format(np.count_nonzero(position != 2**32 - 1)),
            "%d rows" % (len(offsets) - 1), "`chance` {:,}".format(len(chance)), "= %d`" % index,
            "`position[%d] = %d`" % (index, i), "`offsets[%d] = %d`" % (i, offsets[i]),
            "`n = %d`" % (offsets[i + 1] - offsets[i]), "= %r" % float(chance[offsets[i] + 67 - 1])]
    later = [state_index(categories("full-house,large-straight,chance"), upper, FIFTY) for upper in (51, 55, 59, 63)]
    assert len({int(position[at]) for at in later[:3]}) == 1 and position[later[3]] != position[later[0]]
    said += ["%d, %d, %d" % tuple(later[:3]), "`position` %d" % position[later[0]], "(index %d)" % later[3]]
    said += ["chance[%d]` = %r" % (at, float(chance[at])) for at in (5054, 4281, 3871, 3428)]
    assert [words for words in said if words not in section] == []
    assert float(chance[5054]) == 0.9994506345100013  # the mid-turn example's best: the one --expect prints


@pytest.mark.slow  # a local cluster's start: several seconds
def test_the_same_bytes_on_one_and_two_workers(tmp_path):
    """A reduced build (six layers, the yahtzee box open) solved in this process and on two Dask workers."""
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    start = (categories("twos,threes,full-house,yahtzee,chance"), 6, OPEN)
    one = solve_table("official", start, progress=False, workers=1, checkpoint=str(tmp_path / "one"))
    # the workers start at once (a small build would otherwise finish before they are worth starting)
    two = solve_table("official", start, progress=False, workers=2, checkpoint=str(tmp_path / "two"),
                      serial_seconds=0)
    assert two == one


def test_a_target_question_imports_only_query_time_modules(tables):
    """The query path's rule (tests/test_query_path.py) for a mid-turn --target question."""
    import ast

    from test_query_path import HEAVY_STDLIB, PROBE, query_time

    argv = ["yahtzee", "--target", "53", "--move", "sixes,chance", "--upper", "45", "--yahtzee-box", "50", "66612",
            "1", "--table", tables[("official", "sixes,chance", 45, 50)]]
    done = subprocess.run([sys.executable, "-c", PROBE % (argv,)], capture_output=True, text=True, cwd=ROOT)
    probe = ast.literal_eval(done.stdout.splitlines()[-1])
    assert probe["status"] == 0, done.stderr
    ours = [name for name in probe["new"] if name.split(".")[0] == "shutthebox"]
    assert "shutthebox.games.yahtzee.target.turn" in ours
    assert all(query_time(name) for name in ours), [name for name in ours if not query_time(name)]
    assert not {"numpy", "msgpack"} & {name.split(".")[0] for name in probe["new"]}
    assert not HEAVY_STDLIB & set(probe["new"])
