"""Full Yahtzee's questions on the command line.

    ShutTheBox yahtzee --expect [CARD] [--upper N] [--yahtzee-box 50|0]                ->  254.587729
    ShutTheBox yahtzee --expect CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS     ->  the same, mid-turn
    ShutTheBox yahtzee --move CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS       ->  keep 6 6 | score chance
    ShutTheBox yahtzee --options CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS    ->  every choice valued

Game options: ``--joker official|free|none|bonus-only`` (Yahtzee's joker rule) or ``--variant yatzy``
(Scandinavian Yatzy), the rule set of the whole run.
"""

from ...engine.command import SHARED_HELP, TableSession, no_question, one_question, remembered_lines
from ...engine.store import describe as describe_file
from ...engine.text import option_value, wrong_count
from ...errors import InvalidQuery
from .rules import (
    OPTIONS, categories, describe, parse_dice, rerolls_left, rules_from_options, upper_total, yahtzee_box,
)
from . import DECLARATION
from .table import load

HELP = """\
usage: ShutTheBox yahtzee [RULES] --expect [CARD] [--upper N] [--yahtzee-box 50|0]
       ShutTheBox yahtzee [RULES] --expect CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS
       ShutTheBox yahtzee [RULES] --move CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS
       ShutTheBox yahtzee [RULES] --options CARD [--upper N] [--yahtzee-box 50|0] DICE REROLLS
       ShutTheBox yahtzee [RULES] --target X --expect [CARD] [...] [DICE REROLLS]
       ShutTheBox yahtzee [RULES] --target X --move CARD [...] DICE REROLLS
       ShutTheBox yahtzee [RULES] --batch < questions.txt
       ShutTheBox yahtzee [RULES] --rules
       ShutTheBox yahtzee simulate [--games N] [--seed S] [RULES] [--log FILE]
       ShutTheBox yahtzee report [--out DIR] [--games N] [--seed S] [RULES]
       ShutTheBox yahtzee review [RULES] < game.txt
       ShutTheBox yahtzee distribution [RULES] [--ties first|last]
RULES is --joker official|free|none|bonus-only (Yahtzee), or --variant yatzy.

Full Yahtzee: 13 turns; each turn rolls five 6-sided dice, then up to 2 rerolls
(keep any dice, roll the rest), then scores one open box: ones..sixes (the face
times how many show it), three-kind and four-kind (the sum of the dice with 3 or
4 of a face), full-house (25), small-straight (30 for four in a row),
large-straight (40), yahtzee (50 for five of a kind), chance (the sum). Upper
bonus 35 once ones..sixes reach 63; Yahtzee bonus 100 for each further Yahtzee
once the yahtzee box holds 50; jokers by --joker. Answers maximise the expected
total, which is not the same as maximising the chance to beat an opponent.

questions:
  --expect [CARD]              the maximum expected points still to come from
                               the start of a turn, bonuses to be earned included
                               (CARD: all, the start of a game)
      $ ShutTheBox yahtzee --expect all
      254.587729
  --expect CARD DICE REROLLS   the same, mid-turn, before choosing
  --move CARD DICE REROLLS     the best move: score CATEGORY, keep D D D (the
                               kept dice, increasing), or keep none
      $ ShutTheBox yahtzee --move all 13366 2
      keep 6 6
  --options CARD DICE REROLLS  every legal choice, best first, as
                               "CHOICE VALUE LOSS; CHOICE VALUE LOSS; ..." on one
                               line: the expected points to come after it and
                               what it loses against the best
  --target X --expect CARD [DICE REROLLS]
                               the highest chance that the points still to
                               come, bonuses included, reach X or more (my
                               opponent finished with 260, I have 180: X = 81)
  --target X --move CARD DICE REROLLS
                               the move that gives it (ties: the rule below,
                               within 1e-11)

CARD is the open boxes: names separated by commas (ones,twos,threes,fours,fives,
sixes,three-kind,four-kind,full-house,small-straight,large-straight,yahtzee,
chance), all or none, in any letter case. Short forms:
  aliases       aces (ones), 3k, 4k, fh, ss, ls (three-kind ... large-straight)
  letters       Verhoeff's, one a box: 1 2 3 4 5 6 (ones..sixes), T three-kind,
                F four-kind, H full-house, S small-straight, L large-straight,
                Y yahtzee, C chance; in a list (1,t,c) or run together (1TC)
  all -LIST     every box but LIST (the closed ones): all -twos,chance, all-2C
A word that reads two ways is refused: fh alone is full-house or F and H, so
write fh, (the alias; a list may end with a comma) or F,H; ls likewise.
After it:
  --upper N           points already scored in ones..sixes (default 0); it must
                      be a total the closed upper boxes can hold (box j holds a
                      multiple of j from 0 to 5j)
  --yahtzee-box 50|0  what the closed yahtzee box holds: required when yahtzee
                      is not open (but under --joker none, where it changes
                      nothing), refused when it is open
DICE is five digits 1-6 in any order; REROLLS the rerolls left, 0 to 2. Keeping
all five dice with rerolls left is never better than the best other choice:
--move then names the best score. Among choices whose values differ by at most
1e-9, scoring comes first (boxes in the order above), then keeping more dice,
then the lowest dice.

options:
  --joker RULE   official (the default): a Yahtzee on a filled yahtzee box
                 goes in its upper box if open, else any open lower box (full
                 house, straights 25/30/40), else a zero in an upper box;
                 free (Verhoeff): any open box, the joker points only once its
                 upper box is filled; bonus-only: the Yahtzee bonus 100 but no
                 joker (any open box, at its printed score); none: no jokers
                 and no Yahtzee bonus. Tables other than official are solved
                 on first use (some seconds) and cached. --target has a
                 table of its own per joker rule (docs/YAHTZEE.md, "Reach a
                 score"), solved on first use, its cost said first; --table
                 names it for --target questions.
  --variant V    yahtzee (the default) or yatzy: Scandinavian Yatzy, 15 turns,
                 boxes ones,twos,threes,fours,fives,sixes (as above), one-pair,
                 two-pairs, three-kind, four-kind (the matching dice only: a
                 pair 2x the face, ...), small-straight (1-2-3-4-5: 15),
                 large-straight (2-3-4-5-6: 20), full-house (three and two of
                 another face: the sum), chance, yatzy (50); upper bonus 50 at
                 63; no Yahtzee bonus, no jokers, no --yahtzee-box. Its cards
                 take the names, the aliases (pair for one-pair too) and
                 all -LIST, not the letters. Its table is solved on first use
                 (at most 30 s, 11 MB) and cached.
      $ ShutTheBox yahtzee --variant yatzy --expect all
      248.439989

analysis:
  simulate      seeded games by the best moves: the mean and standard
                deviation with 95% intervals; --log FILE writes each decision
  report        the exact figures (each box's mean and chance of a zero, the
                bonuses) and a simulation, as DIR/report.md
  review        each decision of a played game (the --log format) against the
                best: its loss, the expected final scores, skill and luck
  distribution  the exact law of the final score under the table's moves
                (the tie rule of --move; --ties last: the last tied box or
                keep): each total's chance, the chance of at least it, mean,
                standard deviation, median (a minute or two, 0.7 GB)
""" + SHARED_HELP % "yahtzee"

