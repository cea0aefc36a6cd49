"""``ShutTheBox report [--variant NAME] [GAME OPTIONS] [--out DIR] [--games N] [--seed N]``: what a single
player wants to know. (``ShutTheBox report --published``: every published figure, ``published.py``.)

Writes ``DIR/report.md`` and the chart it shows, ``DIR/strategies.svg``
(hand-written SVG, no plotting library), both atomically: an interrupted run
leaves the previous files untouched. Every exact number comes from exact
rational arithmetic (``solo.solve_solo``, ``solo.evaluate``); the simulated
ones from ``simulate.simulate`` with the given seed.

With no rule option the report covers the three named rule sets (the first,
``standard``, in the sections about one rule set); ``--variant NAME`` or the
game options (``--tiles 10 --one-die never``, as for two players) choose one
rule set, which every section then covers.
"""

from __future__ import annotations

import os
import sys
from fractions import Fraction

from ....engine.analysis import Parser, check_games_and_seed, run_command
from ....engine.writer import write_atomic
from ....engine.notation import format_list as format_move
from ....engine.notation import format_set as format_position
from ....engine.notation import numbers_of as tiles_of
from .simulate import REFERENCE_SECONDS_PER_MILLION, add_rule_options, rule_sets, simulate
from .solver import Throws, evaluate, solve_solo
from .table import VARIANTS, variant_rules
from .strategies import SIMPLE_RULES, STRATEGIES, make

PROG = "ShutTheBox report"
COLOURS = {"standard": "#1f77b4", "two-dice": "#ff7f0e", "two-tiles": "#2ca02c"}
# The reference project's benchmark (its README: one million simulated games per strategy, always two dice):
# our strategy name -> (its name, its simulated chance to shut the box, in percent).
REFERENCE_BENCHMARK = {
    "random": ("Random", 2.047),
    "max-tiles": ("Max Tiles", 1.017),
    "greedy": ("Greedy", 6.953),
    "most-options-reference": ("Most Options", 6.757),
    "optimal": ("Highest Probability", 7.139),
}
REFERENCE_GAMES = 1_000_000
REFERENCE_TRUE = 7.143  # its exact ("true") probability, printed to three decimals


def pct(value, digits=3) -> str:
    return "%.*f%%" % (digits, 100 * float(value))


