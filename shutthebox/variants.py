"""Rule variants chosen on the command line: ``--tiles 12 --one-die optional:6``.

Every option is optional; left out, it keeps the assignment's value. The
combination must make a game, or the command refuses it in one line.
"""

from __future__ import annotations

from .errors import InvalidQuery, InvalidRules
from .rules import Rules

# option -> (lowest, highest) accepted on the command line; tables grow fast
LIMITS = {"--tiles": (1, 12), "--dice": (1, 4), "--sides": (2, 20), "--max-move-tiles": (1, 12),
          "--players": (2, 8)}

ONE_DIE_HELP = ("never, K (when the open tiles sum to K or less), high (once every tile above 6 is shut), "
                "K,high (either), each optionally prefixed optional: (the player may throw one die or all)")


def _number(option: str, text: str) -> int:
    low, high = LIMITS[option]
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise InvalidQuery("%s must be a whole number from %d to %d, not '%s'" % (option, low, high, text))
    return int(text)


def parse_one_die(text: str) -> dict:
    """``"optional:6,high"`` -> the Rules fields of that one-die rule."""
    optional = text.startswith("optional:")
    when = text[len("optional:") :] if optional else text
    fields = {"one_die_at_most": None, "one_die_optional": optional, "one_die_high_shut": False}
    if when == "never" and not optional:
        return fields
    parts = when.split(",")
    for part in parts:
        if part == "high" and not fields["one_die_high_shut"]:
            fields["one_die_high_shut"] = True
        elif part.isascii() and part.isdigit() and fields["one_die_at_most"] is None and len(part) < 6:
            fields["one_die_at_most"] = int(part)
        else:
            raise InvalidQuery("--one-die '%s' is not a one-die rule; use %s" % (text, ONE_DIE_HELP))
    return fields


def rules_from_options(game: dict) -> tuple[Rules, int]:
    """Rules and number of players from the raw option values."""
    fields = {}
    if "--tiles" in game:
        fields["tiles"] = _number("--tiles", game["--tiles"])
    if "--dice" in game:
        fields["dice"] = _number("--dice", game["--dice"])
    if "--sides" in game:
        fields["sides"] = _number("--sides", game["--sides"])
    if "--max-move-tiles" in game:
        fields["max_move_tiles"] = _number("--max-move-tiles", game["--max-move-tiles"])
    if "--one-die" in game:
        fields.update(parse_one_die(game["--one-die"]))
    elif fields.get("dice") == 1:
        fields["one_die_at_most"] = None  # one die already: the one-die rule has nothing to do
    players = _number("--players", game["--players"]) if "--players" in game else 2
    try:
        return Rules(**fields), players
    except InvalidRules as error:
        raise InvalidQuery("these rules do not make a game: %s" % error) from None
