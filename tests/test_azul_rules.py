"""Azul rules worked by hand: the rulebook's examples and Tessera's rulings (docs/azul.md)."""

import numpy as np
import pytest

from tessera.kernels import azul, games
from tessera.kernels.azul.layout import (
    P_LINES,
    P_SCORE,
    P_WALL,
    PHASE_DRAFT,
    PHASE_OVER,
    PHASE_TILING,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_LID,
    W_PHASE,
    W_ROUND,
    W_STALLED,
    W_STARTER,
    W_TO_MOVE,
    player_word,
)
from tessera.kernels.azul.tiles import count_of, total
from tessera.kernels.azul.wall import COLUMN_MASK, ROW_MASK, end_bonus, floor_penalty, placement_points
from tessera.kernels.rng import make_rng
from tessera.notation.azul import parse_move, parse_position
from tests.oracle import azul_oracle as O

EMPTY_WALL = "...../...../...../...../....."
EMPTY_LINES = "./../.../..../....."


def position(*lines):
    return parse_position("\n".join(lines))


def board(score=0, wall=EMPTY_WALL, lines=EMPTY_LINES, floor="-"):
    return f"score {score} wall {wall} lines {lines} floor {floor}"


def play(state, *moves):
    state = state.copy()
    for text in moves:
        azul.apply_move(state, parse_move(state, text))
    return state


def score(state, player):
    return state[player_word(player, P_SCORE)]


def legal_texts(state):
    from tessera.notation.azul import format_move

    moves = np.empty(azul.MAX_MOVES, np.int64)
    n = azul.legal_moves(state, moves)
    return {format_move(state, m) for m in moves[:n]}


# ---- wall scoring -----------------------------------------------------------------


def cell(row, col):
    return 5 * row + col


def mask(*cells):
    m = 0
    for r, c in cells:
        m |= 1 << cell(r, c)
    return m


def test_lone_tile_scores_one():
    assert placement_points(mask((2, 2)), cell(2, 2)) == 1


def test_two_to_the_left_scores_three():
    assert placement_points(mask((1, 0), (1, 1), (1, 2)), cell(1, 2)) == 3


def test_two_to_the_left_and_one_above_scores_five():
    occ = mask((1, 0), (1, 1), (1, 2), (0, 2))
    assert placement_points(occ, cell(1, 2)) == 5


def test_gap_breaks_a_row_group():
    occ = mask((3, 0), (3, 2), (3, 3))
    assert placement_points(occ, cell(3, 3)) == 2


def test_placement_points_agree_with_the_oracle_on_every_row_and_column_pattern():
    """The kernel looks the runs through a cell up; the oracle walks them. Every row
    pattern and every column pattern through every cell, the rest of the wall random."""
    rng = np.random.default_rng(5)
    for row, col in ((r, c) for r in range(5) for c in range(5)):
        for pattern in range(32):
            rest = int(rng.integers(0, 1 << 25))
            for occ in (
                rest & ~(ROW_MASK << 5 * row) | pattern << 5 * row,
                rest & ~(COLUMN_MASK << col) | sum(((pattern >> r) & 1) << (5 * r + col) for r in range(5)),
            ):
                occ |= 1 << cell(row, col)
                wall = [[("x" if (occ >> (5 * r + c)) & 1 else None) for c in range(5)] for r in range(5)]
                assert placement_points(occ, cell(row, col)) == O.wall_points(wall, row, col), (occ, row, col)


def test_rulebook_example_in_a_game():
    """The 5-point tile placed by wall-tiling at the end of a round (colour wall)."""
    # Row 1 holds white and blue in columns 1-2; red sits above column 3. Yellow
    # belongs at row 1, column 3 on the colour wall.
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 1",
        "factories RRRR - - - -",
        "centre 1",
        "bag 19/18/15/20/19",
        "lid 0/0/0/0/0",
        "player 1 " + board(10, "..R../WB.../...../...../.....", "./YY/.../..../....."),
        "player 2 " + board(),
    )
    after = play(state, "F1 red 5")
    assert score(after, 0) == 15
    assert after[player_word(0, P_WALL + 1)] == 1 << cell(1, 2)  # yellow placed
    assert count_of(after[W_LID], 1) == 1  # the other yellow


