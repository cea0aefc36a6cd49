"""The toggle game's questions on the command line.

    ShutTheBox toggle [--cards N] [--sides S] --expect STATE       ->  50.317928
    ShutTheBox toggle [--cards N] [--sides S] --move STATE X Y     ->  7
"""

from ...engine.command import SHARED_HELP, RulesSession, one_question, whole, wrong_count
from ...engine.notation import format_set
from .rules import DEFAULT_CARDS, DEFAULT_SIDES, LIMITS, OPTIONS, Rules
from . import DECLARATION
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
# Analysis commands: ``ShutTheBox toggle WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("strategies", "report")
_FORMS = {"--expect": ("STATE",), "--move": ("STATE", "X", "Y")}



def parse(tokens) -> tuple[str, list]:
    """``["--move", "all", "3", "4"]`` -> ("--move", ["all", "3", "4"])."""
    question, args = one_question(tokens, _FORMS, "a toggle question is --expect STATE or --move STATE X Y",
                                  "--expect STATE or --move STATE X Y", GAME_OPTIONS)
    if len(args) != len(_FORMS[question]):
        raise wrong_count(question, " ".join(_FORMS[question]), args)
    return question, args


class Session(RulesSession):
    FAMILY, RULES, load = DECLARATION.tables[0], Rules, staticmethod(load)

    def answer(self, tokens) -> str:
        question, args = parse(tokens)
        table = self.table()
        if question == "--expect":
            return "%.6f" % table.probe_expect(args[0])
        return str(table.probe_flip(args[0], whole("die", args[1]), whole("die", args[2])))

    def quick_answer(self):
        """Canonical batch lines answered straight from the whole arrays."""
        table = self.table()
        cards, sides = table.rules.cards, table.rules.sides
        states = {format_set(mask, cards): mask for mask in range(1 << cards)}
        states["all"] = (1 << cards) - 1
        die = {str(face): face for face in range(1, sides + 1)}
        rolls, flip = table._rolls, table._flip
        texts = [None] * len(rolls)  # each value's printed text, made the first time it is asked for

        def quick(words):
            if len(words) == 2 and words[0] == "--expect":
                mask = states[words[1]]
                text = texts[mask]
                if text is None:
                    text = texts[mask] = "%.6f" % rolls[mask]
                return text
            if len(words) == 4 and words[0] == "--move":
                mask = states[words[1]]
                card = flip[(mask * sides + die[words[2]] - 1) * sides + die[words[3]] - 1] if mask else 0
                return str(card) if card else None  # no card to turn: the reference path says why
            return None

        return quick


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
