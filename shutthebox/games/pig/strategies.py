"""Practical Pig policies and exact duels between policies (build and analysis time; numpy; docs/PIG.md).

A policy is a function ``(i, j, k, goal) -> roll?`` of the mover's banked score i, the opponent's j and
the turn total k, written so that it also takes numpy arrays (then it is evaluated at every state at
once); or ``"optimal"``, the stored moves of :func:`~shutthebox.games.pig.solver.solve`; or a name of
:data:`STRATEGIES`. Whatever a policy says, a turn starts with a roll (k = 0) and a total reaching the
goal is held (the game is won).

:func:`evaluate` (and :func:`win_chance`) solves a duel exactly on the solver's engine: the chance that the
first mover, playing one policy, beats the other, with a proven bound (the engine's Theorem for a fixed
policy pair: the residual of the policies' own sweep times the expected turns under them, plus rounding).
"""

import numpy as np

from ...engine import pushluck
from .solver import Space, solve

__all__ = ["STRATEGIES", "Duel", "against_optimal", "evaluate", "hold_at", "keep_pace_end_race", "policy_array",
           "win_chance"]


def hold_at(threshold: int):
    """"Hold at N": roll until the turn total reaches ``threshold`` or banking it reaches the goal."""

    def policy(i, j, k, goal):
        return (k < threshold) & (i + k < goal)

    policy.__name__ = "hold_at_%d" % threshold
    policy.__doc__ = "Hold at %d: roll while the turn total is below %d and i + k below the goal." % (
        threshold, threshold)
    return policy


def keep_pace_end_race(i, j, k, goal):
    """Neller and Presser's "keep pace and end race" (Practical Play of the Dice Game Pig, UMAP Journal 31(1),
    2010), three integers, 71, 21 and 8: hold when i + k reaches the goal; otherwise roll if either player's
    score is 71 or more (roll to win); otherwise roll while k < 21 + round((j - i) / 8).

    Not confirmed from the paper itself (it could not be read here): the integers are as the brief gives them
    and as a programming exercise credited to Neller states the policy ("if either player has a score greater
    than or equal to 71, roll; otherwise, roll if and only if the turn total is less than
    21 + round((j - i) / 8)"). Rounding: half up (``floor(x + 1/2)``, Java's Math.round, as implementations of
    the exercise use; it matters when j - i is 4 more than a multiple of 8). For other goals than 100 the
    race threshold is ``goal - 29`` (71 at goal 100); the pace rule is unchanged."""
    race = goal - 29
    return (i + k < goal) & ((i >= race) | (j >= race) | (k < 21 + (j - i + 4) // 8))


STRATEGIES = {"hold at 20": hold_at(20), "hold at 25": hold_at(25), "keep pace, end race": keep_pace_end_race}


def policy_array(variant: str, goal: int, sides: int, policy):
    """``policy`` as the engine's moves: (goal * goal positions i * goal + j) x (turn totals k), 1 roll, 0 hold."""
    if isinstance(policy, str) and policy == "optimal":
        return solve(variant, goal, sides).policy()
    if isinstance(policy, str):
        if policy not in STRATEGIES:
            raise ValueError("pig: a policy is 'optimal', one of %s or a function, not %r"
                             % (", ".join(repr(name) for name in STRATEGIES), policy))
        policy = STRATEGIES[policy]
    i, j, k = np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal), indexing="ij")
    try:
        roll = np.broadcast_to(np.asarray(policy(i, j, k, goal), dtype=bool), i.shape)
    except (TypeError, ValueError):  # a function of plain numbers: ask it state by state
        roll = np.array([bool(policy(int(a), int(b), int(c), goal)) for a, b, c in zip(i.ravel(), j.ravel(),
                                                                                     k.ravel())]).reshape(i.shape)
    roll = (roll | (k == 0)) & (i + k < goal)
    return roll.reshape(goal * goal, goal).astype(np.uint8)


class Duel:
    """``value``: the first mover's chance to win; ``bound``: a proven bound on its error; ``residual``, ``turns``
    (the most expected turns under the two policies) and ``rounding``: the bound's parts."""

    def __init__(self, value, bound, residual, turns, rounding):
        self.value, self.bound, self.residual, self.turns, self.rounding = value, bound, residual, turns, rounding

    def __repr__(self):
        return "Duel(value=%.12f, bound=%.2g)" % (self.value, self.bound)


def evaluate(variant: str, goal: int, sides: int, first_policy, second_policy) -> Duel:
    """The chance that the first mover, playing ``first_policy``, beats ``second_policy`` from 0 to 0, exactly
    (within the returned bound), on the engine with the two policies fixed."""
    space = Space(variant, goal, sides, seats=2)
    policy = np.concatenate([policy_array(variant, goal, sides, first_policy),
                             policy_array(variant, goal, sides, second_policy)])
    starts = space.solve(1.0, -1.0, 1.0, 0.5, policy=policy)
    residual = space.sweep(starts, 1.0, -1.0, 1.0, policy=policy)
    turns = space.expected_turns(policy=policy)
    rounding = pushluck.rounding(space.reach, 1.0)
    return Duel(float(starts[0]), pushluck.error_bound(residual, turns, rounding), residual, turns, rounding)


def win_chance(variant: str, goal: int, sides: int, first_policy, second_policy) -> float:
    """The chance that the first mover, playing ``first_policy``, beats ``second_policy`` (either may be
    ``"optimal"``); :func:`evaluate` gives its bound."""
    return evaluate(variant, goal, sides, first_policy, second_policy).value


def against_optimal(variant: str, goal: int, sides: int, policy) -> tuple:
    """(``policy``'s chance to win moving first against the optimal player, moving second), as :class:`Duel`
    (``.value``, ``.bound``)."""
    first = evaluate(variant, goal, sides, policy, "optimal")
    second = evaluate(variant, goal, sides, "optimal", policy)
    return first, Duel(1.0 - second.value, second.bound + pushluck.UNIT, second.residual, second.turns,
                       second.rounding)
