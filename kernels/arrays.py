"""Copying one array into another of the same size, word by word.

``dst[:] = src`` with an array on the right compiles numba's size check, whose error
message formats the shapes as text: numba's string code, about 2 s of compiling in every
process that compiles such an assignment first (``bench/start_speed.py``). The kernels
copy states and tree rows with ``copy_into`` instead; the sizes always match there.
"""
from numba import njit


@njit(cache=True)
def copy_into(dst, src):
    for i in range(src.size):
        dst[i] = src[i]