class Analysis:
    """Everything the report shows for one rule set: ``variant`` is a named rule set or ``(label, rules)``."""

    def __init__(self, variant, games, seed, progress=True):
        label, rules = (variant, variant_rules(variant)) if isinstance(variant, str) else variant
        self.variant = label
        self.rules = rules
        self.throws = throws = Throws(rules)
        self.solution = solve_solo(rules, throws)
        self.start = rules.all_open
        self.rows = []  # (strategy, exact Evaluation, Simulation or None)
        for name in STRATEGIES:
            strategy = make(name, rules, seed=seed)
            exact = evaluate(strategy, throws)
            sim = simulate(strategy, games, seed, throws, label="%s %s" % (label, name),
                           progress=progress) if games else None
            self.rows.append((strategy, exact, sim))

    def row(self, name):
        """(strategy, exact, simulation) of a strategy by name."""
        return next(row for row in self.rows if row[0].name == name)

    def shut(self, position) -> Fraction:
        return self.solution.shut_probability(position)

    def throw(self, position, strategy=None):
        """``(stuck, [(roll, weight, moves)])`` of the throw ``strategy`` (None: optimal play) makes at
        ``position``: the dice it chooses where the rules offer one die as a choice."""
        if len(self.throws.dice_choices[position]) == 1:
            return self.throws.options[position]
        dice = self.solution.dice(position) if strategy is None else strategy.dice(position)
        return self.throws.throw(position, dice)

    def openings(self):
        """(roll, chance, optimal move, probability after it), best first."""
        rows = []
        outcomes = self.rules.outcomes
        for roll, weight in self.throws.rolls(self.start, self.solution.dice(self.start)).items():
            move = self.solution.move(self.start, roll)
            after = self.shut(self.start ^ move) if move else Fraction(0)
            rows.append((roll, Fraction(weight, outcomes), move, after))
        rows.sort(key=lambda row: (-row[3], row[0]))
        return rows

    def best_positions(self, count=10):
        """Positions (not shut) with the highest chance of shutting the box, below certainty."""
        positions = sorted((p for p in range(1, self.throws.size) if self.shut(p) < 1),
                           key=lambda p: (-self.shut(p), p))
        return positions[:count]

    def best_by_sum(self):
        """For each sum of open tiles, the position with that sum most likely to be shut."""
        best = {}
        for position in range(1, self.throws.size):
            total = self.throws.sums[position]
            if total not in best or self.shut(position) > self.shut(best[total]):
                best[total] = position
        return best

    def state_count(self) -> dict:
        """The size of the game: positions (the shut box included), the roll totals the dice can show, the
        (position, roll) pairs, those the dice can throw, and those with a legal move."""
        rules, sums = self.rules, self.throws.sums
        totals: set = set()
        throwable = playable = 0
        for position in range(self.throws.size):
            rolls = rules.possible_rolls(position, sums[position])
            totals |= rolls
            throwable += len(rolls)
            if position:
                playable += sum(1 for roll, _, _ in self._decisions(position))
        return {"positions": self.throws.size, "totals": sorted(totals), "pairs": self.throws.size * len(totals),
                "throwable": throwable, "valid": playable}

    def _decisions(self, position):
        """[(roll, weight under optimal play's dice, moves)] of every roll some allowed dice show at
        ``position`` with a legal move (the weight is 0 for a roll only the other dice choice shows)."""
        found = {}
        for dice in reversed(self.throws.dice_choices[position]):
            for roll, weight, moves in self.throws.throw(position, dice)[1]:
                found[roll] = (roll, 0, moves)
        for roll, weight, moves in self.throw(position)[1]:
            found[roll] = (roll, weight, moves)
        return [found[roll] for roll in sorted(found)]

    def reach(self, strategy=None):
        """Probability that play passes through each position: optimal play (shut objective) by default,
        else ``strategy``'s own."""
        reach = [Fraction(0)] * self.throws.size
        reach[self.start] = Fraction(1)
        outcomes = self.rules.outcomes
        for position in range(self.throws.size - 1, 0, -1):  # successors are smaller
            if not reach[position]:
                continue
            for roll, weight, _ in self.throw(position, strategy)[1]:
                if strategy is None:
                    successor = position ^ self.solution.move(position, roll)
                    reach[successor] += reach[position] * weight / outcomes
                else:
                    for move, chance in strategy.choices(position, roll):
                        reach[position ^ move] += reach[position] * weight * chance / outcomes
        return reach

    def greedy_differences(self):
        """[(position, roll, greedy move, optimal move, loss, chance of facing it)] where they differ.

        ``loss`` is how much lower the chance of shutting the box is after
        Greedy's move than after the optimal one; the chance of facing the
        decision is under optimal play from the start.
        """
        greedy = make("greedy", self.rules)
        reach = self.reach()
        outcomes = self.rules.outcomes
        found = []
        for position in range(1, self.throws.size):
            for roll, weight, _ in self._decisions(position):
                best = self.solution.move(position, roll)
                mine = greedy.choose(position, roll)
                if mine != best:
                    loss = self.shut(position ^ best) - self.shut(position ^ mine)
                    found.append((position, roll, mine, best, loss, reach[position] * weight / outcomes))
        return found

    def rule_costs(self, strategy):
        """Where a deterministic ``strategy`` loses against optimal play (shut objective), decision by
        decision: [(position, roll, its move, optimal move, loss, chance of meeting it, cost)], ``cost`` =
        chance x loss, the chance under the strategy's own play; only decisions that lose (an equally good
        move is no loss). A row with roll None is the choice of dice (the rules' optional one die): its
        moves are the dice thrown.

        The costs add up exactly to the strategy's loss against optimal play from the start (each
        decision's loss counts the optimal value after either move, and the strategy meets it as often as
        its own play leads there)."""
        reach = self.reach(strategy)
        outcomes = self.rules.outcomes
        found = []
        for position in range(1, self.throws.size):
            if not reach[position]:
                continue
            stuck, choices = self.throw(position, strategy)
            if len(self.throws.dice_choices[position]) > 1:
                mine, best = strategy.dice(position), self.solution.dice(position)
                if mine != best:
                    kept = sum(weight * self.shut(position ^ self.solution.move(position, roll))
                               for roll, weight, _ in choices) / outcomes
                    loss = self.shut(position) - kept
                    if loss:
                        found.append((position, None, mine, best, loss, reach[position], reach[position] * loss))
            for roll, weight, _ in choices:
                best = self.solution.move(position, roll)
                mine = strategy.choose(position, roll)
                if mine != best:
                    loss = self.shut(position ^ best) - self.shut(position ^ mine)
                    meet = reach[position] * weight / outcomes
                    if loss:  # an equally good move is not a loss
                        found.append((position, roll, mine, best, loss, meet, meet * loss))
        return found


