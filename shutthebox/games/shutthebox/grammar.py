"""The questions of Shut the Box on the command line: two players, 2-8 players, rule variants, one player.

    ShutTheBox --two --move 13456789 17 12      ->  [3, 9]

dispatch (cli.py) -> this grammar -> the table (table.py) -> the reader, and
back to the dispatch with the text. Single-player questions (``--solo``) go
to the solo game's grammar.
"""

from ...engine.command import (FLAGS, MEMO_LIMIT, TableSession, did_you_mean, looks_like_option, no_question,
                               one_line, remembered_lines, shown, whole)
from ...engine.command import answer_line as engine_answer_line
from ...engine.reader import read_table
from ...engine.store import describe as describe_file
from ...errors import InvalidQuery
from ... import registry
from .rules import rules_from_options
from ...engine.notation import format_set as format_position
from ...engine.notation import numbers_of as tiles_of
from .table import TwoPlayerTable, load

SOLO_GAME = "one-player"  # the header of a one-player table (solo/table.py GAME)

USAGE = """\
usage: ShutTheBox --one --expect POSITION
       ShutTheBox --one --move POSITION ROLL
       ShutTheBox --two --expect POSITION SCORE
       ShutTheBox --two --move POSITION SCORE ROLL
       ShutTheBox [GAME OPTIONS] --scores S1,S2,... --expect POSITION
       ShutTheBox [GAME OPTIONS] --scores S1,S2,... --move POSITION ROLL
       ShutTheBox [GAME OPTIONS] --batch < queries.txt
       ShutTheBox [GAME OPTIONS] --rules
       ShutTheBox [GAME OPTIONS] --solo --expect POSITION [--variant NAME] [--objective shut|score]
       ShutTheBox [GAME OPTIONS] --solo --move POSITION ROLL [--variant NAME] [--objective shut|score]
       ShutTheBox simulate [--variant NAME|all] [GAME OPTIONS] [--strategy NAME] [--games N] [--seed N]
                           [--log FILE]
       ShutTheBox report [--variant NAME] [GAME OPTIONS] [--out DIR] [--games N] [--seed N]
       ShutTheBox report --published
       ShutTheBox serve [--port N] [--host ADDRESS]   (the browser assistant)
       ShutTheBox --completion bash|zsh               (the shell's completion script)
       %s(the other games)""" % ("ShutTheBox %s --help" % "|".join(registry.NAMED_FIRST)).ljust(47)

