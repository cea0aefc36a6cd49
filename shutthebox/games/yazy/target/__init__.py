"""yazy's target mode (``--target X``): the highest chance that the points still to come reach X.

A table family of its own: ``rules`` and ``table`` (query time: its name's slots, its estimate, how the
command opens it), ``build`` (build time: the solver, docs/YAZY.md).
"""
