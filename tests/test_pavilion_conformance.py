"""Summer Pavilion through the shared conformance harness, with its own invariants."""

from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    KEEP_AT_MOST,
    NCOLOURS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    STAR_MASK,
    STAR_SPACES,
    SUPPLY_SIZE,
    TILES_PER_COLOUR,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_PLAYERS,
    W_SUPPLY,
    W_TOWER,
    factories_for,
    player_word,
)
from tessera.notation.pavilion import validate
from tests.conformance import GameConformance


def lanes(word):
    return [(int(word) >> (8 * c)) & 0xFF for c in range(NCOLOURS)]


def tile_counts(state):
    """Tiles of each colour anywhere in the position, read straight from the words."""
    n = int(state[W_PLAYERS])
    words = [W_BAG, W_TOWER, W_CENTRE, W_SUPPLY] + [W_FACTORY + f for f in range(factories_for(n))]
    words += [player_word(p, P_HAND) for p in range(n)] + [player_word(p, P_KEPT) for p in range(n)]
    counts = [0] * NCOLOURS
    for index in words:
        counts = [a + b for a, b in zip(counts, lanes(state[index]))]
    for p in range(n):
        spaces = int(state[player_word(p, P_SPACES)])
        colours = int(state[player_word(p, P_CENTRE_COLOURS)])
        for c in range(NCOLOURS):
            on_star = bin(spaces >> (STAR_SPACES * c) & STAR_MASK).count("1")
            counts[c] += on_star + (colours >> c & 1)
    return counts


class TestPavilionConformance(GameConformance):
    game_name = "pavilion"
    configurations = [{"players": 2}, {"players": 3}, {"players": 4}]

    def check_invariants(self, state):
        assert tile_counts(state) == [TILES_PER_COLOUR] * NCOLOURS  # 132 tiles
        assert sum(lanes(state[W_SUPPLY])) <= SUPPLY_SIZE
        for p in range(int(state[W_PLAYERS])):
            assert state[player_word(p, P_SCORE)] >= 1
            assert sum(lanes(state[player_word(p, P_KEPT)])) <= KEEP_AT_MOST
            centre = int(state[player_word(p, P_SPACES)]) >> (STAR_SPACES * CENTRE_STAR)
            colours = int(state[player_word(p, P_CENTRE_COLOURS)])
            assert bin(centre).count("1") == bin(colours).count("1")
        validate(state)  # every documented notation check holds on reachable positions
