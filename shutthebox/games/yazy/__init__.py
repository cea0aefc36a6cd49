"""yazy, a Yahtzee variant of 11 turns with no bonuses: the maximum expected score and the best keep or category.

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``solver``,
``build``, ``analysis``.
"""

# What the web page lists (shutthebox/web/tables.py games_list): plain text, nothing imported.
TITLE = "Yazy"
ABOUT = ("Eleven turns of five dice, two rerolls each, then score one open category. No bonuses. The "
         "table maximises the expected total.")
