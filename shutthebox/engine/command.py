"""The command line every game shares: options, one question or a batch, errors and exit statuses.

Exit status: 0 answered, 1 a batch line failed, 2 bad question, 3 table
missing or damaged, 4 a package missing (MISSING_PACKAGE). A mistake is one line on standard error, never a
traceback; a closed pipe is not an error.
"""

import os
import sys

from ..errors import InvalidQuery, ShutTheBoxError
from .text import looks_like_option, one_line, option_value, shown, whole, wrong_count  # noqa: F401 - the games' helpers

TYPE_CHECKING = False  # not typing's: importing typing would cost a question its time
if TYPE_CHECKING:
    from typing import Any

PROG = "ShutTheBox"
FLAGS = {"--batch", "--rules", "--version", "--help", "-h", "--allow-large"}


# The options and exit statuses every named game's --help ends with (%s: the game's name).
SHARED_HELP = """\
  --batch        one question per line of standard input (the words after
                 `%s`), one answer per line; a bad line prints "error: ..."
  --table PATH   answer from another table file, under its own rules (game
                 options, if given, must match them)
  --rules        print the rules, size and location of the table
  --allow-large  solve a table on first use even if it needs over 2 GB of memory
                 or 10 minutes
  -h, --help     print this help

exit status: 0 answered, 1 a batch line failed, 2 bad question, 3 table
missing or damaged, 4 a package missing (numpy or msgpack, to solve a table)"""

# The exit status of work that needs a package not installed (numpy or msgpack: a table solved on first use,
# goat --duel; msgpack: serve): its own, so a script tells it from a damaged table (3).
MISSING_PACKAGE = 4
# The extra of pyproject.toml that installs a package, where one does (the package is not on the public
# index: an extra installs from the checkout only).
EXTRAS = {"numpy": "build", "distributed": "cluster"}


def one_question(tokens, forms, asked: str, use: str, game_options=()) -> tuple[str, list]:
    """A named game's question: exactly one of the words ``forms`` (``--expect``, ``--move``), the other
    tokens its arguments; any other option is refused, with the nearest of the game's options suggested
    (``game_options``: its ``GAME_OPTIONS``). ``asked`` and ``use`` say, in the messages, how the game's
    questions are asked."""
    questions = [token for token in tokens if token in forms]
    unknown = [token for token in tokens if looks_like_option(token) and token not in forms]
    if unknown:
        import re  # the error path only

        # The nearest of the options the game takes: its questions, the options `asked` and `use` name, the
        # shared ones and the game's own.
        known = [*forms, *re.findall(r"--[a-z][a-z-]*", asked + " " + use), *FLAGS, "--table", *game_options]
        raise InvalidQuery("unknown option '%s'%s (%s)" % (shown(unknown[0]), did_you_mean(unknown[0], known), asked))
    if not questions:
        raise InvalidQuery("no question asked: use %s (see --help)" % use)
    if len(questions) > 1:
        raise InvalidQuery("ask one question only: %s, once" % " or ".join(forms))
    return questions[0], [token for token in tokens if not looks_like_option(token)]


def nearest(word: str, choices):
    """The choice nearest a mistyped ``word`` (case and leading dashes aside), or None when none is near:
    ``nearest("--expct", ["--expect", "--move"]) == "--expect"``. For messages only, once a mistake is
    found: difflib is imported here, never on a question's path."""
    import difflib

    def key(text):
        return text.partition("=")[0].lstrip("-").lower()

    by_key = {key(choice): choice for choice in choices if key(choice)}
    found = difflib.get_close_matches(key(word), list(by_key), n=1, cutoff=0.6)
    return by_key[found[0]] if found else None


def did_you_mean(word: str, choices) -> str:
    """``": did you mean --expect?"`` when a choice is near ``word`` (see :func:`nearest`), else ``""``."""
    found = nearest(word, choices)
    return ": did you mean %s?" % found if found is not None else ""


