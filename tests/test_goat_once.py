"""Goat with the dice chosen once a turn (``--choose once``, docs/GOAT.md "Rules decisions").

The table against independent solves written here, sharing no code with the solver (ordered dice, their own
turn recursion): an exact solve in Fractions of solo play (every turn-start value and every state inside a
turn, proven the fixed point by an exact Bellman check) and a float solve of the two-player game, on goals 5,
10 and 20; a duel brute force in Fractions with the optimal player's moves asked one at a time. Then: never
better than choosing before each roll (the solo expected turns), never worse than the fixed strategies (which
keep their dice anyway), different at goal 100; the questions' state (DICE), the names, headers and refusals."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from conftest import run, slow_when
from shutthebox import InvalidQuery, registry
from shutthebox.games.goat import duel
from shutthebox.games.goat.rules import Rules
from shutthebox.games.goat.table import load

GOALS = (5, 10, 20)
TIE = 1e-11


# Tables of small goals are solved on first use into the tests' cache (conftest's private_cache), shared by the
# tests of a run, never the user's.
SLOW_GOALS = {20}


# -- one turn that keeps its k dice: ordered throws, any kind of number ----------------------------------------

def ordered_throws(k):
    """(chance of a match, {sum: chance}) of k dice, from the 6^k ordered outcomes."""
    law = {}
    for faces in itertools.product(range(1, 7), repeat=k):
        if len(set(faces)) == k:
            law[sum(faces)] = law.get(sum(faces), 0) + Fraction(1, 6**k)
    return 1 - sum(law.values()), law


THROWS = {k: ordered_throws(k) for k in range(1, 7)}
# The totals after one and two rolls of k dice, from the throws themselves.
REACH = {k: {1: sorted(THROWS[k][1]), 2: sorted({a + b for a in THROWS[k][1] for b in THROWS[k][1]})}
         for k in range(1, 7)}


def play(u, k, choose, numbers=Fraction):
    """A turn whose first roll is of k dice, which it keeps: (its value before the first roll, {(rolls, total):
    (value, stop's value, roll's value)}). ``u[g]`` is the value of the turn ending with gain g (``u[0]``: a match;
    a Fraction, a float or a numpy array of positions); ``choose(state, stop, roll)`` the mover's choice (the
    better value, or a policy's). The third roll ends the turn."""
    bust, law = THROWS[k]
    weights = {x: numbers(p) for x, p in law.items()}
    bust = numbers(bust)
    states = {}
    for rolls in (2, 1):
        for total in REACH[k][rolls]:
            after = [u[total + x] if rolls == 2 else states[2, total + x][0] for x in law]
            roll = bust * u[0] + sum(w * a for w, a in zip(weights.values(), after))
            states[rolls, total] = (choose((rolls, total), u[total], roll), u[total], roll)
    start = bust * u[0] + sum(w * states[1, x][0] for x, w in weights.items())
    return start, states


def least(_, stop, roll):
    return min(stop, roll)


# -- solo, exactly -------------------------------------------------------------------------------------------

def solo_exact(goal):
    """{s: (E(s), {k: (the value of a first roll of k dice, {(rolls, total): (value, stop's, roll's)})})}: the
    fewest expected turns from banked s (this turn counted) and the exact values of every state of its turn for
    every k. Each E(s) is found by floats, then the policy they choose is evaluated exactly (its value is affine
    in E(s), a match's), and the exact Bellman equation is checked with every k and every choice: E(s) = the
    least over k of the turn's value, which has one solution (every policy's slope, its chance of a match, is
    below 1)."""
    e, out = {}, {}
    for s in range(goal - 1, -1, -1):
        def costs(x, s=s):
            return [x + 1] + [1 + e.get(s + g, 0) for g in range(1, 64)]

        floats = [float(c) for c in costs(Fraction(0))]
        x = 0.0
        for _ in range(1000):  # floats first: the fixed point of x -> min over k of the turn with u(0) = 1 + x
            floats[0] = 1 + x
            new = min(play(floats, k, least, float)[0] for k in THROWS)
            done, x = abs(new - x) <= 1e-15, new
            if done:
                break
        floats[0] = 1 + x
        k_best = min(THROWS, key=lambda k: play(floats, k, least, float)[0])
        stops = {state: value[1] <= value[2] for state, value in play(floats, k_best, least, float)[1].items()}

        def policy(state, stop, roll, stops=stops):
            return stop if stops[state] else roll

        at0 = play(costs(Fraction(0)), k_best, policy)[0]  # the policy's value, affine in a match's E(s)
        at1 = play(costs(Fraction(1)), k_best, policy)[0]
        exact = e[s] = at0 / (1 - (at1 - at0))
        turns = {k: play(costs(exact), k, least) for k in THROWS}
        assert min(start for start, _ in turns.values()) == exact, s  # the exact fixed point
        out[s] = (exact, turns)
    return out


