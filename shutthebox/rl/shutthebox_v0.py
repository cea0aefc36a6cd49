"""Shut the Box for 2 to 8 players, PettingZoo AEC (``from shutthebox.rl import shutthebox_v0``)::

    env = shutthebox_v0.env(players=3, tiles=10)      # any rule set the command takes (docs/RL.md)
"""

from pettingzoo.utils import wrappers

from .players import ShutTheBoxPlayersEnv as raw_env


def env(**options):
    """The environment with PettingZoo's usual checks: ``AssertOutOfBoundsWrapper`` (an action outside the
    space is an error; an illegal one inside it is not: it changes nothing) and ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**options)))


__all__ = ["env", "raw_env"]
