"""The common game interface: every function dispatches on the game id in word 0.

Search, playouts and perft are written once against these functions. Dispatching
on an integer (rather than passing jitted functions around) keeps every caller
cacheable by numba; the branch costs next to nothing. The four functions of the
playout loop are inlined into their callers (about 8% more playouts per second:
no call, and no reference counting of the state array, per move).

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
- ``position_hash(state)``: a stable 64-bit hash (``kernels.hashing``);
- ``is_complete(state)``: True when nothing is hidden (always, in Azul
  and Summer Pavilion);
- ``view(state, observer, out)``: what ``observer`` knows of a complete state
  (self-play gives agents views, never the complete position);
- ``determinize(state, observer, rng, out)``: a complete state consistent with
  what ``observer`` knows, written into ``out`` (a copy when nothing is hidden).

Hidden information: a state is either complete (everything known) or a player's
view, where the game marks what that player cannot see (the other hands in
Azure). The rules functions take complete states; on a view only ``to_move``,
``players`` and the observer's own ``legal_moves`` are defined. A search from a
view samples complete states with ``determinize``, which keeps every known part
and draws the hidden parts as chance would have dealt them given everything the
observer has seen (what the rules imply, not guesses about how the others
play), using only ``rng``. Information-set MCTS
(``kernels.search.ismcts``) is built on it; see docs/hidden-information.md.
"""
from numba import njit

from kernels import azul, azure, pavilion, toy
from kernels.constants import AZUL, AZURE, CHANCE, PAVILION, TERMINAL, TOY  # noqa: F401  (re-exported)
from kernels.hashing import position_hash  # noqa: F401  (re-exported)
# By name: numba refuses ``module.view(...)`` in jitted code (it takes it for ndarray.view).
from kernels.azure.views import view as azure_view
from kernels.toy.views import view as toy_view

MAX_MOVES = max(azul.MAX_MOVES, pavilion.MAX_MOVES, azure.MAX_MOVES, toy.MAX_MOVES)


@njit(cache=True, inline="always")
def to_move(state):
    if state[0] == AZUL:
        return azul.to_move(state)
    if state[0] == PAVILION:
        return pavilion.to_move(state)
    if state[0] == AZURE:
        return azure.to_move(state)
    if state[0] == TOY:
        return toy.to_move(state)
    return TERMINAL


@njit(cache=True)
def legal_moves(state, moves):
    if state[0] == AZUL:
        return azul.legal_moves(state, moves)
    if state[0] == PAVILION:
        return pavilion.legal_moves(state, moves)
    if state[0] == AZURE:
        return azure.legal_moves(state, moves)
    if state[0] == TOY:
        return toy.legal_moves(state, moves)
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    if state[0] == AZUL:
        return azul.chance_outcomes(state, moves, probs)
    if state[0] == PAVILION:
        return pavilion.chance_outcomes(state, moves, probs)
    if state[0] == AZURE:
        return azure.chance_outcomes(state, moves, probs)
    if state[0] == TOY:
        return toy.chance_outcomes(state, moves, probs)
    return 0


@njit(cache=True, inline="always")
def apply_move(state, move):
    if state[0] == AZUL:
        azul.apply_move(state, move)
    if state[0] == PAVILION:
        pavilion.apply_move(state, move)
    if state[0] == AZURE:
        azure.apply_move(state, move)
    if state[0] == TOY:
        toy.apply_move(state, move)


@njit(cache=True)
def players(state):
    if state[0] == AZUL:
        return azul.players(state)
    if state[0] == PAVILION:
        return pavilion.players(state)
    if state[0] == AZURE:
        return azure.players(state)
    if state[0] == TOY:
        return toy.players(state)
    return 0


@njit(cache=True)
def scores(state, out):
    if state[0] == AZUL:
        azul.scores(state, out)
    if state[0] == PAVILION:
        pavilion.scores(state, out)
    if state[0] == AZURE:
        azure.scores(state, out)
    if state[0] == TOY:
        toy.scores(state, out)


