"""The toggle game's questions on the command line.

    ShutTheBox toggle [--cards N] [--sides S] --expect STATE       ->  50.317928
    ShutTheBox toggle [--cards N] [--sides S] --move STATE X Y     ->  7
"""

from ...engine.command import SHARED_HELP, TableSession, no_question, one_question, whole, wrong_count
from ...engine.store import describe as describe_file
from .rules import DEFAULT_CARDS, DEFAULT_SIDES, LIMITS, OPTIONS, rules_from_options
from .table import load

HELP = """\
usage: ShutTheBox toggle [--cards N] [--sides S] --expect STATE
       ShutTheBox toggle [--cards N] [--sides S] --move STATE X Y
       ShutTheBox toggle [--cards N] [--sides S] --batch < questions.txt
       ShutTheBox toggle [--cards N] [--sides S] --rules
       ShutTheBox toggle strategies [--games N] [--seed N] [--cards N] [--sides S]
       ShutTheBox toggle report [--out DIR] [--games N] [--seed N]

The card-flip game of Project Euler 640. Cards 1..N start face up. Each roll of
two S-sided dice shows an ordered pair (x, y); the player must turn over card x,
card y or card x+y (x+y only when it is at most N); a face-down card turns face
up again. The game ends when every card is face down. Answers assume the player
minimises the expected number of rolls.

questions:
  --expect STATE      the expected number of further rolls
      $ ShutTheBox toggle --expect all
      50.317928
  --move STATE X Y    the card to turn when the dice show X and Y
      $ ShutTheBox toggle --move all 3 4
      7

STATE lists the cards still face up: 1,4,10,12 (commas; with 9 cards or fewer
the digits may run together: 146); a lone card above 9 is 12, (a run of digits
such as 12 is ambiguous with more than 9 cards and is refused); all; none.
Among equally good cards (values within 1e-10), the highest is shown.

options:
  --cards N      cards 1..N, %d to %d (default %d)
  --sides S      sides of each die, %d to %d (default %d); tables other than
                 12 x 6 and 4 x 2 are solved on first use and cached
""" % (LIMITS["cards"][0], LIMITS["cards"][1], DEFAULT_CARDS, LIMITS["sides"][0],
       LIMITS["sides"][1], DEFAULT_SIDES) + SHARED_HELP % "toggle"

GAME_OPTIONS = OPTIONS
COMMANDS = {"strategies": "shutthebox.games.toggle.analysis:strategies_main",
            "report": "shutthebox.games.toggle.analysis:report_main"}
_FORMS = {"--expect": ("STATE",), "--move": ("STATE", "X", "Y")}



def parse(tokens) -> tuple[str, list]:
    """``["--move", "all", "3", "4"]`` -> ("--move", ["all", "3", "4"])."""
    question, args = one_question(tokens, _FORMS, "a toggle question is --expect STATE or --move STATE X Y",
                                  "--expect STATE or --move STATE X Y")
    if len(args) != len(_FORMS[question]):
        raise wrong_count(question, " ".join(_FORMS[question]), args)
    return question, args


class Session(TableSession):
    def __init__(self, options: dict, table: str | None):
        super().__init__(table)
        self.rules = rules_from_options(options)

    def open_table(self):
        return load(self.rules, self.path)

    def answer(self, tokens) -> str:
        question, args = parse(tokens)
        table = self.table()
        if question == "--expect":
            return "%.6f" % table.probe_expect(args[0])
        return str(table.probe_flip(args[0], whole("die", args[1]), whole("die", args[2])))

    def describe(self, tokens) -> str:
        no_question("--rules", tokens)
        table = self.table()
        return describe_file(table.file, "toggle", table.rules.describe())


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
