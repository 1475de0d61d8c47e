"""The common game interface: every function dispatches on the game id in word 0.

Search, playouts and perft are written once against these functions. Dispatching
on an integer (rather than passing jitted functions around) keeps every caller
cacheable by numba; the branch costs next to nothing.

Interface, for a state array ``state``:
- ``to_move(state)``: the player index, ``CHANCE`` or ``TERMINAL``;
- ``legal_moves(state, moves)``: the moves of whoever acts, written into ``moves``
  (at least ``MAX_MOVES`` long); returns the count;
- ``chance_outcomes(state, moves, probs)``: chance moves and their probabilities;
- ``sample_chance(state, rng)``: one chance move drawn with those probabilities;
- ``resolve_chance(state, rng)``: chance moves at random until a player acts;
- ``random_move(state, rng, moves)``: a uniformly random legal move of the player;
- ``apply_move(state, move)``: play a legal move in place;
- ``players(state)``, ``scores(state, out)``, ``payoffs(state, out)`` (winners share 1);
- ``evaluate(state, out)``: a cheap per-player estimate in score points;
- ``move_heuristic(state, move)``: a cheap score of one move, higher is better;
- ``position_hash(state)``: a stable 64-bit hash (``kernels.hashing``).
"""
from numba import njit

from kernels import azul
from kernels.constants import AZUL, CHANCE, TERMINAL  # noqa: F401  (re-exported)
from kernels.hashing import position_hash  # noqa: F401  (re-exported)

MAX_MOVES = azul.MAX_MOVES


@njit(cache=True)
def to_move(state):
    if state[0] == AZUL:
        return azul.to_move(state)
    return TERMINAL


@njit(cache=True)
def legal_moves(state, moves):
    if state[0] == AZUL:
        return azul.legal_moves(state, moves)
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    if state[0] == AZUL:
        return azul.chance_outcomes(state, moves, probs)
    return 0


@njit(cache=True)
def apply_move(state, move):
    if state[0] == AZUL:
        azul.apply_move(state, move)


@njit(cache=True)
def players(state):
    if state[0] == AZUL:
        return azul.players(state)
    return 0


@njit(cache=True)
def scores(state, out):
    if state[0] == AZUL:
        azul.scores(state, out)


@njit(cache=True)
def payoffs(state, out):
    if state[0] == AZUL:
        azul.payoffs(state, out)


@njit(cache=True)
def evaluate(state, out):
    """A cheap per-player value estimate in score points (each game documents its own)."""
    if state[0] == AZUL:
        azul.evaluate(state, out)


@njit(cache=True)
def move_heuristic(state, move):
    """A cheap score of a player's move (higher is better), for priors and greedy rollouts."""
    if state[0] == AZUL:
        return azul.move_heuristic(state, move)
    return 0.0


@njit(cache=True)
def sample_chance(state, rng):
    """A chance move drawn with its probability."""
    if state[0] == AZUL:
        return azul.sample_chance(state, rng)
    return -1


@njit(cache=True)
def resolve_chance(state, rng):
    """Play chance moves at random until a player acts or the game ends.

    Draws exactly what repeated ``sample_chance`` + ``apply_move`` would, only faster.
    """
    if state[0] == AZUL:
        azul.random_refill(state, rng)


@njit(cache=True)
def random_move(state, rng, moves):
    """A uniformly random legal move of the player to act (``moves`` is scratch space)."""
    if state[0] == AZUL:
        return azul.random_move(state, rng, moves)
    return -1
