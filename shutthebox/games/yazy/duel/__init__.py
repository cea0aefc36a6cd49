"""Two-player yazy (``--players 2``): the mover's highest chance to win, both players playing to win.

A table family of its own: ``rules`` and ``table`` (query time: its name's slots, its estimate, how the
command opens it), ``turn`` (query time: a turn worked out from the table when asked), ``solver`` and
``build`` (build time: numpy; docs/YAZY.md, "Two players").
"""
