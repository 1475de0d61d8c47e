"""The kernels every game's search calls, ready before the game is known.

A command reading its position from a pipe (``tessera new azul | tessera best -``) waits
for the writer, which is itself compiling or loading its own kernels. Compiling these
meanwhile (or loading them from numba's cache) takes them off the first search's
compile, about 1.5 s of it on a cold cache (``bench/start_speed.py``); it stops when the
input comes, so a command that needs none of them loses at most one kernel's compile.
The signatures are those the games' kernels call them with; ``tests/test_shared_kernels.py``
checks that an Azul search (the README's) calls every one, so none is compiled for
nothing there (an Azure search calls fewer of them).
"""

from numba import types

from tessera.kernels import arrays, common, complete, hashing, rng
from tessera.kernels.search import clock

_INT = types.int64
_INTS = types.int64[::1]
_FLOATS = types.float64[::1]
_WORDS = types.uint64[::1]

SIGNATURES = (
    (arrays.copy_into, (_INTS, _INTS)),
    (arrays.copy_into, (_FLOATS, _FLOATS)),
    (arrays.ints, (_INT,)),
    (arrays.floats, (_INT,)),
    (arrays.zero_ints, (_INT,)),
    (arrays.zero_floats, (_INT,)),
    (rng.make_rng, (_INT,)),
    (common.count_of, (_INT, _INT)),
    (common.one_of, (_INT,)),
    (common.draw_moves, (_INT, _INT, _INT, _INTS)),
    (common.sample_draw, (_INT, _INT, _INT, _INT, _WORDS)),
    (common.share_win, (_INTS, _FLOATS)),
    (hashing.position_hash, (_INTS,)),
    (complete.is_complete, (_INTS,)),
    (clock.now, ()),
    (clock.simulations_until_check, (_INT, types.float64, types.float64)),
)


def prepare(until):
    """Compile (or load from the cache) the kernels of ``SIGNATURES`` in turn, stopping
    before the next one once ``until()`` is true (e.g. the input has come)."""
    for kernel, signature in SIGNATURES:
        if until():
            return
        kernel.compile(signature)
