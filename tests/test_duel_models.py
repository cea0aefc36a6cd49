"""The game models of several players (``games/{shutthebox,pig,goat}/model.py``): their values against an
independent brute force in exact fractions on tiny rule sets, the protocol's shape, and the registry's PettingZoo
modules made from them (docs/ARCHITECTURE.md, "The game model")."""

from fractions import Fraction
from functools import lru_cache

import pytest

from shutthebox import registry
from shutthebox.engine.model import CHANCE, TERMINAL, GameModel
from shutthebox.games.shutthebox.rules import rules_of_keywords

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")

TILES, SIDES = 4, 4  # two 4-sided dice, no one-die rule: rolls 2 to 8 on tiles summing to 10


def box_by_brute_force(players: int):
    """Each seat's exact expected wins from the rules alone: every seat closes, among the sets of open tiles
    summing to the roll, one of most wins to itself (of equal ones the highest tiles, as the tables break
    ties); the lowest score wins once all have posted, a tie shared; shutting the box wins at once.
    ``(before_throw, after_roll, after_move)``, each a vector of Fractions by seat."""
    weights: dict = {}
    for a in range(1, SIDES + 1):
        for b in range(1, SIDES + 1):
            weights[a + b] = weights.get(a + b, 0) + 1
    everything = (1 << TILES) - 1

    def tiles_sum(mask):
        return sum(i + 1 for i in range(TILES) if mask >> i & 1)

    def ended(seat, scores):
        if len(scores) == players:
            best = min(scores)
            return tuple(Fraction(1, scores.count(best)) if score == best else Fraction(0) for score in scores)
        return before_throw(seat + 1, everything, scores)

    @lru_cache(maxsize=None)
    def before_throw(seat, position, scores):
        total = [Fraction(0)] * players
        for roll, weight in weights.items():
            for each, value in enumerate(after_roll(seat, position, roll, scores)):
                total[each] += Fraction(weight, SIDES * SIDES) * value
        return tuple(total)

    @lru_cache(maxsize=None)
    def after_roll(seat, position, roll, scores):
        moves = [move for move in range(1, position + 1) if move & position == move and tiles_sum(move) == roll]
        if not moves:
            return ended(seat, scores + (tiles_sum(position),))
        move = max(moves, key=lambda move: (after_move(seat, position ^ move, scores)[seat], move))
        return after_move(seat, position ^ move, scores)

    @lru_cache(maxsize=None)
    def after_move(seat, position, scores):
        if not position:
            return tuple(Fraction(int(each == seat)) for each in range(players))
        return before_throw(seat, position, scores)

    return before_throw, after_roll, after_move


def reachable(model, limit=20000):
    """Every state the model reaches from its start (depth first), up to ``limit``."""
    seen, stack = set(), [model.initial()]
    while stack and len(seen) < limit:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        player = model.player(state)
        if player == TERMINAL:
            continue
        actions = [o for o, _ in model.outcomes(state)[0]] if player == CHANCE else model.legal(state)
        stack.extend(model.apply(state, action) for action in actions)
    return seen


@pytest.mark.parametrize("players", [2, 3])
def test_shut_the_box_values_are_the_brute_forces(players):
    model = registry.declaration("shutthebox").model(rules_of_keywords(players=players, tiles=TILES, sides=SIDES,
                                                                       one_die="never"))
    assert isinstance(model, GameModel) and model.players == players
    before_throw, after_roll, after_move = box_by_brute_force(players)
    states = reachable(model)
    assert len(states) > 100
    for state in states:
        seat, position, roll, dice = state[:4]
        posted = tuple(state[4:4 + seat])
        player = model.player(state)
        value = model.value(state)
        if player == TERMINAL:
            assert value == model.returns(state) and abs(sum(value) - 1.0) < 1e-15
            continue
        if player == CHANCE:
            expected = before_throw(seat, position, posted)
        else:
            expected = after_roll(seat, position, roll, posted)
            for move, worth in model.values(state).items():
                assert abs(worth - after_move(seat, position ^ move, posted)[seat]) < 1e-12, (state, move)
            best = model.best(state)
            assert after_move(seat, position ^ best, posted)[seat] == expected[seat]
        assert all(abs(got - float(want)) < 1e-12 for got, want in zip(value, expected)), (state, value, expected)


