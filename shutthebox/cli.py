"""The ``ShutTheBox`` command: argv -> query -> table -> text and exit status.

Exit status: 0 answered, 1 a batch line failed, 2 bad query, 3 bad table.
"""

from __future__ import annotations

import os
import sys

from .errors import InvalidQuery, ShutTheBoxError

PROG = "ShutTheBox"

USAGE = """\
usage: ShutTheBox --one --expect POSITION
       ShutTheBox --one --move POSITION ROLL
       ShutTheBox --two --expect POSITION SCORE
       ShutTheBox --two --move POSITION SCORE ROLL
       ShutTheBox [GAME OPTIONS] --scores S1,S2,... --expect POSITION
       ShutTheBox [GAME OPTIONS] --scores S1,S2,... --move POSITION ROLL
       ShutTheBox [GAME OPTIONS] --batch < queries.txt
       ShutTheBox [GAME OPTIONS] --rules
       ShutTheBox --solo --expect POSITION [--variant NAME] [--objective shut|score]
       ShutTheBox --solo --move POSITION ROLL [--variant NAME] [--objective shut|score]
       ShutTheBox simulate [--variant NAME|all] [--strategy NAME] [--games N] [--seed N]
       ShutTheBox report [--out DIR] [--games N]
       ShutTheBox serve [--port N] [--host ADDRESS]   (the browser assistant)"""

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

POSITION lists the open tiles, like 146789. SCORE is player one's final score,
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
                      tiles above 9 with commas: 1,2,10,12
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
  --variant NAME    standard (default: one die once the open tiles sum to 6 or
                    less), two-dice (always two dice), two-tiles (standard dice,
                    at most two tiles closed per roll)
  --objective shut  (default) play for the best chance of shutting the box;
  --objective score play for the lowest expected final score (the sum of the
                    tiles left open, 0 when shut): --expect prints that score
  simulate          Monte Carlo benchmark of the strategies against their
                    exact values (ShutTheBox simulate --help)
  report            write a Markdown report with an SVG chart (--out DIR)

options:
  --batch        answer one query per line of standard input (the arguments
                 above without the program name), one answer per line; a bad
                 line prints "error: <why>" and the exit status becomes 1
  --table PATH   answer from another table file (or set SHUTTHEBOX_TABLE)
  --rules        print the rules, size and location of the table
                 (of the game chosen by the game options)
  --version      print the program's and the table format's versions
  -h, --help     print this help

