#!/usr/bin/env python3
"""The RL benchmark protocol: learning curves scored by the exact loss against optimal play (docs/RL.md).

    pip install ".[rl,sb3]"                                                   # torch, SB3, sb3-contrib, matplotlib
    python examples/benchmark.py --profile quick --jobs 2 --out bench/rl-benchmark.csv   # the reference run
    python examples/plot_benchmark.py bench/rl-benchmark.csv --out docs        # docs/rl-curves-GAME.png

For each game, algorithm and seed of the profile, an agent trains for the game's budget of env steps and its
deterministic policy is scored at steps 0, 10%, ..., 100% of it by ``shutthebox.rl.evaluate``: the loss per
episode, optimal play's exact value minus the policy's. It is exact for solo Shut the Box and Pig (the policy
asked in every state); Yahtzee's state space is too large, so there it is the exact regrets summed along each
of the profile's seeded episodes, averaged (the same episodes at every point; ``loss_half_width`` its 95%
half-width). Each row of the CSV: game, algorithm, seed, steps, loss, and how it was found.

The figure reported is the mean over seeds with a 95% Student t-interval (``interval``). Games (``GAMES``):
``shutthebox/ShutTheBoxSolo-v0`` (chance to shut), ``shutthebox/Pig-v0`` to 50 (chance to win, moving first
against the table's player; to 100 the exact pass takes 12 to 27 s a point here), ``shutthebox/Yahtzee-v0``
(points). Algorithms: tabular Q-learning (below: a table over the state numbers, which solo's 6,656 and
Pig's 130,050 fit and Yahtzee's do not), SB3's DQN and PPO (no masks: trained and scored with
``illegal="replace"``, an illegal action replaced by a legal one drawn uniformly) and sb3-contrib's MaskablePPO.
Every learner has 8 envs, undiscounted returns (gamma 1: the games are scored undiscounted), SB3's default
networks (64 x 64), one torch thread.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

ENVS = 8  # envs of every learner: the evaluation points (multiples of it) fall on exact step counts
EVAL_SEED = 1000  # the seed of Yahtzee's evaluation episodes, the same at every point
ALGORITHMS = ("tabular-q", "dqn", "ppo", "maskable-ppo")
FIELDS = ("game", "algorithm", "seed", "steps", "loss", "loss_exact", "loss_half_width", "optimum", "value")
# Student's t, 97.5% quantile, by degrees of freedom (seeds - 1); from 10 on, ``t975``'s expansion
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
Z975 = 1.959964


@dataclass(frozen=True)
class Game:
    env_id: str
    options: dict = field(default_factory=dict)
    tabular: bool = True  # whether tabular Q-learning fits its states


GAMES = {"solo": Game("shutthebox/ShutTheBoxSolo-v0"),
         "pig": Game("shutthebox/Pig-v0", {"goal": 50}),
         "yahtzee": Game("shutthebox/Yahtzee-v0", tabular=False)}


@dataclass(frozen=True)
class Profile:
    seeds: tuple
    budgets: dict  # game -> env steps
    points: int = 10  # evaluations after training starts, evenly spaced (and one at step 0)
    episodes: int = 1000  # Yahtzee's evaluation episodes
    n_steps: int = 256  # PPO's rollout per env (8 envs: 2,048 steps an update)


PROFILES = {
    "full": Profile(seeds=(0, 1, 2, 3, 4), budgets={"solo": 1_000_000, "pig": 1_000_000, "yahtzee": 2_000_000}),
    "quick": Profile(seeds=(0, 1, 2), budgets={"solo": 30_000, "pig": 30_000, "yahtzee": 30_000}, episodes=100),
    "tiny": Profile(seeds=(0,), budgets={"solo": 400, "pig": 400, "yahtzee": 400}, points=2, episodes=20,
                    n_steps=16),  # tests/test_rl_benchmark.py
}


def t975(df: int) -> float:
    """Student's t 97.5% quantile: the table, else the Cornish-Fisher expansion about the normal's (within
    0.001 from 10 degrees of freedom)."""
    if df in T975:
        return T975[df]
    z = Z975
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def interval(values) -> tuple:
    """Mean and the 95% Student t half-width over seeds (inf for one seed)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t975(n - 1) * sd / math.sqrt(n)