GAME_OPTIONS = OPTIONS
# Analysis commands: ``ShutTheBox yahtzee WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("simulate", "report", "review", "distribution")
_FORMS = {"--expect": ((0, 1, 3), "CARD or CARD DICE REROLLS"), "--move": ((3,), "CARD DICE REROLLS"),
          "--options": ((3,), "CARD DICE REROLLS")}
_QUERY_OPTIONS = ("--upper", "--yahtzee-box", "--target")


def query_options(tokens) -> tuple[list, dict]:
    """Take ``--upper N`` and ``--yahtzee-box V`` (or ``--upper=N``) out of the words of a question."""
    rest, found = [], {}
    words = iter(tokens)
    for word in words:
        if word.partition("=")[0] in _QUERY_OPTIONS:
            name, value = option_value(word, words, " (see --help)")
            if name in found:
                raise InvalidQuery("%s is given twice" % name)
            found[name] = value
        else:
            rest.append(word)
    return rest, found


def card_words(words) -> list:
    """The words of a question with ``all -twos,chance`` (a card typed as two words: every box but those
    after the dash) joined into one card word."""
    out = []
    for word in words:
        if out and out[-1].lower() == "all" and word[:1] == "-" and word[1:2] not in ("-", ""):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def parse(tokens) -> tuple[str, list, dict]:
    """``["--move", "all", "13366", "2"]`` -> ("--move", ["all", "13366", "2"], {})."""
    words, options = query_options(tokens)
    words = card_words(words)
    question, args = one_question(words, _FORMS, "a yahtzee question is --expect, --move or --options CARD "
                                  "[--upper N] [--yahtzee-box 50|0] [DICE REROLLS]",
                                  "--expect CARD, --move CARD DICE REROLLS or --options CARD DICE REROLLS",
                                  GAME_OPTIONS)
    counts, names = _FORMS[question]
    if len(args) not in counts:
        raise wrong_count(question, names, args)
    return question, args, options


