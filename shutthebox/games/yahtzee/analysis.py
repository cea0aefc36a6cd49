"""Full Yahtzee under optimal play (analysis time): seeded games, a report, and the review of a played game.

    ShutTheBox yahtzee simulate [--games N] [--seed S] [--joker RULE | --variant yatzy] [--log FILE]
    ShutTheBox yahtzee report [--out DIR] [--games N] [--seed S] [--joker RULE | --variant yatzy]
    ShutTheBox yahtzee review [--joker RULE | --variant yatzy] < game.txt

``simulate`` plays the table's moves and reports the final score's mean with a 95%
interval (which must contain the exact value), its standard deviation, how often the
upper bonus and a Yahtzee are scored, and the mean of each box; ``--log`` writes
every decision in the format ``review`` reads. ``report`` writes the same as
report.md with an SVG histogram. ``review`` values each decision of a played game
against the best and lists the costliest.

The moves maximise the expected score. That is not maximising the chance to beat an
opponent: a player far behind late in the game should gamble.
"""

import math
import random
from fractions import Fraction

from ...engine.analysis import histogram as engine_histogram
from ...engine.analysis import Parser, analysis_commands, run_command, write_report
from ...engine.analysis import svg_histogram as engine_svg_histogram
from ...engine.printing import checked
from ...engine.progress import Progress
from ...engine.text import shown
from ...errors import InvalidQuery, TableError
from .grammar import card_words, query_options
from .rules import (
    DICE, FIFTY, OPEN, REROLLS, SIDES, SIXES, UPPER_GOAL, YAHTZEE_BONUS, YATZY, ZERO, format_categories, has_bonus,
    joker_choices, options_of, parse_dice, rerolls_left, same_box, sheet, variant_rule, yahtzee_bonus,
)
from .table import load
from .turn import TIE, decimal

BIN = 25  # points per bar of the distribution


# -- playing -------------------------------------------------------------------------------

def points_of(joker: str, card: int, box: int, category: int, roll) -> int:
    """The box's points for ``roll`` (the joker points where the joker applies; bonuses apart)."""
    if roll[0] == roll[-1] and box != OPEN and has_bonus(joker):
        for c, points in joker_choices(joker, card, box, roll[0]):
            if c == category:
                return points
        raise InvalidQuery("the joker rule does not allow a Yahtzee in %s here" % sheet(joker).categories[category])
    return sheet(joker).score(category, roll)


def question(card: int, upper: int, box: int, rules: str = "official") -> str:
    """The words of a question on this turn-start state: ``CARD [--upper N] [--yahtzee-box V]``."""
    words = [format_categories(card, rules)]
    if upper:
        words.append("--upper %d" % upper)
    if box != OPEN:
        words.append("--yahtzee-box %d" % (50 if box == FIFTY else 0))
    return " ".join(words)


class Scored:
    """What one move earns: the box's points, the upper bonus, the Yahtzee bonus; and the state after it."""

    def __init__(self, joker, card, upper, box, category, roll):
        found = sheet(joker)
        self.points = points_of(joker, card, box, category, roll)
        self.yahtzee_bonus = yahtzee_bonus(joker, box, roll)
        self.upper_bonus = found.upper_bonus if category <= SIXES and upper < UPPER_GOAL <= upper + self.points else 0
        self.card = card & ~(1 << category)
        self.upper = upper + self.points if category <= SIXES else upper
        self.box = (FIFTY if self.points else ZERO) if category == found.yahtzee else box
        self.total = self.points + self.yahtzee_bonus + self.upper_bonus


