"""Goat for two players, PettingZoo AEC (``from shutthebox.rl import goat_v0``)::

    env = goat_v0.env(goal=100)                       # docs/RL.md
"""

from pettingzoo.utils import wrappers

from ._goat_two import GoatTwoEnv as raw_env


def env(**options):
    """The environment with PettingZoo's usual checks: ``AssertOutOfBoundsWrapper`` (an action outside the
    space is an error; an illegal one inside it is not: it changes nothing) and ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**options)))


__all__ = ["env", "raw_env"]
