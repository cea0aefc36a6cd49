"""Family engines: a game of a known family is a declaration on one of these (docs/ARCHITECTURE.md).

- ``setaside``: dice games where each roll sets aside at least one die for good and the rest are rolled
  again, until none is left; each die scores by its face (Threes).

A family package holds what a game of its own holds in fixed-name modules (``rules``, ``table``,
``grammar``, ``build``) and its game model (``model``), each written once over the declared data; its
``__init__`` holds the declaration class, light enough for the registry to read on every question.
"""
