"""How the command opens the target table (the family's hook); the table class is yazy's ``table.TargetTable``."""

from ..table import TargetTable, load_target


def open_rules(rules) -> TargetTable:
    return load_target(rules=rules)
