"""The query path imports the standard library, msgpack and our reader, nothing else."""

import json
import subprocess
import sys

from conftest import ROOT

ALLOWED_OURS = {"shutthebox", "shutthebox.api", "shutthebox.cli", "shutthebox.errors", "shutthebox.notation",
                "shutthebox.rules", "shutthebox.table", "shutthebox.variants"}

PROBE = """
import json, sys
before = set(sys.modules)
from shutthebox.cli import main
status = main(%r)
print(json.dumps({"status": status, "new": sorted(set(sys.modules) - before)}))
"""


def imported_by(args):
    result = subprocess.run([sys.executable, "-c", PROBE % (args,)], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    return json.loads(result.stdout.splitlines()[-1])


def test_a_query_imports_no_solver_and_nothing_outside_stdlib_and_msgpack():
    for args in (["--two", "--move", "13456789", "17", "12"], ["--one", "--expect", "123456789"],
                 ["--tiles", "12", "--two", "--move", "13456789", "17", "12"]):
        probe = imported_by(args)
        assert probe["status"] == 0
        ours = {name for name in probe["new"] if name.split(".")[0] == "shutthebox"}
        assert ours <= ALLOWED_OURS, ours - ALLOWED_OURS
        assert "shutthebox.solver" not in probe["new"] and "shutthebox.writer" not in probe["new"]
        foreign = {name.split(".")[0] for name in probe["new"]} - set(sys.stdlib_module_names)
        # msgpack's compiled extension registers Cython's runtime modules.
        foreign = {name for name in foreign if not name.startswith(("_cython_", "cython_runtime"))}
        assert foreign <= {"shutthebox", "msgpack"}, foreign
        # Heavy standard modules the query path has no use for.
        assert not {"fractions", "argparse", "dataclasses", "typing", "http"} & set(probe["new"])


def test_package_import_alone_does_not_load_the_reader():
    probe = subprocess.run([sys.executable, "-c", "import sys, shutthebox; print('shutthebox.table' in sys.modules)"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert probe.stdout.strip() == "False"
