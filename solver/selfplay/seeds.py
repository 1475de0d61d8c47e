"""The seeds of game ``i`` of a batch: all derived from (batch seed, i), never from order.

A game's seed is what ``Game.new`` deals the start position with (and, through
``tessera.agents.play_game``, what seeds the chance stream); each seat's agent gets
its own seed from the game's. Both go through splitmix64's finaliser, the batch
seed first and then the game number, so nearby batch seeds and game numbers give
unrelated games and no two (seed, i) share a stream by construction.
"""

import numpy as np

SEAT_SALT = 0x2545F4914F6CDD1D  # keeps the agents' seeds apart from the games'
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = 2**64 - 1


def _mix64(z):
    """splitmix64's finaliser on a uint64 array (numpy wraps the products mod 2**64)."""
    z = z ^ (z >> np.uint64(30))
    z = z * np.uint64(_MIX1)
    z = z ^ (z >> np.uint64(27))
    z = z * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


def game_seeds(seed, indices):
    """The seed of each game in ``indices``: a whole number below 2**63, as ``Game.new`` takes."""
    steps = np.asarray(indices, np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        base = _mix64(np.array([(seed + _GAMMA) & _MASK], np.uint64))
        mixed = _mix64(base + steps * np.uint64(_GAMMA))
    return (mixed >> np.uint64(1)).astype(np.int64)


def agent_seeds(seeds, seats):
    """[games, seats]: each seat's agent seed, below 2**32 (as MCTS seeds are kept)."""
    salted = np.asarray(seeds, np.int64).astype(np.uint64) ^ np.uint64(SEAT_SALT)
    with np.errstate(over="ignore"):
        mixed = _mix64(salted[:, None] + np.arange(1, seats + 1, dtype=np.uint64)[None, :])
    return (mixed >> np.uint64(32)).astype(np.int64)
