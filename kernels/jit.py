"""numba's ``njit`` as every kernel uses it: without the C-callable wrapper.

By default numba compiles, beside each function, a wrapper that lets the function be
passed to other jitted code as a first-class function object. Tessera never does
that (a function passed as an argument would defeat ``cache=True``), and the wrapper
cost about 15 % of compiling a first search: some 2 s of a first Summer Pavilion
``best`` (``bench/start_speed.py``). Kernels import ``njit`` from here instead of
from numba; calls between kernels and from Python are the same.
"""
from functools import partial

from numba import njit as numba_njit

njit = partial(numba_njit, no_cfunc_wrapper=True)
