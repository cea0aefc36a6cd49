"""yazy's questions on the command line.

    ShutTheBox yazy --expect [CATS]                ->  165.757319
    ShutTheBox yazy --expect CATS DICE REROLLS     ->  the same, mid-turn
    ShutTheBox yazy --move CATS DICE REROLLS       ->  keep 6 6 | score full-house | keep none
    ShutTheBox yazy --target X --expect [CATS [DICE REROLLS]]   ->  the highest chance to reach X more points
    ShutTheBox yazy --target X --move CATS DICE REROLLS         ->  the move that gives it
    ShutTheBox yazy --categories ones,yazy --expect             ->  the game of those categories only
    ShutTheBox yazy --players 2 --expect A B --scores S1,S2 [DICE REROLLS]  ->  the mover's chance to win
    ShutTheBox yazy --players 2 --move A B --scores S1,S2 DICE REROLLS      ->  the move that gives it
    ShutTheBox yazy --players 2 --options A B --scores S1,S2 DICE REROLLS   ->  every choice's chance
"""

from ...engine.command import (SHARED_HELP, TableSession, no_question, one_question, option_value, remembered_lines,
                               whole, wrong_count)
from ...engine.text import shown
from ...engine.reader import read_table
from ...errors import InvalidQuery
from . import DECLARATION
from ...engine.store import describe as describe_file
from .rules import REROLLS, ROLLS, TARGETS, Rules, describe_move, format_categories, subsets

HELP = """\
usage: ShutTheBox yazy [--categories LIST] --expect [CATS]
       ShutTheBox yazy [--categories LIST] --expect CATS DICE REROLLS
       ShutTheBox yazy [--categories LIST] --move CATS DICE REROLLS
       ShutTheBox yazy [--categories LIST] --target X --expect [CATS [DICE REROLLS]]
       ShutTheBox yazy [--categories LIST] --target X --move CATS DICE REROLLS
       ShutTheBox yazy [--categories LIST] --players 2 --expect A B --scores S1,S2 [DICE REROLLS]
       ShutTheBox yazy [--categories LIST] --players 2 --move A B --scores S1,S2 DICE REROLLS
       ShutTheBox yazy [--categories LIST] --players 2 --options A B --scores S1,S2 DICE REROLLS
       ShutTheBox yazy [--categories LIST] --batch < questions.txt
       ShutTheBox yazy [--categories LIST] [--players 2 | --target X] --rules
       ShutTheBox yazy simulate [--games N] [--seed S]
       ShutTheBox yazy report [--out DIR] [--games N] [--seed S]
       ShutTheBox yazy distribution

yazy, a Yahtzee variant: 11 turns; each turn rolls five 6-sided dice, then up to
2 rerolls (keep any dice, roll the rest), then scores one open category:
ones..sixes (the face times how many show it), three-kind and four-kind (the sum
of the dice with 3 or 4 of a face), full-house (25 for 3 + 2 of two faces),
straight (40 for 12345 or 23456), yazy (50 for five of a kind). No bonuses.
Answers maximise the expected total, which is not the same as maximising the
chance to beat an opponent, or the chance to reach a score (that is --target).

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
  --target X --expect [CATS [DICE REROLLS]]
                               the highest chance that the points still to
                               come reach X (0 to 280); from the start, the
                               chance that the final total reaches X
      $ ShutTheBox yazy --target 200 --expect
      0.219134
  --target X --move CATS DICE REROLLS
                               the move that gives that chance
      $ ShutTheBox yazy --target 200 --move all 13366 2
      keep 6 6

  --players 2 --expect A B --scores S1,S2 [DICE REROLLS]
                               two players alternate whole turns, the higher
                               final total wins (a tie is half a win), each
                               playing to win: the chance that the player to
                               move wins. A and B are the mover's and the
                               opponent's open categories (as CATS), S1 and S2
                               their totals; the mover is first in the round (A
                               and B as many) or second (A one more)
      $ ShutTheBox yazy --categories ones,yazy --players 2 --expect all all --scores 0,0
      0.498983
  --players 2 --move A B --scores S1,S2 DICE REROLLS
                               the move that gives that chance
      $ ShutTheBox yazy --categories yazy --players 2 --move all all --scores 0,0 66653 1
      keep 6 6 6
  --players 2 --options A B --scores S1,S2 DICE REROLLS
                               every choice, best first, as "CHOICE CHANCE
                               LOSS; ...": its chance to win and what it loses
                               against the best

subcommands: simulate and report (seeded games; the report adds, exactly, each
category's share, the law of the final total and the chance of reaching 150,
175 and 200 under the expected-score moves and under the target moves);
distribution (the exact law of the final total under the expected-score moves:
each total's chance, the mean 165.757319 and the spread).

The target mode has its own table (4.6 MB: the chance at the start of a turn for
every set of open categories and every X), solved on first use (at most 20 s,
as it says before it starts) and cached (--table names it for --target
questions); a question inside a turn is worked out from it when asked. Its
moves within 1e-11 of each other are tied and broken by the rule below. Two
players' questions have their own table too, solved on first use: seconds for a
few categories, hours and gigabytes for all eleven (its estimate is said
first); their moves are tied the same way.

CATS is the open categories: names separated by commas (ones,twos,threes,
fours,fives,sixes,three-kind,four-kind,full-house,straight,yazy), all or none.
DICE is five digits 1-6 in any order; REROLLS the rerolls left, 0 to 2. Keeping
all five dice with rerolls left is scoring now. Among moves whose values differ
by less than 1e-12, scoring comes first (the first category in the list above),
then keeping more dice, then the lowest dice.

options:
  --categories LIST
                 play only these categories, one turn each (names separated
                 by commas; default all); CATS is then within LIST, and all
                 means LIST. Its tables are solved on first use (a second)
      $ ShutTheBox yazy --categories ones,yazy --expect
      5.893168
""" + SHARED_HELP % "yazy"

