"""A set-aside dice game's questions on the command line (query time), one grammar for every game of the
family, in the game's words::

    ShutTheBox GAME [--dice N] [--sides S] --expect [DICE]   ->  the expected total still to come
    ShutTheBox GAME [--dice N] [--sides S] --move DICE       ->  set aside 3 3
    ShutTheBox GAME [--dice N] [--sides S] --options DICE    ->  set aside 3 3 7.123456 0.000000; ...
"""

from ...command import SHARED_HELP, RulesSession, one_question, wrong_count
from ...throws import faces
from .table import six

USAGE = """\
usage: ShutTheBox {id} [--dice N] [--sides S] --expect [DICE]
       ShutTheBox {id} [--dice N] [--sides S] --move DICE
       ShutTheBox {id} [--dice N] [--sides S] --options DICE
       ShutTheBox {id} [--dice N] [--sides S] --batch < questions.txt
       ShutTheBox {id} [--dice N] [--sides S] --rules

{rules}

Answers {aim} the expected total: the points still to come, the dice set
aside now included.

questions (DICE: the dice showing, in any order: digits such as 13356, or
numbers with commas such as 1,12,3 where a face is above 9):
  --expect [DICE]    the expected total still to come: from the start of the
                     game, or with DICE showing, before setting any aside
  --move DICE        the dice to set aside (increasing)
  --options DICE     every choice, best first: its expected total still to
                     come and what it gives away against the best
{examples}
Among exactly equal choices the move sets aside more dice (a shorter game),
then the lower faces. Every printed digit is exact: the answers come from the
exact fractions the table holds.

options:
{options}
"""


def move_text(kept) -> str:
    return "set aside " + " ".join(map(str, kept))


class Grammar:
    """The family's ``grammar`` hooks for one game: ``HELP``, ``GAME_OPTIONS``, ``COMMANDS``, ``open_game``."""

    COMMANDS = ()
    FORMS = {"--expect": ("DICE",), "--move": ("DICE",), "--options": ("DICE",)}

    def __init__(self, spec):
        rules, part = spec.family.rules().Rules, spec.family.table()
        self.GAME_OPTIONS = rules.option_flags()
        examples = "".join("      $ ShutTheBox %s %s\n      %s\n" % (spec.id, question, answer)
                           for question, answer in spec.examples)
        self.HELP = USAGE.format(id=spec.id, rules=spec.rules_text, aim="minimise" if spec.lowest else "maximise",
                                 examples=examples, options=rules.help_lines()) + SHARED_HELP % spec.id
        grammar = self

        class Session(RulesSession):
            FAMILY, RULES, load = spec.family, rules, staticmethod(part.load)

            def answer(self, tokens) -> str:
                return grammar.answer(self.table(), tokens)

            def quick_answer(self):
                return grammar.quick(self.table())

        self.Session = Session

    def open_game(self, options: dict, table: str | None):
        return self.Session(options, table)

    def quick(self, table):
        """A batch's fast path: a line ``QUESTION DICE`` with digits for dice, answered once for each sorted
        roll (the dice in any order are the same question); every other line takes the reference path."""
        rules = table.rules
        if rules.sides > 9:
            return None
        digits, most = frozenset("123456789"[:rules.sides]), rules.dice
        known: dict = {}
        answer, forms = self.answer, self.FORMS

        def quick(words):
            if (len(words) != 2 or words[0] not in forms or not 0 < len(words[1]) <= most
                    or not digits.issuperset(words[1])):
                return None
            key = (words[0], "".join(sorted(words[1])))
            text = known.get(key)
            if text is None:
                text = known[key] = answer(table, [words[0], key[1]])
            return text

        return quick

    def answer(self, table, tokens) -> str:
        question, args = one_question(tokens, self.FORMS, "a question is --expect [DICE], --move DICE or "
                                      "--options DICE", "--expect [DICE], --move DICE or --options DICE",
                                      self.GAME_OPTIONS)
        if len(args) > 1 or (question != "--expect" and not args):
            raise wrong_count(question, "DICE" if question != "--expect" else "[DICE]", args)
        if question == "--expect":
            numerator, denominator = table.exact(args[0] if args else None)
            return six(numerator, denominator)
        if question == "--move":
            return move_text(table.probe_move(args[0]))
        roll = table.roll(args[0])
        choices = table.choices(roll)
        best = choices[0][1]
        return "; ".join("%s %s %s" % (move_text(faces(roll, mask)), six(value, table.denominator),
                                       six(abs(value - best), table.denominator)) for mask, value in choices)
