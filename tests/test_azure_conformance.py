"""Azure through the shared conformance harness: base game, each gifted card, Cosmos.

The positions come from ``tessera.kernels.azure.setup`` (a seeded layout, the starting hands
drawn with the same seed). Notation round trips run once an ``azure`` game is
registered in ``tessera.games``; until then that one check is skipped.
"""

import numpy as np
import pytest

from tessera.errors import OptionError
from tessera.kernels import games
from tessera.kernels.azure.bits import count
from tessera.kernels.azure.layout import (
    AZURE,
    BLACK,
    CARDS_PER_COLOUR,
    COSMOS_STONES,
    FAVORED,
    FIRST_GUARDS,
    GIFTED_NAMES,
    GIFTED_NONE,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    PLAYERS,
    S_COSMOS,
    S_DOMAIN,
    S_GIFTED,
    S_MOUNTAIN,
    S_MOUNTAINS,
    S_SERPENTS,
    S_SIGHT,
    S_SPACES,
    S_TRACK_END,
    STONES,
    VERMILLION,
    W_BLACK_STONE,
    W_DECK,
    W_DECK_SIZE,
    W_DRAGON,
    W_DRAWS,
    W_FACEUP,
    W_HOLDER,
    W_PHASE,
    W_TURN,
    W_VIEW,
    W_WINNER,
    WHITE,
    WIN_SCORE,
    player_word,
)
from tessera.kernels.azure.setup import deal_new_game
from tessera.kernels.rng import make_rng
from tests.conformance import GameConformance, random_game


def registered_azure():
    from tessera.games import get_game

    try:
        return get_game("azure")
    except OptionError:
        return None


class AzureGame:
    """``new(seed, gifted, cosmos)`` from the kernels' setup; notation from the registered game."""

    name = "azure"

    def new(self, seed, gifted=GIFTED_NONE, cosmos=False):
        state = deal_new_game(seed, cosmos=cosmos, gifted=gifted)
        games.resolve_chance(state, make_rng(seed))
        return state

    def __getattr__(self, name):
        game = registered_azure()
        if game is None:
            raise AttributeError(name)
        return getattr(game, name)


GAME = AzureGame()
CONFIGURATIONS = (
    [{}]
    + [{"gifted": g} for g in range(1, len(GIFTED_NAMES))]
    + [{"cosmos": True}, {"cosmos": True, "gifted": FAVORED}]
)


def word(state, p, offset):
    return int(state[player_word(p, offset)])


def cells(mask):
    return {c for c in range(64) if (int(mask) >> c) & 1}


def guards(state, p, colour):
    if colour == BLACK:
        mask = state[S_SERPENTS]
    elif colour == VERMILLION:
        mask = state[S_DOMAIN + VERMILLION]
    else:
        mask = state[S_SIGHT + state[S_MOUNTAIN + colour]]
    return count(state[player_word(p, P_STONES)] & mask)