HELP = USAGE + """

Exact optimal play for two-player Shut the Box (tiles 1-9; two dice while the
open tiles sum to more than 6, one die otherwise), answered from a table that
was solved once, offline. A tie counts as half a win.

questions:
  --one --expect POSITION           player one's expected wins before rolling
      $ ShutTheBox --one --expect 123456789
      0.502810
  --one --move POSITION ROLL        player one's optimal move for a roll
      $ ShutTheBox --one --move 146789 9
      [9]
  --two --expect POSITION SCORE     player two's expected wins, player one
                                    having finished with SCORE
      $ ShutTheBox --two --expect 123456789 8
      0.381212
  --two --move POSITION SCORE ROLL  player two's optimal move for a roll
      $ ShutTheBox --two --move 13456789 17 12
      [3, 9]

POSITION lists the open tiles, like 146789 (with tiles above 9, separated by
commas: 1,4,10,12; a lone tile 12 is written 12,), or all for every tile of the
game. SCORE is player one's final score,
the sum of the tiles left open (1 to 45). A move lists the tiles to close;
among exactly equal moves the one closing the highest tiles is shown.

any player, any game (the game options below; --one and --two work too):
  --scores S1,S2,... --expect POSITION   expected wins of the player to move,
                                    after the players before posted S1, S2, ...
  --scores S1,S2,... --move POSITION ROLL
      $ ShutTheBox --players 3 --scores 17,20 --expect 123456789
      0.788031

game options (tables other than the shipped ones are solved on first use and
cached; with none, the assignment's game):
  --tiles N           tiles 1..N, 1 to 12 (default 9); write positions with
                      tiles above 9 with commas: 1,2,10,12 (12, alone)
  --dice N            dice thrown, 1 to 4 (default 2)
  --sides N           sides of each die, 2 to 20 (default 6)
  --one-die RULE      never | K (one die once the open tiles sum to K or less;
                      default 6) | high (once every tile above 6 is shut) |
                      K,high; prefix optional: to let the player choose
  --max-move-tiles N  at most N tiles closed per roll
  --players N         2 to 8 players (default 2): the lowest score wins, ties
                      share, shutting the box wins at once

single player (one turn; the aim is to close every tile):
  --solo --expect POSITION          probability of shutting the box from
                                    POSITION before rolling, playing optimally
      $ ShutTheBox --solo --expect 123456789 --variant two-dice
      0.071432
  --solo --move POSITION ROLL       the optimal move for a roll
      $ ShutTheBox --solo --move 12345 7 --variant two-dice
      [3, 4]
  --variant NAME    a name for a rule set: standard (default: one die once the
                    open tiles sum to 6 or less), two-dice (always two dice),
                    two-tiles (standard dice, at most two tiles closed per roll)
  GAME OPTIONS      any other rule set: the game options above but --players
                    (tables solved on first use and cached); with --variant
                    too, both must name the same rules
      $ ShutTheBox --tiles 10 --solo --expect 1,2,3,4,5,6,7,8,9,10
      0.053825
  --objective shut  (default) play for the best chance of shutting the box;
  --objective score play for the lowest expected final score (the sum of the
                    tiles left open, 0 when shut): --expect prints that score
  simulate          Monte Carlo benchmark of the strategies against their
                    exact values; --log FILE writes every game, throw by throw
                    (ShutTheBox simulate --help)
  report            write a Markdown report with an SVG chart (--out DIR), for
                    --variant NAME or the rules the game options give;
                    --published prints every published figure beside its
                    source and the command that reproduces it

options:
  --batch        answer one query per line of standard input (the arguments
                 above without the program name), one answer per line; a bad
                 line prints "error: <why>" and the exit status becomes 1
  --table PATH   answer from another table file (or set SHUTTHEBOX_TABLE)
  --rules        print the rules, size and location of the table
                 (of the game chosen by the game options)
  --allow-large  solve a table on first use even if it needs over 2 GB of
                 memory or 10 minutes (a bigger solve is refused; one taking
                 more than a few seconds says its size, memory and time
                 before it starts)
  --version      print the program's and the table format's versions
  -h, --help     print this help

other games, named first (each with its own --help, ShutTheBox GAME --help):
  %s

exit status: 0 answered, 1 a batch line failed, 2 bad query, 3 table missing
or damaged, 4 a package missing (numpy or msgpack, to solve a table)""" % ", ".join(registry.NAMED_FIRST)

EXPECT_ONE, MOVE_ONE, EXPECT_TWO, MOVE_TWO, SOLO, EXPECT_ANY, MOVE_ANY = range(7)
# (player, question) -> (query kind, names of its arguments)
_FORMS = {
    ("--one", "--expect"): (EXPECT_ONE, ("POSITION",)),
    ("--one", "--move"): (MOVE_ONE, ("POSITION", "ROLL")),
    ("--two", "--expect"): (EXPECT_TWO, ("POSITION", "SCORE")),
    ("--two", "--move"): (MOVE_TWO, ("POSITION", "SCORE", "ROLL")),
}
_PLAYERS = ("--one", "--two")
_QUESTIONS = ("--expect", "--move")
# Options that choose the game (the whole run, batch lines included).
GAME_OPTIONS = ("--tiles", "--dice", "--sides", "--one-die", "--max-move-tiles", "--players")

# Analysis commands: ``ShutTheBox WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("simulate", "report")
_MOVE_TEXT: dict = {}


