"""Single-player Shut the Box: the chance to shut the box or the lowest expected score, and strategies.

Query time: ``table``, ``grammar``. Build and analysis time: ``solver``, ``build``,
``strategies``, ``simulate``, ``report``.
"""
