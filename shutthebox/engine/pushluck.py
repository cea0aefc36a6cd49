"""The push-your-luck turn engine (build time; numpy): turns of rolls and stops, solved position by position
with cycles, and the one proof of every table's error bound (:func:`error_bound`).

A *turn* is a small acyclic game: from each slot (e.g. rolls taken, turn total) the player stops or takes
an action (a roll); the turn ends in a *gain* column g (by convention column 0 is the bust: the turn
scores nothing). Given the payoff ``U[:, g]`` of ending the turn in each gain column, :func:`play_turn`
takes the best action at every slot, deepest slots first, vectorised over many positions at once (a
position: whose turn and the banked scores).

A bust returns to the same banked scores with the other player to move (one player: the same player),
so a position's value depends on its *partner*'s: ``U[:, 0] = C + SIGN * value(partner)``. Positions
whose values depend only on positions solved before them and on their partner form a *group*
(:func:`solve_groups`; in a race, the positions whose banked scores have the same sum). Within a group
each position's value is an affine function of the partner's for a fixed policy (slope: the chance of a
bust); Newton's method on the pair (policy iteration) reaches the fixed point in a few steps. A game
with a cycle through lower groups (Two-Dice Pig's reset) iterates outside (``games/pig/solver.py``).
The residual ``|T(V) - V|`` of the whole table is then measured in one more sweep (:func:`sweep`).

Ties: actions whose values are within ``TIE`` of the best count as equally good (TIE is far above the
error bound, so exact ties are always seen as ties), and the first in the order stop, then the
actions' codes (Goat: roll 1, ..., roll 6; Pig: roll) is taken: a finished turn risks nothing.

Reproducible bytes: an action's value is a weighted sum of columns (its weights: whole counts over a
common denominator), computed by :func:`expect` one elementwise product and sum at a time, in a fixed
order (by column), then divided by the denominator; never by a matrix product or a summing reduction
(``@``, ``np.dot``, ``np.sum(axis=...)``), which leave the order of the additions to the BLAS build and
the CPU, and the table's last bits with them. So a table's bytes are the same on every machine;
``tests/test_reproducible.py`` checks the solvers' source for such calls.

The error bound, proven once (every game on this engine states its bound through :func:`error_bound`)
------------------------------------------------------------------------------------------------------

Setting. ``V(p)`` is the stored value at the start of a turn at position ``p`` (the mover's chance to
win; for one player, minus the expected turns). Ending the turn in gain column g is worth
``c + s * V(q)`` for the next turn's position q (``s = -1``: the opponent moves next and the game is
constant-sum, c = 1; ``s = +1``: the same player again, or a count of turns) or a constant (the game is
over). ``T`` is the exact Bellman operator over one turn (each player's best turn against the dice),
``T^`` the same computed in float64 by :func:`play_turn`. The exact table is the fixed point
``V* = T V*``. Assume (A): from every position, whatever the players do, the game ends within some M
turns with chance at least some q > 0 (a race: with chance > 0 the dice bring every turn's player a
score; Goat: likewise). Then T has one fixed point, and iterating T from any bounded start converges to
it (T^M shrinks every distance by the factor 1 - q).

What the build measures:

- ``eps = max_p |T^ V(p) - V(p)|``, the residual of one sweep over every position.
- ``rho``, a bound on ``|T^ X - T X|`` for every table X whose payoffs and slot values are at most C in
  size (:func:`rounding`; Lemma 1): ``rho = (gamma(t + 1) * R + u) * C`` with ``u = 2^-53``,
  ``gamma(n) = n u / (1 - n u)``, t the most terms of an action, R the most expected actions (rolls) of
  one turn under any play (:func:`most_rolls`).
- ``N(p)``, the most expected turns from p to the end of the game, p's turn included, when at every
  slot each player may take any action whose computed value is within TIE of the computed best (the
  stored action is one of them; where no other is that close -- the rule, there are seldom exact ties --
  N is the stored policy's expected turns). The same engine measures it: :func:`solve_groups` with
  ``allowed`` the actions within TIE (:func:`play_turn`'s ``good``), payoff ``1 + N(next)``, maximised.
  A computed N^ with residual eta^ gives ``max N <= max N^ / (1 - eta^ - rho_N)`` (:func:`turns_bound`).

Lemma 1 (rounding). An action's value is ``sum_k x_k n_k / D`` over t terms (whole counts n_k with
``sum n_k <= D``): computed as above it is within ``gamma(t + 1) * sum_k |x_k| n_k / D <= gamma(t + 1) * C``
of the exact sum of the computed inputs x_k (Higham, Accuracy and Stability, (3.5), one more rounding for
the division). A payoff ``c + s * V(q)`` is one rounding, within ``u * C``. An error in an input of an
action is carried with weight ``n_k / D`` (the weights add up to at most 1), and a maximum (or minimum)
of values each within e is within e. So by induction from the deepest slots, the value computed at a slot
is within ``gamma(t + 1) * C * r + u * C`` of the exact one, r the most expected rolls from that slot;
r <= R. Hence ``|T^ X - T X| <= rho``, slot by slot.

Theorem. Let ``delta = eps + rho`` and suppose ``TIE >= delta * max N + 2 * rho``. Then
``|V(p) - V*(p)| <= delta * N(p)`` at every turn start, and every value the sweep computes inside a turn
(the tables store those) is within ``delta * max N + rho <= error_bound(eps, max N, rho)
= (eps + rho) * (max N + 1)`` of the exact one.

Proof. ``|T V - V| <= |T^ V - V| + |T V - T^ V| <= delta`` at every position (Lemma 1). Look at the game
from one player A's side: ``Y(p) = V(p)`` where A moves, ``c - V(p)`` where the opponent B moves (one
player: Y = V). A turn's end is then worth ``Y(q)`` (or a constant) to A, A maximises over its turns and
B minimises, and the operator T_A so written is monotone: a larger Y never lowers T_A Y. Put
``W+ = Y + delta N`` and ``W- = Y - delta N``. Claim: ``T_A W+ <= W+`` and ``T_A W- >= W-``. Given the
claim, ``Y* <= (T_A)^k W+ <= W+`` for every k and the iterates tend to the fixed point ``Y*`` (by (A)), so
``Y* <= W+``; likewise ``Y* >= W-``; so ``|V - V*| = |Y - Y*| <= delta N``.

The claim at a turn of A from p (max), for W+: let ``S_X(sigma)`` be the exact best value at slot sigma
with start values X, and ``n(sigma)`` the most expected turns after this one (N at the position the turn
ends in; 0 when the game ends) over the allowed actions, so that ``n(sigma) >= sum_k w_k n(child_k)`` for
every allowed action and ``N(p) = 1 + n(root)``. By induction from the deepest slots,
``S_W+(sigma) <= S_Y(sigma) + delta n(sigma)``. At a turn's end q: ``W+(q) = Y(q) + delta N(q)``; at the
game's end both are the same constant. At a slot, an allowed action a (stopping too: its one child is the
turn's end): ``Q_W+(a) <= Q_Y(a) + delta * sum_k w_k n(child_k) <= S_Y(sigma) + delta n(sigma)``. An action not allowed
was computed more than TIE below the computed best; both within rho of the exact values (Lemma 1), so
``Q_Y(a) <= S_Y(sigma) - TIE + 2 rho`` and ``Q_W+(a) <= Q_Y(a) + delta max N <= S_Y(sigma)`` by the
hypothesis. The maximum over actions keeps the bound. At the root:
``T_A W+(p) <= T_A Y(p) + delta (N(p) - 1) <= Y(p) + delta + delta (N(p) - 1) = W+(p)``.
At a turn of B (min) for W+: let a* be the exactly best action for B at sigma; its computed value is
within 2 rho of the computed best, so a* is allowed, and
``S_W+(sigma) <= Q_W+(a*) <= S_Y(sigma) + delta n(sigma)``: the same induction. W- is the mirror image (A's
exactly best action is allowed; B's actions not allowed lie more than TIE - 2 rho above the best). []

Inside a turn: ``|S^_V(sigma) - S_V*(sigma)| <= |S^_V - S_V| + |S_V - S_V*| <= rho + delta max N`` (an exact
slot value moves by at most the largest change of the start values). The tables' values at a turn's
start are also the sweep's (``T^ V``), covered the same way.

Positions of known value. A position whose exact value v is known (found by induction on the turns to the
end: a sure win, v = 1, where some play of the turn ends with chance 1 in a win or at an opponent's sure loss
found before; a sure loss, v = 0, where every play ends in a loss or at an opponent's sure win found before)
and whose start value V is exactly v may be taken for the game's end: the game
so changed has the same fixed point V* and still (A); its sweep computes the same values from V (a turn's
end there is worth ``c + s v``, the same float as before), with residual 0 at those positions, and the same
actions are allowed. So the Theorem holds with N counted until the game ends or reaches such a position;
any count ``N >= 0`` given to those positions (e.g. 1: their own turn) does too, the proof needing only
``n >= 0`` at a game's end. The values inside their turns are covered as above.

Another tie width. Only the allowed actions depend on TIE (a stored value is its slot's best action's, the
width only picks the stored action): with the allowed actions those within any width tau of the computed
best and N counted free among them, the Theorem holds when ``tau >= delta * max N + 2 * rho``.

Both matter where the outcome is all but decided: there every action's value is within TIE of the best (in
Goat's two-player table, exactly so: a second player 3 or fewer short of the goal wins surely with one die,
and where the first player cannot reach the goal in one turn a match costs neither anything), and players
free among them could put the end off by hundreds of thousands of expected turns (``games/goat/optimal.py``).

A fixed policy pair pi (:func:`play_turn`'s ``policy``; e.g. a duel of strategies) is the case where each
slot allows one action: with eps the residual of the sweep under pi and N the expected turns under pi,
``|V - V^pi| <= (eps + rho) N`` (no hypothesis on TIE: nothing is maximised).

The expected turns (:func:`turns_bound`): N is the fixed point of ``N = 1 + max over allowed turns of
E[N(next)]`` (0 after the game's end). For a computed N^ with ``|T_N N^ - N^| <= eta`` (its sweep's residual
plus rounding), ``W = N^ + eta N`` satisfies ``T_N W <= N^ + eta + eta (N - 1) = W`` (every action counted is
allowed, so ``E[N(next)] <= N - 1``), so as above ``N <= N^ + eta N``: ``max N <= max N^ / (1 - eta)``.
"""

