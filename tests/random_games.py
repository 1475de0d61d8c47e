"""Seeded random games of every game and variant, position by position: the shared
driver of the tests that read back what the engine reaches."""

import numpy as np

from tessera.games import get_game
from tessera.kernels import games
from tessera.kernels.rng import make_rng

# (game, options) of every game and variant the engine plays.
VARIANTS = (
    [("azul", {"players": n, "variant": v}) for v in ("colour", "gray") for n in (2, 3, 4)]
    + [("pavilion", {"players": n}) for n in (2, 3, 4)]
    + [("azure", {"gifted": g}) for g in ("none", "mighty", "perceptive", "bountiful", "favored")]
    + [("azure", {"cosmos": True})]
)


def variant_id(variant):
    game, options = variant
    return "-".join([game] + [f"{key}={value}" for key, value in options.items()])


def random_game(game_name, options, seed):
    """Every position of one random game from ``game.new(seed)``: uniform player moves,
    chance moves drawn one at a time with their probabilities. Yields copies."""
    state = get_game(game_name).new(seed, **options)
    rng = make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    while True:
        yield state.copy()
        who = games.to_move(state)
        if who == games.TERMINAL:
            return
        if who == games.CHANCE:
            move = games.sample_chance(state, rng)
        else:
            move = games.random_move(state, rng, moves)
        games.apply_move(state, move)