exit status: 0 answered, 1 a batch line failed, 2 bad query, 3 table missing
or damaged"""

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
_FLAGS = {"--batch", "--rules", "--version", "--help", "-h"}
# Options that choose the game (the whole run, batch lines included).
_GAME_OPTIONS = ("--tiles", "--dice", "--sides", "--one-die", "--max-move-tiles", "--players")
_MOVE_TEXT: dict = {}


def _looks_like_option(token: str) -> bool:
    return token[:1] == "-" and not token[1:].isdigit()


def parse_query(tokens) -> tuple[int, list]:
    """``["--two", "--move", "13456789", "17", "12"]`` -> (MOVE_TWO, the three texts)."""
    if _is_solo(tokens):
        from .solo_query import parse_solo

        return SOLO, parse_solo(tokens)
    tokens, scores = _take_scores(tokens)
    players = [t for t in tokens if t in _PLAYERS]
    questions = [t for t in tokens if t in _QUESTIONS]
    unknown = [t for t in tokens if _looks_like_option(t) and t not in _PLAYERS and t not in _QUESTIONS]
    args = [t for t in tokens if not _looks_like_option(t)]
    if unknown:
        if unknown[0] in _FLAGS or unknown[0].startswith(("--table",) + _GAME_OPTIONS):
            raise InvalidQuery("%s is an option of the command line, not of a query" % unknown[0])
        raise InvalidQuery("unknown option '%s' (the questions are --one/--two with --expect/--move)" % unknown[0])
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
    posted = [_whole("posted score", part) for part in scores.replace(",", " ").split()]
    names = ("POSITION",) if questions[0] == "--expect" else ("POSITION", "ROLL")
    if len(args) != len(names):
        raise InvalidQuery("--scores ... %s takes %s, but got %d argument(s)" % (questions[0], " ".join(names),
                                                                              len(args)))
    return (EXPECT_ANY if questions[0] == "--expect" else MOVE_ANY), [*args, posted]


_SMALL = {str(number): number for number in range(100)}


def _whole(name: str, text: str) -> int:
    try:
        return _SMALL[text]
    except KeyError:
        pass
    if text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit())):
        if len(text) < 12:
            return int(text)
        raise InvalidQuery("the %s %s is far out of range" % (name, text))
    raise InvalidQuery("the %s must be a whole number, not '%s'" % (name, text))


def one_line(message) -> str:
    """The message with control characters escaped, so it stays one line."""
    text = str(message)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _move_text(tiles) -> str:
    try:
        return _MOVE_TEXT[tiles]
    except KeyError:
        text = _MOVE_TEXT[tiles] = "[%s]" % ", ".join(map(str, tiles))
        return text


def _is_solo(tokens) -> bool:
    """A single-player question (solo_query.py answers it)."""
    for token in tokens:
        if token == "--solo" or token.startswith(("--variant", "--objective")):
            return True
    return False


def run_query(table, kind: int, args) -> str:
    """The answer to a parsed query, as the assignment prints it."""
    if kind == SOLO:
        from .solo_query import run_solo

        return run_solo(args, None, _whole)
    if kind == EXPECT_ONE:
        return "%.6f" % table.expect_one(args[0])
    if kind == EXPECT_TWO:
        return "%.6f" % table.expect_two(args[0], _whole("score", args[1]))
    if kind == MOVE_ONE:
        return _move_text(table.move_one(args[0], _whole("roll", args[1])))
    if kind == EXPECT_ANY:
        return "%.6f" % table.expect(args[0], args[1])
    if kind == MOVE_ANY:
        return _move_text(table.move(args[0], _whole("roll", args[1]), args[2]))
    return _move_text(table.move_two(args[0], _whole("score", args[1]), _whole("roll", args[2])))


def answer_line(table, line: str) -> tuple[str, bool]:
    """One batch line -> (output line, ok). A blank line gets a blank answer."""
    tokens = line.split()
    try:  # fast path for well-formed lines; the slow path below is the reference
        kind, names = _FORMS[tokens[0], tokens[1]]
        if len(tokens) == len(names) + 2:
            return run_query(table, kind, tokens[2:]), True
    except Exception:
        pass
    if not tokens:
        return "", True
    try:
        return run_query(table, *parse_query(tokens)), True
    except InvalidQuery as error:
        return "error: %s" % one_line(error), False


def run_batch(table, stdin, stdout) -> int:
    """Answer stdin line by line; each chunk read is answered before the next
    read, so a tool may also talk to it one query at a time."""
    failed = False
    pending = b""
    read = stdin.read1 if hasattr(stdin, "read1") else stdin.read
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        cut = chunk.rfind(b"\n")
        if cut < 0:
            pending += chunk
            continue
        lines = (pending + chunk[:cut]).decode("utf-8", "replace").split("\n")
        pending = chunk[cut + 1 :]
        out = []
        for line in lines:
            text, ok = answer_line(table, line)
            out.append(text)
            failed = failed or not ok
        out.append("")
        stdout.write("\n".join(out))
        stdout.flush()
    if pending:
        text, ok = answer_line(table, pending.decode("utf-8", "replace"))
        stdout.write(text + "\n")
        failed = failed or not ok
    return 1 if failed else 0


def _split_options(argv):
    """Pull the command-line options out of argv; the rest is the query."""
    options = {"table": None}
    tokens = []
    words = iter(argv)
    for word in words:
        if word == "--table":
            options["table"] = next(words, None)
            if not options["table"]:
                raise InvalidQuery("--table needs the path of a table file")
        elif word.startswith("--table="):
            options["table"] = word[len("--table=") :]
        elif word.split("=", 1)[0] in _GAME_OPTIONS:
            name, _, value = word.partition("=")
            if not _:
                value = next(words, None)
                if value is None or _looks_like_option(value):
                    raise InvalidQuery("%s needs a value (see --help)" % name)
            options.setdefault("game", {})[name] = value
        elif word in _FLAGS:
            options[word.lstrip("-")] = True
        else:
            tokens.append(word)
    return options, tokens


def _describe(table) -> str:
    """Where a table lives, how big it is, and what it was solved for."""
    header = table.file.header
    game = header.get("game")
    if "players" in header or game == "two-player":
        game = "%s, %d players" % (game, header.get("players", 2))
    return "\n".join([
        "table:     %s" % os.path.abspath(table.path),
        "size:      %d bytes" % table.file.size,
        "game:      %s" % game,
        "rules:     %s" % table.rules.describe(),
        "format:    %s.%s, made by %s" % (header["format"][0], header["format"][1], header.get("generator")),
    ])


def _game(options):
    """(rules, players) asked for with --tiles, --dice, ...; (None, 2) for the assignment's game."""
    game = options.get("game")
    if not game:
        return None, 2
    from .variants import rules_from_options

    return rules_from_options(game)