GAME_OPTIONS = Rules.option_flags()
# Analysis commands: ``ShutTheBox yazy WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("simulate", "report", "distribution")
_FORMS = {"--expect": ((0, 1, 3), "[CATS] or CATS DICE REROLLS"), "--move": ((3,), "CATS DICE REROLLS")}
_TARGET = "--target"
_PLAYERS, _SCORES = "--players", "--scores"
_DUEL_FORMS = {"--expect": ((2, 4), "A B [DICE REROLLS]"), "--move": ((4,), "A B DICE REROLLS"),
               "--options": ((4,), "A B DICE REROLLS")}


def target_x(text: str) -> int:
    """The X of ``--target X``: the points still to come, 0 to 280 (checked before any table is opened)."""
    x = whole("target X", text)
    if not 0 <= x < TARGETS:
        raise InvalidQuery("the target X is the points still to come, 0 to %d (the most a game scores), not %d"
                           % (TARGETS - 1, x))
    return x


def parse(tokens) -> tuple[str, list, int | None]:
    """``["--move", "all", "13366", "2"]`` -> ("--move", ["all", "13366", "2"], None); with
    ``--target X`` (or ``--target=X``) anywhere, X last instead of None."""
    target, rest, words = None, [], iter(tokens)
    for word in words:
        if word.partition("=")[0] == _TARGET:
            if target is not None:
                raise InvalidQuery("--target is given twice")
            target = target_x(option_value(word, words, " (--target X: the points to reach)")[1])
        else:
            rest.append(word)
    question, args = one_question(rest, _FORMS, "a yazy question is [--target X] --expect [CATS] [DICE REROLLS] "
                                  "or [--target X] --move CATS DICE REROLLS",
                                  "--expect [CATS] or --move CATS DICE REROLLS", GAME_OPTIONS)
    counts, names = _FORMS[question]
    if len(args) not in counts:
        raise wrong_count(question, names, args)
    return question, args, target


