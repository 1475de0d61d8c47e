"""The hidden-information part of the game interface for games where nothing is hidden
(Azul, Summer Pavilion): every state is complete, a view is a copy, and so is a
determinization."""

from tessera.kernels.arrays import copy_into
from tessera.kernels.jit import njit


@njit(cache=True)
def is_complete(state):
    return True


@njit(cache=True)
def view(state, observer, out):
    copy_into(out, state)


@njit(cache=True)
def determinize(state, observer, rng, out):
    copy_into(out, state)