# -- policies as evaluate asks them ---------------------------------------------------------------------


def observation_grid(key: str, env):
    """Every observation the exact pass asks (solo Shut the Box, Pig) and its mask, so a network is asked
    once, in batches, not state by state: (observations, masks), or None (Yahtzee: episodes)."""
    if key == "solo":
        model, tiles = env.model, env.model.rules.tiles
        rows, masks = [], []
        for position in range(1, 1 << tiles):
            bits = [position >> i & 1 for i in range(tiles)]
            legal = model.legal(position)
            for roll in sorted({roll for count in model.choices[position] for roll in model.weights[count]}):
                moves = legal.get(roll)
                if moves:
                    mask = np.zeros(env.action_space.n, dtype=np.int8)
                    mask[moves] = 1
                    rows.append(bits + [roll])
                    masks.append(mask)
        return np.array(rows, dtype=np.int64), np.array(masks)
    if key == "pig":
        goal = env.goal
        rows = np.array([(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)])
        return rows, np.stack([rows[:, 2] > 0, np.ones(len(rows), dtype=bool)], axis=1).astype(np.int8)
    return None


def predict(model, masked: bool, observations, masks):
    if masked:
        return model.predict(observations, action_masks=masks, deterministic=True)[0]
    return model.predict(observations, deterministic=True)[0]


def frozen(model, masked: bool, grid):
    """The model's deterministic policy now, asked once over ``grid`` (every state the exact pass asks) and
    then looked up: the same policy, fixed while the model trains on."""
    if grid is None:
        return model
    observations, masks = grid
    actions = np.concatenate([predict(model, masked, observations[at:at + 65536], masks[at:at + 65536])
                              for at in range(0, len(observations), 65536)])
    table = dict(zip(map(tuple, observations.tolist()), actions.tolist()))

    def policy(observation, mask):
        return table[tuple(int(x) for x in observation)]

    return policy


# -- tabular Q-learning ---------------------------------------------------------------------------------


def state_number(key: str, env, observation) -> int:
    """The one-player environment's number of the state an observation shows (its ``encode``)."""
    if key == "solo":
        position = sum(int(bit) << i for i, bit in enumerate(observation[:-1]))
        return env.encode((position, int(observation[-1])))
    return env.encode(observation)


