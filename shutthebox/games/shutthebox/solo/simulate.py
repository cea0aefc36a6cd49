"""Monte Carlo benchmark of single-player strategies, checked against exact values.

``ShutTheBox simulate [--variant NAME|all] [GAME OPTIONS] [--strategy NAME ...] [--games N] [--seed N]
[--log FILE]``

The rules: ``--variant NAME`` (a named rule set, or ``all`` three), or the
game options of the two-player game (``--tiles``, ``--dice``, ``--sides``,
``--one-die``, ``--max-move-tiles``); both given must name the same rules.

Fast because nothing is decided while playing: each strategy's choices are
compiled once into a *sampling table*. For every position there are
``outcomes`` entries (36 for two dice; one die's rolls are weighted to the
same 36), one per equally likely throw, holding what happens next: the next
position (premultiplied by ``outcomes``, so it is also the row's offset), or
``~score`` (negative) when no move fits. A game is then::

    x = start * outcomes
    while x > 0:
        x = table[int(x + random() * outcomes)]

one ``random()`` call and one list index per throw. A random strategy's
entries are tuples of equally likely successors, drawn with a second call.
Seeded (``random.Random("SEED/STRATEGY/RULES")``, stable across Python
versions), so a run is reproducible; each strategy and rule set draws from its
own stream.

When the flat table would be too big (many dice with many sides: four 20-sided
dice have 160,000 outcomes), each position keeps its rolls' cumulative weights
instead and a throw is found by bisection, from the same one draw.

``--log FILE`` plays the same games from the same draws, writing every one,
throw by throw, as JSON lines (see :func:`write_header`, ``replay`` checks a
log against the rules).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from bisect import bisect_right
from fractions import Fraction

from ....errors import InvalidQuery
from ....engine.analysis import Parser, check_games_and_seed, run_command
from ....engine.notation import format_set, numbers_of, parse_set
from ....engine.progress import Progress
from ..rules import Rules, moves_by_roll, rules_from_options, tile_sums
from .grammar import solo_rules
from .solver import Throws, evaluate
from .table import DEFAULT_VARIANT, VARIANTS, rules_label, variant_rules
from .strategies import STRATEGIES, make

PROG = "ShutTheBox simulate"
Z95 = 1.959963984540054  # two-sided 95% normal quantile
REFERENCE_SECONDS_PER_MILLION = 2.0  # the Scala reference project, JVM, per strategy
CHUNK = 25_000
# The options of the two-player game that choose a single player's rules (not --players).
RULE_OPTIONS = ("--tiles", "--dice", "--sides", "--one-die", "--max-move-tiles")
# Beyond this many entries (positions x outcomes) the sampler bisects instead of indexing a flat table.
FLAT_LIMIT = 1 << 21
LOG_FORMAT = 1


def _successors(strategy, throws, position):
    """[(roll, weight, entry)] of one position: ``entry`` is the next position, a tuple of equally likely
    next positions (a random strategy), or ``~score`` when the roll has no legal move; the rolls of the
    dice the strategy throws there, increasing."""
    dice = strategy.dice(position) if len(throws.dice_choices[position]) > 1 else None
    playable = {roll: moves for roll, _, moves in throws.throw(position, dice)[1]}
    stuck = ~throws.sums[position]
    found = []
    for roll, weight in throws.rolls(position, dice).items():
        if roll not in playable:
            entry = stuck
        else:
            picks = strategy.choices(position, roll)
            if len(picks) == 1:
                entry = position ^ picks[0][0]
            else:
                # Equally likely successors, repeated by weight when the choice is not uniform.
                common = math.lcm(*(chance.denominator for _, chance in picks))
                entry = tuple(position ^ move for move, chance in picks for _ in range(int(chance * common)))
        found.append((roll, weight, entry))
    return found


def sampling_table(strategy, throws: Throws | None = None) -> tuple[list, bool]:
    """(flat table, deterministic): see the module docstring."""
    rules = strategy.rules
    throws = throws or Throws(rules)
    outcomes = rules.outcomes
    table = [0] * (throws.size * outcomes)
    deterministic = True
    for position in range(1, throws.size):
        base = position * outcomes
        offset = base
        for _, weight, entry in _successors(strategy, throws, position):
            if entry.__class__ is tuple:
                entry = tuple(successor * outcomes for successor in entry)
                deterministic = False
            elif entry >= 0:
                entry *= outcomes
            table[offset : offset + weight] = [entry] * weight
            offset += weight
        if offset != base + outcomes:
            raise ArithmeticError("roll weights at %s do not add up to %d" % (bin(position), outcomes))
    return table, deterministic


def sampling_rows(strategy, throws: Throws | None = None) -> tuple[list, bool]:
    """(rows, deterministic): ``rows[position]`` is ``(cumulative weights, entries, rolls)``, for rule sets
    whose flat table would be too big; a throw's entry is ``entries[bisect_right(cumulative, u)]`` for the
    ``u``-th of the ``outcomes`` equally likely throws. Entries are next positions (not premultiplied)."""
    rules = strategy.rules
    throws = throws or Throws(rules)
    rows = [None] * throws.size
    deterministic = True
    for position in range(1, throws.size):
        cumulative, entries, rolls = [], [], []
        total = 0
        for roll, weight, entry in _successors(strategy, throws, position):
            total += weight
            cumulative.append(total - 1)  # the last throw index of this roll
            entries.append(entry)
            rolls.append(roll)
            deterministic = deterministic and entry.__class__ is not tuple
        if total != rules.outcomes:
            raise ArithmeticError("roll weights at %s do not add up to %d" % (bin(position), rules.outcomes))
        rows[position] = (cumulative, entries, rolls)
    return rows, deterministic


def _play(table, deterministic, start, games, rand, outcomes):
    """(wins, sum of scores, sum of squared scores) of ``games`` games."""
    wins = total = squares = 0
    if deterministic:
        for _ in range(games):
            x = start
            while x > 0:
                x = table[int(x + rand() * outcomes)]
            if x:
                total -= x + 1
                squares += (x + 1) * (x + 1)
            else:
                wins += 1
    else:
        for _ in range(games):
            x = start
            while x > 0:
                x = table[int(x + rand() * outcomes)]
                if x.__class__ is tuple:
                    x = x[int(rand() * len(x))]
            if x:
                total -= x + 1
                squares += (x + 1) * (x + 1)
            else:
                wins += 1
    return wins, total, squares


def _play_rows(rows, start, games, rand, outcomes):
    """The same as :func:`_play`, over :func:`sampling_rows`."""
    wins = total = squares = 0
    for _ in range(games):
        x = start
        while x > 0:
            cumulative, entries, _ = rows[x]
            x = entries[bisect_right(cumulative, int(rand() * outcomes) - 1)]
            if x.__class__ is tuple:
                x = x[int(rand() * len(x))]
        if x:
            total -= x + 1
            squares += (x + 1) * (x + 1)
        else:
            wins += 1
    return wins, total, squares


class _Logger:
    """Plays games from the same draws as :func:`_play` / :func:`_play_rows` and writes each one."""

    def __init__(self, sampler, flat, strategy, throws, out):
        self.sampler, self.flat, self.out = sampler, flat, out
        self.strategy, self.throws = strategy, throws
        self.tiles = strategy.rules.tiles
        self.outcomes = strategy.rules.outcomes
        self._rolls: dict = {}  # position -> (cumulative, rolls, dice) of the strategy's throw there
        self._text: dict = {}
        self.number = 0

    def _throw(self, position):
        try:
            return self._rolls[position]
        except KeyError:
            throws = self.throws
            dice = self.strategy.dice(position) if len(throws.dice_choices[position]) > 1 else throws.dice[position]
            cumulative, rolls, total = [], [], 0
            for roll, weight in throws.rolls(position, dice).items():
                total += weight
                cumulative.append(total - 1)
                rolls.append(roll)
            found = self._rolls[position] = (cumulative, rolls, dice)
            return found

    def _set(self, mask):
        try:
            return self._text[mask]
        except KeyError:
            text = self._text[mask] = json.dumps(format_set(mask, self.tiles) if mask else "")
            return text

    def play(self, start, games, rand):
        outcomes, flat, sampler = self.outcomes, self.flat, self.sampler
        wins = total = squares = 0
        lines = []
        for _ in range(games):
            position = start
            steps = []
            while True:
                draw = rand()
                if flat:
                    base = position * outcomes
                    slot = int(base + draw * outcomes) - base
                    entry = sampler[base + slot]
                    if entry.__class__ is tuple:
                        entry = entry[int(rand() * len(entry))]
                    if entry >= 0:
                        entry //= outcomes
                else:
                    slot = int(draw * outcomes)
                    cumulative, entries, _ = sampler[position]
                    entry = entries[bisect_right(cumulative, slot - 1)]
                    if entry.__class__ is tuple:
                        entry = entry[int(rand() * len(entry))]
                cumulative, rolls, dice = self._throw(position)
                roll = rolls[bisect_right(cumulative, slot - 1)]
                move = position ^ entry if entry >= 0 else 0
                steps.append("[%s, %d, %d, %s]" % (self._set(position), dice, roll,
                                                   self._set(move) if move else "null"))
                if entry <= 0:
                    break
                position = entry
            score = ~entry if entry < 0 else 0
            if score:
                total += score
                squares += score * score
            else:
                wins += 1
            self.number += 1
            lines.append('{"game": %d, "throws": [%s], "score": %d}\n' % (self.number, ", ".join(steps), score))
        self.out.write("".join(lines))
        return wins, total, squares


def write_header(out, strategy, games, seed) -> None:
    """The JSON line that starts a log's games of one strategy and rule set: what a replay needs."""
    rules = strategy.rules
    out.write(json.dumps({"log": "shutthebox solo games", "format": LOG_FORMAT, "rules": rules.as_dict(),
                          "described": rules.describe(), "variant": rules_label(rules), "strategy": strategy.name,
                          "seed": seed, "games": games}) + "\n")


