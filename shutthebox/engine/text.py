"""A user's words in messages and as numbers: written once for every game (query time).

An echoed value is cut to ``SHOWN`` characters and kept on one line; a number
longer than ``MAX_DIGITS`` is refused before ``int()`` sees it.
"""

from ..errors import InvalidQuery

# A number longer than this is refused before int() sees it (Python refuses over 4300 digits).
MAX_DIGITS = 11
# An echoed bad value is cut to this many characters.
SHOWN = 60


def one_line(message) -> str:
    """The message with control characters escaped, so it stays one line."""
    text = str(message)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shown(text) -> str:
    """A user's text, cut short and with control characters escaped, for a message."""
    text = str(text)
    if len(text) > SHOWN:
        text = text[: SHOWN - 3] + "..."
    return one_line(text)


def shown_value(value) -> str:
    """A value a program passed to the API, for a message: never a 5000-digit number or a 10 MB string."""
    if type(value) is int and not -10**12 < value < 10**12:
        return "a number far out of range"  # str() of a huge int may raise
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a huge int inside a list, a foreign __repr__ that fails
        return "a %s that cannot be shown" % shown(type(value).__name__)
    return shown(text)


def as_whole(value):
    """``value`` as an int when a program passed a whole number: an int, or a numpy integer (anything with
    ``__index__`` but a bool); None for anything else (a float, a bool, None, text). The API's lookups call
    it where a plain int fails their fast check, so an int costs nothing more."""
    if type(value) is int:
        return value
    if isinstance(value, (bool, str, bytes)) or not hasattr(type(value), "__index__"):
        return None
    try:
        found = value.__index__()
    except Exception:  # noqa: BLE001 - a foreign object's __index__: not a whole number
        return None
    return found if type(found) is int else None


def looks_like_option(token: str) -> bool:
    return token[:1] == "-" and not token[1:].isdigit()


_SMALL = {str(number): number for number in range(100)}


def whole(name: str, text: str) -> int:
    """A whole number a user typed; InvalidQuery naming ``name`` otherwise. ``-0`` is 0, as every reader of
    the project (the pages, web/answer.mjs) reads it."""
    try:
        return _SMALL[text]
    except KeyError:
        pass
    if text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit())):
        if len(text) <= MAX_DIGITS:
            return int(text)
        raise InvalidQuery("the %s %s is far out of range" % (name, shown(text)))
    raise InvalidQuery("the %s must be a whole number, not '%s'" % (name, shown(text)))


def whole_in(name: str, text: str, low: int, high: int, error=InvalidQuery) -> int:
    """A game option's whole number from ``low`` to ``high`` (``--cards 12``); ``error`` naming ``name`` otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS or not low <= int(text) <= high:
        raise error("%s must be a whole number from %d to %d, not '%s'" % (name, low, high, shown(text)))
    return int(text)


def option_value(word: str, words, hint: str = "") -> tuple[str, str]:
    """``--goal=50``, or ``--goal`` followed by ``50`` (taken from the iterator ``words``): (name, value).
    A missing value is refused, with ``hint`` added to the message."""
    name, equals, value = word.partition("=")
    if not equals:
        given = next(words, None)
        if given is None or looks_like_option(given):
            raise InvalidQuery("%s needs a value%s" % (name, hint))
        value = given
    return name, value


def wrong_count(question: str, names: str, args, noun: str = "") -> InvalidQuery:
    """The error for a question given the wrong number of arguments (``names`` says the right ones).
    ``noun`` counts them (``3 numbers``) instead of echoing them."""
    if noun:
        given = "%d %s%s" % (len(args), noun, "" if len(args) == 1 else "s")
    else:
        given = "%d: %s" % (len(args), shown(" ".join(args))) if args else "no arguments"
    return InvalidQuery("%s takes %s, but got %s" % (question, names, given))
