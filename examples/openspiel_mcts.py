"""OpenSpiel's MCTS against the exact optimum: what it loses a game of solo Shut the Box or of Pig.

    pip install ".[rl,openspiel]"
    python examples/openspiel_mcts.py --game solo --games 300 --simulations 200 --seed 1
    python examples/openspiel_mcts.py --game pig --goal 30 --games 300 --simulations 100 --seed 1

MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``, UCT c = 2, one random rollout per leaf, MCTS-Solver
on) plays on the games ``shutthebox.rl.openspiel`` registers: solo Shut the Box (objective ``shut``), or
Pig as player_0 against the table's optimal player (the table's ``pig --move`` at every decision of
player_1). Each of MCTS's decisions is scored exactly from the tables: its regret (the best action's value
less the chosen one's; 0 for an optimal action). The loss per game is the regrets summed along a game,
averaged over the games (an unbiased estimate of what MCTS's play loses against optimal play, with far less
noise than the results), with its 95% half-width; in chance to shut, or in chance to win.

The chance outcomes are drawn from ``numpy.random.RandomState(seed)``, MCTS's own draws from
``RandomState(seed + 1)``: a run is reproducible.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import shutthebox.rl.openspiel as shutthebox_openspiel


def mean_and_half_width(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.959963984540054 * math.sqrt(variance / n)


def regret_of(adapter, s, action) -> float:
    """What ``action`` at state ``s`` costs against the best, in the game's unit (chance to shut or to win)."""
    model = adapter.model
    if isinstance(adapter, shutthebox_openspiel.ModelAdapter):  # Pig: its game model's values
        values = model.values(s)
        best = max(values.values())
        if action == model.best(s) or best - values[action] <= model.tie:
            return 0.0
        return best - values[action]
    position, roll, _ = s
    decision = model.decision((position, roll))
    if action in decision.optimal:
        return 0.0
    return abs(decision.best - decision.values[action])


def play(game_name: str, games: int, simulations: int, seed: int, uct_c: float = 2.0):
    game = pyspiel.load_game(game_name)
    adapter = game.new_initial_state()._adapter
    chance = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c=uct_c, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1)),
                       random_state=np.random.RandomState(seed + 1), solve=True)
    pig = getattr(adapter, "game", None) == "pig"
    losses, results, decisions = [], [], 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        loss = 0.0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                index = chance.choice(len(outcomes), p=[p for _, p in outcomes])
                state.apply_action(outcomes[index][0])
                continue
            s = state._s
            if pig and state.current_player() == 1:  # the table's player
                state.apply_action(int(adapter.model.best(s)))
                continue
            action = bot.step(state)
            loss += regret_of(adapter, s, action)
            decisions += 1
            state.apply_action(action)
        losses.append(loss)
        results.append(1.0 if state.returns()[0] > 0 else 0.0)
    seconds = time.perf_counter() - started
    optimum = shutthebox_openspiel.exact_value(game.new_initial_state())[0]
    if pig:
        optimum = (optimum + 1.0) / 2.0  # the first player's chance to win
    return {"game": str(game), "games": games, "simulations": simulations, "seed": seed, "optimum": optimum,
            "loss": mean_and_half_width(losses), "result": mean_and_half_width(results), "decisions": decisions,
            "seconds": seconds}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["solo", "pig"], default="solo")
    parser.add_argument("--goal", type=int, default=30, help="Pig's goal (default 30: MCTS's random rollouts "
                                                             "make Pig to 100 slow in Python)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    name = "python_shutthebox_solo" if args.game == "solo" else "python_shutthebox_pig(goal=%d)" % args.goal
    found = play(name, args.games, args.simulations, args.seed)
    unit = "chance to shut" if args.game == "solo" else "chance to win, moving first against the table"
    print("%s: MCTS, %d simulations a move, %d games, seed %d (%.0f s)" % (
        found["game"], found["simulations"], found["games"], found["seed"], found["seconds"]))
    print("  loss per game:  %.4f +- %.4f (%s; the regrets summed along each game)" % (*found["loss"], unit))
    print("  results:        %.4f +- %.4f, optimal play %.6f (exact)" % (*found["result"], found["optimum"]))
    print("  decisions:      %d" % found["decisions"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