@pytest.mark.parametrize(
    "floor, penalty",
    [("-", 0), ("R", 1), ("RR", 2), ("RRR", 4), ("RRRR", 6), ("RRRRR", 8), ("RRRRRR", 11), ("RRRRRRR", 14)],
)
def test_floor_penalties(floor, penalty):
    tiles = 0 if floor == "-" else len(floor)
    assert floor_penalty(tiles) == penalty
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 1",
        "factories BBBB - - - -",
        "centre 1",
        f"bag 15/19/{20 - tiles}/20/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(20, "BY.../...../...../...../.....", floor=floor),
        "player 2 " + board(),
    )
    after = play(state, "F1 blue 5")
    assert score(after, 0) == 20 - penalty
    assert count_of(after[W_LID], 2) == tiles  # floor tiles go to the lid


def test_marker_takes_a_floor_slot_and_overflow_goes_to_the_lid():
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 2 starter 1",
        "factories - - - - -",
        "centre 1BBBBBBBBK",
        "bag 11/19/19/19/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(),
        "player 2 " + board(30, "BYR../...../...../...../....."),
    )
    after = play(state, "C blue floor")
    # Marker + 6 blue fill the 7 slots (-14); 2 blue go to the lid.
    assert after[player_word(1, P_LINES)] == 0
    assert count_of(after[W_LID], 0) == 2
    assert after[W_TO_MOVE] == 0 and after[W_PHASE] == PHASE_DRAFT
    done = play(after, "C black floor")
    assert score(done, 1) == 30 - 14
    assert score(done, 0) == 0  # 1 black on the floor, clamped
    assert done[W_STARTER] == 1  # the marker's holder starts round 3
    assert done[W_ROUND] == 3


def test_score_never_drops_below_zero():
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 1",
        "factories BBBB - - - -",
        "centre 1",
        "bag 15/20/17/20/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(2, "B..../...../...../...../.....", floor="RRR"),
        "player 2 " + board(),
    )
    assert score(play(state, "F1 blue 5"), 0) == 0


# ---- end of the game --------------------------------------------------------------

FULL_BONUS_WALL = "BYRK./WBYR./K.B../R..B./Y...B"  # col 0 and blue; rows 1-2 wait for tiles


def test_end_bonus_two_rows_one_column_one_colour_is_21():
    state = position(
        "azul players 2 wall colour round 6 phase draft turn 1 starter 1",
        "factories WWWW - - - -",
        "centre 1",
        "bag 15/17/17/16/14",
        "lid 0/0/0/0/0",
        "player 1 " + board(40, FULL_BONUS_WALL, "W/KK/.../..../....."),
        "player 2 " + board(),
    )
    after = play(state, "F1 white 5")
    assert after[W_PHASE] == PHASE_OVER
    # White completes row 1 (5 points), then black completes row 2 and links with the
    # white above it (5 + 2). Bonus: rows 1-2, column 1, all blues: 2 + 2 + 7 + 10 = 21.
    assert end_bonus(after, player_word(0, 0)) == 21
    assert score(after, 0) == 40 + 5 + 7 + 21
    out = np.zeros(4)
    azul.payoffs(after, out)
    assert list(out[:2]) == [1.0, 0.0]


def finished(scores, walls):
    """A position at the end of the game (phase over) with the given scores and walls."""
    n = len(scores)
    used = [0] * 5
    for wall in walls:
        for row in wall.split("/"):
            for ch in row:
                if ch != ".":
                    used["BYRKW".index(ch)] += 1
    bag = "/".join(str(20 - u) for u in used)
    dashes = " ".join(["-"] * (2 * n + 1))
    rows = [
        f"azul players {n} wall colour round 7 phase over turn 1 starter 1",
        f"factories {dashes}",
        "centre 1",
        f"bag {bag}",
        "lid 0/0/0/0/0",
    ]
    rows += [f"player {p + 1} " + board(s, w) for p, (s, w) in enumerate(zip(scores, walls))]
    return position(*rows)


ONE_ROW = "BYRKW/...../...../...../....."
TWO_ROWS = "BYRKW/WBYRK/...../...../....."


def payoffs_of(state, n):
    out = np.zeros(4)
    azul.payoffs(state, out)
    return list(out[:n])


def test_tie_goes_to_more_complete_rows():
    assert payoffs_of(finished([50, 50], [ONE_ROW, TWO_ROWS]), 2) == [0.0, 1.0]


def test_full_tie_is_shared():
    state = finished([50, 50, 20], [ONE_ROW, ONE_ROW, TWO_ROWS])
    assert payoffs_of(state, 3) == [0.5, 0.5, 0.0]


# ---- refill -----------------------------------------------------------------------


