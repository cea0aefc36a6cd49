#!/usr/bin/env python3
"""Solve every game of the registry and write its shipped tables into data/.

    python3 build_tables.py                  # (re)write data/*.msgpack where they changed
    python3 build_tables.py --check          # rebuild in memory; exit 1 if data/ differs, saying what differs
    python3 build_tables.py --game toggle    # only that game's tables
    python3 build_tables.py --workers 2      # layered builds on 2 workers (--cluster ADDRESS: a Dask cluster)
    python3 build_tables.py --check --game toggle --method policy   # toggle by policy iteration: the same bytes

Never imported by the package: the query path only reads what this writes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time

from shutthebox import registry
from shutthebox.engine import layers
from shutthebox.engine.writer import write_atomic

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def shipped(games=None, method: str | None = None) -> dict:
    """file name -> (game, function returning the file's bytes), for every game's shipped tables
    (each game's declaration names them and their solver); ``method`` goes to the solvers that take one."""
    tables = {}
    for game in games or registry.GAMES:
        for family in registry.declaration(game).tables:
            options = {"method": method} if method is not None and takes_method(family) else {}
            for rules in family.shipped_rules():
                tables[family.name(rules)] = (game, family.builder(rules, **options))
    return tables


def takes_method(family) -> bool:
    """Whether the family's solver can be told how to solve (``solve_table(rules, method=...)``)."""
    import inspect

    return "method" in inspect.signature(family.build().solve_table).parameters


def _read(path: str) -> bytes | None:
    """The file's bytes; None when it does not exist."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SystemExit("build_tables.py: cannot read %s (%s)" % (path, error.strerror or error)) from None


# Header fields written from floating-point results (a bound computed from a residual): on another
# machine they may differ in their last digit along with the values.
FLOAT_FIELDS = ("error_bound",)
# Without an error bound in the header, values this close (relative) are taken for rounding noise.
NOISE = 1e-12
# Checksums change with any byte: they are not reported as differences of their own.
_CHECKSUMS = ("header_crc32", "crc32")


class Difference:
    """What differs between a table file and a fresh build of it: ``lines`` (one thing each),
    ``summary`` (one line) and ``verdict``: "missing", "unreadable", "floats" (floating-point values
    only, within the table's error bound, no printed answer changed: a difference between machines)
    or "changed" (the solver or the table changed)."""

    def __init__(self, verdict: str, lines: list, summary: str):
        self.verdict, self.lines, self.summary = verdict, lines, summary

    def advice(self) -> str:
        if self.verdict == "floats":
            return ("a floating-point difference between machines (BLAS build or CPU), not a stale table; "
                    "report it with the lines above (rebuild and commit only if you changed the solver)")
        if self.verdict == "missing":
            return "build it with `make tables` and commit data/"
        if self.verdict == "unreadable":
            return "rebuild it with `make tables` and commit data/"
        return "the solver or the table changed: rebuild with `make tables` and commit data/"


def compare(old: bytes | None, new: bytes) -> Difference:
    """What differs between ``old`` (a table file's bytes; None: no file) and ``new`` (a fresh build):
    header fields, arrays, how many elements, by how much."""
    import msgpack

    if old is None:
        return Difference("missing", ["no such file"], "the file is missing")
    fresh = msgpack.unpackb(new, raw=False)
    try:
        stored = msgpack.unpackb(old, raw=False)
        if not isinstance(stored, dict) or not isinstance(stored.get("arrays"), dict):
            raise ValueError("no arrays")
    except Exception as error:  # noqa: BLE001 - msgpack raises many kinds on damaged bytes
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return Difference("unreadable", ["not a readable table file (%s)" % reason],
                          "the file is damaged or not a table")
    lines, structure, noise = [], [], []
    keys = [key for key in stored if key not in _CHECKSUMS and key != "arrays"]
    new_keys = [key for key in fresh if key not in _CHECKSUMS and key != "arrays"]
    for key in keys + [key for key in new_keys if key not in stored]:
        if key not in fresh or key not in stored:
            line = "header field %s: only in the %s" % (key, "file" if key in stored else "build")
        elif stored[key] != fresh[key]:
            line = "header field %s: %r in the file, %r built" % (key, stored[key], fresh[key])
        else:
            continue
        lines.append(line)
        (noise if key in FLOAT_FIELDS and key in fresh and key in stored else structure).append(line)
    if not structure and keys != new_keys:
        lines.append("header fields in another order")
        structure.append(lines[-1])
    bounds = [_number(header.get(field)) for header in (stored, fresh) for field in FLOAT_FIELDS]
    bound = max([value for value in bounds if value is not None], default=None)
    floats = entries = printed = 0  # float elements that differ, whole-number ones, changed printed values
    largest = relative = 0.0
    old_arrays, new_arrays = stored["arrays"], fresh["arrays"]
    for name in list(old_arrays) + [name for name in new_arrays if name not in old_arrays]:
        found = _array_difference(name, old_arrays.get(name), new_arrays.get(name))
        if found is None:
            continue
        line, kind, count, worst, worst_relative, shown = found
        lines.append(line)
        if kind == "float":
            floats, printed = floats + count, printed + shown
            largest, relative = max(largest, worst), max(relative, worst_relative)
        elif kind == "whole":
            entries += count
        else:
            structure.append(line)
    if not lines:
        lines.append("every header field and array value is equal, but the bytes differ (the encoding changed)")
        structure.append(lines[-1])
    parts = [structure[0]] if structure else []
    if floats:
        parts.append("values differ by at most %.2g in %d element%s" % (largest, floats, _s(floats)))
        if printed:
            parts.append("%d of them print differently" % printed)
    parts.append("%d move%s or other whole-number entr%s differ" % (entries, _s(entries), "y" if entries == 1
                                                                     else "ies") if entries else "no move differs")
    if noise:
        parts.append("the error bound in the header differs")
    within = largest <= 2 * bound if bound is not None else relative <= NOISE
    verdict = "floats" if not structure and not entries and not printed and within else "changed"
    if floats and not within:
        parts.append("more than rounding (%s)" % ("twice the error bound %.2g" % bound if bound is not None
                                                  else "relative %.2g" % NOISE))
    return Difference(verdict, lines, ", ".join(parts))


def _array_difference(name, a, b):
    """(line, kind, elements that differ, largest difference, largest relative one, printed differently)
    for one array, kind "float", "whole" or "structure"; None when it is the same."""
    import numpy as np

    if a is None or b is None:
        return "array %s: only in the %s" % (name, "file" if b is None else "build"), "structure", 0, 0.0, 0.0, 0
    if not isinstance(a, dict):
        return "array %s: not an array in the file" % name, "structure", 0, 0.0, 0.0, 0
    if a.get("dtype") != b.get("dtype") or a.get("shape") != b.get("shape"):
        return ("array %s: %s %s in the file, %s %s built" % (name, a.get("dtype"), a.get("shape"), b.get("dtype"),
                                                               b.get("shape")), "structure", 0, 0.0, 0.0, 0)
    dtype = np.dtype(b["dtype"])
    data = a.get("data")
    if not isinstance(data, bytes) or len(data) != len(b["data"]):
        return "array %s: %s bytes in the file, %d built" % (name, len(data) if isinstance(data, bytes) else "no",
                                                              len(b["data"])), "structure", 0, 0.0, 0.0, 0
    x, y = np.frombuffer(data, dtype=dtype), np.frombuffer(b["data"], dtype=dtype)
    bits = "u%d" % dtype.itemsize
    differ = np.flatnonzero(x.view(bits) != y.view(bits))  # bit for bit: -0.0 is not 0.0
    if not differ.size:
        return None
    if dtype.kind != "f":
        first = int(differ[0])
        return ("array %s: %d of %d entries differ (the first at %d: %s in the file, %s built)"
                % (name, differ.size, len(x), first, x[first], y[first]), "whole", differ.size, 0.0, 0.0, 0)
    u, v = x[differ].astype(float), y[differ].astype(float)
    with np.errstate(invalid="ignore", over="ignore"):
        gap = np.abs(u - v)
        worst = float(gap.max()) if np.isfinite(gap).all() else float("inf")
        worst_relative = float((gap / np.maximum(np.maximum(np.abs(u), np.abs(v)), 1.0)).max()) \
            if np.isfinite(gap).all() else float("inf")
    shown = sum("%.6f" % p != "%.6f" % q for p, q in zip(u.tolist(), v.tolist()))
    return ("array %s: %d of %d values differ, by at most %.2g; %s" % (
        name, differ.size, len(x), worst, "%d of them print differently (%%.6f)" % shown if shown
        else "none prints differently (%.6f)"), "float", differ.size, worst, worst_relative, shown)


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class _Unwritable(Exception):
    """Standard output cannot be written (a full disk, a closed pipe)."""


def _say(text: str) -> None:
    try:
        print(text)
    except OSError as error:
        raise _Unwritable(error) from None


def _flush() -> None:
    try:
        sys.stdout.flush()
    except OSError as error:
        raise _Unwritable(error) from None


def _workers(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= layers.MAX_WORKERS:
        raise argparse.ArgumentTypeError("a whole number from 1 to %d, not '%s'" % (layers.MAX_WORKERS, text[:60]))
    return int(text)


class _Help(argparse.Action):
    """argparse's --help, but a help that cannot be written is an error (argparse's own ignores it)."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        _say(parser.format_help().rstrip("\n"))
        parser.exit()


def main(argv=None) -> int:
    """Run the command; a full disk or a closed pipe on standard output is one line on stderr, exit 1."""
    try:
        try:
            code = _main(argv)
        except SystemExit:
            _flush()  # --help, usage errors: what they printed must get out too
            raise
        _flush()
        return code
    except _Unwritable as error:
        reason = error.args[0]
        try:  # the interpreter's own flush at exit would fail again, with a traceback
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        print("build_tables.py: cannot write the output (%s)" % (getattr(reason, "strerror", None) or reason),
              file=sys.stderr)
        return 1


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    parser.add_argument("-h", "--help", action=_Help, help="show this help message and exit")
    parser.add_argument("--check", action="store_true", help="exit 1 if data/ differs from a fresh build")
    parser.add_argument("--out", default=DATA, help="folder to write (default: data/)")
    parser.add_argument("--game", action="append", choices=sorted(registry.GAMES), help="only this game (repeatable)")
    parser.add_argument("--workers", type=_workers, metavar="N", help="workers of a layered build (docs/CLUSTER.md); "
                        "default $SHUTTHEBOX_WORKERS or this machine's cores")
    parser.add_argument("--cluster", metavar="ADDRESS", help="build on this Dask scheduler (tcp://HOST:8786); "
                        "default $SHUTTHEBOX_CLUSTER")
    parser.add_argument("--method", choices=("value", "policy"), help="how the solvers that offer a choice "
                        "(toggle) find the optimal policy: value iteration (default) or policy iteration; the "
                        "same bytes")
    args = parser.parse_args(argv)
    if args.method is not None and not any(takes_method(family) for game in args.game or registry.GAMES
                                           for family in registry.declaration(game).tables):
        parser.error("--method: no solver of %s offers a choice of method" % ", ".join(args.game))
    if (args.cluster or (args.workers or 1) > 1) and importlib.util.find_spec("distributed") is None:
        parser.error("--workers and --cluster need Dask distributed: " + layers.INSTALL)
    # Layered builds (engine/layers.py) read these, also when solved on first use.
    if args.workers is not None:
        os.environ[layers.WORKERS_ENV] = str(args.workers)
    if args.cluster is not None:
        os.environ[layers.CLUSTER_ENV] = args.cluster
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        parser.error("--out %s is not a folder" % args.out)
    stale = []
    try:
        for name, (game, build) in shipped(args.game, args.method).items():
            started = time.perf_counter()
            data = build()
            seconds = time.perf_counter() - started
            path = os.path.join(args.out, name)
            if args.check:
                old = _read(path)
                same = old == data
                _say("%s: %s (%d bytes, built in %.2f s)" % (path, "up to date" if same else "DIFFERS", len(data),
                                                              seconds))
                if not same:
                    difference = compare(old, data)
                    for line in difference.lines:
                        _say("  " + line)
                    stale.append((path, difference))
                continue
            try:
                changed = write_atomic(path, data)
            except OSError as error:
                print("build_tables.py: cannot write %s (%s)" % (path, error.strerror or error), file=sys.stderr)
                return 1
            _say("%s: %s (%d bytes, built in %.2f s)" % (path, "written" if changed else "unchanged", len(data),
                                                          seconds))
    except layers.Stopped:  # a layered build said where its finished layers are kept
        return 130
    except KeyboardInterrupt:
        print("interrupted; no table was left half-written", file=sys.stderr)
        return 130
    if stale:
        _flush()  # what differs, then what to do
        for path, difference in stale:
            print("build_tables.py: %s: %s: %s" % (path, difference.summary, difference.advice()), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
