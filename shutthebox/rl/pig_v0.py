"""Pig for two players, PettingZoo AEC (``from shutthebox.rl import pig_v0``)::

    env = pig_v0.env(variant="pig", goal=100)         # docs/RL.md
"""

from pettingzoo.utils import wrappers

from ._pig_two import PigTwoEnv as raw_env


def env(**options):
    """The environment with PettingZoo's usual checks: ``AssertOutOfBoundsWrapper`` (an action outside the
    space is an error; an illegal one inside it is not: it changes nothing) and ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**options)))


__all__ = ["env", "raw_env"]
