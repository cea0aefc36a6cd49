#!/usr/bin/env python3
"""Speed and size figures of every game, each printed with its target (``make bench``).

Measured the way a user runs the command: in a clean virtual environment
(bench/.venv, made on first use with ``pip install .[build]``: the wheel, not
the checkout) with bytecode caches written. Command timings are medians over
interleaved runs with the same interpreter, against the floor
``python -c "import msgpack"`` measured in the same run. Nothing asserts:
machines are shared and noisy, so these figures are for people to read
(bench/README.md records the latest).

    python3 bench/bench.py            # everything
    python3 bench/bench.py --quick    # fewer repetitions
    python3 bench/bench.py --duel     # two-player yazy's questions only (its full table, once solved)
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "bench", ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
ROWS: list = []
# Targets of the issues: file name -> (build seconds, bytes) for shipped tables; game -> batch questions/s.
BUILD_TARGETS = {"standard.msgpack": (1, 1 << 20), "t12-2d6-one6-p2.msgpack": (10, 16 << 20),
                 "toggle-c12-s6.msgpack": (5, 1 << 20), "pig-pig-g100-s6.msgpack": (5, 5 << 20)}
GAME_BUILD_TARGETS = {"goat": (10, 16 << 20), "yazy": (10, 16 << 20), "yahtzee": (15, 6 << 20)}  # all of the game's tables together
# Pig: a third of its lines are --options, whose roll chance is a sum over one roll's outcomes (6 or 36 terms).
# Threes: a batch's lines come from only 1,383 questions (three for each of the 461 sorted rolls), each answered
# once exactly and remembered; its --options lists every set of faces (up to 31) in exact fractions: 150,000.
BATCH_TARGETS = {"shutthebox": 1_000_000, "yahtzee": 1_000, "pig": 200_000, "threes": 150_000}
BATCH_TARGET = 500_000
QUERY_OVER_FLOOR = 1e-3  # seconds


def in_clean_venv() -> None:
    """Re-run this script in bench/.venv, made (and the package installed) when missing or stale."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    stamp = os.path.join(VENV, "installed-from")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "shutthebox", "data"], capture_output=True,
                           text=True).stdout
    wanted = head + (" dirty %d" % hash(dirty) if dirty else "")
    current = open(stamp).read() if os.path.exists(stamp) else None
    if current != wanted:
        print("installing the package into %s (a clean venv) ..." % os.path.relpath(VENV, ROOT), flush=True)
        if not os.path.exists(VENV_PYTHON):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([VENV_PYTHON, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", ROOT],
                       check=True)
        subprocess.run([VENV_PYTHON, "-m", "pip", "install", "--quiet", ROOT + "[build]"], check=True)
        with open(stamp, "w") as handle:
            handle.write(wanted)
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's run writes bytecode caches
    os.chdir("/")  # the installed package, never the checkout
    os.execve(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__), *sys.argv[1:]], environment)


def report(figure: str, value: str, target: str, ok) -> None:
    verdict = "" if ok is None else ("ok" if ok else "MISSED")
    ROWS.append((figure, value, target, verdict))
    print("  %-46s %-34s %-14s %s" % (figure, value, target, verdict), flush=True)


def wall(argv, stdin=None) -> tuple[float, int]:
    """Wall time of one run, and the child's peak memory (KiB)."""
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def golden(game: str) -> list:
    """The answered questions of a game's golden file (argv after the command name)."""
    path = os.path.join(ROOT, "tests", "data", "%s-golden.txt" % game)
    from shutthebox import registry

    questions = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if "\t" in line and not line.startswith("#") and not line.split("\t", 1)[1].startswith("error"):
                    argv = line.split("\t", 1)[0].split()
                    if game != registry.DEFAULT and argv[:1] != [game]:
                        argv = [game] + argv
                    questions.append(argv)
    return questions


