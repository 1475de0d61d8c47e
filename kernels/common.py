"""Kernel pieces Azul and Summer Pavilion share: tile sets, draws from a bag, the win, the
layout of their value features.

A tile set is one int64 word with the count of colour ``c`` in the byte lane at bits
``8c .. 8c+7``. A game passes its own number of colours and the code of its chance
move for colour 0 (chance moves are that code plus the colour drawn).
"""

from tessera.kernels.jit import njit
from tessera.kernels.rng import below

LANE_BITS = 8
LANE_MASK = 0xFF


@njit(cache=True)
def count_of(tiles, colour):
    return (tiles >> (LANE_BITS * colour)) & LANE_MASK


@njit(cache=True, inline="always")
def write_counts(tiles, ncolours, out, at):
    """The count of each of ``ncolours`` colours of ``tiles`` into ``out[at:at + ncolours]``."""
    for c in range(ncolours):
        out[at + c] = count_of(tiles, c)


@njit(cache=True)
def one_of(colour):
    return 1 << (LANE_BITS * colour)


@njit(cache=True)
def draw_moves(pool, ncolours, chance_base, moves):
    """The chance moves of drawing a tile from ``pool``, one per colour it holds; the count."""
    n = 0
    for c in range(ncolours):
        if count_of(pool, c) > 0:
            moves[n] = chance_base + c
            n += 1
    return n


@njit(cache=True)
def draw_outcomes(pool, size, ncolours, chance_base, moves, probs):
    """``draw_moves`` with the probability of each: its count / ``size`` (the tiles in ``pool``)."""
    n = 0
    for c in range(ncolours):
        k = count_of(pool, c)
        if k > 0:
            moves[n] = chance_base + c
            probs[n] = k / size
            n += 1
    return n


@njit(cache=True)
def sample_draw(pool, size, ncolours, chance_base, rng):
    """The chance move of a random tile from ``pool`` (``size`` tiles): colour ``c`` with
    probability count / ``size``."""
    k = below(rng, size)
    for c in range(ncolours):
        k -= count_of(pool, c)
        if k < 0:
            return chance_base + c
    return -1


@njit(cache=True)
def share_win(rank, out):
    """Winners share 1: the players of the highest ``rank`` (one per player) split it equally."""
    n = rank.shape[0]
    best = rank[0]
    for p in range(1, n):
        best = max(best, rank[p])
    winners = 0
    for p in range(n):
        won = rank[p] == best
        out[p] = 1.0 if won else 0.0
        winners += 1 if won else 0
    for p in range(n):
        out[p] /= winners


@njit(cache=True)
def own_less_best_other(rows, players, quantities):
    """The board part of Azul's and Summer Pavilion's value features for every player at
    once: row p of ``rows`` holds player p's own ``quantities`` values from column
    ``quantities`` on; writes before them each one less the best other player's."""
    for p in range(players):
        for k in range(quantities):
            best_other = -1e300
            for q in range(players):
                if q != p:
                    best_other = max(best_other, rows[q, quantities + k])
            rows[p, k] = rows[p, quantities + k] - best_other
