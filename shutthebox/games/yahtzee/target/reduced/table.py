"""The reduced target tables at query time: one opened as the command line opens it (the family's hook); the
questions, and which table answers a card, are ``..table``'s (``TargetTable``, ``Targets``)."""

from ..table import load_card


def open_rules(rules: tuple):
    """The reduced table of ``rules`` (joker, card, upper, box, normalised), cached or solved on first use."""
    return load_card(rules)
