"""Shut the Box: two players (the assignment), 2-8 players, rule variants.

Query time: ``rules``, ``table``, ``grammar``. Build time: ``solver``, ``build``.
"""

# What the web page lists (shutthebox/web/tables.py games_list): plain text, nothing imported.
TITLE = "Shut the Box"
ABOUT = "Close the tiles whose sum the dice show; the lower score wins, shutting the box wins at once"
PAGE = "index.html"  # the page of this game (default: games.html?game=NAME when static/games/NAME.js exists)