from fractions import Fraction
from math import lcm

import numpy as np

RESIDUAL = 1e-12
TIE = 1e-11
MAX_NEWTON = 60
UNIT = 2.0**-53  # float64's unit roundoff
MAX_DENOMINATOR = 6**6  # of a turn's weights given as floats (goat: 6^k for k dice)


class Turn:
    """A turn's shape: ``gains`` payoff columns, then one column per slot; ``levels`` deepest first,
    each ``(slots, stop_gain, [(action, weights)])`` with ``weights`` (columns x slots) the chance of
    each column after the action; ``stop_gain[i]`` is -1 where stopping is not allowed. Weights are
    floats that are fractions of denominator at most ``MAX_DENOMINATOR`` (Goat's), or, with
    ``denominator`` given, whole counts over it (any die: 1/7 is no float). ``sums``: each level's
    actions as :func:`_sums` writes them for :func:`expect`."""

    def __init__(self, gains, slots, levels, root=0, denominator=None):
        self.gains, self.slots, self.levels, self.root = gains, slots, levels, root
        self.denominator = denominator
        self.sums = [[_sums(weights, denominator) for _, weights in moves] for _, _, moves in levels]

    @property
    def columns(self):
        return self.gains + self.slots

    @property
    def terms(self) -> int:
        """The most terms of one action's sum (for :func:`rounding`)."""
        return max((len(terms) for level in self.sums for _, _, terms in level), default=0)