@pytest.mark.parametrize("goal", slow_when(GOALS, SLOW_GOALS))
def test_solo_agrees_with_an_exact_solve(goal):
    """Every value of the solo table, before the first roll and at every state inside a turn (after 1 or 2 rolls
    of each number of dice), is the exact one within 1e-12 and prints it correctly rounded; every stored move is
    optimal within the tie width and keeps the turn's dice."""
    table = load(Rules(goal, "once"))
    for s, (exact, turns) in solo_exact(goal).items():
        assert abs(table.probe_solo(s) - float(exact)) < 1e-12 and "%.6f" % table.probe_solo(s) == "%.6f" % exact
        assert turns[table.probe_solo_move(s, 0, 0)][0] - exact <= TIE
        for k, (_, states) in turns.items():
            for (rolls, total), (value, stop, roll) in states.items():
                stored = table.probe_solo(s, total, rolls, k)
                assert abs(stored - float(value)) < 1e-12 and "%.6f" % stored == "%.6f" % value, (s, total, rolls, k)
                action = table.probe_solo_move(s, total, rolls, k)
                assert action in (0, k) and (stop if action == 0 else roll) - value <= TIE, (s, total, rolls, k)


# -- two players, by floats ------------------------------------------------------------------------------------

def most(_, stop, roll):
    return np.maximum(stop, roll)


def best_turn(u):
    """{k: play(u, k)} over positions (``u``: arrays), and the best first roll's value."""
    turns = {k: play(u, k, most, float) for k in THROWS}
    return turns, np.max([start for start, _ in turns.values()], axis=0)


def two_player(goal):
    """(F, S, last, turns): F[a, b] the chance of the first player to move at banked a against b, S[b, a] the
    second's at b with the first's a (both below the goal), last[need - 1] the second's in the last turn needing
    more than ``need`` (a tie on it: half), and the turns of every position ({(player, my, opp): {k: play}}). The
    scores' sum never falls, so pairs (F[a, b], S[b, a]) are solved by decreasing a + b, each pair by iterating
    the two turns (a match hands the turn over at the same scores) until no value moves."""
    needs = np.arange(1, 65)
    last_turns, last = best_turn([np.where(g > needs, 1.0, np.where(g == needs, 0.5, 0.0)) for g in range(64)])
    turns = {(2, None, need): {k: (start[need - 1], {key: tuple(v[need - 1] for v in value)
                                                      for key, value in states.items()})
                               for k, (start, states) in last_turns.items()} for need in needs}
    F, S = np.zeros((goal, goal)), np.zeros((goal, goal))
    for d in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, d - goal + 1), min(d, goal - 1) + 1)
        b = d - a
        ones = [None] + [np.where(a + g >= goal, 1 - last[np.clip(a + g - b, 1, 64) - 1],
                                  1 - S[b, np.minimum(a + g, goal - 1)]) for g in range(1, 64)]
        twos = [None] + [np.where(b + g >= goal, 1.0, 1 - F[a, np.minimum(b + g, goal - 1)]) for g in range(1, 64)]
        x = y = np.full(len(a), 0.5)
        for _ in range(200):
            x_new = best_turn([1 - y] + ones[1:])[1]
            y_new = best_turn([1 - x_new] + twos[1:])[1]
            change = max(np.abs(x_new - x).max(), np.abs(y_new - y).max())
            x, y = x_new, y_new
            if change <= 1e-16:
                break
        F[a, b], S[b, a] = x, y
        for player, u, mine, other in ((1, [1 - y] + ones[1:], a, b), (2, [1 - x] + twos[1:], b, a)):
            found = best_turn(u)[0]
            for i in range(len(a)):
                turns[player, int(mine[i]), int(other[i])] = {
                    k: (start[i], {key: tuple(v[i] for v in value) for key, value in states.items()})
                    for k, (start, states) in found.items()}
    return F, S, last, turns