def _table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render_markdown(analyses, games, seed, chart="strategies.svg", others=None) -> str:
    """The report's Markdown; ``others``: analyses of the named rule sets shown beside a report of one
    other rule set in section 5."""
    main = analyses[0]
    out = ["# Shut the Box alone: odds, strategies and the best moves", ""]
    out += [
        "Generated by `ShutTheBox report` (%s simulated games per strategy and rule set, seed %d)."
        % (format(games, ","), seed),
        "Exact values come from exact rational arithmetic; simulated ones carry 95% confidence intervals.",
        "A *position* lists the open tiles; *shut* means closing every tile; the *score* is the sum of",
        "the tiles left open (0 when shut), lower is better.",
        "",
        "Rule sets:",
        "",
    ]
    for analysis in analyses:
        out.append("- **%s**: %s" % (analysis.variant, analysis.rules.describe()))
    out += ["", "## 1. Strategies compared", "", "![Chance of shutting the box by strategy](%s)" % chart, ""]
    for analysis in analyses:
        out += ["### %s rules" % analysis.variant, ""]
        rows = []
        for strategy, exact, sim in analysis.rows:
            row = [strategy.title, pct(exact.start_shut), "%.4f" % float(exact.start_score)]
            if sim is not None:
                low, high = sim.shut_interval
                s_low, s_high = sim.score_interval
                row += ["%s (%s to %s)" % (pct(sim.shut), pct(low), pct(high)),
                        "%.3f (%.3f to %.3f)" % (sim.score, s_low, s_high),
                        "yes" if sim.agrees(exact.start_shut, exact.start_score) else "no"]
            rows.append(row)
        header = ["strategy", "shut (exact)", "mean score (exact)"]
        if games:
            header += ["shut (simulated, 95% CI)", "mean score (simulated, 95% CI)", "exact inside both CIs"]
        out += _table(header, rows) + [""]
    out += [
        "Random picks a legal move uniformly (its exact value averages over every choice). Greedy closes",
        "the highest tile, then the fewest tiles; Max tiles closes the most tiles, then the highest;",
        "Most options leaves the most roll totals that still have a legal move (counted once each, on the",
        "tiles left open); Most options (reference) is the reference project's version as its code counts:",
        "dice-weighted throws, counted on all the tiles but the move's (not on the tiles left open); Fewest",
        "tiles closes the fewest tiles, highest first; Fewest tiles, spare the low closes the fewest tiles,",
        "the highest open tile if it can, else the move whose lowest tile is highest; Optimal (shut) and",
        "Optimal (score) are the exact optima of each objective. Ties between equal moves go to the",
        "highest tiles. A 95% interval misses the exact value about one time in twenty.",
        "",
    ]
    if games:
        played = sum(sim.games for analysis in analyses for *_, sim in analysis.rows)
        seconds = sum(sim.seconds for analysis in analyses for *_, sim in analysis.rows)
        per_million = seconds / played * 1e6
        out += [
            "Simulation speed: %s games in %.1f s, %.2f s per million games on one core "
            "(the Scala reference: about %.0f s per million on the JVM, %.1fx slower)."
            % (format(played, ","), seconds, per_million, REFERENCE_SECONDS_PER_MILLION,
               REFERENCE_SECONDS_PER_MILLION / per_million),
            "",
        ]

    tiles = main.rules.tiles
    out += ["## 2. Opening rolls (%s rules)" % main.variant, ""]
    start_value = main.shut(main.start)
    rows = []
    openings = main.openings()
    for roll, chance, move, after in openings:
        rows.append([roll, pct(chance, 2), format_move(tiles_of(move)) if move else "none",
                     pct(after), "%.6f" % float(after), "%+.3f points" % (100 * float(after - start_value)),
                     "yes" if after > start_value else "no"])
    out += ["Before the first roll the chance of shutting the box is %s (%.6f). After each roll and its best move:"
            % (pct(start_value), float(start_value)), ""]
    out += _table(["roll", "chance of the roll", "best move", "shut after it", "exact", "change",
                   "better than a fresh game"], rows) + [""]
    best, worst = openings[0], openings[-1]
    out += ["Best opening roll: **%d** (%s); worst: **%d** (%s)." % (best[0], pct(best[3]), worst[0], pct(worst[3])), ""]
    better = [str(roll) for roll, _, _, after in openings if after > start_value]
    out += ["%s opening roll%s improve%s on a fresh game's %s%s" % (
        _count_words(len(better)).capitalize(), "" if len(better) == 1 else "s", "s" if len(better) == 1 else "",
        pct(start_value), ": " + _and(better) + "." if better else "."), ""]

    out += ["## 3. Best positions to reach (%s rules)" % main.variant, ""]
    out += ["The ten positions most likely to be shut, below certainty:", ""]
    rows = [[format_position(p, tiles), main.throws.sums[p], pct(main.shut(p)), "%.5f" % float(main.shut(p))]
            for p in main.best_positions()]
    out += _table(["position", "open sum", "shut from here", "exact"], rows) + [""]
    out += ["The best position for each sum of open tiles (aim for these when a roll allows a choice):", ""]
    rows = [[total, format_position(p, tiles), pct(main.shut(p))] for total, p in sorted(main.best_by_sum().items())]
    out += _table(["open sum", "best position", "shut from there"], rows) + [""]

    out += ["## 4. Where the optimal move differs from Greedy (%s rules)" % main.variant, ""]
    found = main.greedy_differences()
    total_decisions = sum(len(main._decisions(p)) for p in range(1, main.throws.size))
    greedy_row = main.row("greedy")
    out += [
        "Greedy and the optimal strategy disagree in %d of the %d (position, roll) decisions that have a legal move."
        " Over a whole game Greedy shuts the box %s of the time against %s: %.3f points lower."
        % (len(found), total_decisions, pct(greedy_row[1].start_shut), pct(main.shut(main.start)),
           100 * float(main.shut(main.start) - greedy_row[1].start_shut)),
        "",
    ]
    if found:
        out += [
            "The disagreements that cost the most, weighted by how often optimal play meets them"
            " (*cost* = chance of meeting the decision x loss):",
            "",
        ]
        found.sort(key=lambda row: (-(row[4] * row[5]), -row[4], row[0], row[1]))
        rows = [[format_position(p, tiles), roll, format_move(tiles_of(g)), format_move(tiles_of(b)),
                 "%.3f points" % (100 * float(loss)), pct(meet, 3), "%.5f points" % (100 * float(loss * meet))]
                for p, roll, g, b, loss, meet in found[:15]]
        out += _table(["position", "roll", "Greedy closes", "optimal closes", "loss in shut chance",
                       "chance of meeting it", "cost"], rows) + [""]
        found.sort(key=lambda row: (-row[4], row[0], row[1]))
        p, roll, g, b, loss, meet = found[0]
        out += ["The largest single loss: at %s with a roll of %d, Greedy closes %s but %s is better by %.3f points."
                % (format_position(p, tiles), roll, format_move(tiles_of(g)), format_move(tiles_of(b)),
                   100 * float(loss)), ""]

    out += ["## 5. How the rules change the odds", ""]
    rows = []
    compared = list(analyses) + [analysis for analysis in (others or []) if analysis.rules not in
                                 [shown.rules for shown in analyses]]
    for analysis in compared:
        rows.append([analysis.variant, pct(analysis.shut(analysis.start)),
                     "%.4f" % float(analysis.solution.expected_score(analysis.start)),
                     pct(analysis.row("greedy")[1].start_shut), pct(analysis.row("random")[1].start_shut),
                     analysis.openings()[0][0]])
    out += _table(["rules", "shut (optimal)", "lowest mean score", "shut (Greedy)", "shut (Random)",
                   "best opening roll"], rows) + [""]
    if len(compared) > len(analyses):
        out += ["The named rule sets are shown beside this report's for comparison (exact values).", ""]
    out += [
        "The one-die rule helps: with few tiles left, a single die can make the small totals that two dice",
        "never show (1) or rarely show. Limiting a move to two tiles hurts: small tiles can no longer be",
        "cleared in one go. Under the always-two-dice rules the optimal chance is the Scala reference",
        "project's 7.143%.",
        "",
    ]

    out += render_simple_rules(main, games)
    out += render_state_count(main)
    reference = next((analysis for analysis in analyses if analysis.rules == VARIANTS["two-dice"]), None)
    if reference is not None:
        out += render_reference(reference, games)
    return "\n".join(out)


