"""The shipped tables are the same bytes on every machine, and the build says what differs when not.

- No sum whose order numpy or BLAS chooses in the code that builds a table (a scan of the source).
- A goat table built with another BLAS kernel and without numpy's SIMD kernels has the same bytes.
- ``build_tables.py --check`` says which arrays differ, in how many elements and by how much, before
  saying what to do, and tells a floating-point difference between machines from a changed solver.
- ``build_tables.py > /dev/full`` is one line on stderr and exit 1, not a traceback.
- A write killed half-way leaves a temporary file that the next write removes; nothing else is removed.
"""

import ast
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import ROOT

import build_tables
from shutthebox.engine import store, writer
from shutthebox.engine.writer import encode, pack_array, write_atomic

PACKAGE = os.path.join(ROOT, "shutthebox")

# -- 1. no BLAS, no reduction order left to numpy, where a table is built ------------------------------------

# Calls whose additions happen in an order the library picks: BLAS (dot, matmul, einsum, LAPACK) or numpy's
# pairwise summation, whose blocking depends on the array's layout and numpy's version.
MATRIX_PRODUCTS = {"dot", "vdot", "inner", "matmul", "einsum", "tensordot", "convolve", "correlate", "trace",
                   "multi_dot"}
REDUCTIONS = {"sum", "nansum", "mean", "nanmean", "average", "prod", "nanprod", "cumsum", "nancumsum", "cumprod",
              "std", "var", "nanstd", "nanvar", "trapezoid", "trapz"}
