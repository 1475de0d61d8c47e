"""Copying one array into another of the same size, word by word; sorting a short prefix;
allocating the 1-D arrays a game's search needs.

``dst[:] = src`` with an array on the right compiles numba's size check, whose error
message formats the shapes as text: numba's string code, about 2 s of compiling in every
process that compiles such an assignment first (``bench/start_speed.py``). The kernels
copy states and tree rows with ``copy_into`` instead; the sizes always match there.

``np.empty`` and ``np.zeros`` have their implementation compiled again in every process
whose kernels compile a call to them (numba caches it only inside each caller), about
0.05 s a signature. The search templates, compiled for each game, allocate their work
arrays through ``ints``, ``floats``, ``zero_ints`` and ``zero_floats`` instead, which
come from the cache with theirs compiled in (``compile_profile`` in results/start.json).
Hot loops keep numpy's own calls, which LLVM sees whole.
"""

import numpy as np

from tessera.kernels.jit import njit


@njit(cache=True)
def copy_into(dst, src):
    for i in range(src.size):
        dst[i] = src[i]


@njit(cache=True)
def sort_prefix(values, n):
    """Sort ``values[:n]`` in place, ascending: an insertion sort, linear on the already
    sorted move lists the games mostly generate. ``values[:n].sort()`` compiles numba's
    quicksort, about 1 s of compiling a first IS-MCTS search (``bench/start_speed.py``)."""
    for i in range(1, n):
        value = values[i]
        j = i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


@njit(cache=True)
def ints(n):
    return np.empty(n, np.int64)


@njit(cache=True)
def floats(n):
    return np.empty(n, np.float64)


@njit(cache=True)
def zero_ints(n):
    return np.zeros(n, np.int64)


@njit(cache=True)
def zero_floats(n):
    return np.zeros(n, np.float64)