def _sums(weights, denominator=None):
    """``weights`` (columns x slots) as ``(slots, denominator, terms)`` for :func:`expect`.

    An action's weights are chances with a small common denominator (6^k for k dice), so they are
    kept as whole counts over it: a product ``column * count`` is rounded once, the counts of a turn's
    chances (which add up to 1) add up exactly to the denominator, and rounding being monotone, a sum
    of values in [0, 1] stays in [0, 1] (a chance never comes out as -1e-16, which prints as -0.000000).
    ``denominator`` None: the weights are floats, each recovered as a fraction of denominator at most
    ``MAX_DENOMINATOR`` (and must be that fraction's float); given: the weights are whole counts over it.
    ``terms[k]`` is every slot's k-th term ``(columns, count)``, a slot's terms in increasing column
    order: ``columns`` a slice where the slots read consecutive columns (or all the same one), else an
    index array; ``count`` a float where every slot's is the same, else a column of counts. A slot with
    fewer terms than another gets count 0 on column 0 for the rest."""
    width = weights.shape[1]
    rows = [np.flatnonzero(weights[:, i]) for i in range(width)]
    if denominator is None:
        exact = [[Fraction(float(weights[j, i])).limit_denominator(MAX_DENOMINATOR) for j in row]
                 for i, row in enumerate(rows)]
        if any(float(w) != weights[j, i] for i, (row, ws) in enumerate(zip(rows, exact)) for j, w in zip(row, ws)):
            raise AssertionError("a turn's weights are not fractions of denominator <= %d" % MAX_DENOMINATOR)
        denominator = lcm(1, *(w.denominator for ws in exact for w in ws))
    else:
        exact = [[Fraction(float(weights[j, i])) for j in row] for i, row in enumerate(rows)]
        if any(w.denominator != 1 or w < 0 for ws in exact for w in ws) or not 0 < denominator < 2**53:
            raise AssertionError("a turn's weights are not whole counts over %r" % denominator)
        exact = [[w / denominator for w in ws] for ws in exact]
    terms = []
    for k in range(max((len(row) for row in rows), default=0)):
        columns = np.array([row[k] if k < len(row) else 0 for row in rows])
        counts = np.array([float(ws[k] * denominator) if k < len(ws) else 0.0 for ws in exact])
        first = int(columns[0])
        if (columns == first).all():
            where = slice(first, first + 1)  # the same column for every slot: broadcast
        elif (columns == first + np.arange(width)).all():
            where = slice(first, first + width)
        else:
            where = columns
        terms.append((where, float(counts[0]) if (counts == counts[0]).all() else counts[:, None]))
    return width, float(denominator), terms


