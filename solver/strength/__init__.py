"""Measuring how well agents play: seeded matches between this version's agents and
another version's (``match``, ``Baseline``), plain 2-player pairings (``head_to_head``),
and MCTS against exact play in Azul's last round (tessera.strength.exact).

The command-line front ends are in the repository's bench/ (versus.py, agent_strength.py,
exact_check.py); the command line of the package itself does not load this.
"""

from tessera.strength.baseline import BASE_SUFFIX, Baseline, RemoteAgent, VersusError
from tessera.strength.matches import describe, head_to_head, match, play, summarize

__all__ = [
    "BASE_SUFFIX",
    "Baseline",
    "RemoteAgent",
    "VersusError",
    "describe",
    "head_to_head",
    "match",
    "play",
    "summarize",
]
