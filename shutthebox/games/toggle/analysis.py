"""Toggle strategies (analysis time): the optimal policy against simple ones, exactly and by Monte Carlo.

    ShutTheBox toggle strategies [--games N] [--seed N] [--cards N] [--sides S]
    ShutTheBox toggle report [--out DIR] [--games N] [--seed N] [--cards N] [--sides S]

Each policy's expected rolls from every state come from one linear solve of
its Markov chain (numpy); states from which a policy never turns every card
face down get infinity. The Monte Carlo estimate plays seeded games from the
start and gives a 95% interval, which must contain the exact value.
"""

import math
import random

import numpy as np

from ...engine.analysis import analysis_commands, write_report
from ...engine.progress import Progress
from .rules import Rules
from .solver import _reaches_goal
from .table import load

# A game longer than this many rolls is cut short (a policy that never ends would never stop).
MAX_ROLLS = 100_000


def optimal(table):
    flips = table.file.whole("flip")
    sides = table.rules.sides

    def choose(state, x, y, options, rng):
        return flips[(state * sides + x - 1) * sides + y - 1]

    return choose


def highest_face_up(state, x, y, options, rng):
    """Turn the highest face-up card the dice allow; when none is face up, the lowest allowed."""
    up = [card for card in options if state >> (card - 1) & 1]
    return up[-1] if up else options[0]


def uniform(state, x, y, options, rng):
    """Any allowed card, each as likely (``rng`` None: all of them, for the exact evaluation)."""
    return options if rng is None else rng.choice(options)


POLICIES = {
    "optimal": ("Optimal (the table)", optimal),
    "highest": ("Highest face-up card", lambda table: highest_face_up),
    "random": ("Uniformly random card", lambda table: uniform),
}


def exact_values(rules: Rules, choose):
    """Expected rolls of a policy from every state (``inf`` where it never finishes)."""
    size, sides = rules.states, rules.sides
    transition = np.zeros((size, size))
    share = 1.0 / sides**2
    for state in range(1, size):
        for x in range(1, sides + 1):
            for y in range(1, sides + 1):
                options = list(rules.choices(x, y))
                if not options:
                    transition[state, state] += share
                    continue
                picked = choose(state, x, y, options, None)
                picked = picked if isinstance(picked, list) else [picked]
                for card in picked:
                    transition[state, state ^ (1 << (card - 1))] += share / len(picked)
    finite = _reaches_goal(transition)
    values = np.full(size, np.inf)
    values[0] = 0.0
    inner = np.flatnonzero(finite & (np.arange(size) != 0))
    values[inner] = np.linalg.solve(np.eye(len(inner)) - transition[np.ix_(inner, inner)], np.ones(len(inner)))
    return values


def simulate(rules: Rules, choose, games: int, seed: int, label: str = "", progress=None):
    """(mean rolls, half-width of the 95% interval, games cut short) from the start."""
    rng = random.Random(seed)
    draw = rng.random  # int(draw() * sides) is a fair die roll, and much faster than randint
    start, sides = rules.states - 1, rules.sides
    options_of = {(x, y): list(rules.choices(x, y)) for x in range(1, sides + 1) for y in range(1, sides + 1)}
    total = squares = 0.0
    cut = 0
    with Progress(games, label, enabled=progress) as bar:
        for game in range(games):
            state, rolls = start, 0
            while state and rolls < MAX_ROLLS:
                x, y = int(draw() * sides) + 1, int(draw() * sides) + 1
                rolls += 1
                options = options_of[x, y]
                if options:
                    state ^= 1 << (choose(state, x, y, options, rng) - 1)
            cut += bool(state)
            total += rolls
            squares += rolls * rolls
            if game % 1000 == 0:
                bar.update(game)
        bar.update(games)
    mean = total / games
    variance = max(squares / games - mean * mean, 0.0) * games / max(games - 1, 1)
    return mean, 1.96 * math.sqrt(variance / games), cut


def analyse(rules: Rules, games: int, seed: int, progress=None) -> list:
    """[(name, title, exact expected rolls from the start, (mean, half-width, cut) or None)]."""
    table = load(rules)
    rows = []
    for name, (title, make) in POLICIES.items():
        choose = make(table)
        exact = exact_values(rules, choose)[rules.states - 1]
        simulated = simulate(rules, choose, games, seed, name, progress) if games else None
        rows.append((name, title, float(exact), simulated))
    return rows


