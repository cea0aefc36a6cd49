"""examples/benchmark.py, the RL benchmark protocol, on its tiny profile: the CSV's shape, and every loss
optimal play's chance to shut minus the policy's, both recomputed here without shutthebox (docs/RL.md)."""

import csv
import io
import importlib.util
import os
import sys
from fractions import Fraction

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from bruteforce import Naive, mask  # noqa: E402
from conftest import ROOT  # noqa: E402

pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.fixture(scope="module")
def benchmark():
    spec = importlib.util.spec_from_file_location("benchmark", os.path.join(ROOT, "examples", "benchmark.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmark"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def chance_to_shut(policy, replace: bool) -> Fraction:
    """The policy's exact chance to shut in standard solo Shut the Box (9 tiles, two dice, one die once the
    open tiles sum to 6 or less), by recursion over the open tiles: an illegal answer is every legal move alike
    under ``replace``, else a failure (it would never end)."""
    naive = Naive(9, 6, 2, 6, None)
    memo = {(): Fraction(1)}

    def value(open_tiles):
        if open_tiles not in memo:
            total = Fraction(0)
            for roll, chance in naive.chances(open_tiles).items():
                moves = {mask(move): move for move in naive.moves(open_tiles, roll)}
                if not moves:
                    continue  # no move fits: the game is lost
                legal = np.zeros(512, dtype=np.int8)
                legal[list(moves)] = 1
                board = np.array([int(t in open_tiles) for t in range(1, 10)] + [roll], dtype=np.int64)
                action = int(policy(board, legal))
                assert action in moves or replace, (open_tiles, roll, action)
                played = [moves[action]] if action in moves else list(moves.values())
                total += chance * sum(value(naive.after(open_tiles, m)) for m in played) / len(played)
            memo[open_tiles] = total
        return memo[open_tiles]

    return value(tuple(range(1, 10)))


@pytest.mark.slow  # trains PPO: about 10 s of CPU, a minute on a loaded machine
def test_tiny_profile_scores_every_point_exactly(benchmark, tmp_path):
    profile = benchmark.PROFILES["tiny"]
    seen = []
    path = tmp_path / "rl-benchmark.csv"
    with open(path, "w", newline="") as out:
        benchmark.run(profile, ["solo"], ["tabular-q", "ppo"], out,
                      on_point=lambda row, policy: seen.append((row, policy)), log=io.StringIO())
    with open(path, newline="") as source:
        reader = csv.DictReader(source)
        rows = list(reader)
    assert tuple(reader.fieldnames) == benchmark.FIELDS
    assert [(r["game"], r["algorithm"], r["seed"], r["steps"]) for r in rows] == [
        ("solo", algorithm, "0", str(steps)) for algorithm in ("tabular-q", "ppo") for steps in (0, 200, 400)]
    optimum = Naive(9, 6, 2, 6, None).shut(tuple(range(1, 10)))
    assert len(seen) == len(rows)
    for row, (written, policy) in zip(rows, seen):
        assert written["steps"] == int(row["steps"])
        loss, value = float(row["loss"]), float(row["value"])
        assert row["loss_exact"] == "1"
        assert abs(float(row["optimum"]) - float(optimum)) < 1e-12
        assert loss >= 0.0
        assert loss == float(row["optimum"]) - value
        assert value == float(chance_to_shut(policy, replace=row["algorithm"] == "ppo"))


def test_interval_is_the_student_t(benchmark):
    mean, half = benchmark.interval([1.0, 2.0, 6.0])  # mean 3, sd sqrt(7), t(2) = 4.303
    assert mean == 3.0
    assert abs(half - 4.303 * 7 ** 0.5 / 3 ** 0.5) < 1e-12
    for df, quantile in ((10, 2.228139), (20, 2.085963), (29, 2.045230)):  # printed tables of Student's t
        assert abs(benchmark.t975(df) - quantile) < 1e-3