class TabularQ:
    """Q-learning over (state number, action), epsilon-greedy (0.1) among the legal actions, a step size of
    max(1 / visits, 0.01), undiscounted, on the native vector environment (``sb3_vec_env``: a game that ends
    starts again in the same step, so every step plays an action)."""

    def __init__(self, key: str, game: Game, seed: int):
        import gymnasium

        import shutthebox.rl as rl

        self.key = key
        self.envs = rl.sb3_vec_env(game.env_id, ENVS, exact_info=False, **game.options)
        self.envs.seed(seed)
        self.single = gymnasium.make(game.env_id, **game.options).unwrapped  # numbers an observation's state
        self.q = np.zeros((self.envs.env.tables.over + 1, self.envs.action_space.n))  # a finished game: over
        self.visits = np.zeros_like(self.q)
        self.rng = np.random.default_rng(seed)
        self.envs.reset()
        self.num_timesteps = 0

    def greedy(self, numbers, masks):
        return np.where(masks, self.q[numbers], -np.inf).argmax(axis=1)

    def learn(self, steps: int) -> None:
        envs, native = self.envs, self.envs.env
        for _ in range(steps // ENVS):
            numbers, masks = native.state_numbers(), envs.action_masks().astype(bool)
            explore = (self.rng.random(masks.shape) * masks).argmax(axis=1)  # a legal action, uniformly
            action = np.where(self.rng.random(ENVS) < 0.1, explore, self.greedy(numbers, masks))
            _, reward, done, infos = envs.step(action)
            after, masks_after = native.state_numbers(), envs.action_masks().astype(bool)
            best = np.where(masks_after, self.q[after], -np.inf).max(axis=1)
            cut = np.array([info.get("TimeLimit.truncated", False) for info in infos])
            target = reward + np.where(done, 0.0, best)
            learn = ~cut  # a game cut by the time limit has no target
            rows, actions = numbers[learn], action[learn]
            np.add.at(self.visits, (rows, actions), 1.0)  # rows in the same state count twice
            step = np.maximum(1.0 / self.visits[rows, actions], 0.01)
            np.add.at(self.q, (rows, actions), step * (target[learn] - self.q[rows, actions]))
            self.num_timesteps += ENVS

    def policy(self):
        q, key, single = self.q.copy(), self.key, self.single

        def choose(observation, mask):
            row = q[state_number(key, single, observation)]
            return int(np.flatnonzero(mask)[np.argmax(row[mask == 1])])

        return choose


# -- the runs -------------------------------------------------------------------------------------------


def sb3_model(algorithm: str, game: Game, seed: int, profile: Profile):
    import shutthebox.rl as rl
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import DQN, PPO
    from stable_baselines3.common.env_util import make_vec_env

    illegal = "noop" if algorithm == "maskable-ppo" else "replace"
    options = dict(game.options, exact_info=False, illegal=illegal)
    if game.env_id in _native_ids():
        envs = rl.sb3_vec_env(game.env_id, ENVS, **options)
    else:  # no native vector environment (Yahtzee): SB3's DummyVecEnv
        envs = make_vec_env(game.env_id, n_envs=ENVS, seed=seed, env_kwargs=options)
    common = dict(seed=seed, device="cpu", gamma=1.0, verbose=0)
    if algorithm == "dqn":  # one gradient step a vector step (8 env steps)
        return DQN("MlpPolicy", envs, buffer_size=100_000, train_freq=1, **common), illegal
    kind = MaskablePPO if algorithm == "maskable-ppo" else PPO
    batch = min(256, profile.n_steps * ENVS)
    return kind("MlpPolicy", envs, n_steps=profile.n_steps, batch_size=batch, **common), illegal


def _native_ids() -> set:
    import shutthebox.rl as rl

    return {"%s/%s" % (rl.NAMESPACE, name) for name in rl.VECTOR}


def points_of(budget: int, profile: Profile) -> list:
    points = [budget * k // profile.points for k in range(profile.points + 1)]
    if any(point % ENVS or budget * k % profile.points for k, point in enumerate(points)):
        raise ValueError("each evaluation point must be a whole multiple of %d env steps, not %s" % (ENVS, points))
    return points


def score(key: str, game: Game, policy, illegal: str, profile: Profile):
    from shutthebox.rl import evaluate

    if key == "yahtzee":
        return evaluate(policy, game.env_id, episodes=profile.episodes, seed=EVAL_SEED, illegal=illegal,
                        **game.options)
    return evaluate(policy, game.env_id, episodes=0, illegal=illegal, **game.options)


def run_one(key: str, algorithm: str, seed: int, profile: Profile, record) -> None:
    """Train one agent, calling ``record(steps, policy, illegal)`` at each evaluation point."""
    import torch

    torch.set_num_threads(1)  # small networks: more threads only contend on a shared machine
    torch.manual_seed(seed)
    game = GAMES[key]
    points = points_of(profile.budgets[key], profile)
    if algorithm == "tabular-q":
        agent = TabularQ(key, game, seed)
        record(0, agent.policy(), "noop")
        for before, point in zip(points, points[1:]):
            agent.learn(point - before)
            record(agent.num_timesteps, agent.policy(), "noop")
        return
    import gymnasium
    from stable_baselines3.common.callbacks import BaseCallback

    model, illegal = sb3_model(algorithm, game, seed, profile)
    grid = observation_grid(key, gymnasium.make(game.env_id, **game.options).unwrapped)
    masked = algorithm == "maskable-ppo"

    class Points(BaseCallback):
        def _on_step(self) -> bool:
            while points and self.num_timesteps >= points[0]:
                assert self.num_timesteps == points.pop(0)
                record(self.num_timesteps, frozen(self.model, masked, grid), illegal)
            return bool(points)  # False after the last point: training stops there

    record(points.pop(0), frozen(model, masked, grid), illegal)
    model.learn(total_timesteps=profile.budgets[key], callback=Points())


def units(profile: Profile, games, algorithms) -> list:
    """The protocol's runs, in the CSV's order: (game, algorithm, seed), tabular Q only where it fits."""
    return [(key, algorithm, seed) for key in games for algorithm in algorithms for seed in profile.seeds
            if algorithm != "tabular-q" or GAMES[key].tabular]


def unit_rows(key: str, algorithm: str, seed: int, profile: Profile, on_point=None, log=sys.stderr) -> list:
    """One run's rows, a row an evaluation point; ``on_point(row, policy)`` sees each scored policy."""
    rows, started = [], time.perf_counter()

    def record(steps, policy, illegal):
        report = score(key, GAMES[key], policy, illegal, profile)
        if report.loss is None:
            raise RuntimeError("%s %s seed %d: no value at step %d: %s" % (key, algorithm, seed, steps, report))
        row = dict(game=key, algorithm=algorithm, seed=seed, steps=steps, loss=repr(report.loss),
                   loss_exact=int(report.loss_exact), loss_half_width=repr(report.loss_half_width),
                   optimum=repr(report.optimum), value="" if report.exact is None else repr(report.exact))
        rows.append(row)
        if on_point is not None:
            on_point(row, policy)
        print("%-8s %-13s seed %d  %9d steps  loss %.6f  (%.0f s)" % (
            key, algorithm, seed, steps, report.loss, time.perf_counter() - started), file=log, flush=True)

    run_one(key, algorithm, seed, profile, record)
    return rows


def _unit_rows(unit) -> list:  # a worker's job (pickled by name)
    return unit_rows(*unit)


def run(profile: Profile, games, algorithms, out, on_point=None, log=sys.stderr, jobs: int = 1) -> list:
    """The protocol: every run's rows written to ``out`` in ``units``' order; returns them. ``jobs`` > 1 runs
    that many at once, each in its own process (``on_point`` only with one job)."""
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    todo = units(profile, games, algorithms)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(jobs)
        results = pool.map(_unit_rows, [(*unit, profile) for unit in todo])
    else:
        results = (unit_rows(*unit, profile, on_point, log) for unit in todo)
    rows = []
    for found in results:
        writer.writerows(found)
        out.flush()
        rows += found
    if jobs > 1:
        pool.shutdown()
    return rows


def final_table(rows) -> str:
    """The figure at each game's final budget: mean loss and its 95% t-interval over seeds."""
    last = {}
    for row in rows:
        group = (row["game"], row["algorithm"])
        last.setdefault(group, {})[int(row["seed"])] = row  # rows come in step order
    lines = ["| game | algorithm | env steps | seeds | loss per episode (mean +- 95% t) |",
             "| --- | --- | ---: | ---: | ---: |"]
    for (game, algorithm), by_seed in last.items():
        mean, half = interval([float(row["loss"]) for row in by_seed.values()])
        steps = next(iter(by_seed.values()))["steps"]
        lines.append("| %s | %s | %s | %d | %.6g +- %.2g |" % (game, algorithm, steps, len(by_seed), mean, half))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated, of: " + ", ".join(GAMES))
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS), help="of: " + ", ".join(ALGORITHMS))
    parser.add_argument("--out", default="rl-benchmark.csv", help="the CSV written")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once, a process each (default 1)")
    args = parser.parse_args(argv)
    games, algorithms = args.games.split(","), args.algorithms.split(",")
    unknown = sorted(set(games) - set(GAMES)) + sorted(set(algorithms) - set(ALGORITHMS))
    if unknown:
        parser.error("unknown game or algorithm: %s" % ", ".join(unknown))
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more, not %d" % args.jobs)
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
    except ImportError:
        print("benchmark.py: needs Stable-Baselines3 and sb3-contrib: pip install '.[rl,sb3]'", file=sys.stderr)
        return 4
    started = time.perf_counter()
    with open(args.out, "w", newline="") as out:
        rows = run(PROFILES[args.profile], games, algorithms, out, jobs=args.jobs)
    print(final_table(rows))
    print("wall time %.0f s" % (time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
