"""Every published exact figure beside ours: ``ShutTheBox report --published`` (analysis time).

    ShutTheBox report --published > docs/RESULTS.md

Writes the Markdown of docs/RESULTS.md on standard output. Nothing in it is typed by hand but the
published figures themselves (as their sources print them) and where they come from: each of our values
is computed here (exact Fractions from the solvers where this game has them), each command is run (in
this process, by the command's own runner, engine/command.py's ``run``) and its output shown, and each
comparison is made here. The tests regenerate the document and compare it with the file.
"""

from __future__ import annotations

import contextlib
import io
import sys
from fractions import Fraction

from ....engine.text import shown
from ....errors import ShutTheBoxError
from ..rules import Rules
from ..solver import solve_two_player
from .solver import Throws, solve_solo
from .table import VARIANTS

PROG = "ShutTheBox report --published"

# Where the figures come from: key -> the words of the document.
SOURCES = {
    "butler": "Bill Butler, *\"Shut The Box\" Analysis* (Durango Bill), http://www.durangobill.com/ShutTheBox.html: "
              "its table of end-of-game probabilities in percent (http://www.durangobill.com/ShutTheBoxExtra/"
              "STBstats.txt), the row of a perfect game, one column per rule set",
    "andy327": "andy327/shut-the-box, a single-player solver and strategy benchmark in Scala, its README "
               "(https://github.com/andy327/shut-the-box): always two dice, single player",
    "assignment": "the two-player assignment (\"Assignment 2: Dynamic Programming\"), its seven examples: the "
                  "public acceptance cases of this program",
    "pe640": "Project Euler problem 640, \"Shut the Box\" (https://projecteuler.net/problem=640): its published "
             "answer",
    "pe640-check": "the EulerSolve write-up of problem 640: its 4-card, 2-sided checkpoint",
    "yazy": "the blog post that solved yazy by dynamic programming: \"the maximum expected score is 165.76\"",
    "unknown": "no published text located; the figure as this project was asked to reproduce it",
}


class Figure:
    """One published figure: ``what`` it is, ``published`` as the source prints it, ``source`` (a key of
    SOURCES), the command (argv after ``ShutTheBox``) that prints ours, and ``exact`` (a Fraction, or None
    where ours is the command's printed value)."""

    def __init__(self, what, published, source, argv, exact=None, show_fraction=False):
        self.what, self.published, self.source, self.argv = what, published, source, list(argv)
        self.exact, self.show_fraction = exact, show_fraction
        self.printed = None

    def command(self) -> str:
        return "ShutTheBox " + " ".join(self.argv)

    def ours(self) -> str:
        if self.exact is None:
            return "`%s`" % self.printed
        text = "%.10f" % self.exact
        if self.show_fraction or self.exact.denominator < 10**6:
            text = "%d/%d = %s" % (self.exact.numerator, self.exact.denominator, text)
        return text

    def agrees(self) -> str:
        """How the published figure compares with ours: the same digits, rounded; within float64 rounding."""
        text = self.published
        if text.startswith("["):
            return "yes (the same move)" if text == self.printed else "NO"
        value = self.exact if self.exact is not None else Fraction(self.printed)
        if "/" in text:
            return "yes (the same fraction)" if Fraction(text) == value else "NO"
        if text.endswith("%"):
            number, value = text[:-1], value * 100
        else:
            number = text
        decimals = len(number.split(".")[1]) if "." in number else 0
        if decimals >= 15:  # a float64 as a program prints it
            close = abs(Fraction(number) - value) <= abs(value) * Fraction(1, 2**50)
            return "yes (to float64 rounding)" if close else "NO"
        rounded = round(value, decimals)
        same = Fraction(number) == rounded
        return ("yes (rounded to %d decimal%s)" % (decimals, "" if decimals == 1 else "s")) if same else "NO"


def _position(tiles) -> str:
    return "".join(str(tile) for tile in sorted(tiles))


def _tiles(mask: int) -> list:
    return [index + 1 for index in range(mask.bit_length()) if mask >> index & 1]