def pig_by_brute_force(goal: int) -> dict:
    """Piglet to ``goal`` (a coin: heads adds 1, tails loses the turn total): the mover's exact chance to win at
    every ``(mine, other, turn)``, both playing to win, by policy iteration with exact linear solves."""
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    where = {state: n for n, state in enumerate(states)}
    hold = {state: state[2] > 0 for state in states}  # the policy: hold wherever it may, at first

    def solve():
        size = len(states)
        rows = [[Fraction(0)] * size + [Fraction(0)] for _ in range(size)]
        for n, (i, j, k) in enumerate(states):
            rows[n][n] += 1
            if hold[i, j, k]:  # 1 - win(j, i + k, 0)
                if i + k >= goal:
                    rows[n][size] += 1
                else:
                    rows[n][size] += 1
                    rows[n][where[j, i + k, 0]] += 1
                continue
            half = Fraction(1, 2)
            rows[n][size] += half  # tails: 1 - win(j, i, 0)
            rows[n][where[j, i, 0]] += half
            if i + k + 1 >= goal:  # heads
                rows[n][size] += half
            else:
                rows[n][where[i, j, k + 1]] -= half
        for col in range(size):  # Gauss-Jordan, exact
            pivot = next(r for r in range(col, size) if rows[r][col])
            rows[col], rows[pivot] = rows[pivot], rows[col]
            lead = rows[col][col]
            rows[col] = [x / lead for x in rows[col]]
            for r in range(size):
                if r != col and rows[r][col]:
                    factor = rows[r][col]
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
        return {state: rows[n][size] for n, state in enumerate(states)}

    while True:
        win = solve()
        changed = False
        for (i, j, k) in states:
            rolled = Fraction(1, 2) * (1 - win[j, i, 0]) + Fraction(1, 2) * (1 if i + k + 1 >= goal else
                                                                               win[i, j, k + 1])
            held = (1 if i + k >= goal else 1 - win[j, i + k, 0]) if k else None
            better = held is not None and held > rolled
            if better != hold[i, j, k] and (held is None or held != rolled):
                hold[i, j, k], changed = better, True
        if not changed:
            return win


def test_pig_values_are_the_brute_forces():
    from shutthebox.games.pig.rules import Rules

    goal = 5
    model = registry.declaration("pig").model(Rules(variant="piglet", goal=goal))
    assert isinstance(model, GameModel)
    win = pig_by_brute_force(goal)
    for state in reachable(model):
        first, second, turn, seat, rolling = state
        value = model.value(state)
        if model.player(state) == TERMINAL:
            assert value == model.returns(state)
            continue
        mine, other = (first, second) if seat == 0 else (second, first)
        if rolling:
            continue
        assert abs(value[seat] - float(win[mine, other, turn])) < 1e-12 and value[1 - seat] == 1.0 - value[seat]
        values = model.values(state)
        assert abs(values[1] - float(Fraction(1, 2) * (1 - win[other, mine, 0]) + Fraction(1, 2) * (
            1 if mine + turn + 1 >= goal else win[mine, other, turn + 1]))) < 1e-12
        if turn:
            assert abs(values[0] - float(1 if mine + turn >= goal else 1 - win[other, mine + turn, 0])) < 1e-12


def test_the_pettingzoo_modules_are_the_registrys():
    """Every game with a model of several players has its module ``shutthebox.rl.<game>_v0``, importable every
    way, its ``env`` and ``raw_env`` made from the model."""
    pytest.importorskip("pettingzoo")
    import importlib

    import shutthebox.rl as rl

    several = [game for game in registry.GAMES if registry.declaration(game).has_model
               and registry.declaration(game).players() != 1]
    assert sorted(rl.AEC_GAMES.values()) == sorted(several) and {"pig", "goat", "shutthebox"} <= set(several)
    for name, game in rl.AEC_GAMES.items():
        module = importlib.import_module("shutthebox.rl." + name)
        assert module is getattr(rl, name) and name in rl.__all__
        env = module.raw_env()
        assert env.metadata["name"] == name and env.game_model is registry.declaration(game).model(
            env.game_model.rules if game != "shutthebox" else (env.game_model.rules, env.players))