def expect(columns, sums, out=None, scratch=None):
    """``weights.T @ columns`` for ``sums = _sums(weights)``; ``columns``: (..., columns, positions),
    the result (..., slots, positions). Every slot's products are added one at a time in its terms'
    order, then divided by the denominator, each step an elementwise float64 operation: the bytes
    are the same with every BLAS and CPU (no matrix product, no summing reduction)."""
    width, denominator, terms = sums
    if out is None:
        out = np.empty(columns.shape[:-2] + (width,) + columns.shape[-1:])
    if scratch is None or scratch.shape != out.shape:
        scratch = np.empty_like(out)
    (where, count), rest = terms[0], terms[1:]
    np.multiply(columns[..., where, :], count, out=out)
    for where, count in rest:
        np.multiply(columns[..., where, :], count, out=scratch)
        out += scratch
    out /= denominator
    return out


def _options(both, stop, sums):
    """Every action's values at a level's slots, (layers, 1 + actions, slots, positions) from
    ``both`` (layers, columns, positions): stopping first (layer 0: -inf where not allowed; the
    other layers, the slopes, 0), then each roll's."""
    layers, _, count = both.shape
    width = len(stop)
    options = np.empty((layers, 1 + len(sums), width, count))
    options[:, 0] = both[:, np.maximum(stop, 0)]
    refused = stop < 0
    if refused.any():
        options[0, 0, refused] = -np.inf
        options[1:, 0, refused] = 0.0
    scratch = np.empty((layers, width, count))
    for action, action_sums in enumerate(sums, 1):
        expect(both, action_sums, out=options[:, action], scratch=scratch)
    return options


