"""``evaluate`` scores a policy trained with ``illegal="replace"`` as the environment plays it: an illegal
answer is replaced by a legal action drawn uniformly. Its exact value is checked against an independent
exact solve (toggle, Fractions) and against long simulations of the environment itself."""

import math
from fractions import Fraction

import gymnasium
import numpy as np
import pytest

from shutthebox import rl
from test_toggle import choices, gauss_jordan

pytestmark = pytest.mark.usefixtures("fresh_cache")


def toggle_policy(cards):
    """Turn the highest face-up card the dice allow; with none, propose the highest card, illegal unless the
    dice allow it."""
    def policy(observation, mask):
        up = [card for card in range(cards) if mask[card] and observation[card]]
        return up[-1] if up else cards - 1
    return policy


def toggle_rolls(cards, sides, policy):
    """The expected rolls from all face up, as a Fraction: V = 1 + P V over the states, each illegal answer
    spread evenly over the cards the dice allow, by Gauss-Jordan elimination."""
    size = 1 << cards
    dice = [(x, y) for x in range(1, sides + 1) for y in range(1, sides + 1)]
    n = size - 1
    matrix = [[Fraction(0)] * n + [Fraction(1)] for _ in range(n)]
    for state in range(1, size):
        row = matrix[state - 1]
        row[state - 1] += 1
        for x, y in dice:
            allowed = choices(cards, x, y)
            mask = np.array([card + 1 in allowed for card in range(cards)], dtype=np.int8)
            answer = policy(np.array([state >> i & 1 for i in range(cards)] + [x, y]), mask)
            played = [answer + 1] if answer + 1 in allowed else allowed
            for card in played:
                target = state ^ (1 << (card - 1))
                if target:
                    row[target - 1] -= Fraction(1, len(dice) * len(played))
            if not played:  # a pass: the same state again
                row[state - 1] -= Fraction(1, len(dice))
    return gauss_jordan(matrix)[n - 1]


def simulated(env_id, policy, episodes, seed, sign, **options):
    """The environment's own play of ``policy`` under ``illegal="replace"``: the mean value, its standard
    error, and how many illegal answers it replaced."""
    env = gymnasium.make(env_id, illegal="replace", max_episode_steps=100_000, **options)
    totals, replaced = [], 0
    for episode in range(episodes):
        observation, info = env.reset(seed=seed if episode == 0 else None)
        total, done = 0.0, False
        while not done:
            observation, reward, terminated, truncated, info = env.step(policy(observation, info["action_mask"]))
            total += reward
            replaced += info["illegal"]
            assert not truncated
            done = terminated
        totals.append(sign * total)
    mean = sum(totals) / episodes
    deviation = math.sqrt(sum((t - mean) ** 2 for t in totals) / (episodes - 1))
    return mean, deviation / math.sqrt(episodes), replaced


def test_a_toggle_policy_with_illegal_answers_is_scored_as_replace_plays_it():
    cards, sides = 5, 3
    policy = toggle_policy(cards)
    exact = toggle_rolls(cards, sides, policy)
    report = rl.evaluate(policy, "shutthebox/Toggle-v0", episodes=2000, seed=4, illegal="replace", cards=cards,
                         sides=sides)
    # a return, minus the rolls: more is better
    assert report.exact is not None and abs(report.exact + float(exact)) < 1e-9, (report.exact, float(exact))
    assert report.loss_exact and abs(report.loss - (float(exact) + report.optimum)) < 1e-9
    assert report.illegal > 0 and report.truncated == 0
    # the episodes are the environment's own play: their mean within 4 standard errors of the exact value
    mean, error, replaced = simulated("shutthebox/Toggle-v0", policy, 4000, 9, -1.0, cards=cards, sides=sides)
    assert replaced > 0 and abs(mean - float(exact)) < 4 * error, (mean, error, float(exact))


def solo_shut(policy, tiles, env):
    """Shut the Box solo, the rules of ``tiles`` tiles and one die optional at every position: the chance to
    shut by brute force, as a Fraction. A move closes open tiles summing to the roll; an illegal answer is
    spread evenly over the legal actions. The throws' action numbers are the environment's."""
    model = env.unwrapped.model
    throws = {count: model.throw_action(count) for count in (1, 2)}
    faces = range(1, 7)
    law = {1: {face: Fraction(1, 6) for face in faces}, 2: {}}
    for x in faces:
        for y in faces:
            law[2][x + y] = law[2].get(x + y, 0) + Fraction(1, 36)
    known = {0: Fraction(1)}

    def answer(position, roll, legal):
        mask = np.zeros(model.n_actions, dtype=np.int8)
        mask[legal] = 1
        action = policy(np.array([position >> i & 1 for i in range(tiles)] + [roll]), mask)
        return [action] if action in legal else legal

    def shut(position):
        if position not in known:
            chosen = answer(position, 0, sorted(throws.values()))
            total = Fraction(0)
            for count in (1, 2):
                if throws[count] not in chosen:
                    continue
                for roll, chance in law[count].items():
                    moves = [move for move in range(1, 1 << tiles) if move & position == move
                             and sum(i + 1 for i in range(tiles) if move >> i & 1) == roll]
                    if moves:
                        played = answer(position, roll, moves)
                        total += chance * sum(shut(position ^ move) for move in played) / len(played) / len(chosen)
            known[position] = total
        return known[position]

    return shut((1 << tiles) - 1)


def test_a_solo_policy_with_illegal_answers_is_scored_as_replace_plays_it():
    """Shut the Box, 6 tiles, one die optional: illegal answers both to the choice of dice and to the move."""
    def policy(observation, mask):
        legal = np.flatnonzero(mask)
        return 1 if int(observation[:-1].sum()) % 3 == 0 else int(legal[-1])  # 1: shut tile 1, often illegal

    options = {"tiles": 6, "one_die": "optional:high"}
    report = rl.evaluate(policy, "shutthebox/ShutTheBoxSolo-v0", episodes=0, illegal="replace", **options)
    exact = solo_shut(policy, 6, gymnasium.make("shutthebox/ShutTheBoxSolo-v0", **options))
    assert report.loss_exact and report.exact_fraction == exact, (report.exact_fraction, exact)


def test_a_pig_policy_whose_replacement_mixes_hold_and_roll_is_scored_by_its_episodes():
    """Where both hold and roll are legal, an answer outside the actions is replaced by either: the exact duel
    (one action a state) cannot weigh that; the loss is then the episodes', and the note says why."""
    def policy(observation, mask):
        return 2 if observation[2] > 15 else 1  # 2: no action at all

    report = rl.evaluate(policy, "shutthebox/Pig-v0", episodes=200, seed=1, goal=20, illegal="replace")
    assert report.exact is None and not report.loss_exact and report.loss is not None
    assert "holds or rolls in its place" in report.note and report.illegal > 0
    # Holding always: at a turn total of 0 the hold is replaced by a roll, the one legal action there, so it
    # is the legal policy "hold after one roll".
    holding = rl.evaluate(lambda observation, mask: 0, "shutthebox/Pig-v0", episodes=0, goal=20, illegal="replace")
    once = rl.evaluate(lambda observation, mask: int(observation[2] == 0), "shutthebox/Pig-v0", episodes=0, goal=20)
    assert holding.exact is not None and holding.exact == once.exact


def test_illegal_end_is_still_refused():
    with pytest.raises(ValueError, match="not illegal='end'"):
        rl.evaluate(lambda observation, mask: 0, "shutthebox/Toggle-v0", episodes=1, illegal="end", cards=4, sides=2)
