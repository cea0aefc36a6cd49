"""Yahtzee's target mode (``--target X``): the highest chance that the points still to come, bonuses
included, reach X, under each joker rule.

A table family of its own: ``rules``, ``table`` and ``turn`` (query time: its name's slots and estimate, how
the command opens it, a turn's chances and moves computed from it when asked), ``solver`` and ``build``
(build time: numpy; what is stored and the error bound are in ``solver``'s docstring and docs/YAHTZEE.md).
"""
