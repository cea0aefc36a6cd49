"""yazy's questions on the command line.

    ShutTheBox yazy --expect [CATS]                ->  165.757319
    ShutTheBox yazy --expect CATS DICE REROLLS     ->  the same, mid-turn
    ShutTheBox yazy --move CATS DICE REROLLS       ->  keep 6 6 | score full-house | keep none
"""

from ...engine.command import SHARED_HELP, TableSession, no_question, one_question, wrong_count
from ...engine.store import describe as describe_file
from .rules import describe
from .table import load

HELP = """\
usage: ShutTheBox yazy --expect [CATS]
       ShutTheBox yazy --expect CATS DICE REROLLS
       ShutTheBox yazy --move CATS DICE REROLLS
       ShutTheBox yazy --batch < questions.txt
       ShutTheBox yazy --rules
       ShutTheBox yazy simulate [--games N] [--seed S]
       ShutTheBox yazy report [--out DIR] [--games N] [--seed S]

yazy, a Yahtzee variant: 11 turns; each turn rolls five 6-sided dice, then up to
2 rerolls (keep any dice, roll the rest), then scores one open category:
ones..sixes (the face times how many show it), three-kind and four-kind (the sum
of the dice with 3 or 4 of a face), full-house (25 for 3 + 2 of two faces),
straight (40 for 12345 or 23456), yazy (50 for five of a kind). No bonuses.
Answers maximise the expected total, which is not the same as maximising the
chance to beat an opponent.

questions:
  --expect [CATS]              the maximum expected sum of the scores still to
                               come, at the start of a turn (CATS: all)
      $ ShutTheBox yazy --expect
      165.757319
  --expect CATS DICE REROLLS   the same, mid-turn
  --move CATS DICE REROLLS     the best move: score CATEGORY, keep D D D (the
                               kept dice, increasing), or keep none
      $ ShutTheBox yazy --move all 13366 2
      keep 6 6

CATS is the open categories: names separated by commas (ones,twos,threes,
fours,fives,sixes,three-kind,four-kind,full-house,straight,yazy), all or none.
DICE is five digits 1-6 in any order; REROLLS the rerolls left, 0 to 2. Keeping
all five dice with rerolls left is scoring now. Among moves whose values differ
by less than 1e-12, scoring comes first (the first category in the list above),
then keeping more dice, then the lowest dice.

options:
""" + SHARED_HELP % "yazy"

GAME_OPTIONS = ()
COMMANDS = {"simulate": "shutthebox.games.yazy.analysis:simulate_main",
            "report": "shutthebox.games.yazy.analysis:report_main"}
_FORMS = {"--expect": ((0, 1, 3), "[CATS] or CATS DICE REROLLS"), "--move": ((3,), "CATS DICE REROLLS")}


def parse(tokens) -> tuple[str, list]:
    """``["--move", "all", "13366", "2"]`` -> ("--move", ["all", "13366", "2"])."""
    question, args = one_question(tokens, _FORMS, "a yazy question is --expect [CATS] [DICE REROLLS] or --move "
                                  "CATS DICE REROLLS", "--expect [CATS] or --move CATS DICE REROLLS")
    counts, names = _FORMS[question]
    if len(args) not in counts:
        raise wrong_count(question, names, args)
    return question, args


class Session(TableSession):
    def open_table(self):
        return load(self.path)

    def answer(self, tokens) -> str:
        question, args = parse(tokens)
        table = self.table()
        if question == "--move":
            return table.probe_move(*args)
        if len(args) == 3:
            return "%.6f" % table.probe_expect(*args)
        return "%.6f" % table.probe_expect(args[0] if args else "all")

    def describe(self, tokens) -> str:
        no_question("--rules", tokens)
        return describe_file(self.table().file, "yazy", describe())


def open_game(options: dict, table: str | None) -> Session:
    return Session(table)