def split_options(argv, game_options=()):
    """Pull ``--table``, the flags and the game options out of argv; the rest is the question.

    Returns ``(options, tokens)``: ``options["table"]`` (or None), a key per
    flag given (``"batch"``, ...), ``options["game"]``: game option -> text.
    """
    options: dict = {"table": None, "game": {}}
    tokens = []
    words = iter(argv)
    for word in words:
        name, _, value = word.partition("=")
        if word == "--table":
            options["table"] = next(words, None)
            if not options["table"]:
                raise InvalidQuery("--table needs the path of a table file")
        elif name == "--table":
            if not value:
                raise InvalidQuery("--table needs the path of a table file")
            options["table"] = value
        elif name in game_options:
            name, value = option_value(word, words, " (see --help)")
            if name in options["game"]:
                raise InvalidQuery("%s is given twice" % name)
            options["game"][name] = value
        elif word in FLAGS:
            options[word.lstrip("-")] = True
        else:
            tokens.append(word)
    return options, tokens


def run(grammar, argv, prog: str = PROG, refused=None, version: str | None = None) -> int:
    """Run one game's command line (``grammar``: see docs/ARCHITECTURE.md); return the exit status.

    ``refused(error) -> InvalidQuery``, if given, says instead what is wrong with a command line the grammar
    refuses as a bad question (the dispatch's: a first word that is no game, ``ShutTheBox yahtze``).
    ``version``: the program's version, which ``--version`` prints; the dispatch (cli.py) gives the package's
    ``__version__``, so that the engine never imports its parent package (without it, only the table format)."""
    argv = list(argv)
    if refused is None:
        return guarded(lambda: _run(grammar, argv, prog, version), prog)

    def work():
        try:
            return _run(grammar, argv, prog, version)
        except InvalidQuery as error:
            raise refused(error) from None

    return guarded(work, prog)


def guarded(work, prog: str = PROG) -> int:
    """``work()`` with errors as one line and an exit status; closed or full output handled."""
    try:
        try:
            status = work()
            _flush()
            return status
        except ShutTheBoxError as error:
            _say("%s: %s\n" % (prog, one_line(error)))
            return error.exit_status
    except BrokenPipeError:
        # The reader went away (``| head``): not an error. Keep Python from
        # complaining again when it flushes stdout at exit.
        _silence_stdout()
        return 0
    except OSError as error:  # a full disk, a closed descriptor
        _silence_stdout()
        _say("%s: cannot write the answer (%s)\n" % (prog, error.strerror or error))
        return 1
    except KeyboardInterrupt:
        return 130
    except ImportError as error:  # msgpack or numpy: solving a table on first use, goat --duel
        _say("%s: %s\n" % (prog, missing_package(error.name or str(error))))
        return MISSING_PACKAGE


def missing_package(name: str) -> str:
    """The line for a missing package: the command that installs it into the Python running this one (the
    package is not on the public index, so its extras install from the checkout only)."""
    import shlex

    python = shlex.quote(sys.executable or "python3")
    line = "the %s package is missing; install it with `%s -m pip install %s`" % (name, python, shlex.quote(name))
    if name in EXTRAS:
        line += " (or, from the checkout, `%s -m pip install '.[%s]'`)" % (python, EXTRAS[name])
    return line


def _run(grammar, argv, prog, version=None):
    if argv[:1] and argv[0] in getattr(grammar, "COMMANDS", ()):
        from .game import module

        analysis = module(grammar.__name__.rpartition(".")[0] + ".analysis")  # analysis time: only now
        return getattr(analysis, argv[0].replace("-", "_") + "_main")(argv[1:])
    options, tokens = split_options(argv, getattr(grammar, "GAME_OPTIONS", ()))
    if options.get("help") or options.get("h"):
        _write(grammar.HELP + "\n")
        return 0
    if options.get("version"):
        from .format import FORMAT_MAJOR, FORMAT_MINOR

        named = prog if version is None else "%s %s" % (prog, version)
        _write("%s (table format %d.%d)\n" % (named, FORMAT_MAJOR, FORMAT_MINOR))
        return 0
    if options.get("allow-large"):
        from . import store

        store.ALLOW_LARGE = True
    batch, rules = options.get("batch"), options.get("rules")
    if batch and rules:
        raise InvalidQuery("--batch and --rules do not go together: ask for one")
    if batch and tokens:
        raise InvalidQuery("--batch takes no question on the command line, got %s" % shown(" ".join(tokens)))
    session = grammar.open_game(options["game"], options["table"])
    if rules:
        _write(session.describe(tokens) + "\n")
        return 0
    if batch:
        if sys.stdout is None:
            raise OSError(9, "standard output is closed")
        return run_batch(session, _stdin(), sys.stdout)
    _write(session.answer(tokens) + "\n")
    return 0


