"""The ``--solo`` questions of the ``ShutTheBox`` command (query path: light imports only).

    ShutTheBox [GAME OPTIONS] --solo --expect POSITION [--variant NAME] [--objective shut|score]
    ShutTheBox [GAME OPTIONS] --solo --move POSITION ROLL [--variant NAME] [--objective shut|score]

The game options (``--tiles``, ``--dice``, ``--sides``, ``--one-die``, ``--max-move-tiles``) choose the rules,
as for two players; ``--variant NAME`` is a name for a rule set; both given must name the same rules.
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


def solo_rules(variant, rules):
    """The rules of a question: the game options' ``rules`` (None: none given), the ``variant``'s, or the
    standard ones; both given must be the same rules (InvalidQuery in the command line's words)."""
    if rules is None:
        return None if variant is None else variant_rules(variant)
    if variant is not None and variant_rules(variant) != rules:
        raise InvalidQuery("--variant %s is %s, but the game options say %s: give one or the other"
                           % (variant, variant_rules(variant).describe(), rules.describe()))
    return rules


def solo_table(variant, path=None, rules=None):
    """The table for a question, loaded once per (rules, path): ``rules`` from the game options (None:
    none given), ``variant`` from ``--variant`` (None: not given)."""
    chosen = solo_rules(variant, rules)
    key = (chosen, path)
    try:
        return _TABLES[key]
    except KeyError:
        table = _TABLES[key] = load_solo(path=path, rules=chosen)
        return table


def run_solo(query, path=None, rules=None) -> str:
    """The answer to a parsed solo query: %.6f for values, ``[3, 9]`` for moves."""
    question, args, variant, objective = query
    table = solo_table(variant, path, rules)
    if question == "--expect":
        return "%.6f" % table.expect(args[0], objective)
    return "[%s]" % ", ".join(map(str, table.move(args[0], whole("roll", args[1]), objective)))


def solo_table_for(tokens, path=None, rules=None):
    """The table ``--rules --solo [--variant NAME]`` describes (``rules``: the game options', or None)."""
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
    return solo_table(variant, path, rules)
