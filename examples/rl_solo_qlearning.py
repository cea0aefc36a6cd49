#!/usr/bin/env python3
"""Tabular Q-learning (on afterstates) on single-player Shut the Box, with its learning curve drawn against the exact optimum.

    .venv/bin/pip install ".[rl]"      # from the checkout, into its virtual environment
    python examples/rl_solo_qlearning.py --episodes 60000 --every 2000 --out learning.svg

Every ``--every`` episodes the greedy policy of the Q-table is evaluated exactly (``shutthebox.rl.evaluate``:
its chance to shut the box, from the table of every position), and at the end the curve is written as an
SVG beside the optimal chance the shipped table gives (docs/RL.md).
"""

from __future__ import annotations

import argparse
import random

import gymnasium
import numpy as np

import shutthebox.rl  # noqa: F401 - registers the environments
from shutthebox.rl import evaluate

ENV = "shutthebox/ShutTheBoxSolo-v0"


def key(observation) -> tuple:
    """(open tiles as a bitmask, roll): the whole state."""
    return int(sum(int(bit) << i for i, bit in enumerate(observation[:-1]))), int(observation[-1])


class Agent:
    """Q-learning on afterstates: a move's value is ``V[position it leaves]`` (1 once shut), one table entry
    per position (512) instead of one per (position, roll, move); each step moves the value of the position
    left by the last move towards the best move's value after the next roll (0 when no move fits)."""

    def __init__(self, seed: int):
        self.v: dict = {}
        self.visits: dict = {}
        self.random = random.Random(seed)

    def value(self, position: int, move: int) -> float:
        after = position ^ move
        return 1.0 if not after else self.v.get(after, 0.0)

    def greedy(self, observation, mask) -> int:
        position = key(observation)[0]
        return max(np.flatnonzero(mask).tolist(), key=lambda move: (self.value(position, move), move))

    def act(self, observation, mask, epsilon: float) -> int:
        if self.random.random() < epsilon:
            return self.random.choice(np.flatnonzero(mask).tolist())
        return self.greedy(observation, mask)

    def learn(self, after: int, target: float) -> None:
        if not after:
            return
        count = self.visits[after] = self.visits.get(after, 0) + 1
        old = self.v.get(after, 0.0)
        self.v[after] = old + max(1.0 / count, 0.01) * (target - old)


def train(episodes: int, every: int, seed: int):
    env = gymnasium.make(ENV)
    agent = Agent(seed)
    curve = []
    observation, info = env.reset(seed=seed)
    for episode in range(1, episodes + 1):
        epsilon = max(0.02, 0.3 * (1 - episode / (0.5 * episodes)))
        done, left = False, None
        while not done:
            position = key(observation)[0]
            if left is not None:  # the best move now is what the last move's position was worth
                best = agent.greedy(observation, info["action_mask"])
                agent.learn(left, agent.value(position, best))
            action = agent.act(observation, info["action_mask"], epsilon)
            left = position ^ action
            observation, reward, done, _, info = env.step(action)
        agent.learn(left, reward if left else 0.0)  # no move fits the roll: nothing more to win
        observation, info = env.reset()
        if episode % every == 0:
            report = evaluate(agent.greedy, ENV, episodes=0)
            curve.append((episode, report.exact))
            print("episode %6d: greedy policy shuts %.4f%% (optimal %.4f%%)"
                  % (episode, 100 * report.exact, 100 * report.optimum), flush=True)
    return curve, evaluate(agent.greedy, ENV, episodes=2000, seed=seed + 1)


def svg(curve, optimum: float, width: int = 640, height: int = 360) -> str:
    """The learning curve (exact chance to shut of the greedy policy) and the optimum, as an SVG."""
    left, right, top, bottom = 70, 20, 30, 50
    last = curve[-1][0]
    high = max(optimum, max(value for _, value in curve)) * 1.1
    low = min(0.0, min(value for _, value in curve))

    def x(episode):
        return left + (width - left - right) * episode / last

    def y(value):
        return top + (height - top - bottom) * (1 - (value - low) / (high - low))

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="12">' % (width, height),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="18" font-size="14">Q-learning on solo Shut the Box: exact chance to shut</text>' % left]
    for step in range(6):
        value = low + (high - low) * step / 5
        parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, width - right, y(value),
                                                                                   y(value)))
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%.1f%%</text>' % (left - 6, y(value) + 4, 100 * value))
    for step in range(5):
        episode = last * step // 4
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x(episode), height - bottom + 18,
                                                                               episode))
    parts.append('<text x="%d" y="%d" text-anchor="middle">episodes</text>' % ((left + width - right) // 2,
                                                                               height - 12))
    parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#c33" stroke-dasharray="6,4"/>'
                 % (left, width - right, y(optimum), y(optimum)))
    parts.append('<text x="%d" y="%.1f" fill="#c33" text-anchor="end">optimal %.4f%%</text>'
                 % (width - right, y(optimum) - 6, 100 * optimum))
    points = " ".join("%.1f,%.1f" % (x(episode), y(value)) for episode, value in curve)
    parts.append('<polyline points="%s" fill="none" stroke="#36c" stroke-width="2"/>' % points)
    parts.append('<text x="%d" y="%d" fill="#36c">greedy policy (exact)</text>' % (left + 8, top + 16))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=60000)
    parser.add_argument("--every", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="learning.svg")
    args = parser.parse_args(argv)
    curve, final = train(args.episodes, args.every, args.seed)
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(svg(curve, final.optimum))
    print(final)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
