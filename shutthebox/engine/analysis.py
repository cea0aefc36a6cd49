"""What the games' analysis commands (strategies, simulate, report) share; analysis time only."""

import argparse
import errno
import os
import sys

from ..errors import InvalidQuery, ShutTheBoxError
from .text import one_line
from .writer import write_atomic


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (InvalidQuery, exit status 2), never usage over three lines."""

    def error(self, message):
        raise InvalidQuery(message)


def check_games_and_seed(args, games: tuple) -> None:
    """``--games`` within ``games`` (low, high) and ``--seed`` 0 or more, or InvalidQuery."""
    low, high = games
    if not low <= args.games <= high:
        raise InvalidQuery("--games must be %d to %d" % (low, high))
    if args.seed < 0:
        raise InvalidQuery("--seed must be 0 or more")


def run_command(prog: str, work) -> int:
    """``work()``, returning its exit status; a bad option, a table problem, or output or a report that
    cannot be written is one line on stderr and a non-zero status, never a traceback and never output lost
    in silence: standard output closed (``>&-``) is refused before any work, and what was printed is
    flushed here, so a full disk (``> /dev/full``) is said too."""
    from .command import _say, _silence_stdout

    try:
        if sys.stdout is None:
            raise OSError(errno.EBADF, "standard output is closed")
        status = work()
        sys.stdout.flush()
        return status
    except BrokenPipeError:  # the reader went away (``| head``): not an error
        _silence_stdout()
        return 0
    except ShutTheBoxError as error:
        _say("%s: %s\n" % (prog, one_line(error)))
        return error.exit_status
    except OSError as error:
        if error.filename is None and sys.stdout is not None:
            _silence_stdout()  # what is left in its buffer would fail again at exit
        what = "the output" if error.filename is None else "the report %s" % error.filename
        _say("%s: cannot write %s (%s)\n" % (prog, what, error.strerror or error))
        return 1


def parse_options(argv, prog: str, description: str, *, games: tuple, per: str, rules=(), out=None):
    """The options every analysis command takes: ``--games`` (``per`` says what one is; the bounds
    ``games``), ``--seed``, the game's rule options ``rules`` and, for a report, ``--out`` (default
    ``out``). Bounds are checked here (InvalidQuery); ``args.rules`` holds the rule options given."""
    low, high = games
    parser = Parser(prog=prog, description=description)
    parser.add_argument("--games", type=int, default=10_000,
                        help="%s (default 10000%s)" % (per, "; 0: none" if low == 0 else ""))
    parser.add_argument("--seed", type=int, default=1)
    for option in rules:
        parser.add_argument(option, default=None)
    if out:
        parser.add_argument("--out", default=out, help="folder to write (default %s)" % out)
    args = parser.parse_args(argv)
    check_games_and_seed(args, games)
    given = {option: getattr(args, option[2:].replace("-", "_")) for option in rules}
    args.rules = {option: value for option, value in given.items() if value}
    return args


def analysis_commands(game: str, word: str, description: str, work, *, games: tuple, per: str, rules=(),
                      report_rules=None):
    """The ``main(argv) -> int`` of a game's analysis command ``word`` (``strategies``, ``simulate``) and of its
    ``report``: each parses the shared options (:func:`parse_options`: ``--games`` within ``games``, ``--seed``,
    the game's ``rules`` options, ``report_rules`` for the report if given; the report's ``--out`` defaults to
    ``GAME-report``), then runs ``work(args, report) -> exit status`` with errors as one line."""

    def command(report: bool):
        prog = "ShutTheBox %s %s" % (game, "report" if report else word)
        options = report_rules if report and report_rules is not None else rules

        def main(argv) -> int:
            return run_command(prog, lambda: work(parse_options(argv, prog, description, games=games, per=per,
                                                                rules=options, out=game + "-report" if report else None),
                                                  report))

        return main

    return command(False), command(True)


def write_report(folder: str, files) -> None:
    """Write ``files`` (pairs of name and text) into ``folder``, each atomically; say what was written."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for name, text in files:
        paths.append(os.path.join(folder, name))
        write_atomic(paths[-1], text)
    print("wrote " + ", ".join(paths))


def histogram(totals, width: int) -> list:
    """[(low score of the bin, games)] for bins of ``width`` points, from the lowest to the highest total."""
    counts: dict = {}
    for total in totals:
        counts[total // width * width] = counts.get(total // width * width, 0) + 1
    return [(low, counts.get(low, 0)) for low in range(min(counts), max(counts) + 1, width)]


def svg_histogram(totals, exact: float, title: str, width: int, label_every: int) -> str:
    """The final scores' distribution as an SVG bar chart, the exact mean marked: bins of ``width``
    points, every ``label_every``-th bin labelled."""
    bins = histogram(totals, width)
    top = max(count for _, count in bins)
    span, height, left, bottom = 560, 260, 50, 40
    bar = span / len(bins)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="11">' % (left + span + 20, height + bottom + 30),
             '<text x="%d" y="16" font-weight="bold">%s</text>' % (left, title)]
    for number, (low, count) in enumerate(bins):
        tall = height * count / top
        x = left + number * bar
        parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#4c78a8"/>'
                     % (x + 1, 25 + height - tall, max(bar - 2, 1), tall))
        if number % label_every == 0:
            parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x + bar / 2, 25 + height + 15,
                                                                                 low))
    mark = left + span * (exact - bins[0][0]) / (len(bins) * width)
    parts.append('<line x1="%.1f" x2="%.1f" y1="25" y2="%d" stroke="#e45756" stroke-width="2"/>'
                 % (mark, mark, 25 + height))
    parts.append('<text x="%.1f" y="%d" fill="#e45756">exact mean %.2f</text>' % (mark + 4, 38, exact))
    parts.append('<text x="%d" y="%d" text-anchor="middle">final score (bins of %d points)</text>'
                 % (left + span // 2, 25 + height + 32, width))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
