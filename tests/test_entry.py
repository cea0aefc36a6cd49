"""The command's process (docs/ARCHITECTURE.md, "A question's process"): both entry points answer a
question without one garbage collection, and leave none for the interpreter's exit."""

import ast
import os
import subprocess
import sys

import pytest
from conftest import COMMAND, ROOT

# Runs an entry point in this child, counting the collections it runs (gc.callbacks), then reports them
# and how many objects it froze on stderr. gc.collect() first: the count starts from zero, as in a
# process that has just started. A collection here means one in the entry point's own run.
PROBE = r"""
import gc, pkgutil, runpy, sys  # pkgutil: runpy's own import, not the entry point's
entry, sys.argv = sys.argv[1], ["ShutTheBox"] + sys.argv[2:]
if entry == "module":
    run = lambda: runpy.run_module("shutthebox", run_name="__main__", alter_sys=True)
else:  # compiled first, as the interpreter compiles a script before it runs its first line
    with open(entry, encoding="utf-8") as source:
        code = compile(source.read(), entry, "exec")
    run = lambda: exec(code, {"__name__": "__main__", "__file__": entry})
runs = []
gc.collect()
gc.callbacks.append(lambda phase, info: runs.append(info["generation"]) if phase == "start" else None)
try:
    run()
except SystemExit as exit:
    status = exit.code
gc.callbacks.clear()
sys.stdout.flush()
sys.stderr.write("%r\n" % ((status, runs, gc.get_freeze_count()),))
"""

QUESTIONS = {("--two", "--move", "13456789", "17", "12"): "[3, 9]\n",
             ("yazy", "--move", "ones,twos,yazy", "11256", "2"): "keep 1 1\n"}


@pytest.mark.parametrize("entry", [COMMAND, "module"], ids=["script", "python -m"])
@pytest.mark.parametrize("question", list(QUESTIONS), ids=" ".join)
def test_a_question_runs_no_collection_and_leaves_none_for_the_exit(entry, question, tmp_path):
    # As a user runs it: with bytecode caches (here kept apart from the checkout), so the second run's.
    environment = dict(os.environ, PYTHONPATH=ROOT, PYTHONPYCACHEPREFIX=str(tmp_path))
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", PROBE, entry, *question], capture_output=True, text=True,
                              cwd=ROOT, env=environment, timeout=60)
    assert done.stdout == QUESTIONS[question]
    status, runs, frozen = ast.literal_eval(done.stderr.splitlines()[-1])
    assert (status, runs) == (0, []), done.stderr
    assert frozen > 1000  # the modules' objects, frozen at the end: the exit's collection walks none of them