def _load(options):
    from .api import load

    rules, players = _game(options)
    if rules is None and players == 2:
        return load(options["table"])
    table = load(options["table"], rules=rules, players=players)
    if options["table"] and (table.rules != rules or table.players != players):
        raise InvalidQuery("table %s is for %d players, %s; not for the game asked for (%d players, %s)"
                           % (table.path, table.players, table.rules.describe(), players, rules.describe()))
    return table


def main(argv=None) -> int:
    """Run the command; return its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["serve"]:  # imported only when asked for: the query path stays light
        from .serve import main as serve_main

        return serve_main(argv[1:])
    if argv[:1] == ["simulate"]:
        from .simulate import main as simulate_main

        return simulate_main(argv[1:])
    if argv[:1] == ["report"]:
        from .report import main as report_main

        return report_main(argv[1:])
    try:
        try:
            options, tokens = _split_options(argv)
            if options.get("help") or options.get("h"):
                print(HELP)
                return 0
            if options.get("version"):
                from . import __version__
                from .table import FORMAT_MAJOR, FORMAT_MINOR

                print("%s %s (table format %d.%d)" % (PROG, __version__, FORMAT_MAJOR, FORMAT_MINOR))
                return 0
            if options.get("game") and _is_solo(tokens):
                raise InvalidQuery("single-player questions choose their rules with --variant, not with %s"
                                   % ", ".join(options["game"]))
            listing = options.get("batch") or options.get("rules")
            if options.get("rules") and not options.get("batch") and _is_solo(tokens):
                from .solo_query import solo_table_for

                print(_describe(solo_table_for(tokens, options["table"])))
                return 0
            if listing and tokens:
                raise InvalidQuery(
                    "--%s takes no question on the command line, got %s"
                    % ("batch" if options.get("batch") else "rules", " ".join(tokens))
                )
            query = None if listing else parse_query(tokens)
            if query is not None and query[0] == SOLO:
                from .solo_query import run_solo

                sys.stdout.write(run_solo(query[1], options["table"], _whole) + "\n")
                sys.stdout.flush()
                return 0
            table = _load(options)
            if options.get("rules"):
                print(_describe(table))
                return 0
            if options.get("batch"):
                status = run_batch(table, sys.stdin.buffer, sys.stdout)
            else:
                sys.stdout.write(run_query(table, *query) + "\n")
                status = 0
            sys.stdout.flush()
            return status
        except ShutTheBoxError as error:
            sys.stderr.write("%s: %s\n" % (PROG, one_line(error)))
            return error.exit_status
    except BrokenPipeError:
        # The reader went away (``| head``): not an error. Keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