class Session(TableSession):
    def __init__(self, options: dict, table: str | None):
        super().__init__(table)
        self.joker = rules_from_options(options)  # the rule set: a joker rule, or yatzy
        self.options = options
        self._target = None  # the target table (--target), opened when first asked
        self._target_only = False  # a batch on --table of a target table

    def answer_lines(self, lines) -> tuple[list, bool]:
        """A batch: with ``--table`` of a target table, every line by ``answer`` (its --target questions
        answered from it); otherwise the engine's batch."""
        if self._batch is None and self.path is not None and self._is_target_table():
            self._target_only = True
            self._batch = lambda lines: remembered_lines(self, lines, self._memo)
        return super().answer_lines(lines)

    def _is_target_table(self) -> bool:
        from ...engine.reader import read_table

        with read_table(self.path) as tablefile:
            return tablefile.game in DECLARATION.tables[1].headers

    def open_table(self):
        self.joker = self.rules_to_open(self.joker, self.options, DECLARATION.tables[0])
        return load(self.joker, self.path)

    def answer(self, tokens) -> str:
        question, args, options = parse(tokens)
        upper, box = options.get("--upper"), options.get("--yahtzee-box")
        if "--target" in options:
            return self.target_answer(question, args, options["--target"], upper, box)
        if self._target_only:
            raise InvalidQuery("table file %s is a target table: it answers --target questions only" % self.path)
        if self._table is None and self.path is None:
            checked(self.joker, args, upper, box)  # a bad question is refused before a table is solved for it
        if question == "--expect" and len(args) < 3:
            table = self.table()
            return "%.6f" % table.probe_expect(args[0] if args else "all", upper=upper, box=box)
        table = self.table()
        if question == "--move":
            return table.probe_move(*args, upper=upper, box=box)
        if question == "--options":
            return table.options_line(*args, upper=upper, box=box)
        from .turn import decimal

        return decimal(*table.expect_fraction(*args, upper=upper, box=box))

    def target_answer(self, question, args, x, upper, box) -> str:
        """``--target X``: the chance to reach X, or the move that gives it (the target table's questions)."""
        from .target.rules import rules_of, target_x

        if question == "--options":
            raise InvalidQuery("--target takes --expect or --move, not --options")
        target = target_x(x)
        joker = rules_of({"joker": self.joker})
        if self._target is None or self.path is None:
            checked(joker, args, upper, box)  # refused before a table is solved for it
        if self._target is None:
            from .target.table import load_target

            self._target = load_target(joker, self.path)  # --table's, or every card's (``Targets``)
        if question == "--move":
            return self._target.probe_target_move(target, *args, upper=upper, box=box)
        return "%.6f" % self._target.probe_target(target, *(args or ["all"]), upper=upper, box=box)

    def describe(self, tokens) -> str:
        no_question("--rules", tokens)
        return describe_file(self.table().file, "yahtzee", describe(self.joker))


def checked(rules: str, args, upper, box) -> None:
    """Refuse a bad question as the table would (InvalidQuery, in the same order and words), without it:
    the card, the upper total, the yahtzee box, then the dice, the rerolls and whether a box is open."""
    card = categories(args[0] if args else "all", rules)
    upper_total(upper if upper is not None else "0", card)
    yahtzee_box(box, card, rules)
    if len(args) == 3:
        parse_dice(args[1])
        rerolls_left(args[2])
        if not card:
            raise InvalidQuery("no box is open: the game is over, there is no turn to play")


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)

