"""Perft: the number of move paths of a given length from a position, for the speed and
the correctness of move generation (``tessera perft``, ``tessera bench``).

Perft stops at chance steps: a path that reaches a refill or the end of the game counts
as one leaf, whatever depth is left, so it measures move generation and never the bag.
Each game counts with its own compiled instance of one kernel; ``ready`` compiles or
loads it, so that a timed count measures counting only.
"""

from __future__ import annotations

import numpy as np

from tessera.errors import TesseraError
from tessera.position import Position


def _kernels(position: Position):
    from tessera.kernels import bind

    if position.is_view:
        raise TesseraError("perft needs a complete position; this is a player's view")
    return bind.instance(position.state[0], "perft")


def ready(position: Position, divided: bool = False) -> None:
    """Compile, or load from numba's cache, what ``count`` (with ``divided``, ``divide``)
    needs for ``position``'s game."""
    kernels = _kernels(position)
    state = position.state
    kernels.perft(state, 0)
    if divided:
        kernels.perft_divide(state, 1, np.zeros(_max_moves(state), np.int64))


def count(position: Position, depth: int) -> int:
    """The move paths of ``depth`` plies from ``position``."""
    return int(_kernels(position).perft(position.state, depth))


def divide(position: Position, depth: int) -> list[tuple[str, int]]:
    """(move, paths below it) for each legal move, in the order of ``legal_moves``; empty
    at depth 0, at chance and at the end of the game."""
    if depth < 1 or position.to_move is None:
        return []
    state = position.state
    counts = np.zeros(_max_moves(state), np.int64)
    moves = _kernels(position).perft_divide(state, depth, counts)
    return list(zip(position.legal_moves[:moves], map(int, counts[:moves])))


def _max_moves(state):
    from tessera.kernels import games

    return games.max_moves(state)
