"""Who sits where in game ``i``: every agent plays every seat equally often.

With ``k`` agents and ``p`` seats (``lineup`` gives the agent index of each seat):

- ``k <= p``: seat ``s`` of game ``i`` holds agent ``(s + i) mod k``: the agent list,
  repeated to fill the table, rotated by one seat a game. With ``k == p`` that is
  the plain rotation; two agents at four seats sit A B A B, then B A B A; two at
  three sit A B A, then B A B. Over any ``k`` consecutive games each agent has
  held each seat once.
- ``k > p`` (a round robin): game ``i`` seats the ``(i mod P)``-th of the ``P``
  ordered choices of ``p`` different agents, in lexicographic order
  (``itertools.permutations``): every pairing meets in every order, and each
  agent holds each seat equally often over ``P`` games.

``period`` is the number of games after which the seating repeats: a batch whose
size is a multiple of it is exactly balanced.
"""

from functools import cache
from itertools import permutations

import numpy as np


def lineup(agents, seats, index):
    """The agent index at each seat of game ``index``, as a tuple."""
    return tuple(int(agent) for agent in lineups(agents, seats, [index])[0])


def lineups(agents, seats, indices):
    """[games, seats]: ``lineup`` of each game in ``indices``."""
    indices = np.asarray(indices, np.int64)
    if agents <= seats:
        return (np.arange(seats)[None, :] + indices[:, None]) % agents
    choices = np.array(_round_robin(agents, seats), np.int64)
    return choices[indices % len(choices)]


def period(agents, seats):
    return agents if agents <= seats else len(_round_robin(agents, seats))


@cache
def _round_robin(agents, seats):
    return tuple(permutations(range(agents), seats))
