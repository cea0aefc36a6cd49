"""``ShutTheBox pig strategies``: the exact win chances of the policies people play, against the optimal
player and against each other (analysis time; numpy; docs/PIG.md)."""

import sys

from ...engine.analysis import Parser, run_command
from ...engine.printing import checked
from .rules import Rules
from .strategies import STRATEGIES, evaluate

OPTIMAL = "optimal"
SHORT = {"keep pace, end race": "pace & race"}  # column headings


def _printed(value: float, bound: float, what: str) -> str:
    """``value`` printed, every digit vouched for by its error bound (else the command fails, exit 1)."""
    return "%.6f" % checked(value, bound + 2.0**-52, what)


def head_to_head(rules: Rules, names) -> dict:
    """(first, second) -> the exact duel (engine bound) of every ordered pair of ``names``."""
    sides = rules.sides if rules.variant == "pig" else 6
    return {(first, second): evaluate(rules.variant, rules.goal, sides, first, second)
            for first in names for second in names}


def text_table(rules: Rules, duels: dict, names) -> str:
    lines = ["%s: each policy's exact chance to win" % rules.describe(), "",
             "%-22s %13s %13s %11s" % ("policy", "first vs opt", "second vs opt", "gives away")]
    for name in names:
        first, second = duels[name, OPTIMAL], duels[OPTIMAL, name]  # the policy moving first, then second
        gives = 0.5 - (first.value + 1.0 - second.value) / 2
        lines.append("%-22s %13s %13s %11s" % (
            name, _printed(first.value, first.bound, name), _printed(1.0 - second.value, second.bound, name),
            _printed(max(gives, 0.0), first.bound + second.bound, name)))
    lines += ["", "head to head: the chance that the row's policy, moving first, beats the column's",
              "%-22s" % "" + "".join(" %13s" % SHORT.get(name, name[:13]) for name in names)]
    for first in names:
        lines.append("%-22s" % first + "".join(
            " %13s" % _printed(duels[first, second].value, duels[first, second].bound, first) for second in names))
    lines += ["", "'gives away': the chance to win lost against the optimal player, the mean of both seats."]
    return "\n".join(lines)


def strategies_main(argv) -> int:
    prog = "ShutTheBox pig strategies"

    def work():
        parser = Parser(prog=prog, description="The exact win chances of practical Pig policies.")
        for flag in Rules.option_flags():
            parser.add_argument(flag, default=None)
        args = parser.parse_args(argv)
        given = {flag: getattr(args, flag[2:]) for flag in Rules.option_flags() if getattr(args, flag[2:])}
        rules = Rules.from_options(given)
        names = [OPTIMAL, *STRATEGIES]
        if sys.stderr is not None:
            seconds = 4 * len(names) ** 2 * (rules.goal / 100) ** 3  # measured at goal 100, rounded up
            sys.stderr.write("%s: solving %d exact duels (about %d seconds)\n"
                             % (prog, len(names) ** 2, max(1, round(seconds))))
        print(text_table(rules, head_to_head(rules, names), names))
        return 0

    return run_command(prog, work)