def no_question(flag: str, tokens) -> None:
    """Refuse words after ``--rules`` (for games whose ``--rules`` takes none)."""
    if tokens:
        raise InvalidQuery("%s takes no question on the command line, got %s" % (flag, shown(" ".join(tokens))))


def answer_line(session, line: str) -> tuple[str, bool]:
    """One batch line -> (output line, ok). A blank line gets a blank answer."""
    tokens = line.split()
    if not tokens:
        return "", True
    try:
        return session.answer(tokens), True
    except InvalidQuery as error:
        return "error: %s" % one_line(error), False


# Answers remembered per batch run: a line asked again costs one dict lookup. The memory is bounded by
# characters, not lines: a Yahtzee --options answer is ~0.5 kB, and a million of them would take a gigabyte.
MEMO_LIMIT = 1 << 20  # lines
MEMO_CHARACTERS = 48 << 20  # of questions and answers (with a dict entry's ~150 bytes each: under ~100 MB)


class Memo(dict):
    """line -> (answer, ok), remembered while ``room`` (characters) lasts."""

    __slots__ = ("room",)

    def __init__(self):
        super().__init__()
        self.room = MEMO_CHARACTERS


def remembered_lines(session, lines, memo: Memo) -> tuple[list, bool]:
    """Batch lines answered by ``session.answer``, each distinct line once: ``memo`` maps a
    line to (answer, ok) for the session's whole run, up to its limits."""
    out, ok = [], True
    for line in lines:
        found = memo.get(line)
        if found is None:
            found = answer_line(session, line)
            cost = len(line) + len(found[0])
            if memo.room >= cost and len(memo) < MEMO_LIMIT:
                memo.room -= cost
                memo[line] = found
        out.append(found[0])
        ok = ok and found[1]
    return out, ok


class TableSession:
    """A game's session over one table: opened on first use (``open_table()``, the
    game's), kept; a batch reads the table whole once and remembers its lines."""

    def __init__(self, path: str | None):
        self.path = path  # --table, or None
        self._table = None
        self._batch: "Any" = None  # the batch's answering function, made on its first lines
        self._memo = Memo()

    def open_table(self):
        raise NotImplementedError

    def rules_to_open(self, given, options: dict, family):
        """The rules a table is opened with: the game options' ``given``; with ``--table`` and no game option,
        the file's own, so a table file is asked without repeating its rules (a mismatch is still refused)."""
        if self.path is None or options:
            return given
        return family.rules_in(self.path) or given

    def table(self):
        if self._table is None:
            self._table = self.open_table()
        return self._table

    def quick_answer(self):
        """A game's fast path for batches: ``quick(words) -> text or None`` answering the lines written
        canonically straight from the table's whole arrays (see :func:`inline_batch`); None for none."""
        return None

    def answer_lines(self, lines) -> tuple[list, bool]:
        """A batch's lines: the table read whole once; canonical lines by ``quick_answer()``, every other
        line (errors included) by ``answer`` and remembered, so the texts are the same either way."""
        if self._batch is None:
            self.table().preload()
            quick = self.quick_answer()
            self._batch = inline_batch(self, quick) if quick else (
                lambda lines: remembered_lines(self, lines, self._memo))
        return self._batch(lines)


