"""What the games' analysis commands (strategies, simulate, report) share; analysis time only."""

import argparse
import os
import sys

from ..errors import InvalidQuery, ShutTheBoxError
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
    """``work()``, returning its exit status; a bad option, a table problem or a report
    that cannot be written is one line on stderr, never a traceback."""
    try:
        return work()
    except ShutTheBoxError as error:
        sys.stderr.write("%s: %s\n" % (prog, error))
        return error.exit_status
    except OSError as error:
        sys.stderr.write("%s: cannot write the report (%s)\n" % (prog, error.strerror or error))
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


def write_report(folder: str, files) -> None:
    """Write ``files`` (pairs of name and text) into ``folder``, each atomically; say what was written."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for name, text in files:
        paths.append(os.path.join(folder, name))
        write_atomic(paths[-1], text)
    print("wrote " + ", ".join(paths))
