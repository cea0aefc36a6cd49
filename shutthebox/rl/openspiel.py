"""The games as OpenSpiel Python games, with explicit chance nodes and exact values from the tables
(``pip install ".[openspiel]"`` from the checkout; docs/RL.md).

Importing this module registers them with pyspiel::

    import pyspiel
    import shutthebox.rl.openspiel as shutthebox_openspiel

    game = pyspiel.load_game("python_shutthebox_pig")                        # or (variant=piglet,goal=10)
    state = game.new_initial_state()
    shutthebox_openspiel.exact_value(state)                                 # [0.061185..., -0.061185...]

| name | game | parameters (defaults) |
| --- | --- | --- |
| ``python_shutthebox_solo`` | Shut the Box, one player | ``variant`` (standard), ``objective`` (shut) |
| ``python_shutthebox_pig`` | Pig, two players (its game model) | ``variant`` (pig), ``goal`` (0: the variant's), ``sides`` (0: 6) |
| ``python_shutthebox_goat`` | Goat, two players (its game model) | ``goal`` (100), ``choose`` (each; once is refused) |
| ``python_shutthebox_shutthebox`` | Shut the Box, 2 to 8 players (its game model) | ``players`` (2), ``tiles`` (9), ``dice`` (2), ``sides`` (6), ``one_die`` ("": the command's), ``max_move_tiles`` (0: none) |
| ``python_shutthebox_toggle`` | toggle, one player (its game model) | ``cards`` (12), ``sides`` (6), ``max_rolls`` (1000) |
| ``python_shutthebox_threes`` | Threes, one player (its game model) | ``dice`` (5), ``sides`` (6) |
| ``python_shutthebox_yazy`` | yazy, one player (its game model) | ``categories`` (all; a list joined by dots) |
| ``python_shutthebox_yahtzee`` | Yahtzee, one player (its game model) | ``joker`` (official; free, none, bonus-only, yatzy) |

Every game with a game model is registered as ``python_shutthebox_<game>`` through it (``engine/model.py``,
:class:`ModelAdapter`), its rule options (0 or "" where the rules choose the default) and its ``model.py``'s
``SPIEL_OPTIONS`` (toggle's ``max_rolls``) the parameters.

Every throw of the dice is a chance node whose outcomes (``chance_outcomes()``) are the rules' own, with their
exact chances; ``returns()`` at the end are the game's result (Shut the Box solo ``shut``: 1 when shut;
``score``: minus the score; toggle: minus the rolls; Pig and Goat: 1 to the winner, -1 to the loser, 0 each
for a tie; Shut the Box of 2 to 8 players: the win shares, 1 to the winner, ``1/k`` to each of k tied).
``exact_value(state)`` is the expected ``returns()`` from any state, chance nodes included, under optimal play,
from the same tables as the command line (Pig and Goat: the mover's ``2 w - 1`` for its chance w to win, a tie
half). States clone cheaply (a tuple of ints and the shared table), give observation strings
and tensors, and pass ``pyspiel.random_sim_test``.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ..engine.model import CHANCE as MODEL_CHANCE, TERMINAL as MODEL_TERMINAL
from ..engine.notation import format_set

PREFIX = "python_shutthebox_"
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_ADAPTERS: dict = {}
GAMES: dict = {}  # name -> (the pyspiel.Game class, the adapter class)


class Adapter:
    """A game as pure functions of a state, a tuple of ints: ``node(s)`` is ``(player, data)`` (a seat and
    its legal actions, ``CHANCE`` and the outcomes with their chances, ``TERMINAL`` and the returns),
    ``apply(s, action)`` the next state, ``exact(s)`` the expected returns under optimal play. An adapter
    holds a table: it is shared, never copied (``deepcopy`` gives itself; a pickle makes it again)."""

    players = 1
    tensor_size = 1

    def __init__(self, params: dict):
        self.params = params

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return adapter, (type(self).short_name, tuple(sorted(self.params.items())))


def adapter(name: str, params: tuple):
    """The adapter of game ``name`` with ``params`` (``(key, value)`` pairs), made once per process."""
    key = (name, params)
    found = _ADAPTERS.get(key)
    if found is None:
        found = _ADAPTERS[key] = GAMES[name][1](dict(params))
    return found


# -- Shut the Box, one player ----------------------------------------------------------------------------


class Solo(Adapter):
    """States ``(open tiles, roll, dice)``: ``(p, 0, d)`` a chance node (``d`` dice thrown), ``(p, r, 0)`` a
    move for roll ``r`` (terminal where none fits), ``(p, 0, 0)`` the choice of one die or all where the rules
    give one; ``(0, 0, 0)`` shut."""

    short_name = "solo"
    defaults = {"variant": "standard", "objective": "shut"}

    def __init__(self, params: dict):
        from .solo import model, solo_rules
        from ..games.shutthebox.solo.table import check_objective

        super().__init__(params)
        check_objective(params["objective"])
        self.model = found = model(solo_rules(params["variant"], None, None, None, None, None), params["objective"])
        rules = self.rules = found.rules
        self.shut = params["objective"] == "shut"
        self.sign = 1.0 if self.shut else -1.0
        self.n_actions, self.tiles = found.n_actions, rules.tiles
        self.chance_outcomes = rules.max_roll + 1
        self.utility = (0.0, 1.0) if self.shut else (-float(rules.max_score), 0.0)
        self.max_length = 2 * rules.tiles  # each move closes a tile; a choice of dice before each throw
        self.tensor_size = rules.tiles + 1
        self.outcomes = {dice: [(roll, weight / rules.outcomes) for roll, weight in sorted(found.weights[dice].items())]
                         for dice in found.weights}

    def _next(self, position: int) -> tuple:
        if not position:
            return (0, 0, 0)
        choices = self.model.choices[position]
        return (position, 0, 0) if len(choices) > 1 else (position, 0, choices[0])

    def initial(self) -> tuple:
        return self._next(self.rules.all_open)

    def node(self, s):
        position, roll, dice = s
        model = self.model
        if not position:
            return TERMINAL, [1.0 if self.shut else 0.0]
        if dice:
            return CHANCE, self.outcomes[dice]
        if not roll:
            return 0, sorted(map(model.throw_action, model.choices[position]))
        moves = model.legal(position).get(roll)
        if not moves:
            return TERMINAL, [0.0 if self.shut else -float(model.sums[position])]
        return 0, sorted(moves)

    def apply(self, s, action: int) -> tuple:
        position, roll, dice = s
        if dice:
            return (position, action, 0)
        if not roll:
            return (position, 0, self.model.dice_of(action))
        return self._next(position ^ action)

    def exact(self, s) -> list:
        position, roll, dice = s
        player, data = self.node(s)
        if player == TERMINAL:
            return list(data)
        model = self.model
        if dice:
            stuck = model.stuck[position]
            value = model.throw_values(position, model.values.__getitem__, lambda: stuck, model.more)[
                model.throw_action(dice)]
        else:
            value = model.decision((position, roll)).value
        return [self.sign * value]

    def words(self, s) -> str:
        position, roll, dice = s
        if not position:
            return "shut"
        tiles = "open %s" % format_set(position, self.tiles)
        if dice:
            return "%s, %d di%s to throw" % (tiles, dice, "e" if dice == 1 else "ce")
        if not roll:
            return tiles + ", throw one die or all"
        if roll not in self.model.legal(position):
            return "%s, roll %d: no move fits, score %d" % (tiles, roll, self.model.sums[position])
        return "%s, roll %d" % (tiles, roll)

    def tensor(self, s, player) -> list:
        position, roll, _ = s
        return [position >> i & 1 for i in range(self.tiles)] + [roll]

    def action_words(self, s, player, action) -> str:
        if player == CHANCE:
            return "roll %d" % action
        if action >= self.model.throw:
            return "throw %s" % ("one die" if self.model.dice_of(action) == 1 else "all the dice")
        return "shut %s" % format_set(action, self.tiles)


# -- any game model --------------------------------------------------------------------------------------


class ModelAdapter(Adapter):
    """A game model (``engine/model.py``) as an adapter: its states, players, chance outcomes (their weights over
    their total), returns and values are the model's. A subclass per game (``model_adapter``) names the game
    (``game``), its parameters' defaults (``defaults``) and those of them that are the model's options beyond
    the rules (``options``). A game of two seats whose returns add up to a constant (win shares) is zero-sum
    here, as OpenSpiel's own: each return ``r`` becomes ``2 r - total``."""

    game = ""
    options: tuple = ()

    def __init__(self, params: dict):
        from .. import registry

        super().__init__(params)
        declared = registry.declaration(self.game)
        options = {name: params[name] for name in self.options}
        rules = _rules(declared.tables[0].rules(), {k: v for k, v in params.items() if k not in options})
        self.model = found = declared.model(rules, **options)
        if found.max_length >= 1 << 31:
            raise ValueError("a game of %s here has no bound on its length, and OpenSpiel needs one%s" % (
                self.game, " (%s)" % ", ".join(self.options) if self.options else ""))
        self.players, self.n_actions = found.players, found.n_actions
        self.chance_outcomes, self.max_length = found.n_outcomes, found.max_length
        total = getattr(found, "constant_sum", None)
        self.zero_sum = total if total is not None and type(self).players == 2 else None
        if self.zero_sum is not None:
            self.utility = (-float(total), float(total))
        else:
            self.utility = (float(found.min_return), float(found.max_return))
        self.tensor_size = len(found.observation_nvec)

    def _returns(self, values) -> list:
        total = self.zero_sum
        if total is None:
            return [float(value) for value in values]
        return [2.0 * value - total for value in values]

    def initial(self) -> tuple:
        return self.model.initial()

    def node(self, s):
        model = self.model
        player = model.player(s)
        if player == MODEL_TERMINAL:
            return TERMINAL, self._returns(model.returns(s))
        if player == MODEL_CHANCE:
            outcomes, total = model.outcomes(s)
            return CHANCE, [(outcome, weight / total) for outcome, weight in outcomes]
        return player, model.legal(s)

    def apply(self, s, action: int) -> tuple:
        return self.model.apply(s, action)

    def exact(self, s) -> list:
        return self._returns(self.model.value(s))

    def words(self, s) -> str:
        return self.model.state_text(s)

    def tensor(self, s, player) -> list:
        return self.model.observation(s, max(player, 0))

    def action_words(self, s, player, action) -> str:
        if player == CHANCE:
            text = getattr(self.model, "outcome_text", None)
            if text is not None:
                return text(s, action)
            return "chance %d: %s" % (action, self.model.state_text(self.model.apply(s, action)))
        return self.model.action_text(s, action)