class Simulation:
    """The outcome of ``games`` simulated games of one strategy."""

    def __init__(self, name, games, wins, total, squares, seconds, seed):
        self.name, self.games, self.wins = name, games, wins
        self.total, self.squares = total, squares
        self.seconds, self.seed = seconds, seed

    @property
    def shut(self) -> float:
        return self.wins / self.games

    @property
    def shut_interval(self) -> tuple[float, float]:
        """Wilson 95% confidence interval of the probability of shutting the box."""
        n, p, z2 = self.games, self.shut, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return centre - half, centre + half

    @property
    def score(self) -> float:
        return self.total / self.games

    @property
    def score_interval(self) -> tuple[float, float]:
        """Normal 95% confidence interval of the expected final score."""
        n, mean = self.games, self.score
        variance = max(self.squares - n * mean * mean, 0.0) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(variance / n)
        return mean - half, mean + half

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def agrees(self, shut: Fraction, score: Fraction) -> bool:
        """Both exact values inside their 95% intervals (fails 1 run in ~10 by chance)."""
        low, high = self.shut_interval
        s_low, s_high = self.score_interval
        return low <= shut <= high and s_low <= score <= s_high


def simulate(strategy, games: int, seed=1, throws=None, label=None, progress=True, log=None) -> Simulation:
    """Play ``games`` games of ``strategy`` from all tiles open; seeded, reproducible. ``log`` (a text
    file) receives a header line and every game (the same games, from the same draws)."""
    rules = strategy.rules
    throws = throws or Throws(rules)
    outcomes = rules.outcomes
    flat = throws.size * outcomes <= FLAT_LIMIT
    if flat:
        sampler, deterministic = sampling_table(strategy, throws)
        start = rules.all_open * outcomes
    else:
        sampler, deterministic = sampling_rows(strategy, throws)
        start = rules.all_open
    # Each strategy its own stream, so one unlucky stretch does not shift them all alike.
    rand = random.Random("%s/%s/%s" % (seed, strategy.name, rules.describe())).random
    if log is not None:
        write_header(log, strategy, games, seed)
        logger = _Logger(sampler, flat, strategy, throws, log)

        def play(step):
            return logger.play(rules.all_open, step, rand)
    elif flat:
        def play(step):
            return _play(sampler, deterministic, start, step, rand, outcomes)
    else:
        def play(step):
            return _play_rows(sampler, start, step, rand, outcomes)
    wins = total = squares = 0
    done = 0
    started = time.perf_counter()
    with Progress(games, label or strategy.name, enabled=None if progress else False) as bar:
        while done < games:
            step = min(CHUNK, games - done)
            w, t, s = play(step)
            wins, total, squares, done = wins + w, total + t, squares + s, done + step
            bar.update(done)
    return Simulation(strategy.name, games, wins, total, squares, time.perf_counter() - started, seed)


