#!/usr/bin/env python3
"""Baselines against the exact optimum: what a random policy, a simple heuristic, tabular Q-learning and
MaskablePPO lose an episode of solo Shut the Box (``shut``) and of Pig-v0, exactly (docs/RL.md's table).

    pip install ".[rl]"            # ".[rl,sb3]" for the MaskablePPO rows (torch; they are skipped without it)
    python examples/rl_baselines.py                       # both games, every row; about 10 minutes here
    python examples/rl_baselines.py --game solo --quick   # smaller budgets, for a try

Every figure is the loss per episode against optimal play, in chance to shut or chance to win (Pig-v0: the
agent moves first against the table's optimal player, whose chance of 0.530593 optimal play wins):

- deterministic policies (the heuristics, the greedy policies of tabular Q and of MaskablePPO) are valued
  exactly by ``shutthebox.rl.evaluate`` (asked once in every state: solo Shut the Box's rational values,
  Pig-v0's duel with the table's player solved on the Pig solver's engine);
- the uniformly random policy exactly too, here: solo Shut the Box by recursion over the positions, Pig-v0
  by value iteration over every state with the opponent's turns folded in (its residual below 1e-12; the same
  code gives "hold at 20" the duel engine's value, checked below).

Seeds: tabular Q trains on the native vector environment (1,024 envs, ``reset(seed=SEED)``, exploration from
``numpy.random.default_rng(SEED)``); MaskablePPO on ``make_vec_env(id, n_envs=8, seed=SEED)`` with
``seed=SEED``, ``n_steps=256``, ``batch_size=256``, otherwise SB3's defaults, on the CPU with one torch thread.
SEED is ``--seed`` (default 0).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import shutthebox.rl  # noqa: F401 - registers the environments
from shutthebox.games.pig.rules import ADD, BUST
from shutthebox.games.pig.strategies import hold_at, keep_pace_end_race
from shutthebox.rl import evaluate

SOLO, PIG = "shutthebox/ShutTheBoxSolo-v0", "shutthebox/Pig-v0"


# -- solo Shut the Box ------------------------------------------------------------------------------------


def solo_state(observation) -> tuple:
    """(open tiles as a bitmask, roll) from the observation."""
    bits = observation[:-1]
    return int(sum(int(bit) << i for i, bit in enumerate(bits))), int(observation[-1])


def solo_random_exact(game) -> float:
    """The chance to shut of the uniformly random legal policy, exactly (by recursion over the positions)."""
    model = game.model
    rules = model.rules
    memo = {0: 1.0}

    def value(position: int) -> float:
        if position in memo:
            return memo[position]
        legal, total = model.legal(position), 0.0
        dice = model.choices[position][0]  # the named rule sets give no choice of dice
        for roll, weight in model.weights[dice].items():
            moves = legal.get(roll)
            if moves:
                total += weight * sum(value(position ^ move) for move in moves) / len(moves)
        memo[position] = found = total / rules.outcomes
        return found

    return value(rules.all_open)


def solo_highest_tile(observation, mask) -> int:
    """A heuristic: the move that closes the highest tile, then the fewest tiles."""
    return max(np.flatnonzero(mask).tolist(), key=lambda move: (move.bit_length(), -bin(move).count("1")))


# -- Pig-v0 -----------------------------------------------------------------------------------------------


def pig_exact(game, rolls) -> float:
    """The chance to win against the table's player of the policy that rolls with chance ``rolls[i, j, k]``
    (turn total 0: always), by value iteration over every state of the agent to move; the opponent's whole
    turns (``PigModel.turn``) folded in."""
    model = game.model
    goal = model.goal
    ends = np.zeros((goal, goal, goal))  # [opponent's banked j, agent's banked i, opponent's banked after]
    for other in range(goal):
        for mine in range(goal):
            _, after = model.turn(other, mine)
            for banked, chance in after.items():
                ends[other, mine, banked] = chance
    value = np.zeros((goal, goal, goal + 1))  # [i, j, k]; k = goal is never read
    mine_index, other_index = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")
    roll = np.asarray(rolls, dtype=float)
    for sweep in range(100_000):
        start = value[:, :, 0]  # the agent's chance at the start of its turn, (i, j)
        # after the agent's turn ends with i banked against j: the opponent's turn, then the agent's start
        later = np.einsum("jib,ib->ij", ends, start)  # later[i, j]
        previous = value.copy()
        for turn in range(goal - 1, -1, -1):
            alive = mine_index + turn < goal
            rolled = np.zeros((goal, goal))
            for count, kind, points in model.outcomes:
                if kind == ADD:
                    reach = mine_index + turn + points >= goal
                    ahead = value[:, :, min(turn + points, goal)]
                    here = np.where(reach, 1.0, ahead)
                elif kind == BUST:
                    here = later
                else:
                    here = np.broadcast_to(later[0], (goal, goal))
                rolled += count * here
            rolled /= model.denominator
            if turn:
                banked = np.minimum(mine_index + turn, goal - 1)
                held = later[banked, other_index]
                chance = roll[:, :, turn]
                level = chance * rolled + (1.0 - chance) * held
            else:
                level = rolled
            value[:, :, turn] = np.where(alive, level, 0.0)
        if np.abs(value - previous).max() < 1e-13:
            break
    return float(value[0, 0, 0])


def pig_hold_at_20(observation, mask) -> int:
    mine, other, turn = (int(x) for x in observation)
    return int(turn == 0 or hold_at(20)(mine, other, turn, 100))


def pig_keep_pace(observation, mask) -> int:
    mine, other, turn = (int(x) for x in observation)
    return int(turn == 0 or keep_pace_end_race(mine, other, turn, 100))


# -- tabular Q-learning on the native vector environment ----------------------------------------------------


def q_learning(env_id: str, steps: int, seed: int, envs: int = 1024, epsilon: float = 0.1):
    """Q-learning over (state number, action): every row of the vector environment, a step size of
    max(1 / visits, 0.01), epsilon-greedy exploration; returns the table."""
    vector = gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode="vector_entry_point", exact_info=False)
    game = vector.unwrapped
    n_actions = game.single_action_space.n
    rng = np.random.default_rng(seed)
    size = game.tables.over + 1
    q = np.zeros((size, n_actions))
    visits = np.zeros((size, n_actions))
    _, info = vector.reset(seed=seed)
    state = game.state_numbers()
    restarting = np.zeros(envs, dtype=bool)
    for _ in range(steps // envs):
        mask = info["action_mask"].astype(bool)
        greedy = np.where(mask, q[state], -np.inf).argmax(axis=1)
        explore = (rng.random(mask.shape) * mask).argmax(axis=1)
        action = np.where(rng.random(envs) < epsilon, explore, greedy)
        _, reward, terminated, truncated, info = vector.step(action)
        after = game.state_numbers()
        learn = ~restarting  # a row reset on this step played no action
        mask_after = info["action_mask"].astype(bool)
        best_after = np.where(mask_after, q[after], -np.inf).max(axis=1)
        target = reward + np.where(terminated, 0.0, best_after)
        rows, actions = state[learn], action[learn]
        np.add.at(visits, (rows, actions), 1.0)
        step = np.maximum(1.0 / visits[rows, actions], 0.01)
        np.add.at(q, (rows, actions), step * (target[learn] - q[rows, actions]))
        restarting = terminated | truncated
        state = after
    vector.close()
    return q


def greedy_of(q, encode, n_actions):
    def policy(observation, mask):
        row = q[encode(observation)]
        return int(np.flatnonzero(mask)[np.argmax(row[mask == 1])])

    policy.n_actions = n_actions
    return policy


# -- MaskablePPO -------------------------------------------------------------------------------------------


def maskable_ppo(env_id: str, steps: int, seed: int):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)  # a small MLP: more threads only contend (tenfold slower on a busy 2-core machine)
    model = MaskablePPO("MlpPolicy", make_vec_env(env_id, n_envs=8, seed=seed), seed=seed, device="cpu",
                        n_steps=256, batch_size=256, verbose=0)
    model.learn(total_timesteps=steps)
    return model


def lookup_of(model, game):
    """MaskablePPO's deterministic choice in every state of Pig-v0, asked in batches, as a policy."""
    goal = game.goal
    states = np.array([(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)])
    masks = np.stack([states[:, 2] > 0, np.ones(len(states), dtype=bool)], axis=1).astype(np.int8)
    actions = np.concatenate([model.predict(states[at:at + 65536], action_masks=masks[at:at + 65536],
                                            deterministic=True)[0] for at in range(0, len(states), 65536)])
    table = np.ones((goal, goal, goal), dtype=np.int64)
    table[states[:, 0], states[:, 1], states[:, 2]] = actions

    def policy(observation, mask):
        return int(table[int(observation[0]), int(observation[1]), int(observation[2])])

    return policy


