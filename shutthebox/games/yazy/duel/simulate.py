"""The win-chance moves against the expected-score moves, played out (analysis time; any game).

``compare.py`` works the policies' chances out exactly, but only for small games: its recursion is pure
Python. For the full game this plays seeded games instead. Each game is played three times on the same
dice (each player draws from their own stream, seeded by the game's number): both players "score" (the
one-player table's moves), the first player "win" (the two-player table's) against "score", and "score"
against "win". Two "score" players win half their games exactly (their totals are alike and
independent), so the gain of playing to win is estimated from the difference with the first replay,
whose dice it shares: that cancels most of the luck. Also counted: how many of the "win" player's
decisions the "score" table would have made worse, its move's chance to win lower than the best (moves
of equal chance, such as any move once the game is decided, are not counted).

    python -m shutthebox.games.yazy.duel.simulate --categories all --games 20000 --seed 1 [--start G]
    python -m shutthebox.games.yazy.duel.simulate --merge TALLY.json ...

The first prints a summary and, last, its tally as one JSON line (``--start`` lets runs side by side
play different games); ``--merge`` sums tallies and prints their summary.
"""

import argparse
import json
import random
import sys
from math import sqrt

from ..rules import CATEGORIES, ROLLS, Rules, roll_index, score
from ..table import load
from .table import load_duel
from ..turn import TIE
from .turn import best

MATCHES = (("score", "score"), ("win", "score"), ("score", "win"))  # (first player's, second's)


class Players:
    """The two policies' moves in a game of ``rules``: "win" from the two-player table, "score" from the
    one-player one."""

    def __init__(self, rules: Rules):
        self.win_table, self.score_table = load_duel(rules), load(rules=rules)

    def turn(self, policy: str, mover: int, other: int, d: int, rng: random.Random, tally: dict) -> tuple:
        """Play one turn: (category scored, points)."""
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        turn = values = None
        if policy == "win":
            turn = self.win_table.turn(mover, other, d)
            values = turn.values(2)
        for rerolls in (2, 1, 0):
            text = "".join(map(str, dice))
            move = self.score_table.probe_move(mover, text, rerolls)
            if policy == "win":
                choices = turn.choices(roll_index(text), rerolls, values)
                top, win_move = best(choices)
                tally["decisions"] += 1
                tally["differ"] += next(chance for chance, choice in choices if choice == move) < top - TIE
                move = win_move
            if move.startswith("score "):
                c = CATEGORIES.index(move[len("score "):])
                return c, score(c, ROLLS[roll_index(text)])
            kept = [] if move == "keep none" else [int(die) for die in move.split()[1:]]
            dice = sorted(kept + [rng.randint(1, 6) for _ in range(5 - len(kept))])
        raise AssertionError("yazy duel: no category scored with no rerolls left")

    def game(self, policies: tuple, cats: int, seed: str, tally: dict) -> float:
        """One game from the start: 1 if the first player wins, 1/2 a tie, 0 a loss."""
        open_, total = [cats, cats], [0, 0]
        streams = [random.Random("%s-%d" % (seed, player)) for player in (0, 1)]
        while open_[1]:
            for player in (0, 1):
                c, points = self.turn(policies[player], open_[player], open_[1 - player],
                                      total[player] - total[1 - player], streams[player], tally)
                open_[player] &= ~(1 << c)
                total[player] += points
        return 1.0 if total[0] > total[1] else 0.5 if total[0] == total[1] else 0.0


def empty_tally(categories: str) -> dict:
    tally = {"categories": categories, "games": 0, "decisions": 0, "differ": 0, "games_differ": 0}
    for first, second in MATCHES[1:]:
        tally.update({"%s-%s" % (first, second): 0.0, "%s-%s gain^2" % (first, second): 0.0})
    return tally


def play(rules: Rules, games: int, seed: int, start: int = 0, tally: dict | None = None) -> dict:
    """Play games ``start`` to ``start + games - 1`` of ``seed``; their sums added to ``tally``."""
    players = Players(rules)
    tally = tally or empty_tally(rules.categories)
    for g in range(start, start + games):
        base = players.game(MATCHES[0], rules.mask, "%d-%d" % (seed, g), tally)
        differ = tally["differ"]
        for first, second in MATCHES[1:]:
            gain = players.game((first, second), rules.mask, "%d-%d" % (seed, g), tally) - base
            tally["%s-%s" % (first, second)] += gain
            tally["%s-%s gain^2" % (first, second)] += gain * gain
        tally["games_differ"] += tally["differ"] > differ
        tally["games"] += 1
    return tally


def merged(tallies: list) -> dict:
    if len({tally["categories"] for tally in tallies}) != 1:
        raise SystemExit("simulate: the tallies are of different games")
    out = dict(tallies[0])
    for tally in tallies[1:]:
        for key, value in tally.items():
            if key != "categories":
                out[key] += value
    return out


def summary(tally: dict) -> str:
    """The first player's estimated chance in each match (0.5 plus the mean gain, with its standard
    error), and how often the policies chose differently."""
    n = tally["games"]
    lines = ["categories %s, %d games each played 3 times on the same dice" % (tally["categories"], n),
             "  first plays score  second plays score  0.500000 (exact)"]
    for first, second in MATCHES[1:]:
        key = "%s-%s" % (first, second)
        mean = tally[key] / n
        error = sqrt(max(tally[key + " gain^2"] / n - mean * mean, 0.0) / (n - 1)) if n > 1 else float("nan")
        lines.append("  first plays %-5s second plays %-5s %.4f +- %.4f (one standard error)"
                     % (first, second, 0.5 + mean, error))
    lines.append("  the win player's decisions where the score table's move has a lower chance: %d of %d (%.2f%%), "
                 "in %.1f%% "
                 "of the games" % (tally["differ"], tally["decisions"], 100 * tally["differ"] / tally["decisions"],
                                   100 * tally["games_differ"] / n))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shutthebox.games.yazy.duel.simulate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--categories", default="all")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--merge", nargs="+", metavar="TALLY")
    args = parser.parse_args(argv)
    if args.merge:
        tallies = []
        for name in args.merge:
            with open(name) as file:
                tallies.append(json.loads(file.read().strip().splitlines()[-1]))
        print(summary(merged(tallies)))
        return 0
    rules = Rules(categories=None if args.categories == "all" else args.categories)
    tally = play(rules, args.games, args.seed, args.start)
    print(summary(tally))
    print(json.dumps(tally))
    return 0


if __name__ == "__main__":
    sys.exit(main())
