"""The errors the package raises; each maps to one exit status of the command."""


class ShutTheBoxError(Exception):
    """Base class of every error raised by shutthebox."""

    exit_status = 1


class InvalidQuery(ShutTheBoxError, ValueError):
    """A question that has no answer: a malformed position, an impossible roll, ...

    The message is written for the player and names the offending value.
    """

    exit_status = 2


class InvalidRules(InvalidQuery):
    """A rule combination that does not make a game (0 tiles, one-sided dice, ...)."""


class TableError(ShutTheBoxError):
    """A table file that is missing, truncated, damaged or of another version.

    The message names the file, says what is wrong and how to rebuild it.
    """

    exit_status = 3
