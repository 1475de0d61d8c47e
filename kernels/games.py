"""The common game interface, and a convenience for Python callers that dispatches on
the game id in word 0.

Every game offers the interface below in its interface module
(``kernels/<game>/game.py``), its own kernels under these names. Search, playouts,
perft and self-play batches are written once against them and instantiated per game
(``tessera.kernels.bind``), so jitted code calls a game's rules directly and compiles
nothing of the other games. The functions of this module are plain Python: each
looks up the game of ``state[0]`` and calls its kernel, importing a game's kernels
only when that game is first used. Jitted code never calls them; Python code that
calls a kernel many times takes the interface module once
(``tessera.kernels.interfaces.interface(state[0])``).

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
- ``estimate(state, out)``: the per-player final scores a position is worth, where MCTS's
  round rollouts stop (Azul: ``evaluate`` and what the board promises; the others:
  ``evaluate``);
- ``move_heuristic(state, move)``: a cheap score of one move, higher is better;
- optional, ``move_heuristics(state, moves, n, out)``: ``out[i]`` the ``move_heuristic``
  of ``moves[i]`` for i < n, for a game that can share work between the moves of a
  position (Azul, Summer Pavilion, Azure); MCTS's priors and greedy rollouts of the others
  call ``move_heuristic`` for each move;
- optional, ``best_heuristic_move(state, scratch)``: the legal move of the highest
  ``move_heuristic``, the first of equals in ``legal_moves``' order (``scratch``: float64
  room, ``MAX_MOVES``), for a game that finds it faster than by listing and scoring every
  move (Azul); MCTS's greedy rollouts of the others list, score and take the first best;
- optional, ``ROLLOUT_EPSILON``: how often MCTS's greedy rollouts play a random move
  instead of the heuristic's best (Azul 0.2; the search's default 0.1);
- optional, ``players_value_features(state, out)`` and ``N_VALUE_FEATURES``: the game's
  feature kernel of a learned value (Azul, Summer Pavilion, Azure; docs/learning.md),
  ``out[p, :]`` the features seen from player p; MCTS's and IS-MCTS's round rollouts of a
  game with one can be scored by a value model, those of the others by ``estimate`` only;
- optional, ``is_round_boundary(state)``: for a game whose chance also acts inside a round
  (Summer Pavilion's supply top-ups), whether the chance due ends a round; MCTS's round
  rollouts stop only there (without it, at every chance event);
- optional, ``move_features(state, moves, n, out)`` and ``N_POLICY_FEATURES``: the game's
  feature kernel of a learned policy (Azul, docs/learning.md), ``out[i, :]`` the features
  of ``moves[i]`` for i < n; MCTS's PUCT priors of a game with one come from a model's
  policy when the model has one, those of the others from the move heuristic;
- ``position_hash(state)``: a stable 64-bit hash (``tessera.kernels.hashing``);
- ``MAX_MOVES``: the longest move list (this module's ``MAX_MOVES``: of every game);
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
(``tessera.kernels.search.ismcts``) is built on it; see docs/hidden-information.md.
"""

from tessera.kernels.constants import AZUL, AZURE, CHANCE, GAME_NAMES, PAVILION, TERMINAL, TOY  # noqa: F401  (re-exported)
from tessera.kernels.interfaces import interface

FUNCTIONS = (
    "to_move",
    "legal_moves",
    "chance_outcomes",
    "sample_chance",
    "resolve_chance",
    "random_move",
    "apply_move",
    "players",
    "scores",
    "payoffs",
    "evaluate",
    "estimate",
    "move_heuristic",
    "position_hash",
    "is_complete",
    "view",
    "determinize",
)


def _forward(name):
    def call(state, *args):
        return getattr(interface(state[0]), name)(state, *args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"The ``{name}`` of the game of ``state[0]``."
    return call


for _name in FUNCTIONS:
    globals()[_name] = _forward(_name)


def max_moves(state):
    """The ``MAX_MOVES`` of the game of ``state``: room for any of its move lists."""
    return interface(state[0]).MAX_MOVES


def __getattr__(name):
    """``MAX_MOVES``: enough room for a move list of any game (imports every game)."""
    if name == "MAX_MOVES":
        return max(interface(game).MAX_MOVES for game in GAME_NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