@njit(cache=True)
def payoffs(state, out):
    if state[0] == AZUL:
        azul.payoffs(state, out)
    if state[0] == PAVILION:
        pavilion.payoffs(state, out)
    if state[0] == AZURE:
        azure.payoffs(state, out)
    if state[0] == TOY:
        toy.payoffs(state, out)


@njit(cache=True)
def evaluate(state, out):
    """A cheap per-player value estimate in score points (each game documents its own)."""
    if state[0] == AZUL:
        azul.evaluate(state, out)
    if state[0] == PAVILION:
        pavilion.evaluate(state, out)
    if state[0] == AZURE:
        azure.evaluate(state, out)
    if state[0] == TOY:
        toy.evaluate(state, out)


@njit(cache=True)
def move_heuristic(state, move):
    """A cheap score of a player's move (higher is better), for priors and greedy rollouts."""
    if state[0] == AZUL:
        return azul.move_heuristic(state, move)
    if state[0] == PAVILION:
        return pavilion.move_heuristic(state, move)
    if state[0] == AZURE:
        return azure.move_heuristic(state, move)
    if state[0] == TOY:
        return toy.move_heuristic(state, move)
    return 0.0


@njit(cache=True)
def sample_chance(state, rng):
    """A chance move drawn with its probability."""
    if state[0] == AZUL:
        return azul.sample_chance(state, rng)
    if state[0] == PAVILION:
        return pavilion.sample_chance(state, rng)
    if state[0] == AZURE:
        return azure.sample_chance(state, rng)
    if state[0] == TOY:
        return toy.sample_chance(state, rng)
    return -1


@njit(cache=True, inline="always")
def resolve_chance(state, rng):
    """Play chance moves at random until a player acts or the game ends.

    Draws exactly what repeated ``sample_chance`` + ``apply_move`` would, only faster.
    """
    if state[0] == AZUL:
        azul.random_refill(state, rng)
    if state[0] == PAVILION:
        pavilion.random_refill(state, rng)
    if state[0] == AZURE:
        azure.resolve_chance(state, rng)
    if state[0] == TOY:
        toy.resolve_chance(state, rng)


@njit(cache=True, inline="always")
def random_move(state, rng, moves):
    """A uniformly random legal move of the player to act (``moves`` is scratch space)."""
    if state[0] == AZUL:
        return azul.random_move(state, rng, moves)
    if state[0] == PAVILION:
        return pavilion.random_move(state, rng, moves)
    if state[0] == AZURE:
        return azure.random_move(state, rng, moves)
    if state[0] == TOY:
        return toy.random_move(state, rng, moves)
    return -1


@njit(cache=True)
def is_complete(state):
    """True when nothing in ``state`` is hidden: a position, not a player's view."""
    if state[0] == AZUL:
        return True
    if state[0] == PAVILION:
        return True
    if state[0] == AZURE:
        return azure.is_complete(state)
    if state[0] == TOY:
        return toy.is_complete(state)
    return True


@njit(cache=True)
def view(state, observer, out):
    """Write into ``out`` what ``observer`` knows of the complete ``state`` (a copy when nothing is hidden)."""
    if state[0] == AZURE:
        azure_view(state, observer, out)
    elif state[0] == TOY:
        toy_view(state, observer, out)
    else:
        out[:] = state


@njit(cache=True)
def determinize(state, observer, rng, out):
    """Write into ``out`` a complete state consistent with what ``observer`` knows in ``state``.

    Known parts are kept and hidden ones drawn with ``rng``; a complete state is copied.
    """
    if state[0] == AZUL:
        out[:] = state
    if state[0] == PAVILION:
        out[:] = state
    if state[0] == AZURE:
        azure.determinize(state, observer, rng, out)
    if state[0] == TOY:
        toy.determinize(state, observer, rng, out)