def figures() -> list:
    """[(section title, [Figure])], each exact value computed now."""
    sections = []
    solos = {name: solve_solo(rules) for name, rules in VARIANTS.items()}
    start = Rules().all_open

    def solo(name, position=start):
        return solos[name].shut_probability(position)

    single = [
        Figure("one player, the assignment's dice (one die once the open tiles sum to 6 or less): the chance to "
               "shut the box", "9.7614%", "butler", ["--solo", "--expect", "123456789"], solo("standard")),
        Figure("one player, always two dice", "7.1432%", "butler",
               ["--solo", "--expect", "123456789", "--variant", "two-dice"], solo("two-dice")),
        Figure("one player, the assignment's dice, at most two tiles a roll", "7.4194%", "butler",
               ["--solo", "--expect", "123456789", "--variant", "two-tiles"], solo("two-tiles")),
        Figure("one player, always two dice (the reference's \"true probability\", in percent)", "7.143", "andy327",
               ["--solo", "--expect", "123456789", "--variant", "two-dice"], solo("two-dice") * 100),
    ]
    six = Rules(tiles=6, dice=1, one_die_at_most=None)
    single.append(Figure("one player, 6 tiles, one die: the chance to shut the box", "145/1944", "unknown",
                         ["--solo", "--expect", "123456", "--tiles", "6", "--dice", "1"],
                         solve_solo(six).shut_probability(six.all_open), show_fraction=True))
    sections.append(("One player: the chance to shut the box", single))

    two = solve_two_player(Rules())
    examples = [
        Figure("player one's expected wins from the start", "0.502810", "assignment",
               ["--one", "--expect", "123456789"], two.expect_one(start), show_fraction=True),
        Figure("player one at 146789", "0.256254", "assignment", ["--one", "--expect", "146789"],
               two.expect_one(_mask([1, 4, 6, 7, 8, 9]))),
        Figure("player one's move at 146789 with a roll of 9", "[9]", "assignment",
               ["--one", "--move", "146789", "9"]),
        Figure("player two from the start, player one having scored 8", "0.381212", "assignment",
               ["--two", "--expect", "123456789", "8"], two.expect_two(start, 8)),
        Figure("player two at 12345689 against 41", "1.000000", "assignment",
               ["--two", "--expect", "12345689", "41"], two.expect_two(_mask([1, 2, 3, 4, 5, 6, 8, 9]), 41)),
        Figure("player two at 13456789 against 43", "0.986111", "assignment",
               ["--two", "--expect", "13456789", "43"], two.expect_two(_mask([1, 3, 4, 5, 6, 7, 8, 9]), 43)),
        Figure("player two's move at 13456789 against 17 with a roll of 12", "[3, 9]", "assignment",
               ["--two", "--move", "13456789", "17", "12"]),
    ]
    sections.append(("Two players: the assignment's examples", examples))

    reference = []
    for tiles, published in (((1, 2, 4), "0.18209876543209874"), ((3, 4), "0.1759259259259259"),
                             ((2, 5), "0.1728395061728395"), ((7,), "0.16666666666666666"),
                             ((1, 6), "0.16666666666666666"), ((1, 2, 5), "0.15895061728395063"),
                             ((1, 3, 4), "0.15817901234567902"), ((2, 3, 4), "0.1550925925925926"),
                             ((3, 5), "0.15123456790123457"), ((1, 2, 3, 4), "0.14744084362139914")):
        reference.append(Figure("always two dice, from %s" % _position(tiles), published, "andy327",
                                ["--solo", "--expect", _position(tiles), "--variant", "two-dice"],
                                solo("two-dice", _mask(tiles))))
    for tiles, published in (((1, 2, 5), "15.895%"), ((1, 3, 4), "15.818%")):
        reference.append(Figure("always two dice, from %s (in the text)" % _position(tiles), published, "andy327",
                                ["--solo", "--expect", _position(tiles), "--variant", "two-dice"],
                                solo("two-dice", _mask(tiles))))
    best = solos["two-dice"]
    for roll, published in ((9, "0.10150185360563307"), (8, "0.0843992883264558"), (12, "0.0797040646327626"),
                            (11, "0.0727007112207658"), (7, "0.07125306992568319"), (10, "0.06943424590523688"),
                            (6, "0.06499269203919156"), (5, "0.06108456955064155"), (4, "0.05532663847072549"),
                            (3, "0.05106821208604296"), (2, "0.045189824620113055")):
        after = start ^ best.move(start, roll)
        reference.append(Figure("always two dice, first roll %d, then the best move (closing %s)"
                                 % (roll, _position(_tiles(best.move(start, roll)))), published, "andy327",
                                 ["--solo", "--expect", _position(_tiles(after)), "--variant", "two-dice"],
                                 solo("two-dice", after)))
    sections.append(("One player, always two dice: the reference project's exact values", reference))

    others = [
        Figure("Project Euler 640: the fewest expected rolls to turn every card, 12 cards, two dice", "50.317928",
               "pe640", ["toggle", "--expect", "all"]),
        Figure("the same with 4 cards and 2-sided dice (coins)", "5.673651", "pe640-check",
               ["toggle", "--cards", "4", "--sides", "2", "--expect", "all"]),
        Figure("yazy: the maximum expected score", "165.76", "yazy", ["yazy", "--expect"]),
    ]
    sections.append(("The other games", others))
    for _, rows in sections:
        for figure in rows:
            figure.printed = run(figure.argv)
    return sections