def _parameters(module) -> dict:
    """A game's OpenSpiel parameters and their defaults (``module``: its table family's rules): the keywords its
    rules module declares (``KEYWORDS``, Shut the Box's); else its rule options, one whose default depends on the
    others (None) as 0 or "" (its default: ``goal=0`` is Pig's variant's goal); else, for a game whose rules are
    no ``Rules`` of options (Yahtzee's, a word of ``rules.RULES``), the table name's slots of its default rules
    (``joker``: ``official``; ``free``, ``none``, ``bonus-only``, ``yatzy``)."""
    keywords = getattr(module, "KEYWORDS", None)
    if keywords is not None:
        return dict(keywords)
    rules = getattr(module, "Rules", None)
    if rules is None:
        return dict(module.fields_of(module.rules_of({})))
    return {option.name: option.default if option.default is not None else "" if option.choices else 0
            for option in rules.OPTIONS}


def _rules(module, params: dict):
    """The rules of ``params``: a parameter left at an empty default (0, "") is not given (the rules choose);
    the rest are the keywords of the rules module, or the rule options' values, or else as the table name's
    slots spell them (a game string takes no commas: yazy's ``categories=ones.yazy`` for ``ones,yazy``;
    Yahtzee's rules are only the slots: ``joker=free``)."""
    from ..errors import InvalidQuery

    defaults = _parameters(module)
    params = {key: value for key, value in params.items() if not (value in (0, "") and defaults.get(key) in (0, ""))}
    keywords = getattr(module, "rules_of_keywords", None)
    if keywords is not None:
        return keywords(**params)
    if getattr(module, "Rules", None) is None:
        return module.rules_of({key: str(value) for key, value in params.items()})
    try:
        return module.Rules(**params)
    except InvalidQuery as error:
        try:
            return module.rules_of({key: str(value) for key, value in params.items()})
        except (InvalidQuery, KeyError, ValueError, TypeError):
            raise error from None


