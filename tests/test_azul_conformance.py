"""Azul through the shared conformance harness, with Azul's own invariants."""

from tessera.kernels.azul.layout import (
    MARKER_BIT,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    PHASE_DRAFT,
    PHASE_REFILL,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_LID,
    W_PHASE,
    W_PLAYERS,
    factories_for,
    player_word,
)
from tests.conformance import GameConformance


def lanes(word):
    return [(word >> (8 * c)) & 0xFF for c in range(5)]


def tile_counts(state):
    """Tiles of each colour anywhere in the position, read straight from the words."""
    counts = [0] * 5
    n = state[W_PLAYERS]
    sets = [state[W_BAG], state[W_LID], state[W_CENTRE]]
    sets += [state[W_FACTORY + f] for f in range(factories_for(n))]
    sets += [state[player_word(p, P_FLOOR)] for p in range(n)]
    for word in sets:
        for c, k in enumerate(lanes(word)):
            counts[c] += k
    for p in range(n):
        for c in range(5):
            counts[c] += bin(state[player_word(p, P_WALL + c)]).count("1")
        lines = state[player_word(p, P_LINES)]
        for i in range(5):
            counts[(lines >> (8 * i + 4)) & 7] += (lines >> (8 * i)) & 0xF
    return counts


def markers(state):
    n = state[W_PLAYERS]
    words = [state[W_CENTRE]] + [state[player_word(p, P_FLOOR)] for p in range(n)]
    return sum(1 for w in words if w & MARKER_BIT)


class TestAzulConformance(GameConformance):
    game_name = "azul"
    configurations = [
        {"players": 2, "variant": "colour"},
        {"players": 3, "variant": "colour"},
        {"players": 4, "variant": "colour"},
        {"players": 2, "variant": "gray"},
        {"players": 4, "variant": "gray"},
    ]

    def check_invariants(self, state):
        assert tile_counts(state) == [20] * 5
        assert markers(state) == 1
        n = state[W_PLAYERS]
        walls = [[state[player_word(p, P_WALL + c)] for c in range(5)] for p in range(n)]
        for p in range(n):
            assert state[player_word(p, P_SCORE)] >= 0
            occupied = 0
            for c in range(5):
                assert walls[p][c] & occupied == 0, "two colours on one cell"
                occupied |= walls[p][c]
                rows = [(walls[p][c] >> (5 * r)) & 31 for r in range(5)]
                assert all(bin(r).count("1") <= 1 for r in rows), "colour twice in a row"
                cols = [sum((walls[p][c] >> (5 * r + k)) & 1 for r in range(5)) for k in range(5)]
                assert all(k <= 1 for k in cols), "colour twice in a column"
            if state[W_PHASE] in (PHASE_REFILL, PHASE_DRAFT):  # rows complete only at tiling
                assert not any(((occupied >> (5 * r)) & 31) == 31 for r in range(5))