def duel_words(tokens) -> tuple[bool, str | None, list]:
    """(two players?, the text of ``--scores``, the other tokens): ``--players 2`` and ``--scores S1,S2``
    (or with ``=``) taken out of a question, checked together."""
    players, scores, rest, words = None, None, [], iter(tokens)
    for word in words:
        name = word.partition("=")[0]
        if name in (_PLAYERS, _SCORES):
            value = option_value(word, words, " (%s)" % ("--players 1 or 2" if name == _PLAYERS else
                                                           "--scores S1,S2: the two totals"))[1]
            if (players if name == _PLAYERS else scores) is not None:
                raise InvalidQuery("%s is given twice" % name)
            if name == _PLAYERS:
                if value not in ("1", "2"):
                    raise InvalidQuery("--players is 1 or 2, not '%s'" % shown(value))
                players = value
            else:
                scores = value
        else:
            rest.append(word)
    if players == "2" and scores is None:
        raise InvalidQuery("a two-player question gives the totals: --scores S1,S2 (the mover's, then the "
                           "opponent's)")
    if scores is not None and players != "2":
        raise InvalidQuery("--scores is for two players' questions: add --players 2")
    return players == "2", scores, rest


def parse_duel(tokens) -> tuple[str, list]:
    """A two-player question's form and arguments (after ``duel_words``)."""
    if any(word.partition("=")[0] == _TARGET for word in tokens):
        raise InvalidQuery("--target is a one-player question: two players' questions are the chance to win")
    question, args = one_question(tokens, _DUEL_FORMS, "a two-player yazy question is --players 2 --expect A B "
                                  "--scores S1,S2 [DICE REROLLS] or --players 2 --move|--options A B --scores S1,S2 "
                                  "DICE REROLLS", "--expect A B [DICE REROLLS] or --move|--options A B DICE REROLLS",
                                  GAME_OPTIONS)
    counts, names = _DUEL_FORMS[question]
    if len(args) not in counts:
        raise wrong_count(question, names, args)
    return question, args


