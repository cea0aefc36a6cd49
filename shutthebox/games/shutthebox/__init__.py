"""Shut the Box: two players (the assignment), 2-8 players, rule variants.

Query time: ``rules``, ``table``, ``grammar``. Build time: ``solver``, ``build``.
"""
