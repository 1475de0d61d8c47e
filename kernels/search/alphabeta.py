"""Alpha-beta search to the end of the round, for any game of ``kernels.games``.

A value is the root player's score margin (their score minus the best other
score), times ``SCALE``, from the root player's side, at the horizon:

- chance to act (the end of the round): the margin of the current scores;
- the game over: the final margin, plus a tie-break step of +1 / -1 when the
  payoffs say the root player won / lost outright (0 when the win is shared), so
  that a tie on points still tells win, draw and loss apart;
- the depth limit: the margin of ``games.evaluate`` (a heuristic cut-off).

The root player maximises; every other player minimises (2 players: minimax; 3-4
players: the paranoid choice). Who maximises is decided by ``to_move`` at each
node, not by alternation, because a player may move several times in a row.

A subtree is proven when it reached no heuristic leaf (and no unproven table
entry); proven results go into the table with depth ``ttable.PROVEN`` and are
reused at any depth. docs/search-alphabeta.md has the design.
"""
import time

import numpy as np
from numba import njit, objmode

from kernels import games
from kernels.constants import CHANCE, TERMINAL
from kernels.search import ttable

SCALE = 4.0             # leaves room for the tie-break step between two margins
INFINITY = 1e18
UNLIMITED = 10_000      # a depth no round reaches; below ttable.PROVEN
TOLERANCE = 1e-9        # values are equal within this (they are whole multiples in Azul)
CLOCK_EVERY = 1024      # nodes between two looks at the clock

# Indices of the int64 ``counters`` array.
NODES = 0
UNPROVEN = 1            # heuristic leaves and unproven table cut-offs met
ABORTED = 2
NEXT_CLOCK = 3
COUNTERS = 4

# Indices of the float64 ``limits`` array.
DEADLINE = 0            # time.perf_counter() seconds
NODE_LIMIT = 1

# What ``_expand`` found each child to be.
HORIZON = 0             # chance or game over: valued exactly
CUT_OFF = 1             # out of depth: valued by the heuristic
INNER = 2               # searched further
DUPLICATE = 3           # same position as an earlier INNER sibling: skipped


def new_work(state, max_ply):
    """Per-ply scratch: children, their moves, hashes, static values, kinds and order."""
    shape = (max_ply, games.MAX_MOVES)
    return (np.empty(shape + (state.size,), np.int64), np.empty(shape, np.int64),
            np.empty(shape, np.int64), np.empty(shape, np.float64), np.empty(shape, np.int8),
            np.empty(shape, np.int64), np.empty(max(1, games.players(state)), np.float64))


def new_counters():
    return np.zeros(COUNTERS, np.int64)


def new_limits(deadline=np.inf, node_limit=np.inf):
    return np.array([deadline, node_limit], np.float64)


@njit(cache=True)
def _now():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def _out_of_budget(counters, limits):
    """True once the node limit or the deadline has passed (the clock is read sparingly)."""
    if counters[ABORTED]:
        return True
    if counters[NODES] >= limits[NODE_LIMIT]:
        counters[ABORTED] = 1
    elif counters[NODES] >= counters[NEXT_CLOCK]:
        counters[NEXT_CLOCK] = counters[NODES] + CLOCK_EVERY
        if _now() > limits[DEADLINE]:
            counters[ABORTED] = 1
    return counters[ABORTED] != 0


@njit(cache=True)
def _margin(values, root):
    best_other = -INFINITY
    for p in range(values.size):
        if p != root and values[p] > best_other:
            best_other = values[p]
    return values[root] - best_other


@njit(cache=True)
def horizon_value(state, root, scratch):
    """The exact value where chance acts or the game is over."""
    games.scores(state, scratch)
    value = SCALE * _margin(scratch, root)
    if games.to_move(state) == TERMINAL:
        games.payoffs(state, scratch)
        if scratch[root] == 1.0:
            value += 1.0
        elif scratch[root] == 0.0:
            value -= 1.0
    return value


@njit(cache=True)
def heuristic_value(state, root, scratch):
    games.evaluate(state, scratch)
    return SCALE * _margin(scratch, root)