def check_azure_invariants(state):
    assert state[W_VIEW] == NOBODY
    for c in range(NCOLOURS):  # 48 cards, 12 of each colour
        held = sum(word(state, p, P_HAND + c) for p in range(PLAYERS))
        assert held + state[W_FACEUP + c] + state[W_DECK + c] == CARDS_PER_COLOUR
        assert state[W_FACEUP + c] >= 0 and state[W_DECK + c] >= 0
    assert state[W_DECK_SIZE] == sum(state[W_DECK + c] for c in range(NCOLOURS))
    stones = STONES + (COSMOS_STONES if state[S_COSMOS] else 0)
    black = int(state[S_MOUNTAIN + BLACK])
    for p in range(PLAYERS):
        hand = [word(state, p, P_HAND + c) for c in range(NCOLOURS)]
        known = [word(state, p, P_KNOWN + c) for c in range(NCOLOURS)]
        assert word(state, p, P_HAND_SIZE) == sum(hand)
        assert all(0 <= k <= h for k, h in zip(known, hand))
        mine = cells(state[player_word(p, P_STONES)])
        gifted = word(state, p, P_GIFTED)
        assert len(mine) - (gifted != NOBODY) + word(state, p, P_SUPPLY) == stones
        assert word(state, p, P_SUPPLY) >= 0
        assert mine - {black} <= cells(state[S_SPACES])
        assert (black in mine) == (state[W_BLACK_STONE] == p)
        if gifted != NOBODY:
            assert state[S_GIFTED] != GIFTED_NONE and gifted in mine and gifted != black
        assert 0 <= word(state, p, P_SCORE) <= WIN_SCORE
    assert not cells(state[player_word(0, P_STONES)]) & cells(state[player_word(1, P_STONES)])
    assert state[W_BLACK_STONE] in (NOBODY, state[W_HOLDER + BLACK])
    assert abs(state[W_DRAGON]) <= state[S_TRACK_END]
    over = state[W_PHASE] == PHASE_OVER
    assert over == (state[W_WINNER] != NOBODY)
    for p in range(PLAYERS):
        if word(state, p, P_SCORE) == WIN_SCORE:
            assert over and state[W_WINNER] == p
    if state[W_PHASE] in (PHASE_BOON, PHASE_TAKE, PHASE_RETURN, PHASE_RETURN_PAIR):
        # A decision with one option is made without a move.
        assert games.legal_moves(state, np.empty(games.MAX_MOVES, np.int64)) >= 2
    if state[W_PHASE] == PHASE_DRAW:
        assert state[W_DRAWS] > 0 and state[W_DECK_SIZE] > 0
    if state[W_PHASE] == PHASE_PLACE:  # between turns the beasts are settled
        for colour in range(NCOLOURS):
            g = [guards(state, p, colour) for p in range(PLAYERS)]
            holder = state[W_HOLDER + colour]
            if holder == NOBODY:
                assert not any(g[p] >= FIRST_GUARDS and g[p] > g[1 - p] for p in range(PLAYERS))
            elif state[S_GIFTED] != FAVORED:
                assert g[holder] >= g[1 - holder]
            else:
                assert g[holder] + 1 >= g[1 - holder]


class TestAzureConformance(GameConformance):
    game_name = "azure"
    configurations = CONFIGURATIONS

    @property
    def game(self):
        return GAME

    def check_invariants(self, state):
        check_azure_invariants(state)

    def test_notation_round_trips(self):
        if registered_azure() is None:
            pytest.skip("no azure notation registered yet")
        super().test_notation_round_trips()


def test_every_configuration_plays_to_a_winner():
    """Every game ends with a winner who reached 25, reached the Cosmos track's end, or
    whose opponent, the player to move, has no placement."""
    out = np.zeros(2)
    for options in CONFIGURATIONS:
        for seed in range(30):
            history, _ = random_game(GAME, options, seed)
            final = history[-1]
            winner = int(final[W_WINNER])
            assert winner in (0, 1)
            games.payoffs(final, out)
            assert list(out) == [1.0 - winner, float(winner)]
            reached = word(final, winner, P_SCORE) == WIN_SCORE
            dragon = final[W_DRAGON] * (1 if winner == 0 else -1)
            track_end = final[S_TRACK_END] > 0 and dragon == final[S_TRACK_END]
            if not (reached or track_end):  # the loser could not place
                assert final[W_TURN] == 1 - winner
                stuck = final.copy()
                stuck[W_PHASE] = PHASE_PLACE
                assert games.legal_moves(stuck, np.empty(games.MAX_MOVES, np.int64)) == 0


def test_mountains_are_never_spaces():
    for options in CONFIGURATIONS:
        state = GAME.new(5, **options)
        assert not cells(state[S_SPACES]) & cells(state[S_MOUNTAINS])
        assert {int(state[S_MOUNTAIN + c]) for c in range(NCOLOURS)} == cells(state[S_MOUNTAINS])
        for colour in (AZURE, WHITE):
            assert int(state[S_MOUNTAIN + colour]) not in cells(state[S_SIGHT + state[S_MOUNTAIN + colour]])


@pytest.mark.slow
def test_fuzz_many_random_games_keep_the_invariants():
    """500 random games per configuration, every position checked (a few minutes)."""
    for i, options in enumerate(CONFIGURATIONS):
        for seed in range(500):
            random_game(GAME, options, 100_000 * (i + 1) + seed, lambda state, moves: check_azure_invariants(state))