def bench_commands(repeat: int) -> None:
    """Each game's first golden question against the floor, interleaved."""
    from shutthebox import registry

    command = [os.path.join(VENV, "bin", "ShutTheBox")]
    floor = [sys.executable, "-c", "import msgpack"]
    questions = {"shutthebox": ["--two", "--move", "13456789", "17", "12"],
                 "solo": ["--solo", "--move", "123456789", "7", "--variant", "two-dice"]}
    for game in registry.NAMED_FIRST:
        if golden(game):
            questions[game] = golden(game)[0]
    # Yahtzee answers mid-turn questions by a dynamic program at question time: its target is 2 ms.
    questions["yahtzee mid-turn"] = ["yahtzee", "--options", "all", "13366", "2"]
    for argv in questions.values():
        wall(command + argv)  # warm caches
    floors = []
    times: dict = {game: [] for game in questions}
    for _ in range(repeat):
        floors.append(wall(floor)[0])
        for game, argv in questions.items():
            times[game].append(wall(command + argv)[0])
    base = statistics.median(floors)
    report("floor: python -c 'import msgpack'", "%.1f ms" % (base * 1e3), "", None)
    for game, argv in questions.items():
        seconds = statistics.median(times[game])
        limit = QUERY_OVER_FLOOR * (2 if game.endswith("mid-turn") else 1)
        report("ShutTheBox %s" % " ".join(argv)[:44], "%+.2f ms (ratio %.3f)" % ((seconds - base) * 1e3, seconds / base),
               "<= +%d ms" % round(limit * 1e3), seconds - base <= limit)


def duel_line(rng, mid_turn: bool) -> list:
    """A two-player yazy question on the full game: random open sets (the mover first or second in the
    round), totals the closed categories can make (a score drawn for each), at a turn start or mid-turn."""
    from shutthebox.games.yazy.duel.rules import POINTS
    from shutthebox.games.yazy.rules import format_categories

    size = rng.randint(1, 11)
    mover = sum(1 << c for c in rng.sample(range(11), size))
    other = sum(1 << c for c in rng.sample(range(11), size - rng.randrange(2)))
    scores = ",".join(str(sum(rng.choice(POINTS[c]) for c in range(11) if not mask >> c & 1))
                      for mask in (mover, other))
    argv = ["yazy", "--players", "2", "--move" if mid_turn else "--expect", format_categories(mover),
            format_categories(other) if other else "none", "--scores", scores]
    return argv + ["".join(str(rng.randint(1, 6)) for _ in range(5)), str(rng.randrange(3))] if mid_turn else argv