# -- replaying a log ------------------------------------------------------------------


def replay(lines, check_strategy=True) -> list[dict]:
    """Check a ``--log`` file's games against the rules, throw by throw; returns one summary per block
    (``{"header": ..., "games": n, "wins": w, "total": t}``). Raises ValueError naming the first line that
    breaks a rule: a position not the one the previous move left, a roll the dice cannot show there (or
    dice the rules do not allow), a move that is not a set of open tiles making the roll (within the
    tile limit), a turn that ends while a move fits or goes on when none does, a wrong score; and, for a
    deterministic strategy, a move the strategy would not play."""
    blocks: list[dict] = []
    block = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        record = json.loads(line)
        if "log" in record:
            if record.get("format") != LOG_FORMAT:
                raise ValueError("line %d: a log of format %r, not %d" % (number, record.get("format"), LOG_FORMAT))
            rules = Rules.from_dict(record["rules"])
            strategy = make(record["strategy"], rules, seed=record["seed"]) if check_strategy else None
            block = {"header": record, "rules": rules, "strategy": strategy, "sums": tile_sums(rules.tiles),
                     "games": 0, "wins": 0, "total": 0}
            blocks.append(block)
            continue
        if block is None:
            raise ValueError("line %d: a game before any header line" % number)
        _replay_game(block, record, number)
    for block in blocks:
        if block["games"] != block["header"]["games"]:
            raise ValueError("the log of %s holds %d games, not %d" % (block["header"]["strategy"], block["games"],
                                                                       block["header"]["games"]))
        del block["sums"], block["strategy"]
    return blocks