def text_table(rules: Rules, rows, games: int, seed: int) -> str:
    lines = ["toggle: %s; expected rolls from every card face up" % rules.describe(),
             "%-24s %14s %28s  %s" % ("policy", "exact", "Monte Carlo (95%% interval)" % (), "agrees")]
    for _, title, exact, simulated in rows:
        if simulated is None:
            lines.append("%-24s %14s" % (title, _number(exact)))
            continue
        mean, half, cut = simulated
        agrees = "yes" if abs(mean - exact) <= half or (math.isinf(exact) and cut) else "NO"
        lines.append("%-24s %14s %17.3f +- %-8.3f  %s%s" % (title, _number(exact), mean, half, agrees,
                                                            " (%d games cut at %d rolls)" % (cut, MAX_ROLLS)
                                                            if cut else ""))
    lines.append("(%d games per policy, seed %d)" % (games, seed))
    return "\n".join(lines)


def _number(value: float) -> str:
    return "never ends" if math.isinf(value) else "%.6f" % value


def svg_chart(rows) -> str:
    """Horizontal bars of the exact values, whiskers for the simulated intervals."""
    finite = [exact for _, _, exact, _ in rows if not math.isinf(exact)]
    top = max(finite + [1.0]) * 1.15
    width, left, bar, gap = 420, 190, 22, 12
    height = 40 + len(rows) * (bar + gap)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="12">' % (left + width + 40, height),
             '<text x="%d" y="16" font-weight="bold">Expected rolls to turn every card face down</text>' % left]
    for index, (_, title, exact, simulated) in enumerate(rows):
        y = 30 + index * (bar + gap)
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + bar * 0.7, _escape(title)))
        if math.isinf(exact):
            parts.append('<text x="%d" y="%d">never ends</text>' % (left + 4, y + bar * 0.7))
            continue
        length = width * exact / top
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="#4c78a8"/>' % (left, y, length, bar))
        parts.append('<text x="%.1f" y="%d">%.3f</text>' % (left + length + 4, y + bar * 0.7, exact))
        if simulated is not None:
            mean, half, _ = simulated
            low, high = left + width * (mean - half) / top, left + width * (mean + half) / top
            parts.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#222" stroke-width="2"/>'
                         % (low, high, y + bar // 2, y + bar // 2))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def markdown(rules: Rules, rows, games: int, seed: int) -> str:
    lines = ["# Toggle strategies", "",
             "The card-flip game of Project Euler 640 (%s): expected rolls until every card is face down, "
             "from every card face up. Exact values solve each policy's Markov chain; the Monte Carlo "
             "column plays %d seeded games (seed %d) and gives a 95%% interval, which must contain the "
             "exact value." % (rules.describe(), games, seed), "",
             "![expected rolls by policy](strategies.svg)", "",
             "| policy | exact expected rolls | Monte Carlo mean | 95% interval |", "| --- | ---: | ---: | ---: |"]
    for _, title, exact, simulated in rows:
        if simulated is None:
            lines.append("| %s | %s | | |" % (title, _number(exact)))
        else:
            mean, half, _ = simulated
            lines.append("| %s | %s | %.3f | %.3f to %.3f |" % (title, _number(exact), mean, mean - half,
                                                                mean + half))
    lines += ["", "The optimal policy turns, for each state and roll, the card whose state has the fewest "
              "expected rolls left (the highest card among equally good ones); `ShutTheBox toggle --move "
              "STATE X Y` shows it."]
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _work(args, report: bool) -> int:
    rules = Rules.from_options(args.rules)
    rows = analyse(rules, args.games, args.seed)
    if report:
        write_report(args.out, (("report.md", markdown(rules, rows, args.games, args.seed)),
                                ("strategies.svg", svg_chart(rows))))
    else:
        print(text_table(rules, rows, args.games, args.seed))
    return 0


strategies_main, report_main = analysis_commands(
    "toggle", "strategies", "Toggle policies, exactly and by Monte Carlo.", _work, games=(0, 10**8),
    per="games per policy", rules=("--cards", "--sides"))