@pytest.mark.parametrize("goal", slow_when(GOALS, SLOW_GOALS))
def test_two_players_agree_with_an_independent_solve(goal):
    """The first and second player's chances (the last turn included) at every turn start and every state inside
    a turn agree with the independent solve within 1e-11, and every stored move is optimal within the tie width
    (and keeps the turn's dice)."""
    table = load(Rules(goal, "once"))
    table.preload()
    F, S, last, turns = two_player(goal)
    for (player, my, opp), found in turns.items():
        if my is None:  # the last turn of need ``opp``: any pair of scores that far apart, the first's past the goal
            my = goal - 1 - (opp == 64)
            opp = my + int(opp)
        best = max(start for start, _ in found.values())
        assert abs(table.probe_win(player, my, opp) - best) < 1e-11, (player, my, opp)
        assert found[table.probe_move(player, my, opp, 0, 0)][0] >= best - TIE - 1e-12
        for k, (_, states) in found.items():
            for (rolls, total), (value, stop, roll) in states.items():
                assert abs(table.probe_win(player, my, opp, total, rolls, k) - value) < 1e-11, (player, my, opp, k)
                action = table.probe_move(player, my, opp, total, rolls, k)
                assert action in (0, k) and (stop if action == 0 else roll) >= value - TIE - 1e-12
    assert abs(table.probe_win(1, 0, 0) - F[0, 0]) < 1e-11 and abs(table.probe_win(2, 0, 0) - S[0, 0]) < 1e-11
    assert abs(table.probe_win(2, 3, goal + 5) - last[goal + 1]) < 1e-11


# -- against choosing before each roll, and the fixed strategies --------------------------------------------

def check_never_better(once, each, goal):
    """Alone, keeping the dice is never better: at every banked score and every state inside a turn (each with
    the dice kept so far) the expected turns are at least those of choosing before each roll, and at most those
    of every fixed strategy (each keeps its dice: a strategy of both readings; its values are the same)."""
    for s in range(goal):
        assert once.probe_solo(s) >= each.probe_solo(s) - 1e-12, s
        for k in range(1, 7):
            for t in (1, 5, 13, 23, 43):
                assert once.probe_fixed(s, k, t) == each.probe_fixed(s, k, t)
                assert once.probe_solo(s) <= once.probe_fixed(s, k, t) + 1e-12, (s, k, t)
            for rolls in (1, 2):
                for total in REACH[k][rolls]:
                    assert once.probe_solo(s, total, rolls, k) >= each.probe_solo(s, total, rolls) - 1e-12


@pytest.mark.parametrize("goal", slow_when(GOALS, SLOW_GOALS))
def test_once_is_never_better_alone_on_small_goals(goal):
    check_never_better(load(Rules(goal, "once")), load(Rules(goal)), goal)


@pytest.mark.slow
def test_at_goal_100_both_optima_and_keeping_the_dice_costs_turns():
    """Goal 100 (solved on first use, about 10 s): the figures docs/GOAT.md gives for both readings."""
    once, each = load(Rules(choose="once")), load()
    once.preload()
    each.preload()
    check_never_better(once, each, 100)
    assert "%.6f" % each.probe_solo(0) == "8.497837" and "%.6f" % once.probe_solo(0) == "8.706455"
    assert "%.6f" % each.probe_win(1, 0, 0) == "0.454979" and "%.6f" % once.probe_win(1, 0, 0) == "0.470697"
    assert once.probe_solo_move(0, 0, 0) == 2 and once.probe_move(1, 0, 0, 0, 0) == 2
    assert "%.6f" % duel.answer(100, duel.OPTIMAL, duel.OPTIMAL, duel.Optimal(once)) == "0.470697"
    header = once.file.header
    assert header["rules"] == {"goal": 100, "choose": "once", "dice": 6, "rolls": 3}
    assert float(header["error_bound"]) < 1e-12


# -- duels: a brute force in Fractions, the optimal player's moves asked one at a time -------------------------

def turn_law(choose):
    """{gain: chance} of one turn keeping the dice of its first roll; ``choose(turn, rolls, dice)`` is the action
    (dice None before the first roll)."""
    gains = {}

    def go(turn, rolls, k, chance):
        action = choose(turn, rolls, k) if rolls < 3 else 0
        if action == 0:
            gains[turn] = gains.get(turn, 0) + chance
            return
        assert k is None or action == k
        bust, law = THROWS[action]
        gains[0] = gains.get(0, 0) + chance * bust
        for total, share in law.items():
            go(turn + total, rolls + 1, action, chance * share)

    go(0, 0, None, Fraction(1))
    return gains


