"""The win-chance moves against the expected-score moves in two-player yazy (analysis time; small games).

``duel(rules)`` gives the first player's chance to win for each pair of policies, "win" (the two-player
table's moves: the highest chance to win, both playing to win) and "score" (the one-player table's moves:
the highest expected total, whatever the lead), each pair worked out by the solver's recursion with both
players' moves fixed (float64, pure Python: a few thousand (state, lead) pairs a minute), and how many
turn states at the start of the game the two policies play differently.

    python -m shutthebox.games.yazy.duel.compare ones,yazy
"""

import sys

from ....engine.dicekeep import keep_means, tree
from ..rules import CATEGORIES, ROLLS, Rules, format_categories
from ..table import load
from ..turn import best, score_row
from .table import load_duel
from .turn import DuelTurn

POLICIES = ("win", "score")


def _masks(cats: int) -> dict:
    """size -> the subsets of ``cats`` of that size; and every subset's most."""
    subsets = [m for m in range(cats + 1) if not m & ~cats]
    best_of = [max(row) for row in map(score_row, range(len(CATEGORIES)))]
    most = {m: sum(best_of[c] for c in range(len(CATEGORIES)) if m >> c & 1) for m in subsets}
    by_size: dict = {}
    for m in subsets:
        by_size.setdefault(bin(m).count("1"), []).append(m)
    return by_size, most


class Duel:
    """The chances of every pair of policies, worked out layer by layer."""

    def __init__(self, rules: Rules):
        self.rules, self.cats = rules, rules.mask
        self.win_table, self.score_table = load_duel(rules), load(rules=rules)
        self.by_size, self.most = _masks(self.cats)
        self.values = {(x, y): {} for x in POLICIES for y in POLICIES}  # (mover's, opponent's) -> {(A, B, d): V}
        self._score_moves: dict = {}

    def chance(self, x: str, y: str, mover: int, other: int, d: int) -> float:
        """The chance that the mover, playing ``x``, beats the opponent playing ``y``."""
        if d < -self.most[mover]:
            return 0.0
        if d > self.most[other]:
            return 1.0
        if not mover and not other:
            return 1.0 if d > 0 else 0.5 if d == 0 else 0.0
        return self.values[x, y][mover, other, d]

    def solve(self) -> None:
        n = bin(self.cats).count("1")
        for b in range(n):
            self._layer(b + 1, b)
            self._layer(b + 1, b + 1)

    def _layer(self, a: int, b: int) -> None:
        full = self.cats
        for mover in self.by_size[a]:
            for other in self.by_size[b]:
                low = -min(self.most[mover], self.most[full & ~other])
                high = min(self.most[other], self.most[full & ~mover])
                for d in range(low, high + 1):
                    moves = {"win": self._win_moves(mover, other, d), "score": self._score_moves_of(mover)}
                    for x in POLICIES:
                        for y in POLICIES:
                            self.values[x, y][mover, other, d] = self._played(x, y, mover, other, d, moves[x])

    def _win_moves(self, mover: int, other: int, d: int) -> dict:
        """(roll, rerolls) -> the two-player table's move (its turn worked out once)."""
        turn = self.win_table.turn(mover, other, d)
        values = turn.values(2)
        return {(r, rerolls): best(turn.choices(r, rerolls, values))[1]
                for r in range(len(ROLLS)) for rerolls in range(3)}

    def _score_moves_of(self, mover: int) -> dict:
        found = self._score_moves.get(mover)
        if found is None:
            found = self._score_moves[mover] = {
                (r, rerolls): self.score_table.probe_move(mover, "".join(map(str, roll)), rerolls)
                for r, roll in enumerate(ROLLS) for rerolls in range(3)}
        return found

    def _played(self, x: str, y: str, mover: int, other: int, d: int, moves: dict) -> float:
        """The mover's chance playing ``moves`` (policy ``x``) against ``y``: the turn with its moves fixed."""
        chance = self.chance
        after = DuelTurn(mover, lambda c, points: 1.0 - chance(y, x, other, mover & ~(1 << c), -(d + points)))
        scoring = {"score " + CATEGORIES[c]: chances for c, chances in after.scoring()}
        where = {}
        values = None
        for rerolls in range(3):
            means = keep_means(values) if rerolls else None
            row = []
            for r, roll in enumerate(ROLLS):
                move = moves[r, rerolls]
                if move in scoring:
                    row.append(scoring[move][r])
                else:
                    if roll not in where:
                        where[roll] = {text: (level, i) for level, i, _, text in tree().sub_keeps(roll)}
                    level, i = where[roll][move]
                    row.append(means[level][i])
            values = row
        return keep_means(values)[0][0]

    def differ(self) -> int:
        """How many of the 756 (roll, rerolls) states of the first turn the two policies play differently."""
        start = self._win_moves(self.cats, self.cats, 0)
        return sum(start[key] != move for key, move in self._score_moves_of(self.cats).items())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    rules = Rules(categories=argv[0] if argv else "ones,yazy")
    duel = Duel(rules)
    duel.solve()
    print("categories %s: the first player's chance to win" % format_categories(rules.mask))
    for x in POLICIES:
        for y in POLICIES:
            print("  first plays %-5s second plays %-5s %.6f" % (x, y, duel.chance(x, y, rules.mask, rules.mask, 0)))
    print("first turn states played differently: %d of %d" % (duel.differ(), 3 * len(ROLLS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
