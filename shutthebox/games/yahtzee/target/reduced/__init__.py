"""Yahtzee's reduced target tables: the game from one card (``--target X`` when the whole game's table is not
there), solved on first use when small and cached by card; ``rules`` (the normalised card, its table name, the
cost of its solve), ``table`` (which table answers a card), ``build`` (the solve: ``..build``'s, from a start)."""