def play(table, games: int, seed: int, log=None, progress=None) -> list:
    """``games`` seeded games played by the best moves: [(final score, upper bonus earned, Yahtzee scored
    (50 in its box), Yahtzee bonuses, [points of each box])]. ``log`` (a text file) gets every decision."""
    table.preload()
    joker = table.joker
    found = sheet(joker)
    fifty = found.yahtzee if found.yahtzee is not None else len(found.categories) - 1  # yahtzee, or yatzy
    rng = random.Random(seed)
    die = rng.random
    results = []
    with Progress(games, "yahtzee", enabled=progress) as bar:
        for game in range(games):
            card, upper, box, total, bonus, bonuses = found.all, 0, OPEN, 0, False, 0
            boxes = [0] * len(found.categories)
            if log is not None:
                log.write("# game %d\n" % (game + 1))
            while card:
                turn = table.turn(card, upper, box)
                dice = [int(die() * SIDES) + 1 for _ in range(DICE)]
                for rerolls in range(2, -1, -1):
                    roll = tuple(sorted(dice))
                    _, text, move = turn.best(roll, rerolls)
                    if log is not None:
                        log.write("%s %s %d %s\n" % (question(card, upper, box, joker), "".join(map(str, roll)),
                                                     rerolls, text))
                    if move[0] == "score":
                        break
                    dice = list(move[1]) + [int(die() * SIDES) + 1 for _ in range(DICE - len(move[1]))]
                scored = Scored(joker, card, upper, box, move[1], roll)
                total += scored.total
                boxes[move[1]] += scored.points
                bonus = bonus or scored.upper_bonus > 0
                bonuses += scored.yahtzee_bonus > 0
                card, upper, box = scored.card, scored.upper, scored.box
            results.append((total, bonus, boxes[fifty] == 50, bonuses, boxes))
            if game % 50 == 0:
                bar.update(game)
        bar.update(games)
    return results


# -- the summary ---------------------------------------------------------------------------

def interval(totals) -> tuple[float, float, float]:
    """(mean, half-width of the 95% interval, standard deviation)."""
    count = len(totals)
    mean = sum(totals) / count
    deviation = math.sqrt(sum((t - mean) ** 2 for t in totals) / max(count - 1, 1))
    return mean, 1.96 * deviation / math.sqrt(count), deviation


def sd_interval(totals) -> tuple[float, float]:
    """A 95% interval for the standard deviation (large samples): the sample's, plus or minus 1.96 times its
    standard error sqrt((m4 - m2^2) / n) / (2 s), m2 and m4 the second and fourth central moments."""
    count = len(totals)
    mean, _, deviation = interval(totals)
    second = sum((t - mean) ** 2 for t in totals) / count
    fourth = sum((t - mean) ** 4 for t in totals) / count
    error = math.sqrt(max(fourth - second * second, 0.0) / count) / (2 * deviation) if deviation else 0.0
    return deviation - 1.96 * error, deviation + 1.96 * error


def histogram(totals) -> list:
    return engine_histogram(totals, BIN)


def title(rules: str) -> str:
    """``yahtzee (official jokers)``, ``yatzy``: the rule set in a summary's words."""
    return "yatzy" if rules == YATZY else "yahtzee (%s jokers)" % rules


