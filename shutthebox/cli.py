"""The ``ShutTheBox`` command: argv -> the game's grammar (by the registry) -> its answer.

    ShutTheBox --two --move 13456789 17 12     Shut the Box, the default game
    ShutTheBox toggle --expect all             another game, named first
    ShutTheBox serve                           the browser assistant
    ShutTheBox --completion bash               the shell's completion script (bash or zsh)

A first word that names no game and that Shut the Box cannot read either (``ShutTheBox yahtze``,
``ShutTheBox help``) is answered in one line naming the games and the nearest.

Exit status: 0 answered, 1 a batch line failed, 2 bad query, 3 table missing
or damaged, 4 a package missing (engine/command.py); 130 interrupted (Ctrl-C), even while starting.
"""

import sys

from . import __version__, registry
from .engine.command import guarded, looks_like_option, nearest, run
from .errors import InvalidQuery

SERVE = "serve"
COMPLETION = "--completion"  # ShutTheBox --completion bash|zsh: the shell's completion script
# Words a newcomer may try for help; they are pointed to --help.
HELP_WORDS = ("help", "h", "usage", "man", "info")


def main(argv=None) -> int:
    """Run the command; return its exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C while the game's modules are imported: quiet, as once it is answering
        return 130


def _main(argv) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == [SERVE]:  # imported only when asked for: the query path stays light
        from .web.server import main as serve_main

        return serve_main(argv[1:])
    if argv[:1] == [COMPLETION]:
        from .completion import main as completion_main

        return guarded(lambda: completion_main(argv[1:]))
    name = registry.DEFAULT
    if argv and argv[0] in registry.NAMED_FIRST:
        name, argv = argv[0], argv[1:]
    elif argv[:1] == [registry.DEFAULT]:  # named as shutthebox.open() names it: the same game
        argv = argv[1:]
    grammar = registry.grammar(name)
    if name == registry.DEFAULT and argv and _may_name_a_game(argv[0], grammar):
        word = argv[0]
        # Only if Shut the Box refuses the command line: its answer is then about the first word.
        return run(grammar, argv, refused=lambda error: InvalidQuery(not_a_game(word, grammar)), version=__version__)
    return run(grammar, argv, version=__version__)  # --version: the package's, given (the engine imports no parent)


def _may_name_a_game(word: str, grammar) -> bool:
    """A first word that reads as a name, not as an option, a position (``146789``, ``all``, ``none``)
    or a number, nor one of Shut the Box's commands (``simulate``, ``report``)."""
    return (word[:1].isalpha() and not looks_like_option(word) and word not in ("all", "none")
            and word not in getattr(grammar, "COMMANDS", {}))


def not_a_game(word: str, grammar) -> str:
    """The one line for a first word that is no game, nor a question of Shut the Box (the default game)."""
    from .engine.text import shown

    games = ", ".join(registry.NAMED_FIRST)
    commands = ", ".join([SERVE, *getattr(grammar, "COMMANDS", {})])
    if word.lower() in HELP_WORDS:
        return ("'%s' is not a question: for help, ask ShutTheBox --help (a game's own: ShutTheBox GAME --help; "
                "the games: %s)" % (shown(word), games))
    found = nearest(word, [*registry.NAMED_FIRST, registry.DEFAULT, SERVE, *getattr(grammar, "COMMANDS", {})])
    if found == registry.DEFAULT:
        return ("'%s': Shut the Box is the game of a command line that names none, like ShutTheBox --one --expect "
                "123456789 (the other games: %s; see --help)" % (shown(word), games))
    return "'%s' is not a game or a command%s (the games: %s, and Shut the Box when none is named; commands: %s; " \
           "see --help)" % (shown(word), "" if found is None else ": did you mean %s?" % found, games, commands)