UFUNC_REDUCTIONS = {"reduce", "accumulate", "reduceat"}  # of add, multiply, subtract, ... (maximum's are exact)
EXACT_UFUNCS = {"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "bitwise_or", "bitwise_and"}

# (module, function, call) -> why it cannot make the bytes depend on the machine. Explicit: a new entry is a
# decision that has to be argued here.
ALLOWED = {
    ("shutthebox/games/yazy/solver.py", "solve", "sum"): "open_.sum() counts a boolean mask: an integer, exact",
    ("shutthebox/games/toggle/solver.py", "evaluate", "linalg"): "evaluate() (a fixed policy's values by a LAPACK "
                                                                 "solve) only picks policy iteration's policies; "
                                                                 "the bytes are the final policy's fixed-order "
                                                                 "sweeps, tested equal to value iteration's",
    # Where rows of varying length start in a flat array: running sums of integer lengths, exact in any order.
    **{(module, function, "cumsum"): "row offsets: a running sum of integer lengths, exact"
       for module, function in (("shutthebox/games/yazy/duel/build.py", "arrays"),
                                ("shutthebox/games/yazy/duel/solver.py", "solve_block"),
                                ("shutthebox/games/yazy/duel/solver.py", "padded_rows"),
                                ("shutthebox/games/yahtzee/target/build.py", "_table"),
                                ("shutthebox/games/yahtzee/target/solver.py", "__init__"),
                                ("shutthebox/games/yahtzee/target/solver.py", "solve"))},
}


def build_modules() -> list:
    """Every module of the package that building a table can run: each game's ``build`` modules and what they
    import (at the top or inside a function), followed through the package."""
    roots = []
    for folder, _, names in os.walk(os.path.join(PACKAGE, "games")):
        roots += [os.path.join(folder, name) for name in names if name in ("build.py", "solver.py")]
    seen, todo = set(), sorted(roots)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += [found for found in imported(path) if found not in seen]
    return sorted(seen)


def imported(path: str) -> list:
    """The package's module files that ``path`` imports."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    package = os.path.dirname(path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = os.path.dirname(base)
                parts = (node.module or "").split(".") if node.module else []
            elif (node.module or "").split(".")[0] == "shutthebox":
                base, parts = ROOT, node.module.split(".")
            else:
                continue
            stem = os.path.join(base, *parts)
            candidates = [stem] + [os.path.join(stem, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [os.path.join(ROOT, *alias.name.split(".")) for alias in node.names
                          if alias.name.split(".")[0] == "shutthebox"]
        else:
            continue
        for stem in candidates:
            for name in (stem + ".py", os.path.join(stem, "__init__.py")):
                if os.path.isfile(name):
                    found.append(os.path.normpath(name))
    return found


def order_dependent(source: str, filename: str = "<source>") -> list:
    """[(line, function, call)]: every matrix product and every sum or product reduction in ``source``."""
    tree = ast.parse(source, filename)
    found = []

    def visit(node, function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name if function == "<module>" else function
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) or \
                isinstance(node, ast.AugAssign) and isinstance(node.op, ast.MatMult):
            found.append((node.lineno, function, "@"))
        elif isinstance(node, ast.Attribute) and node.attr == "linalg":
            found.append((node.lineno, function, "linalg"))
        elif isinstance(node, ast.Call):
            name = call_name(node.func)
            if name in MATRIX_PRODUCTS or name in REDUCTIONS:
                found.append((node.lineno, function, name))
            elif name in UFUNC_REDUCTIONS and isinstance(node.func, ast.Attribute) and \
                    call_name(node.func.value) not in EXACT_UFUNCS:
                found.append((node.lineno, function, name))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "<module>")
    return found


def call_name(func) -> str | None:
    """``np.sum`` / ``x.sum`` / ``sum``: the called name. Python's own ``sum()`` adds left to right: fine."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name) and func.id in MATRIX_PRODUCTS | {"cumsum", "einsum", "matmul"}:
        return func.id  # from numpy import dot, ...
    return None


def test_no_table_is_built_with_sums_in_an_order_numpy_or_blas_picks():
    modules = build_modules()
    assert os.path.join(PACKAGE, "games", "goat", "solver.py") in modules
    assert os.path.join(PACKAGE, "games", "goat", "optimal.py") in modules  # imports are followed
    assert os.path.join(PACKAGE, "engine", "writer.py") in modules
    found = []
    for path in modules:
        relative = os.path.relpath(path, ROOT).replace(os.sep, "/")
        for line, function, call in order_dependent(open(path, encoding="utf-8").read(), path):
            if (relative, function, call) not in ALLOWED:
                found.append("%s:%d in %s(): %s" % (relative, line, function, call))
    assert not found, ("sums in an order numpy or BLAS picks, in code that builds a table (the bytes would "
                       "depend on the machine; add up elementwise in a fixed order, or argue an entry of "
                       "ALLOWED):\n" + "\n".join(found))


def test_the_scan_sees_every_kind_of_matrix_product_and_reduction():
    source = """
import numpy as np
from numpy import dot
def f(a, b, w):
    x = a @ b
    x @= b
    y = np.dot(a, b) + a.dot(b) + dot(a, b) + np.einsum("ij,jk", a, b) + np.tensordot(a, b) + np.inner(a, b)
    z = a.sum(axis=0) + np.sum(a, 1) + np.add.reduce(a, 0) + np.cumsum(a) + a.mean() + np.linalg.solve(a, b)
    fine = np.maximum.reduce(a) + a.max(axis=0) + a.min() + sum([1.0, 2.0]) + a * w + a + b
"""
    calls = [call for _, _, call in order_dependent(source)]
    assert calls.count("@") == 2
    assert sorted(set(calls)) == ["@", "cumsum", "dot", "einsum", "inner", "linalg", "mean", "reduce", "sum",
                                  "tensordot"]
    assert calls.count("dot") == 3 and calls.count("sum") == 2


def test_the_scan_would_have_caught_the_goat_solver_s_matrix_products():
    """The goat solver of solver version 1 summed its actions' chances with ``values @ weights``."""
    old = "def play_turn(values, moves):\n    return [values @ weights for _, weights in moves]\n"
    assert order_dependent(old) == [(2, "play_turn", "@")]


def test_the_goat_solver_adds_up_without_blas():
    """The goat turn engine's sums against a plain Python sum of the same terms, in the same order:
    the same float64 bits (no fused multiply-add, no other order)."""
    from shutthebox.games.goat.solver import _sums, expect, goat_turn

    turn = goat_turn()
    rng = np.random.default_rng(7)
    columns = rng.random((1, turn.columns, 5))
    for (slots, _, moves), sums in zip(turn.levels, turn.sums):
        for (_, weights), action in zip(moves, sums):
            width, denominator, terms = _sums(weights)
            got = expect(columns, action)[0]
            for i in range(width):
                for p in range(columns.shape[2]):
                    total = 0.0
                    for where, count in terms:
                        column = where.start + (i if where.stop - where.start > 1 else 0) \
                            if isinstance(where, slice) else where[i]
                        factor = count if isinstance(count, float) else float(count[i, 0])
                        total += float(columns[0, column, p]) * factor
                    assert got[i, p] == total / denominator
                    assert abs(got[i, p] - float(weights[:, i] @ columns[0, :, p])) < 1e-15  # the same sum


def _numpy_dispatch() -> list:
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__
    return list(__cpu_dispatch__)


BUILD_SMALL_GOAT = """
import hashlib, sys
from shutthebox.games.goat.build import solve_table
from shutthebox.games.goat.rules import Rules
sys.stdout.write(hashlib.sha256(solve_table(Rules(10))).hexdigest())
"""


@pytest.mark.slow
def test_a_goat_table_is_the_same_bytes_with_other_blas_and_simd_kernels():
    """Goal 10 built twice: as installed, and with OpenBLAS's oldest x86 kernel on one thread and numpy's SIMD
    kernels switched off (with the matrix products of solver version 1 these differed in their last bits)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    plain = subprocess.run([sys.executable, "-c", BUILD_SMALL_GOAT], capture_output=True, text=True, env=env,
                           timeout=300)
    assert plain.returncode == 0, plain.stderr
    env.update(OPENBLAS_CORETYPE="Prescott", OPENBLAS_NUM_THREADS="1", MKL_CBWR="COMPATIBLE",
               MKL_NUM_THREADS="1", NPY_DISABLE_CPU_FEATURES=" ".join(_numpy_dispatch()))
    other = subprocess.run([sys.executable, "-c", BUILD_SMALL_GOAT], capture_output=True, text=True, env=env,
                           timeout=300)
    assert other.returncode == 0, other.stderr
    assert plain.stdout == other.stdout


# -- 2. build_tables.py --check: what differs, then what to do -------------------------------------------------

def table(values, moves, bound="4.5e-14", generator="test solver 1") -> bytes:
    arrays = {"value": pack_array(np.asarray(values, dtype="<f8").tobytes(), "<f8", (len(values),)),
              "move": pack_array(np.asarray(moves, dtype="|u1").tobytes(), "|u1", (len(moves),))}
    return encode("goat", {"goal": 3}, arrays, generator=generator, fields={"error_bound": bound, "tie": "1e-11"})


VALUES = [0.25, 0.5, 1 / 3, 0.75]


def check(tmp_path, capsys, monkeypatch, shipped: bytes | None, built: bytes):
    """build_tables.py --check of one table, "fake.msgpack": (status, stdout, stderr)."""
    out = tmp_path / ("out%d" % len(os.listdir(tmp_path)))
    out.mkdir()
    if shipped is not None:
        (out / "fake.msgpack").write_bytes(shipped)
    monkeypatch.setattr(build_tables, "shipped",
                        lambda games=None, method=None: {"fake.msgpack": ("goat", lambda: built)})
    code = build_tables.main(["--check", "--out", str(out)])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_says_a_floating_point_difference_is_one_between_machines(tmp_path, capsys, monkeypatch):
    nudged = [np.nextafter(v, 2.0) for v in VALUES[:2]] + VALUES[2:]
    code, out, err = check(tmp_path, capsys, monkeypatch, table(VALUES, [0, 1, 2, 0], bound="4.5e-14"),
                           table(nudged, [0, 1, 2, 0], bound="4.6e-14"))
    assert code == 1
    assert "DIFFERS" in out
    assert "header field error_bound: '4.5e-14' in the file, '4.6e-14' built" in out
    assert "array value: 2 of 4 values differ, by at most 1.1e-16; none prints differently (%.6f)" in out
    assert "array move" not in out
    [line] = err.splitlines()
    what, advice = line.split(": a floating-point difference between machines")
    assert what.endswith("values differ by at most 1.1e-16 in 2 elements, no move differs, "
                         "the error bound in the header differs")
    assert "report it" in advice and "make tables" not in advice


def test_check_says_a_changed_move_means_the_solver_changed(tmp_path, capsys, monkeypatch):
    code, out, err = check(tmp_path, capsys, monkeypatch, table(VALUES, [0, 1, 2, 0]),
                           table(VALUES, [0, 3, 2, 1]))
    assert code == 1
    assert "array move: 2 of 4 entries differ (the first at 1: 1 in the file, 3 built)" in out
    [line] = err.splitlines()
    assert line.index("2 moves or other whole-number entries differ") < line.index("the solver or the table changed")
    assert line.endswith("rebuild with `make tables` and commit data/")


def test_check_says_values_beyond_rounding_are_a_change(tmp_path, capsys, monkeypatch):
    code, out, err = check(tmp_path, capsys, monkeypatch, table(VALUES, [0, 1, 2, 0]),
                           table([0.25, 0.500001, 1 / 3, 0.75], [0, 1, 2, 0]))
    assert "array value: 1 of 4 values differ, by at most 1e-06; 1 of them print differently (%.6f)" in out
    assert "the solver or the table changed" in err and "between machines" not in err


def test_check_names_changed_header_fields_and_arrays(tmp_path, capsys, monkeypatch):
    code, out, err = check(tmp_path, capsys, monkeypatch, table(VALUES, [0, 1, 2, 0]),
                           table(VALUES, [0, 1, 2, 0], generator="test solver 2"))
    assert "header field generator: 'test solver 1' in the file, 'test solver 2' built" in out
    assert "the solver or the table changed" in err
    code, out, err = check(tmp_path, capsys, monkeypatch, None, table(VALUES, [0, 1, 2, 0]))
    assert code == 1 and "no such file" in out and "the file is missing: build it with `make tables`" in err
    code, out, err = check(tmp_path, capsys, monkeypatch, b"stale", table(VALUES, [0, 1, 2, 0]))
    assert code == 1 and "not a readable table file" in out and "damaged or not a table" in err


def test_check_of_an_up_to_date_table_says_so(tmp_path, capsys, monkeypatch):
    code, out, err = check(tmp_path, capsys, monkeypatch, table(VALUES, [0, 1, 2, 0]), table(VALUES, [0, 1, 2, 0]))
    assert code == 0 and "up to date" in out and err == ""


def test_a_stopped_layered_build_leaves_its_own_line_alone(tmp_path, capsys, monkeypatch):
    """A layered build stopped by Ctrl-C has said where its layers are kept: build_tables.py adds nothing."""
    from shutthebox.engine import layers

    def stopped():
        raise layers.Stopped()

    def interrupted():
        raise KeyboardInterrupt

    for build, said in ((stopped, ""), (interrupted, "interrupted; no table was left half-written\n")):
        monkeypatch.setattr(build_tables, "shipped",
                            lambda games=None, method=None, build=build: {"fake.msgpack": ("goat", build)})
        assert build_tables.main(["--out", str(tmp_path)]) == 130
        assert capsys.readouterr().err == said


# -- 3. a full standard output ----------------------------------------------------------------------------------

FULL_RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import build_tables
build_tables.shipped = lambda games=None, method=None: {"fake.msgpack": ("goat", lambda: b"built")}
sys.exit(build_tables.main(sys.argv[2:]))
"""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("how", ["help", "write", "check"])
def test_a_full_standard_output_is_one_line_on_stderr(tmp_path, how, buffered):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"  # each line fails as it is printed, not at the end
    with open("/dev/full", "w") as full:
        if how == "help":
            command = [sys.executable, os.path.join(ROOT, "build_tables.py"), "--help"]
        else:
            command = [sys.executable, "-c", FULL_RUN, ROOT, "--out", str(tmp_path)] + (["--check"] if how == "check"
                                                                                           else [])
        result = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, env=env)
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["build_tables.py: cannot write the output (No space left on device)"]
    if how == "write":
        assert (tmp_path / "fake.msgpack").read_bytes() == b"built"  # the table is written all the same