class RulesSession(TableSession):
    """The session of a game of one table family ``FAMILY`` (``engine.game.Tables``) whose rules are the
    ``engine.rules.RuleSet`` ``RULES`` and whose tables ``load(rules, path)`` opens: the rules of the game
    options (with ``--table`` and none, the file's own), the table opened when first asked, and ``--rules``
    answered from it. A game's session sets the three (``load = staticmethod(load)``) and gives ``answer()``
    (and may give ``quick_answer()``)."""

    FAMILY: "Any" = None
    RULES: "Any" = None

    def __init__(self, options: dict, path: str | None):
        super().__init__(path)
        self.options = options
        self.rules = self.RULES.from_options(options)

    def load(self, rules, path):
        raise NotImplementedError

    def open_table(self):
        self.rules = self.rules_to_open(self.rules, self.options, self.FAMILY)
        return self.load(self.rules, self.path)

    def describe(self, tokens) -> str:
        from .store import describe

        no_question("--rules", tokens)
        table = self.table()
        return describe(table.file, self.FAMILY.headers[0], table.rules.describe())


def inline_batch(session, quick):
    """``answer(lines) -> (texts, ok)`` for a batch: ``quick(words)`` answers a line written in its canonical
    form straight from the whole arrays (None, or KeyError, for any other line); every other line, errors
    included, takes the session's reference path and is remembered, so the texts are the same either way."""

    def answer(lines):
        out, slow = [], []
        for line in lines:
            try:
                text = quick(line.split())
            except KeyError:
                text = None
            if text is None:
                slow.append(len(out))
                out.append(line)
            else:
                out.append(text)
        ok = True
        if slow:
            answered, ok = remembered_lines(session, [out[index] for index in slow], session._memo)
            for index, text in zip(slow, answered):
                out[index] = text
        return out, ok

    return answer


# A batch line longer than this is refused without being parsed.
MAX_LINE = 1 << 16


def run_batch(session, stdin, stdout) -> int:
    """Answer stdin line by line; each chunk read is answered before the next
    read, so a tool may also talk to it one question at a time.

    A session may offer ``answer_lines(lines) -> (answers, ok)`` for speed.
    """
    answer_lines = getattr(session, "answer_lines", None)
    failed = False
    pending: list = []
    pending_size = 0
    read = stdin.read1 if hasattr(stdin, "read1") else stdin.read
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        cut = chunk.rfind(b"\n")
        if cut < 0:
            pending_size += len(chunk)
            if pending_size <= MAX_LINE:
                pending.append(chunk)
            continue
        head = b"".join(pending) + chunk[:cut] if pending else chunk[:cut]
        long_line = pending_size + chunk.find(b"\n") > MAX_LINE  # the first line: what was pending and its end
        pending, pending_size = [chunk[cut + 1 :]], len(chunk) - cut - 1
        lines = head.decode("utf-8", "replace").split("\n")
        if long_line:
            lines[0] = None
        if answer_lines is not None and not long_line:
            out, ok = answer_lines(lines)
        else:
            out, ok = _answer_all(session, lines)
        failed = failed or not ok
        out.append("")
        stdout.write("\n".join(out))
        stdout.flush()
    rest = b"".join(pending)
    if rest or pending_size:
        out, ok = _answer_all(session, [rest.decode("utf-8", "replace") if pending_size <= MAX_LINE else None])
        stdout.write(out[0] + "\n")
        failed = failed or not ok
    stdout.flush()
    return 1 if failed else 0


def _answer_all(session, lines):
    out, ok = [], True
    for line in lines:
        if line is None:
            text, good = "error: the line is longer than %d bytes" % MAX_LINE, False
        else:
            text, good = answer_line(session, line)
        out.append(text)
        ok = ok and good
    return out, ok


def _stdin():
    stdin = sys.stdin
    if stdin is None:
        raise InvalidQuery("--batch reads questions from standard input, which is closed")
    return stdin.buffer


def _write(text: str) -> None:
    if sys.stdout is None:
        raise OSError(9, "standard output is closed")
    sys.stdout.write(text)


def _flush() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def _say(text: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text)
        stream.flush()
    except OSError:
        pass


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass
