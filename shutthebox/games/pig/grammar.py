"""The Pig family's questions on the command line.

    ShutTheBox pig [--variant V] [--goal N] [--sides S] --expect [I J K]     ->  0.530593
    ShutTheBox pig [--variant V] [--goal N] [--sides S] --move I J K         ->  roll
    ShutTheBox pig [--variant V] [--goal N] [--sides S] --options I J K      ->  roll 0.530593 0.000000
"""

from ...engine.command import SHARED_HELP, RulesSession, one_question, whole, wrong_count
from ...errors import InvalidQuery
from . import DECLARATION
from .rules import Rules
from .table import load

HELP = """\
usage: ShutTheBox pig [--variant V] [--goal N] [--sides S] --expect [I J K]
       ShutTheBox pig [--variant V] [--goal N] [--sides S] --move I J K
       ShutTheBox pig [--variant V] [--goal N] [--sides S] --options I J K
       ShutTheBox pig [--variant V] [--goal N] [--sides S] --batch < questions.txt
       ShutTheBox pig [--variant V] [--goal N] [--sides S] --rules
       ShutTheBox pig strategies [--variant V] [--goal N] [--sides S]

Pig and its relatives, for two players. On a turn the player rolls as often as
they like, adding to a turn total, then holds to bank it; a roll of 1 ends the
turn and loses the turn total. The first to bank the goal wins. Variants:
  pig       one die (--sides faces); a 1 ends the turn
  piglet    a coin: tails ends the turn, heads adds 1 (goal 10)
  two-dice  two dice: a single 1 ends the turn, double 1s also reset the
            banked score to 0, otherwise the sum adds
  big-pig   two dice: a single 1 ends the turn, double 1s add 25, other
            doubles add twice their sum, otherwise the sum adds
Answers are the mover's chance to win, both players playing to win.

questions (I: the mover's banked score, J: the opponent's, K: the turn total):
  --expect [I J K]   the mover's chance to win before choosing (default 0 0 0:
                     the first player before the game's first roll)
      $ ShutTheBox pig --expect
      0.530593
  --move I J K       roll or hold
      $ ShutTheBox pig --move 0 0 21
      hold
  --options I J K    each choice, best first: its chance to win and what it
                     gives away against the best
      $ ShutTheBox pig --options 0 0 25
      hold 0.657649 0.000000; roll 0.651341 0.006308

A turn starts with a roll: at K = 0 the move is roll (there is no hold). Among
exactly equal choices (within 1e-11) the move is hold: a banked total risks
nothing. Every printed digit is exact (docs/PIG.md).

options:
%s
""" % Rules.help_lines() + SHARED_HELP % "pig"

GAME_OPTIONS = Rules.option_flags()
# Analysis commands: ``ShutTheBox pig WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("strategies",)
_FORMS = {"--expect": ("I", "J", "K"), "--move": ("I", "J", "K"), "--options": ("I", "J", "K")}


def parse(tokens) -> tuple[str, list]:
    """``["--move", "0", "0", "21"]`` -> ("--move", [0, 0, 21])."""
    question, args = one_question(tokens, _FORMS, "a pig question is --expect, --move or --options I J K",
                                  "--expect [I J K], --move I J K or --options I J K", GAME_OPTIONS)
    if question == "--expect" and not args:
        return question, [0, 0, 0]
    if len(args) != 3:
        raise wrong_count(question, "I J K", args)
    return question, [whole(name, text) for name, text in zip(("score I", "score J", "turn total K"), args)]


class Session(RulesSession):
    FAMILY, RULES, load = DECLARATION.tables[0], Rules, staticmethod(load)

    def answer(self, tokens) -> str:
        question, args = parse(tokens)
        table = self.table()
        if question == "--move":
            return table.probe_move(*args)
        index = table.index(*args)
        if question == "--expect":
            return table.printed(index, table.probe_win(*args))
        return options_text(table, index, table.choices(*args, index))

    def quick_answer(self):
        """Canonical batch lines answered straight from the whole arrays."""
        table = self.table()
        goal = table.rules.goal
        number = {str(value): value for value in range(goal)}
        starts = [mine * goal - mine * (mine - 1) // 2 for mine in range(goal)]
        win, move = table._win, table._move

        def quick(words):
            if len(words) != 4 or words[0] not in ("--expect", "--move", "--options"):
                return None
            mine, other, turn = number[words[1]], number[words[2]], number[words[3]]
            if mine + turn >= goal:
                return None  # the reference path says why
            index = (starts[mine] + turn) * goal + other
            if index in table.unsure:
                return None  # the reference path refuses it
            if words[0] == "--expect":
                return "%.6f" % win[index]
            if words[0] == "--move":
                return "roll" if move[index] else "hold"
            try:
                return options_text(table, index, table.choices(mine, other, turn, index))
            except InvalidQuery:
                return None  # a chance too near a rounding midpoint: the reference path refuses it

        return quick


def options_text(table, index: int, choices: list) -> str:
    """``--options``: each choice, best first, its chance to win and what it gives away against the best."""
    best = choices[0][1]
    return "; ".join("%s %s %.6f" % (move, table.printed(index, value) if number == 0 else "%.6f" % value,
                                     max(best - value, 0.0)) for number, (move, value) in enumerate(choices))


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