def brute_duel(goal, first, second, table):
    """The chance that ``first`` (moving first) beats ``second`` from 0 to 0: each side (k, t) or "optimal"
    (``table.probe_move``), rounds until either reached the goal, the higher total winning (a tie half)."""
    laws = {}

    def law(side, player, my, opp):
        key = (side, player, my, opp)
        if key not in laws:
            if side == "optimal":
                laws[key] = turn_law(lambda turn, rolls, k: table.probe_move(player, my, opp, turn, rolls,
                                                                             k if rolls else None))
            else:
                dice, stop = side
                laws[key] = turn_law(lambda turn, rolls, k: dice if rolls == 0 or (turn < stop and my + turn < goal)
                                     else 0)
        return laws[key]

    def end(a, b):
        return Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)

    memo = {}
    for total in range(2 * goal - 2, -1, -1):  # W(a, b) and X(a, b): a pair of equations, deepest first
        for a in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            b = total - a
            pa, pb = law(first, 1, a, b), law(second, 2, b, a)

            def x(a2, b=b):  # A has banked a2, B at b to move
                if a2 < goal:
                    return memo[a2, b][1]
                return sum(p * end(a2, b + h) for h, p in law(second, 2, b, a2).items())

            c1 = sum((p * x(a + g) for g, p in pa.items() if g), Fraction(0))
            c2 = sum((p * (memo[a, b + h][0] if b + h < goal else 0) for h, p in pb.items() if h), Fraction(0))
            pa0, pb0 = pa.get(0, 0), pb.get(0, 0)
            w = (c1 + pa0 * c2) / (1 - pa0 * pb0)
            memo[a, b] = (w, c2 + pb0 * w)
    return memo[0, 0][0]


@pytest.mark.parametrize("goal, first, second", [(7, "optimal", "optimal"), (8, (2, 6), "optimal"),
                                                  (8, "optimal", (1, 4))])
def test_duels_agree_with_fractions(goal, first, second):
    table = load(Rules(goal, "once"))
    value, bound = duel.chance(goal, first, second, duel.Optimal(table))
    exact = brute_duel(goal, first, second, table)
    assert abs(value - float(exact)) <= bound + 1e-17 and "%.6f" % value == "%.6f" % exact
    if first == second == "optimal":
        assert abs(table.probe_win(1, 0, 0) - float(exact)) < 1e-12


def test_optimal_laws_give_back_the_tables_expected_turns_and_chances():
    """The once laws of the stored moves (``duel.once_laws``): the solo chain gives back every expected turns,
    optimal against optimal the first player's chance at every pair of scores."""
    goal = 20
    table = load(Rules(goal, "once"))
    optimal = duel.Optimal(table)
    law = optimal.solo / duel.DEN
    e = np.zeros(goal + 64)
    for s in range(goal - 1, -1, -1):
        e[s] = (1 + (law[s, 1:] * e[s + 1:s + 64]).sum()) / (1 - law[s, 0])
        assert abs(e[s] - table.probe_solo(s)) < 1e-12, s
    w, _ = duel.duel(duel.Laws(goal, [duel.OPTIMAL], [duel.OPTIMAL], optimal))
    for a in range(goal):
        for b in range(goal):
            assert abs(w[0, a, b] - table.probe_win(1, a, b)) < 1e-12, (a, b)
    with pytest.raises(ValueError, match="changes the dice"):
        moves = np.frombuffer(table.file.whole("solo_move").tobytes(), dtype=np.uint8).reshape(goal, -1).copy()
        moves[:, 1:] = np.where(moves[:, 1:] == 0, 0, np.where(moves[:, 1:] == 1, 2, 1))  # other dice mid-turn
        duel.once_laws(moves)


# -- the questions, the table's name and header, the refusals --------------------------------------------------

def test_names_headers_and_the_default_unchanged():
    family = registry.declaration("goat").tables[0]
    assert family.name(Rules()) == "goat-g100.msgpack" and family.name(Rules(20, "once")) == "goat-g20-once.msgpack"
    assert family.parse("goat-g20-once.msgpack") == Rules(20, "once") and family.parse("goat-g20.msgpack") == Rules(20)
    assert family.parse("goat-g20-each.msgpack") is None and family.parse("goat-g20-twice.msgpack") is None
    assert Rules().as_dict() == {"goal": 100, "dice": 6, "rolls": 3}  # the shipped header's rules, as before
    table = load(Rules(20, "once"))
    assert table.file.header["rules"] == {"goal": 20, "choose": "once", "dice": 6, "rolls": 3}
    assert table.path.endswith("goat-g20-once.msgpack") and table.file.shapes["one"] == (20, 20, 118)
    size = family.builder(Rules(20, "once")).estimate().size
    assert size <= table.file.size <= size * 1.01 + 8192
    assert family.rules_in(table.path) == Rules(20, "once")
    import shutthebox

    assert shutthebox.open("goat", goal=20, choose="once").probe_solo(0) == table.probe_solo(0)