def model_adapter(game: str) -> type:
    """The :class:`ModelAdapter` of the registered game ``game`` (one with a game model): its parameters are
    its rules' (``_parameters``) and its ``model.py``'s ``SPIEL_OPTIONS`` (the model's options beyond the rules,
    with their defaults here); its players are its model's (a range where the rules choose: no table is read)."""
    import importlib

    from .. import registry

    declared = registry.declaration(game)
    options = {} if declared.hooks is not None else dict(
        getattr(importlib.import_module(declared.package + ".model"), "SPIEL_OPTIONS", {}))
    defaults = {**_parameters(declared.tables[0].rules()), **options}
    players = declared.players()
    name = "%sAdapter" % "".join(declared.title.split())
    return type(name, (ModelAdapter,), {"short_name": game, "game": game, "defaults": defaults,
                                        "options": tuple(options), "players": players, "__module__": __name__})


def _model_games() -> list:
    """The games with a game model, in the registry's order."""
    from .. import registry

    return [game for game in registry.GAMES if registry.declaration(game).has_model]


# -- the pyspiel game and state --------------------------------------------------------------------------


class _Observer:
    """pyspiel's Python observer: the state as a string (the same for every player: perfect information)
    and as a tensor of its small ints (float32)."""

    def __init__(self, size: int, params):
        if params:
            raise ValueError("observation parameters are not supported, not %r" % (params,))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state._adapter.tensor(state._s, player)

    def string_from(self, state, player):
        return state._adapter.words(state._s)