def parse_query(tokens) -> tuple[int, list]:
    """``["--two", "--move", "13456789", "17", "12"]`` -> (MOVE_TWO, the three texts)."""
    if _is_solo(tokens):
        from .solo.grammar import parse_solo

        return SOLO, parse_solo(tokens)
    tokens, scores = _take_scores(tokens)
    players = [t for t in tokens if t in _PLAYERS]
    questions = [t for t in tokens if t in _QUESTIONS]
    unknown = [t for t in tokens if looks_like_option(t) and t not in _PLAYERS and t not in _QUESTIONS]
    args = [t for t in tokens if not looks_like_option(t)]
    if unknown:
        if unknown[0] in FLAGS or unknown[0].startswith(("--table",) + GAME_OPTIONS):
            raise InvalidQuery("%s is an option of the command line, not of a query" % unknown[0])
        known = (*_PLAYERS, *_QUESTIONS, "--scores", "--solo", "--variant", "--objective", *FLAGS, "--table",
                 *GAME_OPTIONS)
        raise InvalidQuery("unknown option '%s'%s (the questions are --one/--two with --expect/--move)"
                           % (shown(unknown[0]), did_you_mean(unknown[0], known)))
    if not tokens:
        raise InvalidQuery("no question asked: use --one or --two with --expect or --move (see --help)")
    if scores is not None:
        return _parse_any(tokens, scores, players, questions, args)
    if len(set(players)) > 1:
        raise InvalidQuery("ask for one player only: --one or --two, not both")
    if len(set(questions)) > 1:
        raise InvalidQuery("ask one question only: --expect or --move, not both")
    if not players:
        raise InvalidQuery("say which player: --one or --two")
    if not questions:
        raise InvalidQuery("say which question: --expect or --move")
    kind, names = _FORMS[(players[0], questions[0])]
    if len(players) > 1 or len(questions) > 1:
        raise InvalidQuery("%s is given twice" % (players[0] if len(players) > 1 else questions[0]))
    if len(args) != len(names):
        raise InvalidQuery(
            "%s %s takes %s, but got %s"
            % (players[0], questions[0], " ".join(names),
               "no arguments" if not args else "%d: %s" % (len(args), " ".join(args)))
        )
    return kind, args


def _take_scores(tokens):
    """Split ``--scores 17,23`` (or ``--scores=17,23``) off a query."""
    for index, token in enumerate(tokens):
        if token == "--scores":
            if index + 1 >= len(tokens):
                raise InvalidQuery("--scores needs the scores posted so far, like --scores 17,23")
            return tokens[:index] + tokens[index + 2 :], tokens[index + 1]
        if token.startswith("--scores="):
            return tokens[:index] + tokens[index + 1 :], token[len("--scores=") :]
    return tokens, None


def _parse_any(tokens, scores, players, questions, args):
    """``--scores 17,23 --expect POSITION`` or ``--move POSITION ROLL``: any player's question."""
    if players:
        raise InvalidQuery("--scores says which player is to move: leave out %s" % players[0])
    if len(questions) != 1:
        raise InvalidQuery("ask one question: --expect or --move")
    parts = scores.replace(",", " ").split()
    if scores.strip() == "none":
        parts = []  # the first player's turn
    elif not parts:
        raise InvalidQuery("--scores '%s' lists no score; write none when no score is posted yet" % shown(scores))
    posted = [whole("posted score", part) for part in parts]
    names = ("POSITION",) if questions[0] == "--expect" else ("POSITION", "ROLL")
    if len(args) != len(names):
        raise InvalidQuery("--scores ... %s takes %s, but got %d argument(s)" % (questions[0], " ".join(names),
                                                                              len(args)))
    return (EXPECT_ANY if questions[0] == "--expect" else MOVE_ANY), [*args, posted]


def _move_text(tiles) -> str:
    try:
        return _MOVE_TEXT[tiles]
    except KeyError:
        text = _MOVE_TEXT[tiles] = "[%s]" % ", ".join(map(str, tiles))
        return text


