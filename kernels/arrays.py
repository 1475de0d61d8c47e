"""Copying one array into another of the same size, word by word; sorting a short prefix.

``dst[:] = src`` with an array on the right compiles numba's size check, whose error
message formats the shapes as text: numba's string code, about 2 s of compiling in every
process that compiles such an assignment first (``bench/start_speed.py``). The kernels
copy states and tree rows with ``copy_into`` instead; the sizes always match there.
"""
from kernels.jit import njit


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
