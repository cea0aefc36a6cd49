"""The final score of Yahtzee (any rule set, Yatzy included) under the table's moves, exactly (analysis time; numpy).

    ShutTheBox yahtzee distribution [--joker RULE | --variant yatzy] [--ties first|last]

The moves are the table's, as ``--move`` gives them: the best choice, and among choices within the tie width
(1e-9) of the best the first in the tie order (scores before keeps, boxes in the card's order, more dice
kept first, the lowest dice first). Equally good moves can differ in spread: another tie rule keeps the mean
and may change the standard deviation. ``--ties last`` takes the last tied box, else the last tied keep
(scores still before keeps): with free jokers its standard deviation is Verhoeff's 59.6117, ``--move``'s
59.611436.

One forward pass over the turn-start states, layer by layer (a layer: the states with the same number of
boxes filled). Each state holds the law of the points scored so far (a float64 per total, up to the most
its filled boxes can hold). A chunk of states of a layer is played one turn at a time, vectorised:

1. the policy: every choice's value from the table's values of the states one box later, in float64 as the
   solver does (``solver.options``, the keep tree of ``engine/dicekeep_arrays.py``); the choice is the
   first in the tie order within 1e-9 of the best. No choice may lie within 1e-10 of that threshold (else
   the float64 values could choose otherwise than ``turn.py``'s exact ones; the pass stops, none does);
2. the turn's law (``engine.dicelaw.turn_chances``): the chance that each box is scored with each number of
   points, with or without the Yahtzee bonus;
3. each state's law of points so far, shifted by each move's points (the upper bonus added when the move
   reaches 63) and weighted by its chance, added into the law of the state after it.

At the last layer the laws add up to the law of the final score. The same pass gives each state's chance to
be reached, hence each box's exact mean and chance of a zero and the bonuses' chances (``report``).
"""

import numpy as np

from ...engine.analysis import Parser, run_command
from ...engine.dicekeep_arrays import Tree, best_proper, keep_means
from ...engine.dicelaw import RELATIVE, Law, add_shifted, turn_chances
from ...engine.progress import Progress
from ...engine.text import shown
from ...errors import InvalidQuery
from .rules import (
    DICE, FIFTY, FULL_HOUSE, LARGE, OPEN, ROLLS, SIDES, SIXES, SMALL, UPPER_GOAL, YAHTZEE_BONUS, YATZY, ZERO,
    has_bonus, options_of, variant_rule,
)
from .solver import States, options, points_table
from .turn import TIE

BAND = 1e-10  # no choice's value may lie this close to the tie threshold (best - TIE)
MOST = 50  # the most one box scores
CHUNK = 512


def _first(values, threshold):
    """The first index along axis 0 whose value is ``threshold`` or more (-1 for none), ``values`` (m, 252, n)
    and ``threshold`` (252, n). The first value ``threshold - BAND`` or more must be ``threshold + BAND`` or more:
    then every value before it is clearly below, it clearly above (those after it do not matter), and values
    within 1e-12 of these choose the same."""
    near = values >= threshold - BAND
    first = near.argmax(axis=0)
    found = np.take_along_axis(values, first[None], axis=0)[0]
    some = np.take_along_axis(near, first[None], axis=0)[0]
    if (some & (found < threshold + BAND)).any():
        raise AssertionError("a choice's value lies within %g of the tie threshold" % BAND)
    return np.where(some, first, -1)