# -- the table ---------------------------------------------------------------------------------------------


def run(games, quick: bool, seed: int) -> list:
    rows = []
    budgets = {"solo_q": 200_000 if quick else 2_000_000, "pig_q": 2_000_000 if quick else 20_000_000,
               "solo_ppo": 20_000 if quick else 100_000, "pig_ppo": 20_000 if quick else 100_000}

    def add(game, name, budget, loss, how, seconds):
        rows.append((game, name, budget, loss, how, seconds))
        print("%-6s %-40s %-34s %.6f  %s  (%.0f s)" % (game, name, budget, loss, how, seconds), flush=True)

    try:
        import sb3_contrib  # noqa: F401
        have_sb3 = True
    except ImportError:
        have_sb3 = False
        print("sb3-contrib is not installed: no MaskablePPO rows (pip install '.[rl,sb3]')")
    if "solo" in games:
        game = gymnasium.make(SOLO).unwrapped
        optimum = game.model.values[game.model.rules.all_open]
        started = time.perf_counter()
        add("solo", "random legal", "-", optimum - solo_random_exact(game), "exact", time.perf_counter() - started)
        started = time.perf_counter()
        report = evaluate(solo_highest_tile, SOLO, episodes=0)
        add("solo", "close the highest tile", "-", report.loss, "exact", time.perf_counter() - started)
        started = time.perf_counter()
        q = q_learning(SOLO, budgets["solo_q"], seed)
        width = game.model.width

        def encode(observation):
            position, roll = solo_state(observation)
            return position * width + roll

        report = evaluate(greedy_of(q, encode, game.action_space.n), SOLO, episodes=0)
        add("solo", "tabular Q (greedy)", "%d env-steps, seed %d" % (budgets["solo_q"], seed), report.loss, "exact",
            time.perf_counter() - started)
        if have_sb3:
            started = time.perf_counter()
            model = maskable_ppo(SOLO, budgets["solo_ppo"], seed)
            report = evaluate(model, SOLO, episodes=0)
            add("solo", "MaskablePPO (deterministic)", "%d env-steps, seed %d" % (budgets["solo_ppo"], seed),
                report.loss, "exact", time.perf_counter() - started)
    if "pig" in games:
        game = gymnasium.make(PIG).unwrapped
        optimum = game.model.win[0]
        goal = game.goal
        started = time.perf_counter()
        add("pig", "random legal", "-", optimum - pig_exact(game, np.full((goal, goal, goal), 0.5)), "exact",
            time.perf_counter() - started)
        for name, policy, strategy in (("hold at 20", pig_hold_at_20, hold_at(20)),
                                       ("keep pace, end race", pig_keep_pace, keep_pace_end_race)):
            started = time.perf_counter()
            report = evaluate(policy, PIG, episodes=0)
            if name == "hold at 20":  # the value iteration above against the duel engine
                i, j, k = np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal), indexing="ij")
                check = pig_exact(game, np.asarray(strategy(i, j, k, goal), dtype=float))
                assert abs(check - report.exact) < 1e-10, (check, report.exact)
            add("pig", name, "-", report.loss, "exact", time.perf_counter() - started)
        started = time.perf_counter()
        q = q_learning(PIG, budgets["pig_q"], seed)

        def encode(observation):
            mine, other, turn = (int(x) for x in observation)
            return (mine * (goal + 1) + other) * goal + turn

        report = evaluate(greedy_of(q, encode, 2), PIG, episodes=0)
        add("pig", "tabular Q (greedy)", "%d env-steps, seed %d" % (budgets["pig_q"], seed), report.loss, "exact",
            time.perf_counter() - started)
        if have_sb3:
            started = time.perf_counter()
            model = maskable_ppo(PIG, budgets["pig_ppo"], seed)
            report = evaluate(lookup_of(model, game), PIG, episodes=0)
            add("pig", "MaskablePPO (deterministic)", "%d env-steps, seed %d" % (budgets["pig_ppo"], seed),
                report.loss, "exact", time.perf_counter() - started)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["solo", "pig", "all"], default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="budgets a tenth as large")
    args = parser.parse_args(argv)
    games = ("solo", "pig") if args.game == "all" else (args.game,)
    rows = run(games, args.quick, args.seed)
    print()
    print("| game | policy | training | loss per episode |")
    print("| --- | --- | --- | ---: |")
    for game, name, budget, loss, how, _ in rows:
        print("| %s | %s | %s | %.6f |" % ("solo `shut`" if game == "solo" else "Pig-v0", name, budget, loss))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
