"""The set-aside dice family: N dice of S sides; each roll, set aside at least one die for good and roll the
rest again, until every die is set aside. A die scores by its face (``points``); the total is to be made as
low (or as high) as it can be. Threes is the family's first game (docs/THREES.md).

A game is a declaration (``shutthebox/games/threes/__init__.py``)::

    DECLARATION = declare("threes", package=__name__, title="Threes", about="...",
                          dice=5, sides=6, points={3: 0}, lowest=True)

and gets the command line, ``shutthebox.open``, batches, the table build, the cache, the game model and every
surface built on it. Light: the registry reads this module on every question, so it imports only the engine's
declaration classes; the family's parts are imported when first used.
"""

from ...game import Game, Tables, module

TYPE_CHECKING = False  # not typing's: importing typing would cost a question its time
if TYPE_CHECKING:
    from typing import Any

LIMITS = {"dice": (1, 8), "sides": (2, 12)}  # a move is a byte: one bit a die


class SetAside:
    """One set-aside dice game's data (the family's parts read it): its name, its words, the dice it is
    played with by default and what each face scores. It is the game's ``hooks`` (``engine.model.Hooks``)."""

    players = 1

    def __init__(self, id: str, *, dice: int, sides: int, points: dict | None = None, lowest: bool = True,
                 rules_text: str = "", examples: tuple = ()):
        low, high = LIMITS["dice"]
        if not low <= dice <= high or not LIMITS["sides"][0] <= sides <= LIMITS["sides"][1]:
            raise ValueError("a set-aside game has 1 to 8 dice of 2 to 12 sides")
        self.id, self.dice, self.sides, self.lowest = id, dice, sides, lowest
        self.points = dict(points or {})  # face -> points, where a face does not score its pips
        self.rules_text = rules_text  # the rules in a few lines, for --help
        self.examples = tuple(examples)  # (question, answer) pairs for --help (checked by the tests)
        self.family: "Any" = None  # its table family (engine.game.Tables), set by declare()
        self._parts: dict = {}

    def score(self, face: int) -> int:
        """What ``face`` scores."""
        return self.points.get(face, face)

    def _part(self, name: str, make: str):
        found = self._parts.get(name)
        if found is None:
            found = self._parts[name] = getattr(module(__name__ + "." + name), make)(self)
        return found

    # engine.model.Hooks: the family's parts, bound to this game
    def grammar(self):
        return self._part("grammar", "Grammar")

    def rules(self):
        return self._part("rules", "RulesPart")

    def table(self):
        return self._part("table", "TablePart")

    def build(self):
        return self._part("build", "BuildPart")

    def model(self, rules=None):
        return module(__name__ + ".model").model(self, rules)

    def page_data(self) -> dict:
        """The game's rules as the games page's family module (``static/families/setaside.js``) reads them in
        ``/games.json``: the family, the default dice and sides, which total is best, and what every face the
        family's dice can have (1 .. 12) scores; a table's header ``rules`` are ``dice``, ``sides``, the first
        ``sides`` of these points and ``best`` (docs/FORMAT.md section 13)."""
        return {"name": "setaside", "dice": self.dice, "sides": self.sides,
                "points": [self.score(face) for face in range(1, LIMITS["sides"][1] + 1)],
                "best": "lowest" if self.lowest else "highest"}


PAGE = "families/setaside.js"  # the family's module of the games page (docs/WEB.md, "Family modules")


def declare(id: str, *, package: str, title: str, about: str, page: str | None = PAGE, **data) -> Game:
    """The ``Game`` of a set-aside dice game: ``data`` is :class:`SetAside`'s (dice, sides, points, lowest,
    rules_text, examples). ``page``: the family's module of the games page, unless the game names another
    (or None: command line only)."""
    game = SetAside(id, **data)
    tables = game.family = Tables(id + "-d{dice}-s{sides}", headers=(id,), hooks=game)
    return Game(id, package=package, title=title, about=about, tables=(tables,), page=page, hooks=game)
