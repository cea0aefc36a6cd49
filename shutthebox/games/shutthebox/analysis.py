"""Shut the Box's analysis commands (analysis time): ``simulate`` and ``report``, both of the one-player game."""

from .solo.report import main as report_main  # noqa: F401 - ShutTheBox report
from .solo.simulate import main as simulate_main  # noqa: F401 - ShutTheBox simulate