class Pass:
    """The forward pass of one rule set's table (``table``: a loaded YahtzeeTable). ``run()`` fills ``law`` (a
    ``Law``), ``boxes`` (box -> (mean points, chance of 0)), ``upper_bonus`` (its chance), ``yahtzee`` (the
    chance of 50 in the yahtzee or yatzy box) and ``bonuses`` (the mean number of Yahtzee bonuses)."""

    def __init__(self, table, last: bool = False):
        self.table = table
        self.last = last  # another tie rule, to see what it changes: among tied boxes (and keeps) the last
        self.rules = table.joker
        self.st = States(self.rules)
        self.sheet = self.st.sheet
        self.tree = Tree()
        self.proper = np.ascontiguousarray(self.tree.proper.T)  # (31, 252): each roll's proper sub-keeps, in order
        self.points = points_table(self.sheet)
        self.counts = np.array([[roll.count(face) for roll in ROLLS] for face in range(1, SIDES + 1)])
        self.yahtzee_rows = [ROLLS.index((face,) * DICE) for face in range(1, SIDES + 1)]
        table.preload()
        self.values = np.frombuffer(table.file.whole("turn").tobytes(), dtype="<f8").astype(np.float64)

    # -- one turn of a chunk of states ---------------------------------------------------------

    def policy(self, ids):
        """(box, kept): ``box[R]`` (252, n) the box each roll is scored in with R rerolls left (-1: kept),
        ``kept[R]`` the keep number it keeps (-1: scored)."""
        st, tree = self.st, self.tree
        best0, scores = options(self.rules, st, self.values, st.upper[ids], st.total[ids], st.lower[ids],
                                st.box[ids], self.points, self.counts, self.yahtzee_rows, 1.0, each=True)
        choices = np.array([scores[c] for c in range(len(self.sheet.categories))])  # (boxes, 252, n)
        n = len(ids)
        box = {0: self.pick(choices, best0 - TIE)}
        if (box[0] < 0).any():
            raise AssertionError("a roll no box may take")
        kept = {0: np.full(box[0].shape, -1)}
        before = best0
        rows = np.arange(len(ROLLS))[:, None]
        pad = np.full((len(ROLLS) + 1, n), -np.inf)  # level 5 and the padding of tree.proper
        for left in (1, 2):
            means = keep_means(tree, before)
            top = np.maximum(best0, best_proper(tree, means))
            flat = np.concatenate(means[:DICE] + [pad])
            box[left] = self.pick(choices, top - TIE)
            first = self.pick(flat[self.proper], top - TIE)  # (31, 252, n): each proper sub-keep, in the tie order
            if ((box[left] < 0) & (first < 0)).any():
                raise AssertionError("no choice reaches the best value")
            kept[left] = np.where(box[left] >= 0, -1, tree.proper[rows, np.maximum(first, 0)])
            before = top
        return box, kept

    def pick(self, values, threshold):
        """``_first``; with ``last``, the last index within the tie instead (scores still before keeps)."""
        if not self.last:
            return _first(values, threshold)
        found = _first(values[::-1], threshold)
        return np.where(found >= 0, len(values) - 1 - found, -1)

    def move_points(self, ids):
        """(boxes, 252, n): the points of each box for each roll (the joker points where the joker applies, the
        Yahtzee bonus apart); (252, n): whether scoring the roll pays the Yahtzee bonus."""
        st, n = self.st, len(ids)
        got = np.repeat(self.points[:, :, None], n, axis=2)
        bonus = np.zeros((len(ROLLS), n), dtype=bool)
        if self.sheet.yahtzee is None or not has_bonus(self.rules):
            return got, bonus
        box, upper = st.box[ids], st.upper[ids]
        filled = box != OPEN
        for face, row in enumerate(self.yahtzee_rows, 1):
            bonus[row] = box == FIFTY
            if self.rules in ("official", "free"):
                pays = filled if self.rules == "official" else filled & ((upper >> (face - 1) & 1) == 0)
                for c, points in ((FULL_HOUSE, 25), (SMALL, 30), (LARGE, 40)):
                    got[c, row] = np.where(pays, points, 0)
        return got, bonus

    def turn_law(self, ids):
        """(boxes, 2, MOST + 1, n): the chance that the turn of each state scores box c with p points, without
        (0) or with (1) the Yahtzee bonus."""
        box, kept = self.policy(ids)
        chances = turn_chances(self.tree, kept)
        got, bonus = self.move_points(ids)
        n = len(ids)
        columns = np.arange(n)[None, :]
        law = np.zeros(len(self.sheet.categories) * 2 * (MOST + 1) * n)
        for left in range(3):
            scoring = box[left] >= 0
            c = np.where(scoring, box[left], 0)
            points = np.take_along_axis(got, c[None], axis=0)[0]
            flat = ((c * 2 + bonus) * (MOST + 1) + points) * n + columns
            law += np.bincount(flat[scoring], weights=chances[left][scoring], minlength=law.size)
        return law.reshape(len(self.sheet.categories), 2, MOST + 1, n)

    # -- the pass ------------------------------------------------------------------------------

    def most_so_far(self):
        """Each state's most points so far (an upper bound): its filled boxes' most, the upper bonus where
        the upper total reached 63, 50 and a Yahtzee bonus for each box filled after it where the yahtzee box
        holds 50."""
        st, sheet = self.st, self.sheet
        most = np.zeros(len(st.upper), dtype=np.int64)
        for c in range(SIXES + 1):
            most += np.where(st.upper >> c & 1, 0, sheet.most[c])
        for bit, c in enumerate(sheet.lower):
            most += np.where(st.lower >> bit & 1, 0, sheet.most[c])
        most += np.where(st.total == UPPER_GOAL, sheet.upper_bonus, 0)
        if sheet.yahtzee is not None:
            filled = len(sheet.categories) - st.open
            most += np.where(st.box == FIFTY, 50 + YAHTZEE_BONUS * (filled - 1), 0)
        return most

    def run(self, progress=None, start=None):
        """The pass from the start of the game, or from the turn-start state ``start`` (card, upper total,
        yahtzee box): then the law is of the points still to come."""
        st, sheet = self.st, self.sheet
        card, upper, holds = start if start is not None else (sheet.all, 0, OPEN)
        boxes = len(sheet.categories)
        filled = boxes - st.open
        most = self.most_so_far()
        slot_of = np.full(len(st.upper), -1, dtype=np.int64)
        groups = {}
        for layer in range(boxes + 1):
            for kind in range(sheet.boxes):
                ids = np.flatnonzero((filled == layer) & (st.box == kind))
                if len(ids):
                    groups[layer, kind] = (len(ids), int(most[ids].max()) + 1)
        first = boxes - bin(card).count("1")
        laws = {(first, holds): Group(*groups[first, holds], slot_of)}
        laws[first, holds].rows[laws[first, holds].slots([sheet.state_index(card, upper, holds)]), 0] = 1.0
        self.box_sums = np.zeros((boxes, 2))  # the mean points, the chance of 0
        self.upper_bonus = self.yahtzee = self.bonuses = 0.0
        self.reached = done = 0
        with Progress(len(st.upper), "distribution (%s)" % " ".join(options_of(self.rules)), unit="states",
                      enabled=progress) as bar:
            for layer in range(first, boxes):
                for key in groups:
                    if key[0] == layer + 1:
                        laws[key] = Group(*groups[key], slot_of)
                for holds in range(sheet.boxes):
                    group = laws.pop((layer, holds), None)
                    if group is None:
                        continue
                    self.reached += group.used
                    for at in range(0, group.used, CHUNK):
                        chunk = group.states[at:min(at + CHUNK, group.used)]
                        self.step(chunk, group.rows[at:at + len(chunk)], laws, layer, holds)
                    done += groups[layer, holds][0]
                    bar.update(done)
                    del group
        final = np.zeros(max(group.rows.shape[1] for group in laws.values()))
        for group in laws.values():  # the last layer: every box filled
            final[:group.rows.shape[1]] += group.rows[:group.used].sum(axis=0)
        self.law = Law(final)
        self.boxes = {sheet.categories[c]: (self.box_sums[c, 0], self.box_sums[c, 1]) for c in range(boxes)}
        return self

    def step(self, chunk, now, laws, layer, holds):
        """One turn of the states ``chunk`` (their laws of points so far ``now``) into the next layer's laws."""
        st, sheet = self.st, self.sheet
        law = self.turn_law(chunk)
        reach = now.sum(axis=1)  # each state's chance to be reached
        upper, total, lower = st.upper[chunk], st.total[chunk], st.lower[chunk]
        box = np.full(len(chunk), holds)
        points = np.arange(MOST + 1)
        for c in range(len(sheet.categories)):
            weights = law[c]  # (2, MOST + 1, n)
            if not weights.any():
                continue
            reached = (weights * reach).sum(axis=2)  # (2, MOST + 1): the chance of each outcome in the game
            self.box_sums[c, 0] += float((reached.sum(axis=0) * points).sum())
            self.box_sums[c, 1] += float(reached[:, 0].sum())
            self.bonuses += float(reached[1].sum())
            if c == sheet.yahtzee or (sheet.yahtzee is None and c == len(sheet.categories) - 1):
                self.yahtzee += float(reached[0, 50])
            for bonus in (0, 1):
                for p in np.flatnonzero(weights[bonus].any(axis=1)):
                    rows = np.flatnonzero(weights[bonus, p])
                    w = weights[bonus, p, rows]
                    shift = int(p) + YAHTZEE_BONUS * bonus
                    if c <= SIXES:
                        bit = 1 << c
                        after = np.minimum(total[rows] + p, UPPER_GOAL)
                        targets = st.index(upper[rows] & ~bit, after, lower[rows], box[rows])
                        crossing = (total[rows] < UPPER_GOAL) & (total[rows] + p >= UPPER_GOAL)
                        self.upper_bonus += float((w * reach[rows] * crossing).sum())
                        for crosses in (False, True):
                            part = crossing == crosses
                            if part.any():
                                laws[layer + 1, holds].add(targets[part], shift + sheet.upper_bonus * crosses,
                                                           w[part], now[rows[part]])
                    elif c == sheet.yahtzee:
                        after = FIFTY if p else ZERO
                        targets = st.index(upper[rows], total[rows], lower[rows], np.full(len(rows), after))
                        laws[layer + 1, after].add(targets, shift, w, now[rows])
                    else:
                        bit = 1 << sheet.lower.index(c)
                        targets = st.index(upper[rows], total[rows], lower[rows] & ~bit, box[rows])
                        laws[layer + 1, holds].add(targets, shift, w, now[rows])