def play_turn(turn: Turn, payoff, policy=None, allowed=None, good=None, tie: float = TIE, width: float | None = None):
    """(values at every column, actions at every slot, d value(root) / d payoff[:, 0]).

    ``payoff``: positions x gains. ``policy`` (positions x slots), when given, is followed instead of
    the best action. ``allowed`` (positions x slots x (1 + actions), bool), when given, restricts the
    best action to those marked (stopping first, then the actions in the turn's order). ``good``, when
    given (the shape of ``allowed``), is filled with the actions whose values are within ``width`` (default
    ``tie``) of the best (a refused stop never). Values are the best action's; the action stored is the first
    within ``tie`` of it."""
    count = len(payoff)
    both = np.zeros((2, turn.columns, count))  # the values and their slopes, a column a row
    values, slope = both
    values[: turn.gains] = payoff.T
    slope[0] = 1.0
    actions = np.zeros((turn.slots, count), dtype=np.uint8)
    for (slots, stop, moves), sums in zip(turn.levels, turn.sums):
        codes = np.array([0] + [code for code, _ in moves], dtype=np.uint8)
        options = _options(both, stop, sums)
        if allowed is not None:
            options[0][~allowed[:, slots].transpose(2, 1, 0)] = -np.inf
        if policy is None:
            pick = np.argmax(options[0], axis=0)  # the values are the best actions' ...
            best = np.choose(pick, options[0])
            near = options[0] >= best - tie
            shown = np.argmax(near, axis=0)  # ... the action shown the first tie
            if good is not None:
                close = near if width is None else options[0] >= best - width
                good[:, slots] = (close & np.isfinite(options[0])).transpose(2, 1, 0)
        else:
            pick = shown = np.searchsorted(codes, policy[:, slots].T)
        columns = turn.gains + slots
        values[columns] = np.choose(pick, options[0])  # a selection: the same bits as indexing
        slope[columns] = np.choose(pick, options[1])
        actions[slots] = codes[shown]
    return values.T, actions.T, slope[turn.gains + turn.root]


def solve_groups(turn: Turn, groups, payoff, constant: float, sign: float, size: int, start: float = 0.0,
                 policy=None, allowed=None, actions=None, noise=None):
    """Values at the start of a turn of every position (``size`` of them), group by group.

    ``groups``: [(positions, partners)] in solving order, ``partners[i]`` the index in ``positions``
    of position i's partner; ``payoff(positions, start_values)`` gives the gain payoffs (column 0 is
    overwritten with ``constant + sign * partner's value``); ``start``: Newton's first guess, one value or
    one per position; ``policy`` (every position x slots), when
    given, is evaluated instead of the best play; ``allowed`` (every position x slots x options) restricts
    the best play (:func:`play_turn`); ``actions`` (every position x slots, uint8), when given, receives
    the actions of the last update. Newton stops when no value changes by more than 1e-15 (relative to the
    largest); with ``noise`` given, also when a step changes none by more than ``noise`` and no less than the
    step before (two nearly tied choices taking turns at float64's last bits; the sweep measures the residual)."""
    starts = np.full(size, start)
    for positions, local in groups:
        gains = payoff(positions, starts)
        fixed = None if policy is None else policy[positions]
        mask = None if allowed is None else allowed[positions]
        x = starts[positions].copy()
        before = np.inf
        for _ in range(MAX_NEWTON):
            gains[:, 0] = constant + sign * x[local]
            values, _, slope = play_turn(turn, gains, fixed, mask)
            alpha = values[:, turn.gains + turn.root] + slope * (constant - gains[:, 0])
            updated = (alpha + sign * slope * alpha[local]) / (1.0 - slope * slope[local])
            change = np.abs(updated - x).max()
            x = updated
            scale = max(1.0, np.abs(x).max())
            if change <= 1e-15 * scale or noise is not None and before <= change <= noise * scale:
                break
            before = change
        else:
            raise AssertionError("policy iteration did not settle (change %.3g)" % change)
        gains[:, 0] = constant + sign * x[local]
        values, chosen, _ = play_turn(turn, gains, fixed, mask)  # one update more: float64's fixed point
        x = values[:, turn.gains + turn.root]
        if actions is not None:
            actions[positions] = chosen
        starts[positions] = x
    return starts


def sweep(turn: Turn, payoff, starts, partners, constant: float, sign: float, allowed=None, good=None,
          width: float | None = None):
    """One Bellman update of every position: (values at every column, actions, residual). ``allowed``, ``good``
    (every position x slots x options) and ``width`` as in :func:`play_turn`."""
    positions = np.arange(len(starts))
    gains = payoff(positions, starts)
    gains[:, 0] = constant + sign * starts[partners]
    values, actions, _ = play_turn(turn, gains, allowed=allowed, good=good, width=width)
    residual = float(np.abs(values[:, turn.gains + turn.root] - starts).max())
    return values, actions, residual