def _count_words(count: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[count] if count < len(words) else str(count)


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def render_simple_rules(main, games, worst=5) -> list[str]:
    """Section 6: the simple rules, each one's exact value, its loss and where it costs most."""
    tiles = main.rules.tiles
    best = main.shut(main.start)
    out = ["## 6. Simple rules to remember (%s rules)" % main.variant, ""]
    out += ["Rules a person can play from memory, against optimal play (%s). The *loss* is in points of the"
            " chance to shut the box." % pct(best), ""]
    header = ["rule", "in words", "shut (exact)", "loss against optimal", "mean score (exact)"]
    if games:
        header.append("shut (simulated, 95% CI)")
    rows = []
    for name in SIMPLE_RULES:
        strategy, exact, sim = main.row(name)
        row = [strategy.title, strategy.rule, pct(exact.start_shut), "%.3f points" % (100 * float(best - exact.start_shut)),
               "%.4f" % float(exact.start_score)]
        if sim is not None:
            low, high = sim.shut_interval
            row.append("%s (%s to %s)" % (pct(sim.shut), pct(low), pct(high)))
        rows.append(row)
    out += _table(header, rows) + [""]
    out += ["Where each rule costs most: the decisions where its move is worse than the optimal one, by *cost* =",
            "the chance that the rule's own play meets the decision x the loss there (the optimal chance after the",
            "optimal move minus after the rule's). Over every decision the costs add up to the rule's whole loss,",
            "exactly.", ""]
    for name in SIMPLE_RULES:
        strategy, exact, _ = main.row(name)
        found = main.rule_costs(strategy)
        loss = best - exact.start_shut
        out += ["### %s: %s" % (strategy.title, strategy.rule), ""]
        if not found:
            out += ["It plays optimally everywhere it can be met.", ""]
            continue
        found.sort(key=lambda row: (-row[6], -row[4], row[0], -1 if row[1] is None else row[1]))
        top = found[:worst]
        share = sum(row[6] for row in top)
        rows = []
        for p, roll, mine, best_move, cost_loss, meet, cost in top:
            if roll is None:  # the dice thrown
                rows.append([format_position(p, tiles), "(dice)", "%d dice" % mine, "%d dice" % best_move,
                             "%.3f points" % (100 * float(cost_loss)), pct(meet, 3), "%.5f points" % (100 * float(cost))])
            else:
                rows.append([format_position(p, tiles), roll, format_move(tiles_of(mine)), format_move(tiles_of(best_move)),
                             "%.3f points" % (100 * float(cost_loss)), pct(meet, 3), "%.5f points" % (100 * float(cost))])
        out += _table(["position", "roll", "the rule closes", "optimal closes", "loss", "chance the rule meets it",
                       "cost"], rows) + [""]
        out += ["It loses in %d decisions it can meet; these %d cost %.3f of its %.3f points."
                % (len(found), len(top), 100 * float(share), 100 * float(loss)), ""]
    return out


def render_state_count(main) -> list[str]:
    """Section 7: how big the game is."""
    count = main.state_count()
    totals = count["totals"]
    shown = "%d to %d" % (totals[0], totals[-1]) if len(totals) == totals[-1] - totals[0] + 1 else \
        ", ".join(map(str, totals))
    out = ["## 7. The size of the game (%s rules)" % main.variant, ""]
    out += ["%s positions (2^%d sets of open tiles, the shut box included) x %d roll totals (%s) = %s (position, "
            "roll) pairs." % (format(count["positions"], ","), main.rules.tiles, len(totals), shown,
                              format(count["pairs"], ","))]
    if count["throwable"] != count["pairs"]:
        out += ["Of these, the dice can throw %s (one die shows fewer totals where it is thrown)."
                % format(count["throwable"], ",")]
    out += ["%s of them have a legal move: the decisions a strategy makes; a table of every best move holds"
            " that many entries." % format(count["valid"], ","), ""]
    return out


def render_reference(analysis, games) -> list[str]:
    """Section 8: the reference project's benchmark beside our exact values and simulations (its rules,
    always two dice)."""
    out = ["## 8. The reference project's benchmark (%s rules)" % analysis.variant, ""]
    out += ["The Scala reference project simulated %s games of each strategy under these rules (its README);"
            " our exact values and simulations of the same strategies:" % format(REFERENCE_GAMES, ","), ""]
    header = ["its strategy", "its figure (simulated)", "ours", "exact"]
    if games:
        header += ["simulated (95% CI)"]
    header += ["its figure within 1.96 standard errors of 1,000,000 games"]
    rows = []
    for name, (theirs, figure) in REFERENCE_BENCHMARK.items():
        strategy, exact, sim = analysis.row(name)
        p = float(exact.start_shut)
        half = 1.959963984540054 * (p * (1 - p) / REFERENCE_GAMES) ** 0.5
        row = [theirs, "%.3f%%" % figure, strategy.title, pct(exact.start_shut)]
        if sim is not None:
            low, high = sim.shut_interval
            row.append("%s (%s to %s)" % (pct(sim.shut), pct(low), pct(high)))
        row.append("yes" if abs(figure / 100 - p) <= half else "no (%.3f%% to %.3f%%)" % (100 * (p - half),
                                                                                    100 * (p + half)))
        rows.append(row)
    out += _table(header, rows) + [""]
    out += ["Its true probability, %.3f%%, is our optimal %s. Its Most Options counts a move's options on all the"
            " tiles but the move's, which is why our own Most options (counted on the tiles left open) differs;"
            " both are listed in section 1." % (REFERENCE_TRUE, pct(analysis.shut(analysis.start))), ""]
    return out


def render_svg(analyses) -> str:
    """Grouped horizontal bars: exact chance of shutting the box, per strategy and rule set,
    with the simulation's 95% interval as a whisker."""
    names = [strategy for strategy, _, _ in analyses[0].rows]
    group = 16 * len(analyses) + 14
    left, width, top = max(140, 16 + 7 * max(len(strategy.title) for strategy in names)), 420, 40
    height = top + group * len(names) + 40
    top_value = max(float(exact.start_shut) for a in analyses for _, exact, _ in a.rows)
    scale_max = (int(top_value * 100) // 2 + 1) * 2 / 100  # next even percent

    def x(value):
        return left + width * float(value) / scale_max

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif" font-size="12">' % (left + width + 130, height, left + width + 130, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="20" font-size="14" font-weight="bold">Chance of shutting the box, by strategy and rules'
        '</text>' % left,
    ]
    percent = 0
    while percent <= round(scale_max * 100):
        gx = x(percent / 100)
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (gx, top - 5, gx, height - 35))
        parts.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d%%</text>' % (gx, height - 20, percent))
        percent += 2
    for i, strategy in enumerate(names):
        y0 = top + i * group
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                     % (left - 8, y0 + group // 2, _escape(strategy.title)))
        for j, analysis in enumerate(analyses):
            _, exact, sim = analysis.rows[i]
            y = y0 + j * 16
            colour = COLOURS.get(analysis.variant, "#777")
            parts.append('<rect x="%d" y="%d" width="%.1f" height="13" fill="%s"><title>%s, %s: %s</title></rect>'
                         % (left, y, x(exact.start_shut) - left, colour, _escape(strategy.title),
                            analysis.variant, pct(exact.start_shut)))
            parts.append('<text x="%.1f" y="%d" font-size="10" fill="#333">%s</text>'
                         % (x(exact.start_shut) + 4, y + 10, pct(exact.start_shut, 2)))
            if sim is not None:
                low, high = sim.shut_interval
                parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>'
                             % (x(low), y + 6, x(high), y + 6))
    for j, analysis in enumerate(analyses):
        ly = top + j * 18
        lx = left + width + 20
        parts.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                     % (lx, ly, COLOURS.get(analysis.variant, "#777")))
        parts.append('<text x="%d" y="%d">%s</text>' % (lx + 16, ly + 10, analysis.variant))
    parts.append('<text x="%d" y="%d" font-size="10" fill="#555">bars: exact; whiskers: simulated 95%% CI</text>'
                 % (left + width + 20, top + len(analyses) * 18 + 12))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_report(out_dir: str, games: int = 200_000, seed: int = 1, progress=True, variants=None) -> list[str]:
    """Compute everything, then write report.md and strategies.svg; returns their paths. ``variants``: the
    rule sets to cover (names or ``(label, rules)`` pairs; default the three named ones)."""
    variants = list(VARIANTS) if variants is None else list(variants)
    analyses = [Analysis(variant, games, seed, progress) for variant in variants]
    others = None
    if len(analyses) == 1:  # section 5 shows the named rule sets beside it (exact values only)
        others = [Analysis(name, 0, seed, False) for name, rules in VARIANTS.items() if rules != analyses[0].rules]
    markdown = render_markdown(analyses, games, seed, others=others)
    svg = render_svg(analyses)
    paths = [os.path.join(out_dir, "strategies.svg"), os.path.join(out_dir, "report.md")]
    write_atomic(paths[0], svg)
    write_atomic(paths[1], markdown)
    return paths


# Beyond this a report takes hours: refused, like every game's --games.
MAX_GAMES = 10_000_000


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--published" in argv:  # every published exact figure beside ours (docs/RESULTS.md)
        from .published import main as published

        return run_command("ShutTheBox", lambda: published([word for word in argv if word != "--published"]))
    parser = Parser(prog=PROG, description="Write the single-player report (Markdown and an SVG chart). "
                    "`ShutTheBox report --published` instead prints docs/RESULTS.md: every published exact "
                    "figure beside ours, with a command that prints each.")
    add_rule_options(parser, "all three")
    parser.add_argument("--out", default="report", help="folder to write into (default: report/)")
    parser.add_argument("--games", type=int, default=200_000,
                        help="simulated games per strategy and rule set (default 200000; 0: exact values only)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")

    def work() -> int:
        try:
            args = parser.parse_args(argv)
            check_games_and_seed(args, (0, MAX_GAMES))
            variants = rule_sets(args, list(VARIANTS))
            for path in build_report(args.out, args.games, args.seed, variants=variants):
                print(path)
            return 0
        except KeyboardInterrupt:
            sys.stderr.write("\nShutTheBox: interrupted; no report file was written\n")
            return 130

    return run_command("ShutTheBox", work)