def _replay_game(block, record, number):
    rules, sums, strategy = block["rules"], block["sums"], block["strategy"]
    position = rules.all_open
    throws = record["throws"]
    for index, (text, dice, roll, move_text) in enumerate(throws):
        where = "line %d, throw %d" % (number, index + 1)
        if parse_set(text, rules.tiles) != position:
            raise ValueError("%s: position %s, but the previous move left %s" % (where, text,
                                                                                 format_set(position, rules.tiles)))
        thrown = "one die" if dice == 1 else "%d dice" % dice
        if dice not in rules.dice_choices(position, sums[position]):
            raise ValueError("%s: %s cannot be thrown at %s" % (where, thrown, text))
        if not dice <= roll <= dice * rules.sides:
            raise ValueError("%s: %s cannot show %d" % (where, thrown, roll))
        legal = moves_by_roll(rules, position, sums).get(roll, [])
        if move_text is None:
            if legal:
                raise ValueError("%s: the turn ends, but %s makes %d" % (where, list(numbers_of(legal[0])), roll))
            if index != len(throws) - 1:
                raise ValueError("%s: the turn ended, yet the game goes on" % where)
            break
        move = parse_set(move_text, rules.tiles)
        if move not in legal:
            raise ValueError("%s: %s is not a move for %d at %s" % (where, move_text, roll, text))
        if strategy is not None and strategy.deterministic and strategy.choose(position, roll) != move:
            raise ValueError("%s: %s does not play %s for %d at %s" % (where, strategy.name, move_text, roll, text))
        position &= ~move
        if not position and index != len(throws) - 1:
            raise ValueError("%s: the box is shut, yet the game goes on" % where)
    else:
        if position:
            raise ValueError("line %d: the game stops with %s open and no throw ending it"
                             % (number, format_set(position, rules.tiles)))
    if record["score"] != sums[position]:
        raise ValueError("line %d: score %d, but the open tiles sum to %d" % (number, record["score"], sums[position]))
    block["games"] += 1
    block["wins"] += position == 0
    block["total"] += sums[position]


# -- the subcommand ----------------------------------------------------------------


# Beyond this a run takes hours: refused, like every game's --games.
MAX_GAMES = 100_000_000


RULE_HELP = {
    "--tiles": ("N", "tiles 1..N, 1 to 12 (default 9)"),
    "--dice": ("N", "dice thrown, 1 to 4 (default 2)"),
    "--sides": ("N", "sides of each die, 2 to 20 (default 6)"),
    "--one-die": ("RULE", "never, K (one die once the open tiles sum to K or less; default 6), high, K,high; "
                          "prefix optional: to let the player choose"),
    "--max-move-tiles": ("N", "at most N tiles closed per roll"),
}


def add_rule_options(parser, default_text: str):
    """``--variant`` and the game options that choose a single player's rules (as for two players)."""
    parser.add_argument("--variant", default=None, metavar="NAME",
                        help="a named rule set: %s, or all (default %s); or the options below, which choose "
                             "any rule set as for two players (with --variant, the same rules)"
                             % (", ".join(VARIANTS), default_text))
    for option in RULE_OPTIONS:
        metavar, text = RULE_HELP[option]
        parser.add_argument(option, default=None, metavar=metavar, help=text)


