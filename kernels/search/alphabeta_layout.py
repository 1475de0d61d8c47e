"""The values, modes and arrays of an alpha-beta search, shared by the alpha-beta template
(``tessera.kernels.search.alphabeta``, which describes the two modes) and the search in
Python (``tessera.search.alphabeta``), which never imports the template itself.
"""

import numpy as np

SCALE = 4.0  # MODE_ROUND values a point of margin: room for the tie-break step between two margins
UNLIMITED = 10_000  # a depth no round reaches; below ttable.PROVEN
TOLERANCE = 1e-9  # values are equal within this (they are whole multiples in Azul)
LOGISTIC_POINTS = 5.0  # MODE_GAME cut-off: a lead of this many points is worth 1/(1+e^-1) = 0.73

# Search modes (word MODE of ``limits``).
MODE_ROUND = 0  # to the end of the round: score margins, chance is a leaf
MODE_GAME = 1  # to the end of the game: win probabilities, chance searched through

# Indices of the int64 ``counters`` array.
NODES = 0
UNPROVEN = 1  # heuristic leaves and unproven table cut-offs met
ABORTED = 2
NEXT_CLOCK = 3
DEEPEST = 4  # the deepest ply searched
COUNTERS = 5

# Indices of the float64 ``limits`` array.
DEADLINE = 0  # time.perf_counter() seconds
NODE_LIMIT = 1
MODE = 2  # MODE_ROUND or MODE_GAME


def new_counters():
    return np.zeros(COUNTERS, np.int64)


def new_limits(deadline=np.inf, node_limit=np.inf, mode=MODE_ROUND):
    """The search's limits and mode, as one float64 array (words DEADLINE, NODE_LIMIT, MODE)."""
    if mode not in (MODE_ROUND, MODE_GAME):
        raise ValueError(f"unknown search mode {mode!r}")
    return np.array([deadline, node_limit, mode], np.float64)