def test_the_state_s_dice_are_asked_exactly_when_kept():
    once, each = load(Rules(10, "once")), load(Rules(10))
    assert once.probe_solo(0, 0, 0) == once.probe_solo(0) and once.get_solo(0, 5, 1) is None
    for call, words in [(lambda: once.probe_solo(0, 5, 1), "give DICE"), (lambda: once.probe_solo(0, 0, 0, 2), "no dice"),
                        (lambda: once.probe_solo(0, 5, 1, 3), "1 roll of 3 dice cannot make a turn total of 5 "
                                                              r"\(only 6 to 15\)"),
                        (lambda: once.probe_move(1, 0, 0, 12, 2, 7), "1 to 6"),
                        (lambda: once.probe_move(2, 0, 0, 4, 2, 2), "2 rolls of 2 dice cannot make"),
                        (lambda: each.probe_solo(0, 5, 1, 2), "only under --choose once")]:
        with pytest.raises(InvalidQuery, match=words):
            call()


@pytest.mark.parametrize("argv, words", [
    (["--choose", "once", "--solo", "--move", "0", "5", "1"], "give DICE, 1 to 6, after ROLLS"),
    (["--choose", "once", "--solo", "--move", "0"], "takes SCORE TURN ROLLS [DICE], but got 1 number"),
    (["--choose", "once", "--solo", "--expect", "0", "0", "0", "2"], "no dice are chosen yet"),
    (["--choose", "once", "--one", "--move", "0", "0", "5", "1", "3"], "cannot make a turn total of 5"),
    (["--choose", "once", "--solo", "--move", "0", "5", "1", "2", "2"], "takes SCORE TURN ROLLS [DICE], but got 5"),
    (["--solo", "--move", "0", "5", "1", "2"], "takes SCORE TURN ROLLS, but got 4 numbers"),
    (["--choose", "twice", "--solo", "--expect", "0"], "--choose must be one of each, once, not 'twice'"),
])
def test_bad_questions_are_one_line_and_status_2(argv, words):
    result = run("goat", "--goal", "5", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_a_batch_answers_as_single_questions():
    """The batch's fast path (whole arrays, canonical lines) and its reference path agree with the session's
    single answers, under --choose once, mid-turn states with their dice included."""
    from shutthebox.games.goat.grammar import open_game

    session = open_game({"--goal": "10", "--choose": "once"}, None)
    lines = ["--solo --expect 0", "--solo --move 3 0 0", "--solo --move 3 9 2 2", "--solo --expect 3 6 1 1",
             "--one --expect 2 5", "--one --move 2 5 15 1 5", "--two --move 4 8 21 1 6", "--two --expect 4 12 30 2 4",
             "--two --move 9 70 0 0", "--solo --move 3 9 2", "--solo --expect 03 6 1 1", "--duel optimal 2,23",
             "--solo --move 3 2 1 2"]

    def single(line):
        try:
            return session.answer(line.split())
        except InvalidQuery as error:
            return "error: %s" % error

    expected = [single(line) for line in lines]
    assert sum(text.startswith("error") for text in expected) == 2
    batch = run("goat", "--goal", "10", "--choose", "once", "--batch", stdin="".join(line + "\n" for line in lines))
    assert batch.stdout.splitlines() == expected and batch.returncode == 1
    mine = run("goat", "--table", load(Rules(10, "once")).path, "--solo", "--move", "3", "9", "2", "2")
    assert mine.stdout.strip() == expected[2]  # a table file's own rules: no --choose needed
    described = run("goat", "--goal", "10", "--choose", "once", "--rules")
    assert "chosen once a turn" in described.stdout and "goat-g10-once.msgpack" in described.stdout


@pytest.mark.slow
def test_turns_and_strategies_take_the_option():
    done = run("goat", "turns", "--goal", "20", "--choose", "once")
    assert done.returncode == 0 and "chosen once a turn" in done.stdout, done.stderr
    mean = load(Rules(20, "once")).probe_solo(0)
    assert "(the exact expected turns: %.6f)" % mean in done.stdout
    done = run("goat", "strategies", "--goal", "20", "--choose", "once", "--games", "0")
    assert done.returncode == 0 and "optimal" in done.stdout, done.stderr


def test_the_environments_refuse_once_in_one_line():
    pytest.importorskip("gymnasium")
    from shutthebox.games.goat.model import model
    from shutthebox.games.goat.rules import Rules

    with pytest.raises(InvalidQuery, match="the Goat environments play --choose each only"):
        model(Rules(7, "once"), players=1)
    with pytest.raises(InvalidQuery, match="--choose must be one of each, once"):
        model(Rules(7, ["once"]))