def _mask(tiles) -> int:
    return sum(1 << (tile - 1) for tile in tiles)


def run(argv) -> str:
    """What ``ShutTheBox ARGV`` prints (its one line), run in this process; a failure is an error.

    The game's grammar, found by the registry as the command finds it (a first word naming a game, else Shut
    the Box), is run by engine/command.py's ``run``, the command's own: never the top-level ``cli``, which a
    game does not import."""
    from .... import registry
    from ....engine.command import run as run_command

    argv, name, words = list(argv), registry.DEFAULT, list(argv)
    if words[:1] and words[0] in registry.NAMED_FIRST:
        name, words = words[0], words[1:]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run_command(registry.grammar(name), words)
    if status != 0:
        raise ShutTheBoxError("`ShutTheBox %s` failed: %s" % (" ".join(argv), err.getvalue().strip()))
    return out.getvalue().strip()


def counts() -> list:
    """The reference project's counts of the game (always two dice): [(what, published, ours)]."""
    rules = VARIANTS["two-dice"]
    throws = Throws(rules)
    rolls = range(rules.dice, rules.max_roll + 1)
    valid = sum(1 for position in range(1, throws.size) for roll, _, moves in throws.options[position][1] if moves)
    return [("(position, roll total) pairs: 2^9 positions x 11 totals", "5,632", throws.size * len(rolls)),
            ("pairs with a legal move", "4,040", valid)]


def markdown() -> str:
    sections = figures()
    lines = ["# Published figures, reproduced", "",
             "Generated by `ShutTheBox report --published > docs/RESULTS.md`; `tests/test_published.py` "
             "regenerates it and compares. Each row: a figure as its source prints it, our exact value (a "
             "fraction from the solvers' integer arithmetic where the game has one, else the command's "
             "correctly rounded output), a command that prints it and what that command printed when this file "
             "was made, and whether the two agree at the published precision.", "", "## Sources", ""]
    for key, words in SOURCES.items():
        lines.append("- **%s**: %s." % (key, words))
    disagreements = 0
    for title, rows in sections:
        lines += ["", "## %s" % title, "",
                  "| figure | published | source | ours (exact) | command | prints | agrees |",
                  "| --- | ---: | --- | ---: | --- | ---: | --- |"]
        for figure in rows:
            verdict = figure.agrees()
            disagreements += verdict == "NO"
            exact = figure.ours() if figure.exact is not None else "(as printed)"
            lines.append("| %s | %s | %s | %s | `%s` | `%s` | %s |" % (
                figure.what, figure.published, figure.source, exact, figure.command(), figure.printed, verdict))
    lines += ["", "## Counts (no command prints them; computed from the solver's throws)", "",
              "| count | published (andy327) | ours |", "| --- | ---: | ---: |"]
    for what, published, ours in counts():
        agree = int(published.replace(",", "")) == ours
        disagreements += not agree
        lines.append("| %s | %s | %s |" % (what, published, format(ours, ",")))
    total = sum(len(rows) for _, rows in sections) + len(counts())
    lines += ["", "%d figures, %s." % (total, "all agree" if not disagreements else "%d DISAGREE" % disagreements),
              "", "Not reproduced here: the reference project's simulated win rates (Monte Carlo, not exact; "
              "docs/SOLO.md compares them), and the reference's Most Options figure, whose strategy differs "
              "from ours (docs/SOLO.md)."]
    return "\n".join(lines) + "\n"


def main(argv) -> int:
    if argv:
        sys.stderr.write("%s: takes no other option, got %s\n" % (PROG, shown(" ".join(argv))))
        return 2
    try:
        text = markdown()
    except ShutTheBoxError as error:
        sys.stderr.write("%s: %s\n" % (PROG, error))
        return error.exit_status
    sys.stdout.write(text)
    return 0