class ShutTheBoxState(pyspiel.State):
    """A state of one of the games: ``_s`` a tuple of ints, ``_adapter`` the rules and the table."""

    def __init__(self, game, adapter_: Adapter, s: tuple | None = None):
        super().__init__(game)
        self._adapter = adapter_
        self._set(adapter_.initial() if s is None else s)

    def _set(self, s: tuple) -> None:
        self._s = s
        self._player, self._data = self._adapter.node(s)

    def current_player(self):
        if self._player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if self._player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return self._player

    def _legal_actions(self, player):
        return list(self._data) if player == self._player else []

    def chance_outcomes(self):
        return list(self._data)

    def _apply_action(self, action):
        self._set(self._adapter.apply(self._s, int(action)))

    def _action_to_string(self, player, action):
        return self._adapter.action_words(self._s, player, int(action))

    def is_terminal(self):
        return self._player == TERMINAL

    def returns(self):
        if self._player == TERMINAL:
            return list(self._data)
        return [0.0] * self._adapter.players

    def __str__(self):
        return self._adapter.words(self._s)


def exact_value(state) -> list:
    """The expected ``returns()`` of each player from ``state`` under optimal play, from the tables (a chance
    node's the mean over its outcomes; a terminal state's its returns)."""
    return state._adapter.exact(state._s)


def _register(cls) -> None:
    name = PREFIX + cls.short_name
    if name in pyspiel.registered_names():
        return
    seats = cls.players if isinstance(cls.players, range) else range(cls.players, cls.players + 1)
    # Several seats: their returns add up to a constant (win shares). Two seats exactly: zero-sum, as OpenSpiel's
    # own (ModelAdapter); a range of seats (Shut the Box's 2 to 8) keeps its models' win shares.
    zero_sum = cls.players == 2
    constant = not zero_sum and seats[-1] > 1
    game_type = pyspiel.GameType(
        short_name=name, long_name="shutthebox %s (exact tables)" % cls.short_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.CONSTANT_SUM if constant
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats[-1], min_num_players=seats[0],
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(cls.defaults))

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            values = dict(cls.defaults)
            values.update(params or {})
            found = adapter(cls.short_name, tuple(sorted(values.items())))
            low, high = found.utility
            total = 0.0 if zero_sum else getattr(getattr(found, "model", None), "constant_sum", None)
            info = pyspiel.GameInfo(num_distinct_actions=found.n_actions, max_chance_outcomes=found.chance_outcomes,
                                    num_players=found.players, min_utility=low, max_utility=high,
                                    utility_sum=total if (zero_sum or constant) else None,
                                    max_game_length=found.max_length)
            super().__init__(game_type, info, values)
            self.adapter = found

        def new_initial_state(self):
            return ShutTheBoxState(self, self.adapter)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(self.adapter.tensor_size, params)

    Game.__name__ = Game.__qualname__ = "%sGame" % cls.__name__
    GAMES[cls.short_name] = (Game, cls)
    pyspiel.register_game(game_type, Game)


for _cls in (Solo,):
    _register(_cls)
for _game in _model_games():
    if _game not in GAMES:
        _register(model_adapter(_game))

NAMES = tuple(PREFIX + name for name in GAMES)

__all__ = ["ModelAdapter", "NAMES", "exact_value"]
