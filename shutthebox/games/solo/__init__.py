"""Single-player Shut the Box: the chance to shut the box or the lowest expected score, and strategies.

Query time: ``table``, ``grammar``. Build and analysis time: ``solver``, ``build``,
``strategies``, ``simulate``, ``report``.
"""

# What the web page lists (shutthebox/web/tables.py games_list): plain text, nothing imported.
TITLE = "Shut the Box, one player"
ABOUT = "One turn alone: the best chance to shut the box, or the lowest expected score"