def smallest_gap(turn: Turn, payoff, starts, partners, constant, sign):
    """The smallest difference between the best action and another that is not a tie (for the tie check)."""
    positions = np.arange(len(starts))
    gains = payoff(positions, starts)
    gains[:, 0] = constant + sign * starts[partners]
    values, _, _ = play_turn(turn, gains)
    gap = np.inf
    for (slots, stop, moves), sums in zip(turn.levels, turn.sums):
        options = _options(np.ascontiguousarray(values.T)[None], stop, sums)[0]
        difference = options.max(axis=0) - options
        real = difference[(difference > TIE) & np.isfinite(difference)]
        if real.size:
            gap = min(gap, float(real.min()))
    return gap


def turn_laws(turn: Turn, actions):
    """positions x gains: the chance that a turn played by ``actions`` (positions x slots, the codes
    :func:`play_turn` returns) from the root ends in each gain column (for a Newton step's slopes; the
    chances are float64, their sums in a fixed order)."""
    count = len(actions)
    mass = np.zeros((turn.columns, count))
    mass[turn.gains + turn.root] = 1.0
    scale = 1.0 if turn.denominator is None else 1.0 / turn.denominator
    for slots, stop, moves in reversed(turn.levels):  # the shallowest slots first
        for index, slot in enumerate(slots):
            here, chosen = mass[turn.gains + slot], actions[:, slot]
            if stop[index] >= 0:
                mass[stop[index]] += here * (chosen == 0)
            for code, weights in moves:
                rolled = here * (chosen == code)
                column = weights[:, index]
                reached = np.flatnonzero(column)
                mass[reached] += (column[reached] * scale)[:, None] * rolled[None, :]
    return np.ascontiguousarray(mass[: turn.gains].T)


# -- the error bound (the proof is the module's docstring) ---------------------------------------------

def most_rolls(turn: Turn) -> float:
    """R of Lemma 1: the most expected actions (rolls) of one turn from any slot, over every way to play
    (stopping wherever allowed), slightly rounded up. Only the slots' structure counts, not payoffs."""
    rolls = np.zeros(turn.columns)  # a turn's end: no more rolls
    for (slots, stop, moves), sums in zip(turn.levels, turn.sums):
        best = np.where(stop >= 0, 0.0, -np.inf)
        for action_sums in sums:
            best = np.maximum(best, 1.0 + expect(rolls[:, None], action_sums)[:, 0])
        rolls[turn.gains + slots] = best
    return float(rolls[turn.gains:].max()) * (1 + 1e-9)


def gamma(n: int) -> float:
    """Higham's gamma_n = n u / (1 - n u): the relative error of n roundings."""
    return n * UNIT / (1 - n * UNIT)


def rounding(turn: Turn, magnitude: float = 1.0, rolls: float | None = None) -> float:
    """rho of Lemma 1: how far a value :func:`play_turn` computes may lie from the exact one for the same
    payoffs, when no payoff or value exceeds ``magnitude`` in size (1 for chances)."""
    rolls = most_rolls(turn) if rolls is None else rolls
    return (gamma(turn.terms + 1) * rolls + UNIT) * magnitude


def turns_bound(turns: float, residual: float, rounding_: float) -> float:
    """An upper bound on the exact most expected turns, from the computed ``turns`` (their maximum),
    the residual of their own sweep and its rounding bound (see the module's docstring)."""
    shrink = 1.0 - (residual + rounding_) * (1 + 1e-9)
    if not shrink > 0.5:
        raise AssertionError("the expected turns are not a fixed point (residual %.3g)" % residual)
    return turns / shrink * (1 + 1e-9)


def error_bound(residual: float, turns: float, rounding_: float = 0.0) -> float:
    """The Theorem of the module's docstring: every value a sweep computes from start values whose residual
    is ``residual`` lies within ``(residual + rounding_) * (turns + 1)`` of the exact one, ``turns`` the most
    expected turns still to play (this one included) under the stored policy, free among ties (or under a
    fixed policy pair, for its own values), ``rounding_`` the sweep's rounding bound (:func:`rounding`).
    Holds when ``TIE >= (residual + rounding_) * turns + 2 * rounding_`` (:func:`check_tie`)."""
    return (residual + rounding_) * (turns + 1)


def check_tie(residual: float, turns: float, rounding_: float, tie: float = TIE) -> None:
    """The Theorem's hypothesis: a computed tie width that separates real differences from rounding."""
    if not (residual + rounding_) * turns + 2 * rounding_ <= tie:
        raise AssertionError("error bound %.3g is not below the tie width %g"
                             % ((residual + rounding_) * turns + 2 * rounding_, tie))