def _is_solo(tokens) -> bool:
    """A single-player question (the solo game's grammar answers it)."""
    for token in tokens:
        if token == "--solo" or token.startswith(("--variant", "--objective")):
            return True
    return False


def run_query(table, kind: int, args) -> str:
    """The answer to a parsed query, as the assignment prints it."""
    if kind == SOLO:
        from .solo.grammar import run_solo

        return run_solo(args, None)
    if kind == EXPECT_ONE:
        return "%.6f" % table.expect_one(args[0])
    if kind == EXPECT_TWO:
        return "%.6f" % table.expect_two(args[0], whole("score", args[1]))
    if kind == MOVE_ONE:
        return _move_text(table.move_one(args[0], whole("roll", args[1])))
    if kind == EXPECT_ANY:
        return "%.6f" % table.expect(args[0], args[1])
    if kind == MOVE_ANY:
        return _move_text(table.move(args[0], whole("roll", args[1]), args[2]))
    return _move_text(table.move_two(args[0], whole("score", args[1]), whole("roll", args[2])))


def answer_line(session, table, line: str) -> tuple[str, bool]:
    """One batch line -> (output line, ok). A blank line gets a blank answer."""
    tokens = line.split()
    try:  # fast path for well-formed lines; the slow path below is the reference
        kind, names = _FORMS[tokens[0], tokens[1]]
        if len(tokens) == len(names) + 2:
            return run_query(table, kind, tokens[2:]), True
    except (KeyError, IndexError, InvalidQuery):
        pass  # the engine's path says what is wrong
    return engine_answer_line(session, line)


def _batch_answers(session, table):
    """``answer(lines) -> (texts, ok)`` for a batch run on ``table``.

    The four assignment questions, written canonically, are answered inline
    from the whole arrays (read and verified once); anything else, errors
    included, takes the reference path (:func:`answer_line`), so the texts are
    the same either way.
    """
    table.preload()
    if not isinstance(table, TwoPlayerTable):  # more players: the reference path
        def slow(lines):
            out = [answer_line(session, table, line) for line in lines]
            return [text for text, _ in out], all(good for _, good in out)

        return slow
    rules = table.rules
    rolls, scores = table._rolls, table._scores
    e1, m1, e2, m2 = table._e1, table._m1, table._e2, table._m2
    positions = {format_position(mask, rules.tiles): mask for mask in range(1, 1 << rules.tiles)}
    valid = bytearray(len(positions) * rolls + rolls)
    for mask in positions.values():
        for roll in table.possible_rolls(mask):
            valid[mask * rolls + roll] = 1
    score_of = {str(score): score for score in range(1, scores)}
    roll_of = {str(roll): roll for roll in range(rolls)}
    move_text = ["[%s]" % ", ".join(map(str, tiles_of(move))) if move else None for move in range(1 << rules.tiles)]
    # Each value's printed text, made the first time it is asked for: a distinct line costs a lookup.
    e1_text, e2_text = [None] * len(e1), [None] * len(e2)
    refusals: dict = {}  # (position, roll) -> the error line of a roll with no legal move
    memo: dict = {}  # lines that took the reference path, answered again from here

    def no_move(mask, roll):
        key = mask * rolls + roll
        text = refusals.get(key)
        if text is None:
            try:
                table._move_tiles(mask, roll, 0)
            except InvalidQuery as error:
                text = refusals[key] = "error: %s" % one_line(error)
        return text

    def answer(lines):
        out, ok = [], True
        append = out.append
        for line in lines:
            words = line.split()
            count = len(words)
            text = None
            try:
                if count == 3 and words[1] == "--expect" and words[0] == "--one":
                    index = positions[words[2]]
                    text = e1_text[index]
                    if text is None:
                        text = e1_text[index] = "%.6f" % e1[index]
                elif count == 4 and words[1] == "--expect" and words[0] == "--two":
                    index = positions[words[2]] * scores + score_of[words[3]]
                    text = e2_text[index]
                    if text is None:
                        text = e2_text[index] = "%.6f" % e2[index]
                elif count == 4 and words[1] == "--move" and words[0] == "--one":
                    mask, roll = positions[words[2]], roll_of[words[3]]
                    if valid[mask * rolls + roll]:
                        text = move_text[m1[mask * rolls + roll]] or no_move(mask, roll)
                elif count == 5 and words[1] == "--move" and words[0] == "--two":
                    mask, roll = positions[words[2]], roll_of[words[4]]
                    if valid[mask * rolls + roll]:
                        text = move_text[m2[(mask * scores + score_of[words[3]]) * rolls + roll]] or no_move(mask, roll)
            except KeyError:
                pass
            if text is None:
                found = memo.get(line)
                if found is None:
                    found = answer_line(session, table, line)
                    if len(memo) < MEMO_LIMIT:
                        memo[line] = found
                text, good = found
                ok = ok and good
            elif text[0] == "e":  # "error: ..." of a roll with no legal move
                ok = False
            append(text)
        return out, ok

    return answer


