"""The ``--solo`` questions of the ``ShutTheBox`` command (query path: light imports only).

    ShutTheBox --solo --expect POSITION [--variant NAME] [--objective shut|score]
    ShutTheBox --solo --move POSITION ROLL [--variant NAME] [--objective shut|score]
"""

from ....engine.command import looks_like_option, shown, whole
from ....errors import InvalidQuery
from .table import OBJECTIVES, VARIANTS, check_objective, load_solo, variant_rules

SOLO = "--solo"
VALUE_OPTIONS = ("--variant", "--objective")
_QUESTIONS = {"--expect": ("POSITION",), "--move": ("POSITION", "ROLL")}
_TABLES: dict = {}


def parse_solo(tokens) -> tuple:
    """``["--solo", "--move", "12345", "7", "--variant", "two-dice"]``
    -> ("--move", ["12345", "7"], "two-dice", "shut")."""
    if SOLO not in tokens:
        raise InvalidQuery("--variant and --objective belong to single-player questions: add --solo")
    variant, objective = None, None
    questions, args = [], []
    solo = 0
    words = iter(tokens)
    for word in words:
        name, _, value = word.partition("=")
        if name in VALUE_OPTIONS:
            if not value:
                value = next(words, None)
                if value is None or value.startswith("--"):
                    raise InvalidQuery("%s needs a value (%s)" % (
                        name, ", ".join(VARIANTS) if name == "--variant" else " or ".join(OBJECTIVES)))
            if name == "--variant":
                if variant is not None:
                    raise InvalidQuery("--variant is given twice")
                variant_rules(value)  # refuses an unknown name
                variant = value
            else:
                if objective is not None:
                    raise InvalidQuery("--objective is given twice")
                objective = check_objective(value)
        elif word == SOLO:
            solo += 1
        elif word in _QUESTIONS:
            questions.append(word)
        elif word in ("--one", "--two"):
            raise InvalidQuery("--solo is the single-player game: drop %s" % word)
        elif looks_like_option(word):
            raise InvalidQuery("unknown option '%s' (a --solo question is --expect or --move, "
                               "with --variant and --objective)" % shown(word))
        else:
            args.append(word)
    if solo > 1:
        raise InvalidQuery("--solo is given twice")
    if not questions:
        raise InvalidQuery("say which question: --solo --expect POSITION or --solo --move POSITION ROLL")
    if len(set(questions)) > 1:
        raise InvalidQuery("ask one question only: --expect or --move, not both")
    if len(questions) > 1:
        raise InvalidQuery("%s is given twice" % questions[0])
    names = _QUESTIONS[questions[0]]
    if len(args) != len(names):
        raise InvalidQuery(
            "--solo %s takes %s, but got %s"
            % (questions[0], " ".join(names),
               "no arguments" if not args else "%d: %s" % (len(args), " ".join(args)))
        )
    return questions[0], args, variant, objective or "shut"


def solo_table(variant, path=None):
    """The table for a question, loaded once per (variant, path)."""
    key = (variant, path)
    try:
        return _TABLES[key]
    except KeyError:
        table = _TABLES[key] = load_solo(variant, path)
        return table


def run_solo(query, path=None) -> str:
    """The answer to a parsed solo query: %.6f for values, ``[3, 9]`` for moves."""
    question, args, variant, objective = query
    table = solo_table(variant, path)
    if question == "--expect":
        return "%.6f" % table.expect(args[0], objective)
    return "[%s]" % ", ".join(map(str, table.move(args[0], whole("roll", args[1]), objective)))


def solo_table_for(tokens, path=None):
    """The table ``--rules --solo [--variant NAME]`` describes."""
    variant = None
    words = iter(tokens)
    for word in words:
        name, _, value = word.partition("=")
        if name == "--variant":
            variant = value or next(words, None)
            variant_rules(variant)  # refuses an unknown name
        elif name == "--objective":
            check_objective(value or next(words, None))  # refuses a wrong one, though --rules shows both
        elif word != SOLO:
            raise InvalidQuery("--rules --solo takes only --variant NAME, got %s" % shown(word))
    return solo_table(variant, path)