class Group:
    """The laws of points so far of a group of states (a layer, what the yahtzee box holds): a row of ``width``
    chances for each state, in the order the pass first reaches them (``states``); ``slot_of`` (shared by the
    groups) maps a state to its row. The rows are zeros that take memory only once written (numpy's zeros are
    pages the system maps when first touched), so states the moves never reach cost nothing."""

    def __init__(self, capacity: int, width: int, slot_of):
        self.rows = np.zeros((capacity, width))
        self.states = np.zeros(capacity, dtype=np.int64)
        self.used = 0
        self.slot_of = slot_of

    def slots(self, targets):
        """The rows of the states ``targets``, new ones given the next rows."""
        targets = np.asarray(targets)
        slots = self.slot_of[targets]
        if (slots < 0).any():
            fresh = np.unique(targets[slots < 0])
            self.slot_of[fresh] = np.arange(self.used, self.used + len(fresh))
            self.states[self.used:self.used + len(fresh)] = fresh
            self.used += len(fresh)
            slots = self.slot_of[targets]
        return slots

    def add(self, targets, shift: int, weights, source) -> None:
        add_shifted(self.rows, self.slots(targets), shift, weights, source)


def distribution(rules: str, progress=None, last: bool = False) -> Pass:
    from .table import load

    return Pass(load(rules), last).run(progress)


def text(found: Pass) -> str:
    """What ``distribution`` prints."""
    law, exact = found.law, float(found.table.probe_expect("all"))
    mean = law.check("the final score", exact)  # the table's value, to its printed digits
    rows, cut = law.rows()
    name = "Yatzy" if found.rules == YATZY else "Yahtzee (%s jokers)" % found.rules
    ties = ("the last box, else the last keep, in the tie order (--ties last)" if found.last else
            "the first in the tie order, as --move")
    lines = ["%s: the final score under the table's moves (the best choice; among choices within 1e-9 of it, %s), "
             "exactly" % (name, ties),
             "%6s %12s %12s" % ("total", "P(exactly)", "P(at least)")]
    lines += ["%6d %12.6f %12.6f" % row for row in rows]
    if cut is not None:
        lines.append("%6s totals %d to %d: together %.3g (each below 0.0000005)" % ("", cut, law.highest,
                                                                                   law.at_least[cut]))
    lines.append("mean %s (the law's %.9f: the table's maximum expected score within the law's error bound), "
                 "standard deviation %.6f, median %d" % (mean, law.mean, law.sd, law.median))
    lines.append("lowest total %d, highest %d; chances within a relative %g of the exact ones"
                 % (law.lowest, law.highest, RELATIVE))
    return "\n".join(lines)


def distribution_main(argv) -> int:
    prog = "ShutTheBox yahtzee distribution"

    def work():
        parser = Parser(prog=prog, description="The exact law of the final score under the table's moves.")
        parser.add_argument("--joker", default=None)
        parser.add_argument("--variant", default=None)
        parser.add_argument("--ties", default="first", help="first (as --move, the default) or last")
        args = parser.parse_args(argv)
        if args.ties not in ("first", "last"):
            raise InvalidQuery("--ties must be first or last, not '%s'" % shown(args.ties))
        found = distribution(variant_rule(args.variant, args.joker), progress=None, last=args.ties == "last")
        print(text(found))
        return 0

    return run_command(prog, work)