def bench_duel(repeat: int) -> None:
    """Two-player yazy's questions on the full game's table, if it is solved: distinct random ones,
    interleaved with the floor."""
    cache = os.environ.get("SHUTTHEBOX_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "shutthebox")
    if not os.path.exists(os.path.join(cache, "yazy-duel.msgpack")):
        report("two-player yazy questions", "skipped: the full table is not solved", "", None)
        return
    command, floor = [os.path.join(VENV, "bin", "ShutTheBox")], [sys.executable, "-c", "import msgpack"]
    rng = random.Random(11)
    wall(command + duel_line(rng, False))  # the table's header in the page cache, as after any first question
    floors, times = [], {False: [], True: []}
    for _ in range(repeat):
        floors.append(wall(floor)[0])
        for mid_turn in (False, True):
            times[mid_turn].append(wall(command + duel_line(rng, mid_turn))[0])
    base = statistics.median(floors)
    for mid_turn, what, limit in ((False, "turn start", 1e-3), (True, "mid-turn --move", 5e-3)):
        seconds = statistics.median(times[mid_turn])
        report("two-player yazy, %s (%d distinct)" % (what, repeat),
               "%+.2f ms (ratio %.3f)" % ((seconds - base) * 1e3, seconds / base), "<= +%d ms" % round(limit * 1e3),
               seconds - base <= limit)


def bench_memory() -> None:
    floor = [sys.executable, "-c", "import msgpack"]
    one = subprocess.run(["/usr/bin/env", "time", "-f", "%M"] + floor, capture_output=True, text=True)
    two = subprocess.run(["/usr/bin/env", "time", "-f", "%M", os.path.join(VENV, "bin", "ShutTheBox"), "--tiles", "12",
                          "--two", "--move", "1,3,4,5,6,7,8,9", "17", "12"], capture_output=True, text=True)
    try:
        base, query = int(one.stderr.split()[-1]), int(two.stderr.split()[-1])
    except (ValueError, IndexError):
        return
    report("peak memory: 12-tile query - floor", "%+.1f MiB (%d KiB / %d KiB)" % ((query - base) / 1024, query, base),
           "", None)


def distinct(count: int, make, seed: int) -> bytes:
    """``count`` different lines from ``make(rng)``, in the order drawn: what users send, not a few
    lines repeated into the memo."""
    rng = random.Random(seed)
    lines: dict = {}
    while len(lines) < count:
        lines[make(rng)] = None
    return ("\n".join(lines) + "\n").encode()


def shutthebox_line(rng) -> str:
    """Any of the four two-player questions on the standard table, a roll the dice can show
    (some rolls have no legal move: those lines are errors, as users meet them)."""
    from shutthebox.engine.notation import format_set

    mask = rng.randrange(1, 512)
    position, score = format_set(mask, 9), rng.randrange(1, 46)
    low, high = (2, 12) if sum(i + 1 for i in range(9) if mask >> i & 1) > 6 else (1, 6)
    roll = rng.randint(low, high)
    return ("--one --expect %s" % position, "--two --expect %s %d" % (position, score),
            "--one --move %s %d" % (position, roll), "--two --move %s %d %d" % (position, score, roll))[rng.randrange(4)]


def toggle_line(rng) -> str:
    from shutthebox.engine.notation import format_set

    state = format_set(rng.randrange(1 << 12), 12)
    if rng.random() < 0.5:
        return "--expect %s" % state
    return "--move %s %d %d" % (state, rng.randint(1, 6), rng.randint(1, 6))


def goat_line(rng) -> str:
    rolls = rng.randrange(3)
    turn = 0 if rolls == 0 else rng.randint(rolls, 21 * rolls)
    player = rng.choice(("--solo", "--one", "--two"))
    scores = "%d" % rng.randrange(100) if player == "--solo" else "%d %d" % (rng.randrange(100), rng.randrange(100))
    question = rng.choice(("--expect", "--move"))
    return "%s %s %s %d %d" % (player, question, scores, turn, rolls)


def yazy_line(rng) -> str:
    from shutthebox.games.yazy.rules import format_categories

    cats = format_categories(rng.randrange(1, 1 << 11))
    dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
    return "%s %s %s %d" % (rng.choice(("--expect", "--move")), cats, dice, rng.randrange(3))


def yahtzee_line(rng) -> str:
    """A mid-turn question on a random reachable card (its upper total one the closed boxes can make)."""
    from shutthebox.games.yahtzee.rules import CATEGORIES

    open_boxes = [name for name in CATEGORIES if rng.random() < 0.5] or ["chance"]
    upper = sum(rng.randint(0, 5) * (face + 1) for face, name in enumerate(CATEGORIES[:6]) if name not in open_boxes)
    box = "" if "yahtzee" in open_boxes else " --yahtzee-box %d" % rng.choice((0, 50))
    dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
    return "%s %s --upper %d%s %s %d" % (rng.choice(("--expect", "--move", "--options")), ",".join(open_boxes),
                                         upper, box, dice, rng.randrange(3))


def pig_line(rng) -> str:
    """A question on a state of Pig to 100: banked scores and a turn total that has not reached the goal."""
    mine, other = rng.randrange(100), rng.randrange(100)
    turn = rng.randrange(100 - mine)
    return "%s %d %d %d" % (rng.choice(("--expect", "--move", "--options")), mine, other, turn)


def threes_line(rng) -> str:
    """A question on a roll of Threes: 1 to 5 dice showing, in the order thrown (now and then the start)."""
    if rng.random() < 0.02:
        return "--expect"
    dice = "".join(str(rng.randint(1, 6)) for _ in range(rng.randint(1, 5)))
    return "%s %s" % (rng.choice(("--expect", "--move", "--options")), dice)


BATCH_LINES = {"shutthebox": shutthebox_line, "toggle": toggle_line, "goat": goat_line, "yazy": yazy_line,
               "yahtzee": yahtzee_line, "pig": pig_line, "threes": threes_line}
# toggle 12 x 6 has 151,552 different questions: ask two thirds of them. Threes has 27,991 (the dice of 1 to
# 5 dice in any order, three questions each, and --expect alone): ask 20,000.
BATCH_COUNTS = {"toggle": 100_000, "yahtzee": 5_000, "threes": 20_000}


def bench_batch(count: int, repeat: int) -> None:
    """Each game's batch on ``count`` distinct random questions of every form; the rate counts the time
    after start-up (a run on no lines, measured beside it)."""
    from shutthebox import registry

    command = [os.path.join(VENV, "bin", "ShutTheBox")]
    for number, game in enumerate((registry.DEFAULT,) + registry.NAMED_FIRST):
        make = BATCH_LINES.get(game)
        if make is None:
            continue
        lines = min(count, BATCH_COUNTS.get(game, count))
        data = distinct(lines, make, 2026 + number)
        prefix = [] if game == registry.DEFAULT else [game]
        empty = [wall(command + prefix + ["--batch"], stdin=b"")[0] for _ in range(repeat)]
        runs = [wall(command + prefix + ["--batch"], stdin=data)[0] for _ in range(repeat)]
        rate = lines / max(statistics.median(runs) - statistics.median(empty), 1e-9)
        target = BATCH_TARGETS.get(game, BATCH_TARGET)
        report("batch %s (%d distinct lines)" % (game, lines), "{:,.0f} questions/s".format(rate),
               ">= {:,}".format(target), rate >= target)


def bench_api(repeat: int) -> None:
    import shutthebox

    seconds = min(timeit.repeat(lambda: shutthebox.load().expect_one("123456789"), number=20, repeat=repeat)) / 20
    report("load() + first lookup (standard table)", "%.3f ms" % (seconds * 1e3), "< 1 ms", seconds < 1e-3)
    table = shutthebox.load()
    table.preload()
    for name, call in {"expect_one": lambda: table.expect_one("146789"),
                       "move_two": lambda: table.move_two("13456789", 17, 12)}.items():
        seconds = min(timeit.repeat(call, number=100_000, repeat=repeat)) / 100_000
        report("API %s" % name, "%.0f ns" % (seconds * 1e9), "< 1000 ns", seconds < 1e-6)


def bench_builds() -> None:
    from shutthebox import registry

    sys.path.insert(0, ROOT)
    import build_tables  # the one list of shipped tables, from the games' declarations

    for game in registry.GAMES:
        total_seconds, total_bytes = 0.0, 0
        for name, (_, build) in build_tables.shipped([game]).items():
            started = time.perf_counter()
            data = build()
            seconds = time.perf_counter() - started
            total_seconds, total_bytes = total_seconds + seconds, total_bytes + len(data)
            limit = BUILD_TARGETS.get(name)
            report("build %s" % name, "%.2f s, %.2f MiB" % (seconds, len(data) / 2**20),
                   "< %d s, %d MiB" % (limit[0], limit[1] >> 20) if limit else "",
                   (seconds < limit[0] and len(data) < limit[1]) if limit else None)
        if game in GAME_BUILD_TARGETS:
            limit = GAME_BUILD_TARGETS[game]
            report("build all %s tables" % game, "%.2f s, %.2f MiB" % (total_seconds, total_bytes / 2**20),
                   "< %d s, %d MiB" % (limit[0], limit[1] >> 20), total_seconds < limit[0] and total_bytes < limit[1])


# Env steps a second with exact info (shutthebox.rl, docs/RL.md), and the bare step loop without it.
# Pig-v0's steps include the opponent's whole turns (a random policy holds half the time).
RL_TARGETS = {"shutthebox/ShutTheBoxSolo-v0": 50_000, "shutthebox/Toggle-v0": 50_000,
              "shutthebox/GoatSolo-v0": 50_000, "shutthebox/Yazy-v0": None, "shutthebox/Yahtzee-v0": 5_000,
              "shutthebox/Pig-v0": 10_000}


# The native vector environments (shutthebox.rl.vector, and shutthebox.rl.model_vector for a game model's):
# env-steps a second at 1,024 envs with exact info.
RL_VECTOR_TARGET = 1_000_000
RL_VECTOR_ENVS = 1024
RL_VECTOR_IDS = ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0",
                 "shutthebox/Pig-v0", "shutthebox/Threes-v0")