class Session(TableSession):
    """The questions of one game (``--categories``; with ``--table`` and no option, the file's own)."""

    def __init__(self, options: dict, path):
        super().__init__(path)
        self.options, self.rules = options, Rules.from_options(options)
        self._target = None
        self._duel = None
        self._only = None  # a batch on --table of a target-mode or two-player table: "target" or "duel"

    def answer_lines(self, lines) -> tuple[list, bool]:
        """A batch: with ``--table`` of a target-mode or two-player table, its own questions are answered from
        it (as single questions are) and every other line is refused; otherwise the engine's batch."""
        if self._batch is None and self.path is not None:
            with read_table(self.path) as tablefile:
                game = tablefile.game
            if game in DECLARATION.tables[1].headers:
                self.target().preload()
                self._only = "target"
            elif game in DECLARATION.tables[2].headers:
                self.duel()  # read block by block, never whole: the full game's table is 1.87 GB
                self._only = "duel"
            if self._only:
                self._batch = lambda lines: remembered_lines(self, lines, self._memo)
        return super().answer_lines(lines)

    def _refuse_unless(self, kind: str) -> None:
        """In a batch on a target-mode or two-player table, a question of another kind is refused."""
        if self._only == "target" and kind != "target":
            raise InvalidQuery("table file %s is a target-mode table: it answers --target questions only"
                               % self.path)
        if self._only == "duel" and kind != "duel":
            raise InvalidQuery("table file %s is a two-player table: it answers --players 2 questions only"
                               % self.path)

    def open_table(self):
        from .table import load  # here: two players' questions need none of the one-player modules

        return load(self.path, self.rules_to_open(self.rules, self.options, DECLARATION.tables[0]))

    def target(self):
        """The target mode's table (``--table`` names it for target questions), opened when first asked."""
        if self._target is None:
            from .table import load_target

            self._target = load_target(self.path, self.rules_to_open(self.rules, self.options, DECLARATION.tables[1]))
        return self._target

    def duel(self):
        """Two players' table (``--table`` names it: a table of another game or mode is refused), opened when
        first asked."""
        if self._duel is None:
            from .duel.table import load_duel

            self._duel = load_duel(self.rules_to_open(self.rules, self.options, DECLARATION.tables[2]), self.path)
        return self._duel

    def answer(self, tokens) -> str:
        players, scores, tokens = duel_words(tokens)
        if players:
            question, args = parse_duel(tokens)
            self._refuse_unless("duel")
            mine, theirs, *turn = args
            if self._duel is None and self.path is None:  # a finished game needs no table
                from .duel.rules import Positions, over

                mover, other, d = Positions(self.rules).state(mine, theirs, scores)
                if not mover and not other:
                    if turn or question != "--expect":
                        raise InvalidQuery("no category is open: the game is over, there is no turn to play")
                    return "%.6f" % over(d)
            if question == "--move":
                return self.duel().probe_move(mine, theirs, scores, *turn)
            if question == "--options":
                return self.duel().options_line(mine, theirs, scores, *turn)
            return "%.6f" % self.duel().probe_win(mine, theirs, scores, *turn)
        question, args, target = parse(tokens)
        if target is not None:
            self._refuse_unless("target")
            table = self.target()
            if question == "--move":
                return table.probe_target_move(target, *args)
            return "%.6f" % table.probe_target(target, *(args or ["all"]))
        self._refuse_unless("one")
        table = self.table()
        if question == "--move":
            return table.probe_move(*args)
        if len(args) == 3:
            return "%.6f" % table.probe_expect(*args)
        return "%.6f" % table.probe_expect(args[0] if args else "all")

    def describe(self, tokens) -> str:
        """``--rules``: the one-player table's; with ``--players 2`` the two-player table's, with ``--target X``
        the target mode's (each solved on first use, as a question on it would be)."""
        players, target, rest, words = "1", None, [], iter(tokens)
        for word in words:
            name = word.partition("=")[0]
            if name == _PLAYERS:
                players = option_value(word, words, " (--players 1 or 2)")[1]
                if players not in ("1", "2"):
                    raise InvalidQuery("--players is 1 or 2, not '%s'" % shown(players))
            elif name == _TARGET:
                target = target_x(option_value(word, words, " (--target X: the points to reach)")[1])
            else:
                rest.append(word)
        no_question("--rules", rest)
        if players == "2":
            if target is not None:
                raise InvalidQuery("--target is a one-player question: two players' questions are the chance to win")
            duel = self.duel()
            return describe_file(duel.file, "yazy-duel, 2 players (the mover's chance to win)", duel.rules.describe())
        if target is not None:
            table = self.target()
            return describe_file(table.file, "yazy, target mode (the chance to reach X more points)",
                                 table.rules.describe())
        table = self.table()
        return describe_file(table.file, "yazy", table.rules.describe())

    def quick_answer(self):
        """Canonical batch lines answered straight from the whole arrays."""
        table = self.table()
        game, row = table.sets.game, table.sets.row
        cats = {format_categories(mask): row(mask) for mask in subsets(game)}
        cats["all"] = row(game)
        sorted_roll = {"".join(map(str, roll)): index for index, roll in enumerate(ROLLS)}
        roll_of = dict(sorted_roll)  # the dice as written (any order) -> the roll, each the first time it is met
        rerolls_of = {str(rerolls): rerolls for rerolls in range(REROLLS + 1)}
        turn, expect, move = table._turn, table._expect, table._move
        turn_text, expect_text, move_text = {}, {}, {}  # printed texts, made the first time they are asked for
        count = len(ROLLS)

        def quick(words):
            if len(words) == 4:  # most lines: --expect or --move CATS DICE REROLLS
                kind = words[0]
                if kind != "--move" and kind != "--expect":
                    return None
                set_row = cats[words[1]]
                if not set_row:
                    return None  # no category open (the empty set's row is 0): the reference path says so
                roll = roll_of.get(words[2])
                if roll is None:
                    roll = roll_of[words[2]] = sorted_roll["".join(sorted(words[2]))]
                index = (set_row * (REROLLS + 1) + rerolls_of[words[3]]) * count + roll
                if kind == "--expect":
                    text = expect_text.get(index)
                    if text is None:
                        text = expect_text[index] = "%.6f" % expect[index]
                    return text
                code = move[index]
                text = move_text.get((code, roll))
                if text is None:
                    text = move_text[code, roll] = describe_move(code, ROLLS[roll])
                return text
            if len(words) <= 2 and words[:1] == ["--expect"]:
                set_row = cats[words[1] if len(words) == 2 else "all"]
                text = turn_text.get(set_row)
                if text is None:
                    text = turn_text[set_row] = "%.6f" % turn[set_row]
                return text
            return None

        return quick


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
