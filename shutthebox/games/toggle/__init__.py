"""The card-flip game of Project Euler 640: the fewest expected rolls to turn every card face down.

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``solver``,
``build``, ``analysis``.
"""