RL_SMALL_ENVS = 4  # SyncVectorEnv against AsyncVectorEnv (one process each) on a few envs


def bench_rl(seconds: float) -> None:
    """Steps a second of each environment made by ``gymnasium.make``, exact info against the bare loop
    (``exact_info=False``: the legal actions only), the action a seeded random legal one in both."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        print("installing the rl extra into %s ..." % sys.prefix, flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", ROOT + "[rl]"], check=True)
        import importlib

        importlib.invalidate_caches()
    import gymnasium
    import numpy as np

    import shutthebox.rl  # noqa: F401 - registers the environments
    from shutthebox import registry

    def rate(env_id: str, exact: bool) -> float:
        env = gymnasium.make(env_id, exact_info=exact)
        draw = random.Random(1).random
        _, info = env.reset(seed=1)
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            for _ in range(500):
                legal = np.flatnonzero(info["action_mask"])
                _, _, terminated, _, info = env.step(legal[int(draw() * len(legal))])
                if terminated:
                    _, info = env.reset()
            steps += 500
        return steps / (time.perf_counter() - started)

    for env_id, target in RL_TARGETS.items():
        if env_id.endswith("Yahtzee-v0") and "yahtzee" not in registry.GAMES:
            continue
        rate(env_id, True)  # tables read, caches warm
        exact, bare = rate(env_id, True), rate(env_id, False)
        report("rl %s steps/s" % env_id.split("/")[1], "%.0f exact info, %.0f bare (x%.2f)" % (exact, bare, bare / exact),
               "> %d" % target if target else "", exact > target if target else None)

    def vector_rate(env_id: str, mode: str, envs: int) -> float:
        """Env-steps a second of ``gymnasium.make_vec``'s ``mode``, the time in ``step`` alone (a seeded random
        legal action for each env, drawn outside the clock)."""
        vector = gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode=mode)
        draw = np.random.default_rng(1)
        _, info = vector.reset(seed=1)
        steps, spent = 0, 0.0
        while spent < seconds:
            masks = info["action_mask"]
            actions = (draw.random(masks.shape) * masks).argmax(axis=1)
            started = time.perf_counter()
            _, _, _, _, info = vector.step(actions)
            spent += time.perf_counter() - started
            steps += envs
        vector.close()
        return steps / spent

    for env_id in RL_VECTOR_IDS:
        name = env_id.split("/")[1]
        vector_rate(env_id, "vector_entry_point", RL_VECTOR_ENVS)  # tables built, caches warm
        native = vector_rate(env_id, "vector_entry_point", RL_VECTOR_ENVS)
        sync = vector_rate(env_id, "sync", RL_VECTOR_ENVS)
        report("rl vector %s env-steps/s (%d envs)" % (name, RL_VECTOR_ENVS),
               "%.0f native, %.0f sync (x%.1f)" % (native, sync, native / sync), "> %d" % RL_VECTOR_TARGET,
               native > RL_VECTOR_TARGET)
    for env_id in ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Pig-v0"):
        sync, spread = vector_rate(env_id, "sync", RL_SMALL_ENVS), vector_rate(env_id, "async", RL_SMALL_ENVS)
        report("rl %s sync vs async (%d envs)" % (env_id.split("/")[1], RL_SMALL_ENVS),
               "%.0f sync, %.0f async (x%.2f)" % (sync, spread, spread / sync), "", None)


def bench_rl_sampler(seconds: float) -> None:
    """``sample_legal`` (a random legal action for each env) against a step of each native vector environment
    (1,024 envs, exact info) on the same states, timed in turn; beside it the argmax of uniforms times the
    masks, what a caller wrote before."""
    import gymnasium
    import numpy as np

    for env_id in RL_VECTOR_IDS:
        vector = gymnasium.make_vec(env_id, num_envs=RL_VECTOR_ENVS, vectorization_mode="vector_entry_point")
        envs, draw = vector.unwrapped, np.random.default_rng(1)
        vector.reset(seed=1)
        envs.step(envs.sample_legal())  # the lists of legal actions made, caches warm
        spent = {"step": 0.0, "sample": 0.0, "argmax": 0.0}
        while spent["step"] < seconds:
            started = time.perf_counter()
            masks = envs.action_masks()
            (draw.random(masks.shape) * masks).argmax(axis=1)
            middle = time.perf_counter()
            actions = envs.sample_legal()
            ended = time.perf_counter()
            vector.step(actions)
            spent["argmax"] += middle - started
            spent["sample"] += ended - middle
            spent["step"] += time.perf_counter() - ended
        step = spent["step"]
        report("rl vector %s sample_legal (%d envs)" % (env_id.split("/")[1], RL_VECTOR_ENVS),
               "x%.3f a step (masks' argmax x%.2f)" % (spent["sample"] / step, spent["argmax"] / step),
               "<= x0.10", spent["sample"] <= 0.1 * step)


def bench_sb3(seconds: float) -> None:
    """The Stable-Baselines3 adapter (``shutthebox.rl.sb3_vec_env``): its steps against the native environment's
    (1,024 envs, exact info), and PPO's rollouts on it against SB3's DummyVecEnv of the one-player environments
    (64 envs, ``exact_info=False`` both, one torch thread). Skipped without the sb3 extra."""
    try:
        import stable_baselines3
        import torch
    except ImportError:
        report("rl sb3 adapter", "skipped: the sb3 extra is not installed", "", None)
        return
    import gymnasium
    from stable_baselines3.common.vec_env import DummyVecEnv

    import shutthebox.rl as rl

    torch.set_num_threads(1)
    for env_id in ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Pig-v0"):
        name = env_id.split("/")[1]
        adapter = rl.sb3_vec_env(env_id, num_envs=RL_VECTOR_ENVS)
        native = gymnasium.make_vec(env_id, num_envs=RL_VECTOR_ENVS, vectorization_mode="vector_entry_point")
        adapter.seed(1)
        adapter.reset()
        native.reset(seed=1)
        spent = {"adapter": 0.0, "native": 0.0}
        while spent["adapter"] < seconds:  # a step of each in turn, a random legal action for each env
            for what, envs, step in (("adapter", adapter.env, adapter.step), ("native", native, native.step)):
                actions = envs.sample_legal()
                started = time.perf_counter()
                step(actions)
                spent[what] += time.perf_counter() - started
        report("rl sb3 %s adapter steps (%d envs)" % (name, RL_VECTOR_ENVS),
               "x%.2f the native step's time" % (spent["adapter"] / spent["native"]), "", None)

        def collector(envs):
            model = stable_baselines3.PPO("MlpPolicy", envs, n_steps=128, seed=0, device="cpu")
            _, callback = model._setup_learn(total_timesteps=10**9)
            callback.on_training_start(locals(), globals())
            return lambda: model.collect_rollouts(envs, callback, model.rollout_buffer, n_rollout_steps=128)

        pairs = {"adapter": collector(rl.sb3_vec_env(env_id, num_envs=64, exact_info=False)),
                 "dummy": collector(DummyVecEnv([functools.partial(gymnasium.make, env_id, exact_info=False)] * 64))}
        spent = dict.fromkeys(pairs, 0.0)
        rounds = 0
        while spent["adapter"] < seconds:  # one rollout of each in turn: the machine's load shared alike
            for what, collect in pairs.items():
                started = time.perf_counter()
                collect()
                spent[what] += time.perf_counter() - started
            rounds += 1
        ours, dummy = rounds * 128 * 64 / spent["adapter"], rounds * 128 * 64 / spent["dummy"]
        report("rl sb3 %s PPO rollouts env-steps/s (64 envs)" % name,
               "%.0f adapter, %.0f DummyVecEnv (x%.1f)" % (ours, dummy, ours / dummy), "", None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Speed and size figures with their targets.")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--duel", action="store_true", help="only two-player yazy's questions (its full table)")
    args = parser.parse_args(argv)
    in_clean_venv()
    repeat = 7 if args.quick else 31
    if args.duel:
        bench_duel(4 * repeat)
        return 0
    print("python %s, %d cores; command: %s (installed)" % (sys.version.split()[0], os.cpu_count(),
                                                           os.path.relpath(os.path.join(VENV, "bin", "ShutTheBox"),
                                                                           ROOT)))
    print("  %-46s %-34s %-14s %s" % ("figure", "measured", "target", ""))
    bench_commands(repeat)
    bench_duel(repeat)
    bench_memory()
    bench_batch(200_000, 3)
    bench_api(3 if args.quick else 7)
    bench_builds()
    bench_rl(1.0 if args.quick else 3.0)
    bench_rl_sampler(1.0 if args.quick else 3.0)
    bench_sb3(1.0 if args.quick else 3.0)
    missed = [row for row in ROWS if row[3] == "MISSED"]
    print("%d figures, %d missed their target" % (len(ROWS), len(missed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
