"""Solving the toggle game (build time only; numpy).

The game is a stochastic shortest-path problem with cycles: a turned card can be
turned back. The optimal expected rolls ``V`` satisfy, for every state ``s`` but
the goal 0,

    V(s) = 1 + sum over ordered dice (x, y) of 1/S^2 * min over allowed cards c of V(s ^ bit(c))

The optimal policy is found by value iteration (the default: vectorised over
all states, to float64's noise floor) or by policy iteration (``method="policy"``:
a policy evaluated by one linear solve, then improved, until no choice improves).
Either way the stored values are then the found policy's expected rolls, by
sweeps from zero in a fixed order: they depend on the policy alone, so both
methods write the same bytes. They are checked: the Bellman residual of the
stored values must be below ``RESIDUAL``, or the build fails. The error bound of
a stored value is residual times the largest expected number of rolls
(docs/TOGGLE.md); every printed value is checked to lie farther than that from a
6-decimal rounding midpoint.

Ties: among cards whose successors' values differ by less than ``TIE`` (far
above the error bound, far below any real difference, both checked), the
highest card is turned.
"""

import numpy as np

from .rules import Rules

SOLVER_VERSION = 2  # 2 still: the values by sweeps of the policy are the same bytes as version 2 wrote
RESIDUAL = 1e-11
TIE = 1e-10
MAX_SWEEPS = 200_000
METHODS = ("value", "policy")  # how the optimal policy is found: value or policy iteration


class Solution:
    """``rolls[state]``: optimal expected rolls; ``flip[state, x - 1, y - 1]``: the card to turn (0: none);
    ``bound[state]``: how far ``rolls[state]`` may be from the exact value."""

    def __init__(self, rules, rolls, flip, residual, bound, smallest_gap):
        self.rules, self.rolls, self.flip = rules, rolls, flip
        self.residual, self.bound, self.smallest_gap = residual, bound, smallest_gap


def outcome_groups(rules: Rules):
    """[(weight, cards)]: the distinct card choices of the S*S ordered dice and how many dice show each."""
    groups: dict = {}
    for x in range(1, rules.sides + 1):
        for y in range(1, rules.sides + 1):
            cards = rules.choices(x, y)
            groups[cards] = groups.get(cards, 0) + 1
    return sorted(groups.items(), key=lambda item: item[0])


def _successors(rules):
    states = np.arange(rules.states)
    return {card: states ^ (1 << (card - 1)) for card in range(1, rules.cards + 1)}


def _bellman(values, groups, successors, total):
    """One Bellman update of every state (the goal stays 0)."""
    expected = np.zeros_like(values)
    for cards, weight in groups:
        if cards:
            best = values[successors[cards[0]]]
            for card in cards[1:]:
                best = np.minimum(best, values[successors[card]])
        else:
            best = values  # no card to turn: the roll passes
        expected += weight * best
    updated = 1.0 + expected / total
    updated[0] = 0.0
    return updated


def _greedy(values, groups, successors):
    """The policy that turns, for every state and choice of cards, the best card (highest on ties)."""
    policy = {}
    for cards, _ in groups:
        if not cards:
            continue
        options = np.stack([values[successors[card]] for card in cards])
        best = options.min(axis=0)
        chosen = np.zeros(len(values), dtype=np.int64)
        for index, card in enumerate(cards):  # increasing: the last card within TIE of the best wins
            chosen = np.where(options[index] <= best + TIE, card, chosen)
        policy[cards] = chosen
    return policy


def evaluate(rules: Rules, policy, groups=None):
    """Expected rolls of a fixed policy (``policy[cards][state]``: the card turned), by one linear solve.

    States from which the policy never reaches the goal get ``inf``.
    """
    groups = groups or outcome_groups(rules)
    size, total = rules.states, rules.sides**2
    transition = np.zeros((size, size))
    rows = np.arange(size)
    for cards, weight in groups:
        if cards:
            chosen = policy[cards]
            successor = rows ^ (1 << (chosen - 1))
        else:
            successor = rows
        np.add.at(transition, (rows, successor), weight / total)
    finite = _reaches_goal(transition)
    values = np.full(size, np.inf)
    values[0] = 0.0
    inner = np.flatnonzero(finite & (rows != 0))
    system = np.eye(len(inner)) - transition[np.ix_(inner, inner)]
    values[inner] = np.linalg.solve(system, np.ones(len(inner)))
    return values


def _reaches_goal(transition):
    """States from which the policy reaches the goal (0) with probability 1: those from which every
    state it can reach still has a path to the goal."""
    size = len(transition)
    targets = [np.flatnonzero(row) for row in transition]
    sources: list = [[] for _ in range(size)]
    for state, row in enumerate(targets):
        for target in row:
            sources[target].append(state)
    can = np.zeros(size, dtype=bool)
    can[0] = True
    stack = [0]
    while stack:  # states with a path to the goal
        for state in sources[stack.pop()]:
            if not can[state]:
                can[state] = True
                stack.append(state)
    # a state is unsafe when it can reach a state with no path to the goal
    unsafe = ~can
    stack = list(np.flatnonzero(unsafe))
    while stack:
        for state in sources[stack.pop()]:
            if not unsafe[state]:
                unsafe[state] = True
                stack.append(state)
    return ~unsafe


