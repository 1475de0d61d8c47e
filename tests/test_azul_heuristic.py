"""Azul's move heuristic (MCTS's priors and greedy rollouts), worked by hand: a pattern
line is worth the wall tile it becomes, its points there plus its share of the bonuses
(2 + 7 + 10 over 5 = 3.8), in full when the move fills the line and at half, in
proportion, while it fills; floor tiles cost their slots; all in half points (SCALE)."""

import pytest

from tessera.kernels import azul
from tessera.kernels.azul.heuristic import BONUS_SHARE, PARTIAL, SCALE
from tessera.notation.azul import parse_move
from tests.azul_positions import BOARD, EMPTY_BOARD, azul_position

FACTORIES = "RRRR KKYW - - -"


def value(state, text):
    """The move's heuristic in points."""
    assert SCALE == 0.5
    return azul.move_heuristic(state, parse_move(state, text)) / SCALE


@pytest.mark.parametrize("variant", ["colour", "gray"])
def test_a_tile_that_joins_a_row_is_worth_its_points_and_its_bonus_share(variant):
    # One red fills line 1; on row 1 beside blue and yellow it scores 3 (on the gray wall
    # that is the best open column too). The other three reds cost floor slots 1-3: 4.
    state = azul_position(variant, FACTORIES, BOARD)
    assert BONUS_SHARE == pytest.approx(3.8)
    assert value(state, "F1 red 1") == pytest.approx(3 + 3.8 - 4)


def test_a_line_that_the_move_fills_counts_in_full():
    # Four reds fill line 4; the tile stands alone in row 4 (column 1): 1 point.
    state = azul_position("colour", FACTORIES, BOARD)
    assert value(state, "F1 red 4") == pytest.approx(1 + 3.8)


def test_a_line_still_filling_counts_its_share_at_half():
    # Four reds of five on line 5 (row 5, column 2, nothing beside it): 4/5 of half of 4.8.
    state = azul_position("colour", FACTORIES, BOARD)
    assert PARTIAL == 0.5
    assert value(state, "F1 red 5") == pytest.approx(0.5 * 4 / 5 * 4.8)


def test_finishing_a_line_adds_what_its_held_tiles_had_not_counted():
    # Line 2 holds one yellow of two: the second fills it. Row 2, column 3, beside the
    # blue: 2 points. The held tile counted half of its half: 3/4 of 5.8 is added.
    state = azul_position("colour", FACTORIES, BOARD)
    assert value(state, "F2 yellow 2") == pytest.approx(0.75 * (2 + 3.8))


def test_the_floor_costs_its_slots():
    state = azul_position("colour", FACTORIES, BOARD)
    assert value(state, "F1 red floor") == -(1 + 1 + 2 + 2)


def test_a_line_with_no_open_column_on_the_gray_wall_is_worth_nothing():
    # Gray wall: row 1's open columns, 3 to 5, each hold a red in another row already.
    board = "score 5 wall BY.../..R../...R./....R/..... lines ./../.../..../..... floor -"
    state = azul_position("gray", FACTORIES, board)
    assert value(state, "F1 red 1") == -(1 + 1 + 2)


def test_a_gray_wall_column_is_worth_the_points_its_tile_scores():
    # Line 1 is full of red at the wall tiling: column 3 joins blue and yellow (3 points),
    # column 5 stands alone (1).
    board = "score 5 wall BY.../.B.../...../...../..... lines R/../.../..../..... floor -"
    state = azul_position(
        "gray", "- - - - -", board, EMPTY_BOARD.replace("floor -", "floor 1"), phase="tiling", centre="-"
    )
    assert value(state, "col 3") == 3
    assert value(state, "col 5") == 1
