"""A seeded splitmix64 generator whose state is a one-element uint64 array.

Kernels carry their own generator instead of numba's global one so that every
game has its own stream: results depend only on the seed, never on threads.
"""

import numpy as np

from tessera.kernels.jit import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

# Streams drawn from one seed by a game and its players (``tessera.agents``, the batched
# self-play kernel), xor-ed into the seed so that they never share draws:
CHANCE_SALT = 0x5DEECE66D  # chance events of a played game, apart from its start
SAMPLE_SALT = 0x2545F4914F6CDD1D  # an agent's determinizations, apart from its tie-breaks
# Parallel streams of one seed (a search's threads, a batch's games): stream i of seed s is
# seeded s * STREAM_STRIDE + i, a prime apart so that neighbouring seeds do not share streams.
STREAM_STRIDE = 1_000_003


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def make_rng(seed):
    rng = np.empty(1, np.uint64)
    rng[0] = mix64(np.uint64(seed) + _GAMMA)
    return rng


def chance_rng(seed):
    """The generator of the chance steps of the game dealt from ``seed`` (after its
    deal): self-play, analyze, the web board and the learning adapters all draw from
    it, so one seed and one list of player moves are one game everywhere."""
    return make_rng(seed ^ CHANCE_SALT)


@njit(cache=True, inline="always")
def next_u64(rng):
    rng[0] += _GAMMA
    return mix64(rng[0])


@njit(cache=True, inline="always")
def below(rng, n):
    """A uniform integer in [0, n) (n > 0), by multiply-shift on the top 32 bits."""
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def reseed(rng, seed):
    """Point an existing generator at ``seed``: the stream of ``make_rng(seed)``, no allocation."""
    rng[0] = mix64(np.uint64(seed) + _GAMMA)