def solve(rules: Rules, method: str = "value") -> Solution:
    """The optimal policy, found by value or policy iteration (``method``), tie-broken; its values by sweeps
    from zero; both checked (the Bellman residual, and no tie within the error bound)."""
    if method not in METHODS:
        raise ValueError("method must be one of %s, not %r" % (", ".join(METHODS), method))
    groups = outcome_groups(rules)
    successors = _successors(rules)
    total = rules.sides**2
    if method == "value":
        found = _to_noise_floor(lambda values: _bellman(values, groups, successors, total), rules.states)
    else:
        found = _policy_iteration(rules, groups, successors)
    policy = _greedy(found, groups, successors)
    values = _to_noise_floor(_fixed_policy_update(policy, groups, successors, total, rules.states), rules.states)
    if _changed(_greedy(values, groups, successors), policy):  # the policy must be greedy for its own values
        raise AssertionError("toggle %s: the policy found is not greedy for its values" % rules)
    residual = float(np.abs(_bellman(values, groups, successors, total) - values).max())
    if not residual < RESIDUAL:
        raise AssertionError("toggle %s: Bellman residual %.3g is not below %g" % (rules, residual, RESIDUAL))
    bound = error_bound(residual, values)
    gap = _smallest_gap(values, groups, successors)
    if not bound.max() < TIE / 10 or not gap > TIE * 10:
        raise AssertionError("toggle %s: ties are not clear (error bound %.3g, smallest real gap %.3g)"
                             % (rules, bound.max(), gap))
    flip = np.zeros((rules.states, rules.sides, rules.sides), dtype=np.uint8)
    for x in range(1, rules.sides + 1):
        for y in range(1, rules.sides + 1):
            cards = rules.choices(x, y)
            if cards:
                flip[:, x - 1, y - 1] = policy[cards]
    flip[0] = 0
    return Solution(rules, values, flip, residual, bound, gap)


def _to_noise_floor(update, size: int):
    """Values swept by ``update`` from zero until the largest change has not shrunk for 100 sweeps below
    ``RESIDUAL``: on to float64's noise floor (the tighter the bound, the fewer doubtful digits)."""
    values = np.zeros(size)
    best, since = np.inf, 0
    for _ in range(MAX_SWEEPS):
        updated = update(values)
        residual = float(np.abs(updated - values).max())
        values = updated
        best, since = (residual, 0) if residual < best else (best, since + 1)
        if best < RESIDUAL and since > 100:
            break
    return values


def _fixed_policy_update(policy, groups, successors, total, size):
    """One sweep of a fixed policy's values: the Bellman update with each choice fixed, summed in the
    same order (elementwise: the same bytes on any machine)."""
    rows = np.arange(size)
    chosen = [(weight, _successor_of(policy[cards], rows) if cards else rows) for cards, weight in groups]

    def update(values):
        expected = np.zeros_like(values)
        for weight, successor in chosen:
            expected += weight * values[successor]
        updated = 1.0 + expected / total
        updated[0] = 0.0
        return updated

    return update


def _successor_of(cards, rows):
    """The states reached by turning ``cards[state]`` in each state."""
    return rows ^ (np.int64(1) << (cards - 1))


def _policy_iteration(rules, groups, successors):
    """The optimal policy's values by policy iteration, as the published solution solves the game: from a
    proper policy (turn the highest face-up card the dice allow, else the lowest allowed), evaluate it
    (one linear solve), switch every choice that a successor's value beats by more than ``TIE``, until
    none does. The linear solve's order of summation is the BLAS's, so only the policy is kept from here."""
    rows = np.arange(rules.states)
    policy = {}
    for cards, _ in groups:
        if cards:
            up = np.zeros(rules.states, dtype=np.int64) + cards[0]
            for card in cards:  # increasing: the highest face-up card allowed wins
                up = np.where(rows >> (card - 1) & 1, card, up)
            policy[cards] = up
    while True:
        values = evaluate(rules, policy, groups)
        if not np.isfinite(values).all():
            raise AssertionError("toggle %s: a policy of policy iteration never ends from some state" % rules)
        improved = {}
        for cards, chosen in policy.items():
            current = values[_successor_of(chosen, rows)]
            greedy = _greedy(values, [(cards, 0)], successors)[cards]
            improved[cards] = np.where(values[_successor_of(greedy, rows)] < current - TIE, greedy, chosen)
        if not _changed(improved, policy):
            return values
        policy = improved


def _changed(policy, other) -> bool:
    """Whether two policies turn another card somewhere (the goal's choices aside)."""
    return any(bool((policy[cards][1:] != other[cards][1:]).any()) for cards in policy)


def error_bound(residual: float, values):
    """How far each stored value may be from the exact one (an array, per state).

    With every Bellman update within ``residual`` of the stored values, a
    stored value is within ``residual`` times the expected number of rolls
    from its state (the value itself, up to this bound) of the exact one; the
    factor 2 covers that and the float64 rounding of the update, and the last
    term the rounding of the stored number.
    """
    return residual * (np.asarray(values) + 1.0) * 2 + np.asarray(values) * 2.0**-50


def _smallest_gap(values, groups, successors):
    """The smallest difference between two successors' values that is not a tie."""
    gap = np.inf
    for cards, _ in groups:
        options = [values[successors[card]] for card in cards]
        for i in range(len(options)):
            for j in range(i + 1, len(options)):
                difference = np.abs(options[i] - options[j])[1:]
                real = difference[difference > TIE]
                if real.size:
                    gap = min(gap, float(real.min()))
    return gap