def four_player_late_game(bag, lid, line_groups, factories):
    """Four walls each missing colour p in every row (80 tiles), plus the given extras."""
    walls = []
    for p in range(4):
        rows = []
        for r in range(5):
            rows.append("".join("." if (c - r) % 5 == p else "BYRKW"[(c - r) % 5] for c in range(5)))
        walls.append("/".join(rows))
    rows = [
        "azul players 4 wall colour round 5 phase draft turn 1 starter 1",
        "factories " + " ".join(factories),
        "centre 1",
        f"bag {bag}",
        f"lid {lid}",
    ]
    rows += [f"player {p + 1} " + board(0, walls[p], line_groups[p]) for p in range(4)]
    return position(*rows)


def test_refill_with_bag_and_lid_short_fills_what_it_can():
    lines = ["./../.../..../.....", "./../.../YYY./Y....", "./../.../RRR./R....", "./../.../KKK./K...."]
    state = four_player_late_game("1/0/0/0/0", "0/1/1/1/0", lines, ["BBBB"] + ["-"] * 8)
    after = play(state, "F1 blue floor")  # 4 blue to the lid via the floor
    assert after[W_PHASE] == 0  # refill (chance)
    games.resolve_chance(after, make_rng(7))
    assert after[W_PHASE] == PHASE_DRAFT
    sizes = [total(after[W_FACTORY + f]) for f in range(9)]
    assert sizes == [4, 4] + [0] * 7
    assert total(after[W_BAG]) == 0 and total(after[W_LID]) == 0


def test_refill_with_nothing_to_draw_ends_the_game():
    lines = ["./../B../..../.....", "./../.../YYY./YY...", "./../.../RRR./RR...", "./../.../KKK./KK..."]
    state = four_player_late_game("0/0/0/0/0", "0/0/0/0/0", lines, ["BBBB"] + ["-"] * 8)
    after = play(state, "F1 blue 5")
    assert after[W_PHASE] == PHASE_OVER
    assert azul.to_move(after) == games.TERMINAL


def test_untouched_centre_keeps_the_start_player():
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 2 stalled 1",
        "factories RRRR - - - -",
        "centre 1",
        "bag 20/20/16/20/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(),
        "player 2 " + board(),
    )
    after = play(state, "F1 red 4")
    assert after[W_STARTER] == 1 and after[W_TO_MOVE] == 1
    assert after[W_CENTRE] & (1 << 40)


# ---- destinations -----------------------------------------------------------------


def test_line_refuses_colour_on_its_wall_row_and_other_colours():
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 1",
        "factories BBRR - - - -",
        "centre 1",
        "bag 17/20/17/20/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(0, "B..../...../...../...../.....", "./../R../..../....."),
        "player 2 " + board(),
    )
    legal = legal_texts(state)
    assert "F1 blue 1" not in legal  # blue is on wall row 1
    assert "F1 blue 3" not in legal  # line 3 holds red
    assert {"F1 blue 2", "F1 blue 4", "F1 blue 5", "F1 blue floor"} <= legal
    assert {"F1 red 3", "F1 red floor"} <= legal
    assert len(legal) == 4 + 6  # blue: 2,4,5,floor; red: 1-5,floor


def test_full_line_is_no_destination():
    state = position(
        "azul players 2 wall colour round 2 phase draft turn 1 starter 1 stalled 1",
        "factories YYYY - - - -",
        "centre 1",
        "bag 20/15/20/20/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(0, lines="Y/../.../..../....."),
        "player 2 " + board(),
    )
    assert legal_texts(state) == {"F1 yellow 2", "F1 yellow 3", "F1 yellow 4", "F1 yellow 5", "F1 yellow floor"}


# ---- gray wall --------------------------------------------------------------------


def test_gray_wall_column_choices_are_moves():
    # Player 1's line 1 is full of red; red already stands in column 3 (row 2).
    state = position(
        "azul players 2 wall gray round 2 phase draft turn 1 starter 1",
        "factories KKKK - - - -",
        "centre 1",
        "bag 20/20/18/16/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(0, "...../..R../...../...../.....", "R/../.../..../....."),
        "player 2 " + board(),
    )
    tiling = play(state, "F1 black 5")
    assert tiling[W_PHASE] == PHASE_TILING and azul.to_move(tiling) == 0
    assert legal_texts(tiling) == {"col 1", "col 2", "col 4", "col 5"}
    done = play(tiling, "col 4")
    assert done[player_word(0, P_WALL + 2)] == mask((0, 3), (1, 2))
    assert score(done, 0) == 1  # no neighbour in row or column