# -- 4. temporary files of killed writes -------------------------------------------------------------------------

KILLED_WRITE = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from shutthebox.engine import writer
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed once the bytes are written
writer.write_atomic(sys.argv[2], b"x" * 100_000)
"""


def age(path, seconds):
    then = time.time() - seconds
    os.utime(path, (then, then))


def gone_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temporary_name(pid, host=None, suffix=".msgpack"):
    return ".tmp-shutthebox-%s-%d-%s%s" % (host or writer._host(), pid, "0123456789abcdef", suffix)


@pytest.mark.skipif(os.name != "posix", reason="kills a process with SIGKILL")
def test_the_next_write_removes_what_a_write_killed_half_way_left(tmp_path):
    target = tmp_path / "goat-g120.msgpack"
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, ROOT, str(target)], timeout=60)
    assert killed.returncode == -signal.SIGKILL
    [left] = os.listdir(tmp_path)
    assert writer.TEMPORARY.fullmatch(left) and os.path.getsize(tmp_path / left) == 100_000
    write_atomic(str(tmp_path / "other.msgpack"), b"data")  # at once: the killed write might still be going
    assert left in os.listdir(tmp_path)
    age(tmp_path / left, writer.GONE_AGE + 5)  # a minute later, its writer gone
    write_atomic(str(tmp_path / "other.msgpack"), b"data")  # even a write that changes nothing cleans up
    assert sorted(os.listdir(tmp_path)) == ["other.msgpack"]


def test_only_stale_temporary_files_of_this_writer_are_removed(tmp_path):
    dead = gone_pid()
    keep = {
        temporary_name(os.getpid()): writer.GONE_AGE + 5,  # its writer runs: being written now
        temporary_name(dead): writer.GONE_AGE - 20,  # its writer is gone, but only just
        temporary_name(dead, host="0badc0de"): writer.GONE_AGE + 5,  # another host's process: not known here
        ".tmp-abc.msgpack": 7200, ".tmp-k3j5_x9a.msgpack": 7200, "table.msgpack.tmp": 7200, "notes.txt": 7200,
        ".tmp-shutthebox-xyz-1-0123456789abcdef.msgpack": 7200, temporary_name(dead) + "~": 7200,
    }
    remove = {
        temporary_name(dead, suffix=".svg"): writer.GONE_AGE + 5,  # its writer is gone
        temporary_name(os.getpid(), host="0badc0de", suffix=""): writer.STALE_AGE + 5,  # an hour old, whoever wrote it
    }
    for name, seconds in {**keep, **remove}.items():
        (tmp_path / name).write_bytes(b"half")
        age(tmp_path / name, seconds)
    (tmp_path / temporary_name(dead, suffix=".md")).mkdir()  # not a file
    age(tmp_path / temporary_name(dead, suffix=".md"), 7200)
    write_atomic(str(tmp_path / "t.msgpack"), b"data")
    left = set(os.listdir(tmp_path))
    assert left == set(keep) | {temporary_name(dead, suffix=".md"), "t.msgpack"}


def test_a_write_s_own_temporary_file_has_the_name_cleanup_looks_for(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(source, destination):
        seen.append(os.path.basename(source))
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    write_atomic(str(tmp_path / "report.md"), "text")
    [name] = seen
    found = writer.TEMPORARY.fullmatch(name)
    assert found and int(found["pid"]) == os.getpid() and found["host"] == writer._host() and name.endswith(".md")


def test_solving_into_the_cache_removes_a_killed_solve_s_temporary_file(tmp_path):
    """The cache: a table solved on first use is written with the same cleanup."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    left = cache / temporary_name(gone_pid())
    left.write_bytes(b"x" * 1000)
    age(left, writer.GONE_AGE + 5)
    data = table(VALUES, [0, 1, 2, 0])
    opened = store._build(str(cache / "goat-g3.msgpack"), lambda: data, {"game": "goat"}, None)
    opened.close()
    assert os.listdir(cache) == ["goat-g3.msgpack"]