def _describe(table) -> str:
    """Where a table lives, how big it is, and what it was solved for."""
    header = table.file.header
    game = header.get("game")
    if "players" in header or game == "two-player":
        game = "%s, %d players" % (game, header.get("players", 2))
    return describe_file(table.file, game, table.rules.describe())


def _game(options):
    """(rules, players) asked for with --tiles, --dice, ...; (None, 2) for the assignment's game."""
    game = options.get("game")
    if not game:
        return None, 2
    return rules_from_options(game)


def _load(options):
    rules, players = _game(options)
    if rules is None and players == 2:
        return load(options["table"])
    return load(options["table"], rules=rules, players=players)


class Session(TableSession):
    """The command line's game: its options, its table (opened on first use), its answers."""

    def __init__(self, options: dict, table: str | None):
        super().__init__(table)
        self.options = {"table": table, "game": options}
        self._batch = None
        self._solo_only = False  # a batch on --table of a one-player table
        self._solo = None  # the single-player rules of the game options, once read

    def _solo_rules(self):
        """The rules the game options give single-player questions (None: no game option given)."""
        game = self.options["game"]
        if not game:
            return None
        if self._solo is None:
            if "--players" in game:
                raise InvalidQuery("--solo is the single-player game: drop --players")
            self._solo, _ = rules_from_options(game)
        return self._solo

    def open_table(self):
        return _load(self.options)

    def answer(self, tokens) -> str:
        query = parse_query(tokens)
        if query[0] == SOLO:
            from .solo.grammar import run_solo

            return run_solo(query[1], self.path, self._solo_rules())
        if self._solo_only:
            raise InvalidQuery("table file %s is a one-player table: it answers --solo questions only" % self.path)
        return run_query(self.table(), *query)

    def answer_lines(self, lines) -> tuple[list, bool]:
        """A batch of lines: the two-player questions take a fast path over whole, verified arrays;
        with ``--table`` of a one-player table, every line takes the reference path (--solo questions)."""
        if self._batch is None:
            if self._one_player_table():
                self._solo_only = True
                self._batch = lambda lines: remembered_lines(self, lines, self._memo)
            elif self.options["game"] and all(_is_solo(line.split()) or not line.split() for line in lines):
                # Single-player lines only, so far: the game options' two-player table is not opened (nor solved).
                return remembered_lines(self, lines, self._memo)
            else:
                self._batch = _batch_answers(self, self.table())
        return self._batch(lines)

    def _one_player_table(self) -> bool:
        if self.path is None or self.options["game"]:
            return False
        with read_table(self.path) as tablefile:
            return tablefile.game == SOLO_GAME

    def describe(self, tokens) -> str:
        if tokens and _is_solo(tokens):
            from .solo.grammar import solo_table_for

            return _describe(solo_table_for(tokens, self.path, self._solo_rules()))
        no_question("--rules", tokens)
        return _describe(self.table())


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