def rule_sets(args, default) -> list:
    """[(label, rules)] the options choose: ``--variant NAME``, ``--variant all``, the game options, or
    ``default`` (variant names) when none is given; --variant and game options must agree."""
    given = {option: getattr(args, option[2:].replace("-", "_")) for option in RULE_OPTIONS}
    given = {option: value for option, value in given.items() if value is not None}
    variant = args.variant
    if variant == "all":
        if given:
            raise InvalidQuery("--variant all and %s do not go together: give one rule set or all three"
                               % ", ".join(given))
        return [(name, rules) for name, rules in VARIANTS.items()]
    if variant is not None:
        variant_rules(variant)  # refuses an unknown name
    if not given:
        names = [variant] if variant is not None else list(default)
        return [(name, variant_rules(name)) for name in names]
    rules, _ = rules_from_options(given)
    rules = solo_rules(variant, rules)
    return [(rules_label(rules), rules)]


def _parser():
    parser = Parser(
        prog=PROG,
        description="Simulate single-player strategies and check them against their exact values.",
    )
    add_rule_options(parser, DEFAULT_VARIANT)
    parser.add_argument("--strategy", action="append", metavar="NAME",
                        help="strategy to simulate (repeatable; default all: %s)" % ", ".join(STRATEGIES))
    parser.add_argument("--games", type=_positive, default=1_000_000, help="games per strategy (default 1000000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--log", metavar="FILE",
                        help="write every game, throw by throw (JSON lines: position, dice, roll, move), to FILE")
    return parser


def _positive(text):
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError("must be a whole number, not '%s'" % text) from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value


def _pct(value) -> str:
    return "%.4f%%" % (100 * float(value))


def run(variants, names, games, seed, out=None, log=None) -> list:
    """Simulate and print one table per rule set (``variants``: names, or (label, rules) pairs); returns
    [(label, name, exact, simulation)]. ``log``: a text file for every game (``--log``)."""
    out = out or sys.stdout
    rows = []
    width = max([14] + [len(name) for name in names])
    for variant in variants:
        label, rules = (variant, variant_rules(variant)) if isinstance(variant, str) else variant
        throws = Throws(rules)
        out.write("%s rules (%s): %s games per strategy, seed %d\n" % (label, rules.describe(), format(games, ","), seed))
        out.write("%-*s %10s  %-31s %9s  %-21s %-5s %s\n" % (
            width, "strategy", "shut exact", "simulated (95% CI)", "score", "simulated (95% CI)", "check",
            "s/1M games"))
        for name in names:
            strategy = make(name, rules, seed=seed)
            exact = evaluate(strategy, throws)
            sim = simulate(strategy, games, seed, throws, label="%s %s" % (label, name), log=log)
            low, high = sim.shut_interval
            s_low, s_high = sim.score_interval
            out.write("%-*s %10s  %-31s %9.4f  %-21s %-5s %.3f\n" % (
                width, name, _pct(exact.start_shut), "%s (%s-%s)" % (_pct(sim.shut), _pct(low), _pct(high)),
                float(exact.start_score), "%.4f (%.3f-%.3f)" % (sim.score, s_low, s_high),
                "ok" if sim.agrees(exact.start_shut, exact.start_score) else "OUT",
                1e6 / sim.games_per_second))
            out.flush()
            rows.append((label, name, exact, sim))
        out.write("\n")
    played = sum(sim.games for *_, sim in rows)
    seconds = sum(sim.seconds for *_, sim in rows)
    if seconds > 0:
        per_million = seconds / played * 1e6
        out.write(
            "speed: %s games in %.2f s on one core = %.1f million games per minute; %.3f s per million games,"
            " %.1fx the reference's ~%.0f s per million on the JVM\n"
            % (format(played, ","), seconds, played / seconds * 60 / 1e6, per_million,
               REFERENCE_SECONDS_PER_MILLION / per_million, REFERENCE_SECONDS_PER_MILLION)
        )
        out.write("check: ok = both exact values inside the simulation's 95% intervals (expect an OUT now and then)\n")
    return rows


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    return run_command("ShutTheBox", lambda: _main(argv))


def _main(argv) -> int:
    try:
        args = _parser().parse_args(argv)
        check_games_and_seed(args, (1, MAX_GAMES))
        variants = rule_sets(args, [DEFAULT_VARIANT])
        names = args.strategy or list(STRATEGIES)
        for name in names:
            if name not in STRATEGIES:
                raise InvalidQuery("unknown strategy '%s' (choose %s)" % (name, ", ".join(STRATEGIES)))
        if args.log is None:
            run(variants, names, args.games, args.seed)
            return 0
        try:
            log = open(args.log, "w", encoding="utf-8")
        except OSError as error:
            sys.stderr.write("ShutTheBox: cannot write the log %s (%s)\n" % (args.log, error.strerror or error))
            return 1
        with log:
            run(variants, names, args.games, args.seed, log=log)
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("\nShutTheBox: interrupted\n")
        return 130
