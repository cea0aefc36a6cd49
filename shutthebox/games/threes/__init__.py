"""Threes: five dice; each roll, set aside at least one and roll the rest; a 3 counts 0, the lowest total
wins (docs/THREES.md). A declaration on the set-aside dice family: everything else is the family's."""

from ...engine.families.setaside import declare

DECLARATION = declare(
    "threes",
    package=__name__,
    title="Threes",
    about=("Roll five dice; after each roll set aside at least one and roll the rest again. A 3 counts 0, "
           "every other face its pips. The table minimises the expected total."),
    dice=5, sides=6, points={3: 0}, lowest=True,
    rules_text="""\
Threes: roll the dice; after each roll set aside at least one of them for good
and roll the rest again, until every die is set aside. A 3 counts 0 and every
other face its pips; the lowest total wins.""",
    examples=(("--expect", "6.253979"), ("--move 13356", "set aside 3 3"),
              ("--options 36", "set aside 3 3.000000 0.000000; set aside 3 6 6.000000 3.000000; set aside 6 "
                               "9.000000 6.000000")),
)
