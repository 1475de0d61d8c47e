"""A transposition table in plain numpy arrays, keyed by the 64-bit position hash.

The table is a tuple ``(keys, values, bounds, depths, moves, stats)`` of arrays with
a power-of-two number of slots, grouped in buckets of two:

- slot A (even index) keeps the deepest entry seen for the bucket; a proven entry
  (depth ``PROVEN``) counts as deepest. A newcomer at least as deep takes A, and
  the entry it pushes out moves down to B;
- slot B (odd index) always takes the newcomer that did not make it into A.

So deep and proven results survive a flood of shallow ones, and the newest shallow
result is still at hand. ``bounds`` says what ``values`` is: an exact value, a
lower bound (the search failed high) or an upper bound (it failed low); an
``EMPTY`` slot holds nothing. ``stats`` counts probes and hits (key found).
"""

import numpy as np

from tessera.kernels.jit import njit

EMPTY = 0
EXACT = 1
LOWER = 2
UPPER = 3

PROVEN = 32767  # the depth of an entry whose subtree reached the horizon everywhere

PROBES = 0
HITS = 1


def new_table(bits):
    """An empty table of ``2**bits`` slots (``bits`` at least 1)."""
    size = 1 << max(1, int(bits))
    return (
        np.zeros(size, np.int64),
        np.zeros(size, np.float64),
        np.zeros(size, np.int8),
        np.zeros(size, np.int16),
        np.zeros(size, np.int32),
        np.zeros(2, np.int64),
    )


@njit(cache=True)
def probe(table, key):
    """The slot holding ``key``, or -1."""
    keys, _, bounds, _, _, stats = table
    stats[PROBES] += 1
    a = key & (keys.size - 2)
    for slot in (a, a + 1):
        if bounds[slot] != EMPTY and keys[slot] == key:
            stats[HITS] += 1
            return slot
    return -1


@njit(cache=True)
def store(table, key, value, bound, depth, move):
    keys, values, bounds, depths, moves, _ = table
    a = key & (keys.size - 2)
    if bounds[a] == EMPTY or depth >= depths[a]:
        if bounds[a] != EMPTY and keys[a] != key:
            _copy_slot(table, a, a + 1)
        slot = a
    else:
        slot = a + 1
    keys[slot] = key
    values[slot] = value
    bounds[slot] = bound
    depths[slot] = depth
    moves[slot] = move


@njit(cache=True)
def _copy_slot(table, src, dst):
    keys, values, bounds, depths, moves, _ = table
    keys[dst] = keys[src]
    values[dst] = values[src]
    bounds[dst] = bounds[src]
    depths[dst] = depths[src]
    moves[dst] = moves[src]


def hit_rate(table):
    stats = table[5]
    return float(stats[HITS] / stats[PROBES]) if stats[PROBES] else 0.0
