"""The ``ShutTheBox`` command: argv -> the game's grammar (by the registry) -> its answer.

    ShutTheBox --two --move 13456789 17 12     Shut the Box, the default game
    ShutTheBox toggle --expect all             another game, named first
    ShutTheBox serve                           the browser assistant

Exit status: 0 answered, 1 a batch line failed, 2 bad query, 3 table missing
or damaged (engine/command.py).
"""

import sys

from . import registry
from .engine.command import run


def main(argv=None) -> int:
    """Run the command; return its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["serve"]:  # imported only when asked for: the query path stays light
        from .web.server import main as serve_main

        return serve_main(argv[1:])
    name = registry.DEFAULT
    if argv and argv[0] in registry.NAMED:
        name, argv = argv[0], argv[1:]
    return run(registry.grammar(name), argv)
