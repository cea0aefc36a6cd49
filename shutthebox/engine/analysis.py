"""What the games' analysis commands (strategies, simulate, report) share; analysis time only."""

import os
import sys

from ..errors import ShutTheBoxError
from .writer import write_atomic


def run_command(prog: str, work) -> int:
    """``work()``, returning its exit status; a bad option, a table problem or a report
    that cannot be written is one line on stderr, never a traceback."""
    try:
        return work()
    except ShutTheBoxError as error:
        sys.stderr.write("%s: %s\n" % (prog, error))
        return error.exit_status
    except OSError as error:
        sys.stderr.write("%s: cannot write the report (%s)\n" % (prog, error.strerror or error))
        return 1


def write_report(folder: str, files) -> None:
    """Write ``files`` (pairs of name and text) into ``folder``, each atomically; say what was written."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for name, text in files:
        paths.append(os.path.join(folder, name))
        write_atomic(paths[-1], text)
    print("wrote " + ", ".join(paths))