def test_gray_wall_single_column_is_placed_without_a_move():
    # Row 1 has B Y R K: only column 5 is free, and white is in no column yet.
    state = position(
        "azul players 2 wall gray round 2 phase draft turn 1 starter 1",
        "factories KKKK - - - -",
        "centre 1",
        "bag 19/19/19/15/19",
        "lid 0/0/0/0/0",
        "player 1 " + board(0, "BYRK./...../...../...../.....", "W/../.../..../....."),
        "player 2 " + board(),
    )
    after = play(state, "F1 black 5")
    assert after[W_PHASE] == PHASE_OVER  # row 1 complete: the game ends
    assert after[player_word(0, P_WALL + 4)] == mask((0, 4))


def test_gray_wall_line_with_no_column_goes_to_the_floor():
    # Row 1 has B Y R K; white already in column 5 (row 2): no column for white.
    state = position(
        "azul players 2 wall gray round 2 phase draft turn 1 starter 1",
        "factories KKKK - - - -",
        "centre 1",
        "bag 19/19/19/15/18",
        "lid 0/0/0/0/0",
        "player 1 " + board(10, "BYRK./....W/...../...../.....", "W/../.../..../....."),
        "player 2 " + board(),
    )
    after = play(state, "F1 black 5")
    assert after[player_word(0, P_WALL + 4)] == mask((1, 4))
    assert score(after, 0) == 10 - 1  # one tile on the floor
    assert count_of(after[W_LID], 4) == 1


BLOCKED_GRAY_WALL = "KRWY./RY.WB/W.KBY/.BYRW/YWRK."  # each row's missing colour is in its column


def test_gray_game_ends_when_no_row_can_be_completed():
    used = [2 * BLOCKED_GRAY_WALL.count(letter) for letter in "BYRKW"]
    used[3] += 4  # the black tiles on factory 1
    bag = "/".join(str(20 - n) for n in used)
    state = position(
        "azul players 2 wall gray round 9 phase draft turn 1 starter 1",
        "factories KKKK - - - -",
        "centre 1",
        f"bag {bag}",
        "lid 0/0/0/0/0",
        "player 1 " + board(30, BLOCKED_GRAY_WALL),
        "player 2 " + board(30, BLOCKED_GRAY_WALL),
    )
    after = play(state, "F1 black floor")
    assert after[W_PHASE] == PHASE_OVER
    # Bonuses: column 4 (Y W B R K) 7, all five whites 10, all five yellows 10.
    # Player 1 also lost 6 for four floor tiles.
    assert score(after, 0) == 30 - 6 + 27
    assert score(after, 1) == 30 + 27


def test_gray_game_goes_on_while_one_row_can_be_completed():
    open_wall = BLOCKED_GRAY_WALL.replace("KRWY.", ".....")  # row 1: B R W Y K fits
    used = [BLOCKED_GRAY_WALL.count(x) + open_wall.count(x) for x in "BYRKW"]
    used[3] += 4
    bag = "/".join(str(20 - n) for n in used)
    state = position(
        "azul players 2 wall gray round 9 phase draft turn 1 starter 1",
        "factories KKKK - - - -",
        "centre 1",
        f"bag {bag}",
        "lid 0/0/0/0/0",
        "player 1 " + board(30, BLOCKED_GRAY_WALL),
        "player 2 " + board(30, open_wall),
    )
    assert play(state, "F1 black floor")[W_PHASE] != PHASE_OVER


def stalled_position(stalled, lines=EMPTY_LINES):
    return position(
        f"azul players 2 wall colour round {stalled + 1} phase draft turn 1 starter 1 stalled {stalled}",
        "factories KKKK - - - -",
        "centre 1",
        f"bag 20/20/20/{16 - lines.count('K')}/20",
        "lid 0/0/0/0/0",
        "player 1 " + board(0, lines=lines),
        "player 2 " + board(),
    )


def test_fifth_stalled_round_in_a_row_ends_the_game():
    after = play(stalled_position(4), "F1 black 5")  # no line is full: nothing tiles
    assert after[W_PHASE] == PHASE_OVER
    assert after[W_STALLED] == 5


def test_stalled_count_grows_and_resets():
    assert play(stalled_position(3), "F1 black 5")[W_STALLED] == 4
    tiled = play(stalled_position(4, "K/../.../..../....."), "F1 black 5")
    assert tiled[W_PHASE] != PHASE_OVER and tiled[W_STALLED] == 0


def test_stalled_count_is_in_the_text_only_when_not_zero():
    from tessera.notation.azul import format_position

    assert "stalled 3" in format_position(stalled_position(3))
    assert "stalled" not in format_position(stalled_position(0))