def figures(results, exact: float, rules: str = "official") -> dict:
    totals = [result[0] for result in results]
    count = len(results)
    mean, half, deviation = interval(totals)
    low, high = sd_interval(totals)
    ordered = sorted(totals)
    box_means = [sum(result[4][c] for result in results) / count for c in range(len(sheet(rules).categories))]
    return {"games": count, "mean": mean, "half": half, "sd": deviation, "sd_low": low, "sd_high": high,
            "exact": exact, "contains": abs(mean - exact) <= half, "min": ordered[0], "median": ordered[count // 2],
            "max": ordered[-1], "bonus": sum(result[1] for result in results) / count,
            "yahtzee": sum(result[2] for result in results) / count,
            "bonuses": sum(result[3] for result in results) / count, "boxes": box_means,
            "upper_bonus_mean": sheet(rules).upper_bonus * sum(result[1] for result in results) / count,
            "yahtzee_bonus_mean": YAHTZEE_BONUS * sum(result[3] for result in results) / count}


def _sd_words(f) -> str:
    return "standard deviation %.2f (95%% interval %.2f to %.2f; the exact value: ShutTheBox yahtzee distribution)" \
        % (f["sd"], f["sd_low"], f["sd_high"])


def summary(results, exact: float, seed: int, joker: str) -> str:
    f = figures(results, exact, joker)
    names = sheet(joker).categories
    lines = ["%s, optimal play (maximum expected score %.6f): %d games, seed %d"
             % (title(joker), exact, f["games"], seed),
             "mean %.3f +- %.3f (95%% interval %.3f to %.3f; %s the exact value)"
             % (f["mean"], f["half"], f["mean"] - f["half"], f["mean"] + f["half"],
                "contains" if f["contains"] else "MISSES"),
             _sd_words(f), "min %d, median %d, max %d" % (f["min"], f["median"], f["max"]),
             "upper bonus in %.1f%% of games; %s in %.1f%%%s"
             % (100 * f["bonus"], "a yatzy (50)" if joker == YATZY else "a Yahtzee (50 in its box)",
                100 * f["yahtzee"], "; %.4f Yahtzee bonuses a game" % f["bonuses"] if has_bonus(joker) else ""),
             "box means (of these games): " + ", ".join("%s %.2f" % (name, f["boxes"][c])
                                                        for c, name in enumerate(names)),
             "final score   games"]
    top = max(count for _, count in histogram([r[0] for r in results]))
    for low, count in histogram([r[0] for r in results]):
        lines.append("%4d-%-4d %8d  %s" % (low, low + BIN - 1, count, "#" * round(40 * count / top)))
    return "\n".join(lines)


def svg_histogram(totals, exact: float, rules: str = "official") -> str:
    return engine_svg_histogram(totals, exact, "%s: final scores of %d simulated games under optimal play"
                                % ("Yatzy" if rules == YATZY else "Yahtzee", len(totals)), BIN, 4)


def _exact(value: float, what: str) -> str:
    """``%.6f`` of a figure of the exact pass, its digits vouched for (engine/printing.py)."""
    from ...engine.dicelaw import RELATIVE

    return "%.6f" % checked(value, 2 * RELATIVE * abs(value), what)


def exact_lines(found) -> list:
    """The report's exact figures (distribution.Pass): the final score's law, each box's mean and chance of 0."""
    joker, law = found.rules, found.law
    mean = law.check("the final score", float(found.table.probe_expect("all")))
    sheet_ = sheet(joker)
    lines = ["## Exactly: every game, weighted by its chance", "",
             "Under the table's moves (`--move`: among choices within 1e-9 of the best, the first in the tie "
             "order), from one forward pass over the turn-start states (`ShutTheBox yahtzee distribution` prints "
             "each total's chance): mean %s, standard deviation %s, median %d. The upper bonus in a share %s of "
             "games, %s %s%s."
             % (mean, _exact(law.sd, "standard deviation"), law.median,
                _exact(found.upper_bonus, "the upper bonus's chance"),
                "a yatzy (50) in" if joker == YATZY else "a Yahtzee scored 50 in its box in",
                _exact(found.yahtzee, "the chance of 50"),
                "; %s Yahtzee bonuses a game" % _exact(found.bonuses, "the Yahtzee bonuses") if has_bonus(joker)
                else ""), "",
             "| box | mean points | chance of a zero |", "| --- | ---: | ---: |"]
    for name in sheet_.categories:
        mean, zero = found.boxes[name]
        lines.append("| %s | %s | %s |" % (name, _exact(mean, name + " mean"), _exact(zero, name + " zeros")))
    lines.append("| upper bonus | %s | |" % _exact(sheet_.upper_bonus * found.upper_bonus, "upper bonus mean"))
    if has_bonus(joker):
        lines.append("| Yahtzee bonus | %s | |" % _exact(YAHTZEE_BONUS * found.bonuses, "Yahtzee bonus mean"))
    lines.append("| total | %s | |" % mean)
    return lines


def markdown(results, exact: float, seed: int, joker: str, found=None) -> str:
    f = figures(results, exact, joker)
    lines = ["# %s under optimal play" % ("Yatzy" if joker == YATZY else "Yahtzee (%s jokers)" % joker), "",
             "The moves of the table maximise the expected final score: %.6f from the start. Maximising the "
             "expected score is not maximising the chance to beat an opponent (a player behind late in the "
             "game should gamble more)." % exact, ""]
    if found is not None:
        lines += exact_lines(found) + [""]
    lines += ["## Simulated: %d seeded games (seed %d)" % (f["games"], seed), "",
              "![final scores of the simulated games](histogram.svg)", "",
              "Mean %.3f, 95%% interval %.3f to %.3f (%s the exact value); %s; min %d, median %d, max %d."
              % (f["mean"], f["mean"] - f["half"], f["mean"] + f["half"], "contains" if f["contains"] else "misses",
                 _sd_words(f), f["min"], f["median"], f["max"]), "",
              "Upper bonus in %.2f%% of these games; %s in %.2f%%%s."
              % (100 * f["bonus"], "a yatzy (50)" if joker == YATZY else "a Yahtzee scored 50 in its box",
                 100 * f["yahtzee"], "; %.4f Yahtzee bonuses a game" % f["bonuses"] if has_bonus(joker) else ""), "",
              "| box | mean points (these games) |", "| --- | ---: |"]
    for c, name in enumerate(sheet(joker).categories):
        lines.append("| %s | %.3f |" % (name, f["boxes"][c]))
    lines.append("| upper bonus | %.3f |" % f["upper_bonus_mean"])
    if has_bonus(joker):
        lines.append("| Yahtzee bonus | %.3f |" % f["yahtzee_bonus_mean"])
    lines.append("| total | %.3f |" % f["mean"])
    return "\n".join(lines) + "\n"


def _work(args, report: bool) -> int:
    joker = variant_rule(args.rules.get("--variant"), args.rules.get("--joker"))
    table = load(joker)
    exact = table.probe_expect("all")
    path = args.rules.get("--log")
    if path:
        with open(path, "w", encoding="utf-8") as log:
            log.write("# ShutTheBox yahtzee %s simulate --games %d --seed %d\n"
                      % (" ".join(options_of(joker)), args.games, args.seed))
            results = play(table, args.games, args.seed, log=log)
    else:
        results = play(table, args.games, args.seed)
    if not report:
        print(summary(results, exact, args.seed, joker))
        return 0
    from .distribution import Pass

    found = Pass(table).run()
    write_report(args.out, (("report.md", markdown(results, exact, args.seed, joker, found)),
                            ("histogram.svg", svg_histogram([r[0] for r in results], exact, joker))))
    return 0


simulate_main, report_main = analysis_commands(
    "yahtzee", "simulate", "Yahtzee under optimal play: seeded games.", _work, games=(1, 10**8),
    per="games to play", rules=("--joker", "--variant", "--log"), report_rules=("--joker", "--variant"))


def distribution_main(argv) -> int:
    """``ShutTheBox yahtzee distribution``: the exact law of the final score (distribution.py)."""
    from .distribution import distribution_main as main

    return main(argv)


# -- review --------------------------------------------------------------------------------

class Decision:
    """One line of a played game: the state, the dice, the rerolls left, the choice, and its cost."""

    def __init__(self, line: int, words: str, card: int, upper: int, box: int, roll, rerolls: int, choice: str,
                 rules: str = "official"):
        self.line, self.words, self.card, self.upper, self.box = line, words, card, upper, box
        self.roll, self.rerolls, self.choice, self.rules = roll, rerolls, choice, rules
        self.loss = self.best = self.move = None
        # exact values (numerators over ``denominator``): the choice's and the best's expected points to come
        self.value = self.best_value = self.denominator = None
        self.optimal = False  # within the tie width of the best (turn.TIE)
        self.so_far = 0  # the points the game's decisions before it scored (bonuses included)


def parse_decision(table, number: int, text: str) -> Decision:
    """``CARD [--upper N] [--yahtzee-box V] DICE REROLLS score NAME|keep D D|keep none``."""
    words = text.split()
    at = next((i for i, word in enumerate(words) if word in ("score", "keep")), None)
    if at is None:
        raise InvalidQuery("a decision is CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS then score BOX or "
                           "keep D D ... or keep none, not '%s'" % shown(text))
    asked, options = query_options(words[:at])
    asked = card_words(asked)
    if len(asked) != 3:
        raise InvalidQuery("before the choice come CARD DICE REROLLS, not '%s'" % shown(" ".join(words[:at])))
    card, upper, box = table.state(asked[0], options.get("--upper"), options.get("--yahtzee-box"))
    if not card:
        raise InvalidQuery("no box is open: the game is over, there is no turn to play")
    return Decision(number, " ".join(words[:at]), card, upper, box, parse_dice(asked[1]), rerolls_left(asked[2]),
                    " ".join(words[at:]), table.joker)


def value_decision(table, decision: Decision) -> None:
    """Set the decision's move, loss and the best choice (the table's answer), or refuse an illegal choice."""
    turn = table.turn(decision.card, decision.upper, decision.box)
    denominator, listed = turn.choices(decision.roll, decision.rerolls)
    words = decision.choice.split()
    if words[0] == "score":
        names = table.sheet.categories
        if len(words) != 2 or words[1] not in names:
            raise InvalidQuery("'%s': score takes one box name" % shown(decision.choice))
        move = ("score", names.index(words[1]))
    else:
        dice = words[1:]
        if dice == ["none"]:
            kept = ()
        elif dice and all(len(d) == 1 and d in "123456" for d in dice):
            kept = tuple(sorted(int(d) for d in dice))
        else:
            raise InvalidQuery("'%s': keep takes dice 1 to 6 (or none)" % shown(decision.choice))
        if not decision.rerolls:
            raise InvalidQuery("no reroll is left: the dice must be scored")
        rest = list(decision.roll)
        for die in kept:
            if die not in rest:
                raise InvalidQuery("cannot keep %s from %s" % (" ".join(dice), "".join(map(str, decision.roll))))
            rest.remove(die)
        move = ("keep", kept)
    found = next((value for value, _, option in listed if option == move), None)
    if found is None:
        raise InvalidQuery("%s is not a legal choice here (%s)" % (decision.choice, "box closed" if
                           not decision.card >> move[1] & 1 else "the joker rule decides where this Yahtzee goes"))
    decision.move = move
    decision.value, decision.best_value, decision.denominator = found, listed[0][0], denominator
    decision.loss = max(listed[0][0] - found, 0) / denominator
    decision.optimal = found >= listed[0][0] - int(TIE * denominator)
    decision.best = listed[0][1]


def check_chain(previous: Decision | None, decision: Decision, joker: str) -> None:
    """A decision follows from the one before: the same turn one reroll later with the kept dice, or the next
    turn's first roll on the card the score left."""
    if previous is None:
        return
    kind, what = previous.move
    if kind == "keep":
        same = (previous.card, previous.upper) == (decision.card, decision.upper) and \
            same_box(joker, previous.box, decision.box)
        kept = all(what.count(die) <= decision.roll.count(die) for die in set(what))
        if not same or decision.rerolls != previous.rerolls - 1 or not kept:
            raise InvalidQuery("does not follow line %d (%s): the same card, one reroll fewer and the kept dice "
                               "%s were expected" % (previous.line, previous.choice, " ".join(map(str, what))
                                                     or "(none)"))
        return
    after = Scored(joker, previous.card, previous.upper, previous.box, what, previous.roll)
    if (after.card, after.upper, 2) != (decision.card, decision.upper, decision.rerolls) or \
            not same_box(joker, after.box, decision.box):
        raise InvalidQuery("does not follow line %d (%s): the next turn is %s with 2 rerolls"
                           % (previous.line, previous.choice, question(after.card, after.upper, after.box, joker)))


def review(table, lines) -> tuple[list, list]:
    """(decisions, games): each decision valued; games as lists of decisions (a ``# game`` line starts one)."""
    decisions, games, previous, ended = [], [[]], None, None
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            if "game" in text.split() and games[-1]:
                games.append([])
                previous = ended = None
            continue
        if ended is not None:  # two games glued together would be reviewed as one
            raise InvalidQuery("line %d: the game ended at line %d (its last box scored): start the next game "
                               "with a '# game' line" % (number, ended))
        try:
            decision = parse_decision(table, number, text)
            value_decision(table, decision)
            check_chain(previous, decision, table.joker)
        except InvalidQuery as error:
            raise InvalidQuery("line %d: %s" % (number, error)) from None
        game_over = decision.move[0] == "score" and not decision.card & ~(1 << decision.move[1])
        if games[-1]:
            before = games[-1][-1]
            decision.so_far = before.so_far + (Scored(table.joker, before.card, before.upper, before.box,
                                                      before.move[1], before.roll).total
                                               if before.move[0] == "score" else 0)
        previous, ended = (None, number) if game_over else (decision, None)
        decisions.append(decision)
        games[-1].append(decision)
    if not decisions:
        raise InvalidQuery("no decision to review: give one line per decision (see ShutTheBox yahtzee --help)")
    return decisions, [game for game in games if game]


def game_score(joker: str, game) -> int | None:
    """The points of a game's scoring decisions (bonuses included)."""
    total = 0
    for decision in game:
        if decision.move[0] == "score":
            total += Scored(joker, decision.card, decision.upper, decision.box, decision.move[1], decision.roll).total
    return total


def _plural(count: int, noun: str) -> str:
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


class Luck:
    """A game's result split as a coach does: ``result = expectation - skill + luck``. ``expectation``: the
    optimum's expected points from the game's first position (the table's turn-start value when the game's
    first line is a turn's first roll, else the best choice's value there); ``skill``: the decisions' losses
    added up; ``result``: the points scored (bonuses included) and, when the game stops before its end, the
    expected points still to come after its last decision; ``luck``: the rest (the dice). Exact fractions."""

    def __init__(self, table, game):
        first, last = game[0], game[-1]
        if first.rerolls == REROLLS:
            self.expectation = Fraction(table.value(first.card, first.upper, first.box))
        else:
            self.expectation = Fraction(first.best_value, first.denominator)
        self.skill = sum((Fraction(d.best_value - d.value, d.denominator) for d in game), Fraction(0))
        self.finished = last.move[0] == "score" and not last.card & ~(1 << last.move[1])
        self.scored = last.so_far + (Scored(table.joker, last.card, last.upper, last.box, last.move[1], last.roll).total
                                     if last.move[0] == "score" else 0)
        self.result = last.so_far + Fraction(last.value, last.denominator)
        self.luck = self.result - self.expectation + self.skill


def rounded(value: Fraction, places: int, bound: float) -> str:
    """``value`` to ``places`` decimals (halves to even), vouched for: TableError when a value within ``bound``
    of it (the table's error, a few 1e-13) could round otherwise."""
    scale = 10 ** places
    whole, rest = divmod(abs(value) * scale, 1)
    if abs(rest - Fraction(1, 2)) <= Fraction(bound) * scale:
        raise TableError("%s lies within the table's error bound of a rounding midpoint" % float(value))
    digits = int(whole) + (rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1))
    text = "%d.%0*d" % (digits // scale, places, digits % scale) if places else "%d" % digits
    return ("-" if value < 0 and digits else "") + text


def review_text(table, lines) -> str:
    """What ``review`` prints: each decision's loss and the expected final scores of the choice made and of the
    best; each game's points, optimal decisions, loss, and its skill-and-luck line; the totals; the costliest
    decisions (those that lost something)."""
    decisions, games = review(table, lines)
    bound = 2 * float(table.file.header.get("error_bound", "1e-12"))

    def money(value) -> str:  # expected points: 2 decimals
        return rounded(Fraction(value), 2, bound * 14)

    def loss_of(d) -> str:
        return decimal(max(d.best_value - d.value, 0), d.denominator)

    out = []
    for number, game in enumerate(games, 1):
        if len(games) > 1:
            out.append("game %d" % number)
        for d in game:
            mine = d.so_far + Fraction(d.value, d.denominator)
            best = d.so_far + Fraction(d.best_value, d.denominator)
            note = "best %s" % money(best) if d.optimal else "best %s: %s" % (money(best), d.best)
            out.append("line %d: %s: %s  loss %s  expected final %s (%s)"
                       % (d.line, _asked(d), d.choice, loss_of(d), money(mine), note))
        luck = Luck(table, game)
        loss = sum((Fraction(d.best_value - d.value, d.denominator) for d in game), Fraction(0))
        out.append("game %d: %d points scored%s, %d of %s optimal, loss %s (%s a decision)"
                   % (number, luck.scored, "" if luck.finished else " (it stops before its end)",
                      sum(d.optimal for d in game), _plural(len(game), "decision"), money_exact(loss),
                      money_exact(loss / len(game))))
        figures = [rounded(luck.result, 0 if luck.finished else 2, bound * 14), money(luck.expectation),
                   money(luck.skill), money(abs(luck.luck))]
        sign = 1 if luck.luck >= 0 else -1
        hundredths = [round(Fraction(figure) * 100) for figure in figures]
        adds_up = hundredths[0] == hundredths[1] - hundredths[2] + sign * hundredths[3]
        out.append("game %d: %s = %s - %s %s %s (%s = the optimum's expectation - skill loss + luck%s)"
                   % (number, figures[0], figures[1], figures[2], "+" if sign > 0 else "-", figures[3],
                      "final total" if luck.finished else "points scored + expected points to come",
                      "" if adds_up else "; each figure rounded on its own"))
    total = sum((Fraction(d.best_value - d.value, d.denominator) for d in decisions), Fraction(0))
    out.append("total loss %s expected points in %s (%s), %d of %d optimal; %s a decision"
               % (money_exact(total), _plural(len(decisions), "decision"), _plural(len(games), "game"),
                  sum(d.optimal for d in decisions), len(decisions), money_exact(total / len(decisions))))
    costly = [d for d in sorted(decisions, key=lambda d: (-d.loss, d.line)) if d.value < d.best_value][:3]
    out.append("costliest decisions:" if costly else "costliest decisions: none, every decision was the best")
    for d in costly:
        out.append("  line %d: %s: %s  loss %s  (best: %s)" % (d.line, _asked(d), d.choice, loss_of(d), d.best))
    return "\n".join(out)


def money_exact(value: Fraction) -> str:
    """An exact fraction of points to 6 decimals (halves to even), as --options prints losses."""
    return decimal(value.numerator, value.denominator)


def _asked(decision) -> str:
    """The decision's question words with the dice sorted: ``CARD [--upper N] [--yahtzee-box V] DICE R``."""
    return "%s %s %d" % (question(decision.card, decision.upper, decision.box, decision.rules),
                         "".join(map(str, decision.roll)), decision.rerolls)


def logged_rules(lines) -> str | None:
    """The rule set a game file's first comment naming one says (``# ... --joker free ...``,
    ``# ... --variant yatzy ...``), or None."""
    for line in lines:
        words = line.split()
        if line.startswith("#") and ("--joker" in words[:-1] or "--variant" in words[:-1]):
            given = {word: words[at + 1] for at, word in enumerate(words[:-1]) if word in ("--joker", "--variant")}
            return variant_rule(given.get("--variant"), given.get("--joker"))
    return None


def review_main(argv) -> int:
    import sys

    prog = "ShutTheBox yahtzee review"

    def work():
        parser = Parser(prog=prog, description="The loss of each decision of a played game (one decision a line "
                        "on standard input, as simulate --log writes).")
        parser.add_argument("--joker", default=None)
        parser.add_argument("--variant", default=None)
        parser.add_argument("file", nargs="?", default=None, help="the game (default: standard input)")
        args = parser.parse_args(argv)
        if args.file:
            try:
                with open(args.file, encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except (OSError, UnicodeDecodeError) as error:
                raise InvalidQuery("cannot read %s (%s)" % (shown(args.file), getattr(error, "strerror", None)
                                                            or error)) from None
        elif sys.stdin is None:
            raise InvalidQuery("no game to review: standard input is closed (give the game on standard input or "
                               "as FILE)")
        else:
            try:
                lines = sys.stdin.read().splitlines()
            except (OSError, UnicodeDecodeError) as error:
                raise InvalidQuery("cannot read standard input (%s)" % (getattr(error, "strerror", None)
                                                                        or error)) from None
        played = logged_rules(lines)
        given = None if args.joker is None and args.variant is None else variant_rule(args.variant, args.joker)
        if given is not None and played is not None and given != played:
            raise InvalidQuery("the game was played with %s, not %s" % (" ".join(options_of(played)),
                                                                         " ".join(options_of(given))))
        joker = given or played or "official"
        table = load(joker)
        table.preload()
        print(review_text(table, lines))
        return 0

    return run_command(prog, work)
