"""Summer Pavilion rules worked by hand: the refresher's turn, the rulings, the board data.

Positions are built with ``build`` (JSON with the bag holding every tile not placed
elsewhere) and moves are played in notation, so each test reads like the rules.
"""

import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels import games, pavilion
from tessera.kernels.boarddata import board_json
from tessera.kernels.pavilion import board as board_data
from tessera.kernels.pavilion.layout import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    P_HAND,
    P_KEPT,
    P_SCORE,
    REGION_MASKS,
    REGION_REWARDS,
    STAR_SPACES,
    TILES_PER_COLOUR,
    W_BAG,
    W_ROUND,
    W_STARTER,
    W_SUPPLY,
    W_TOWER,
    player_word,
)
from tessera.kernels.pavilion.stars import placement_points
from tessera.kernels.rng import make_rng
from tessera.notation.pavilion import format_move, parse_move, position_from_json, position_to_json

PAVILION = get_game("pavilion")
STAR_LETTERS = COLOUR_LETTERS + "C"
EMPTY_STARS = ["." * STAR_SPACES] * len(STAR_LETTERS)


def stars(**cells):
    """The seven star strings; ``stars(R=".R.R..", C="PG....")``."""
    return [cells.get(letter, "." * STAR_SPACES) for letter in STAR_LETTERS]


def player(score=5, hand="-", kept="-", **star_cells):
    return {"score": score, "stars": stars(**star_cells), "hand": hand, "kept": kept}


def build(**fields):
    """A position whose bag holds every tile not placed anywhere else."""
    return position_from_json(build_json(**fields))


def build_json(
    players=2,
    round=1,
    phase="place",
    turn=1,
    starter=1,
    token=None,
    passed=(),
    reward=0,
    factories=None,
    centre="-",
    supply="PGOYBRPGOY",
    tower="",
    boards=None,
):
    boards = boards or [player() for _ in range(players)]
    factories = factories or ["-"] * {2: 5, 3: 7, 4: 9}[players]
    used = [0] * len(COLOUR_LETTERS)
    texts = (
        factories
        + [centre, supply, tower]
        + [b["hand"] for b in boards]
        + [b["kept"] for b in boards]
        + ["".join(b["stars"]) for b in boards]
    )
    for text in texts:
        for c, letter in enumerate(COLOUR_LETTERS):
            used[c] += text.count(letter)
    obj = {
        "game": "pavilion",
        "players": players,
        "round": round,
        "wild": board_data.COLOUR_NAMES[int(board_data.WILD_BY_ROUND[round - 1])],
        "phase": phase,
        "turn": turn,
        "starter": starter,
        "token": token,
        "passed": list(passed),
        "reward": reward,
        "factories": factories,
        "centre": centre,
        "supply": supply,
        "bag": {name: TILES_PER_COLOUR - used[c] for c, name in enumerate(COLOUR_NAMES)},
        "tower": {name: tower.count(COLOUR_LETTERS[c]) for c, name in enumerate(COLOUR_NAMES)},
        "boards": boards,
    }
    return obj


def play(state, *moves):
    state = state.copy()
    for text in moves:
        pavilion.apply_move(state, parse_move(state, text))
    return state


def legal(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return [format_move(state, m) for m in moves[: pavilion.legal_moves(state, moves)]]


def view(state):
    return position_to_json(state)


def score(state, p):
    return int(state[player_word(p, P_SCORE)])


def tiles(word):
    """A tile-set word as letters in colour order."""
    return "".join(letter * ((int(word) >> (8 * c)) & 0xFF) for c, letter in enumerate(COLOUR_LETTERS))


# ---- the board data ------------------------------------------------------------------


def test_board_data_comes_from_the_file():
    data, _ = board_json(board_data.BOARD_FILE, "Summer Pavilion board data")
    assert list(COLOUR_NAMES) == data["colors"]
    assert [COLOUR_NAMES[c] for c in board_data.WILD_BY_ROUND] == data["wild_color_by_round"]
    regions = [r for kind in data["bonus"].values() for r in kind["regions"]]
    assert len(REGION_MASKS) == len(regions) == 18
    assert sorted(REGION_REWARDS.tolist()) == [1] * 6 + [2] * 6 + [3] * 6
    assert board_data.STAR_BONUS.tolist() == [20, 18, 17, 16, 15, 14, 12]  # P G O Y B R C
    assert board_data.NUMBER_BONUS.tolist() == [4, 8, 12, 16, 0, 0]


# ---- the refresher's worked turn -----------------------------------------------------

# Round 3: orange is wild. Player 1 holds the token; red 2 and red 4 were covered last
# round. Centre 1 and 2 and orange 1 and 2 are covered too, so that red 3 completes the
# pillar (red 2, red 3, centre 1, centre 2) and the statue (orange 1, orange 2, red 3,
# red 4) of the board data: 1 + 2 = 3 supply tiles (docs/pavilion.md, "A discrepancy").
WORKED = dict(
    players=2,
    round=3,
    phase="draft",
    turn=1,
    starter=2,
    token=1,
    factories=["RROB", "-", "-", "-", "-"],
    supply="BBYPPGGRRY",
    boards=[player(score=9, R=".R.R..", O="OO....", C="PG...."), player()],
)


def test_worked_turn_draft_takes_the_reds_and_the_orange():
    state = build(**WORKED)
    assert "F1 orange" not in legal(state)  # the wild colour is never named
    after = play(state, "F1 red")
    assert tiles(after[player_word(0, P_HAND)]) == "ORR"
    assert view(after)["centre"] == "B"  # the blue slides to the centre


def test_worked_turn_placement_scores_three_and_takes_three_supply_tiles():
    state = play(build(**WORKED), "F1 red", "C blue")  # the table is empty: placing begins
    assert view(state)["phase"] == "place" and view(state)["turn"] == 1  # the token's holder
    assert "place red 3 wild 1" in legal(state)
    assert "place red 3" not in legal(state)  # only 2 real reds
    tower = int(state[W_TOWER])
    after = play(state, "place red 3 wild 1")
    assert score(after, 0) == 9 + 3  # 1 + the 2 joined reds
    assert view(after)["boards"][0]["stars"][5] == ".RRR.."
    assert tiles(after[player_word(0, P_HAND)]) == ""
    assert tiles(int(after[W_TOWER]) - tower) == "OR"  # the other red and the orange
    assert view(after)["phase"] == "bonus" and view(after)["reward"] == 3
    assert "take YBB" in legal(after)  # 2 blue and 1 yellow, in colour order
    took = play(after, "take BBY")
    assert tiles(took[player_word(0, P_HAND)]) == "YBB"
    assert view(took)["phase"] == "resupply"  # then the bag refills the supply
    games.resolve_chance(took, make_rng(1))
    assert view(took)["phase"] == "place" and view(took)["turn"] == 2
    assert len(view(took)["supply"]) == 10


# ---- drafting ------------------------------------------------------------------------


def test_start_player_penalty_counts_the_wild_tile():
    # Round 2: green is wild. Two reds and a green in the centre: 3 tiles, 3 points.
    state = build(round=2, phase="draft", factories=["PPOY", "-", "-", "-", "-"], centre="RRG")
    after = play(state, "C red")
    assert score(after, 0) == 5 - 3 and view(after)["token"] == 1
    assert tiles(after[player_word(0, P_HAND)]) == "GRR"
    assert score(play(after, "F1 purple"), 1) == 5  # from a display: no penalty


def test_start_player_penalty_never_below_one():
    state = build(
        round=2,
        phase="draft",
        factories=["PPOY", "-", "-", "-", "-"],
        centre="RRRG",
        boards=[player(score=3), player()],
    )
    assert score(play(state, "C red"), 0) == 1


def test_a_lone_wild_from_an_all_wild_source():
    # Round 1: purple is wild. Display 1 holds only purple: one move, one tile; the rest
    # slides to the centre. The centre then holds only purple too.
    state = build(phase="draft", factories=["PPPP", "GGOY", "-", "-", "-"])
    assert legal(state) == ["F1 wild", "F2 green", "F2 orange", "F2 yellow"]
    after = play(state, "F1 wild")
    assert tiles(after[player_word(0, P_HAND)]) == "P" and view(after)["centre"] == "PPP"
    after = play(after, "C wild")
    assert tiles(after[player_word(1, P_HAND)]) == "P" and score(after, 1) == 4


def test_exactly_one_wild_with_a_named_colour():
    state = build(phase="draft", factories=["PPGG", "-", "-", "-", "-"], centre="Y")
    after = play(state, "F1 green")
    assert tiles(after[player_word(0, P_HAND)]) == "PGG"
    assert view(after)["centre"] == "PY"  # the second wild slides on


# ---- placing -------------------------------------------------------------------------


def test_placements_list_every_way_to_pay():
    # Round 3, orange wild, hand: 2 red and 1 orange. Red costs k: 1 to 3 tiles here.
    state = build(round=3, boards=[player(hand="RRO", C="B....."), player()])
    moves = legal(state)
    assert [m for m in moves if m.startswith("place red")] == [
        "place red 1",
        "place red 2",
        "place red 2 wild 1",
        "place red 3 wild 1",
    ]
    # The wild colour as itself: only on its own star or the centre, paid in orange.
    assert [m for m in moves if "orange" in m] == ["place orange 1"]  # 1 orange: space 1
    assert "place centre 2 red wild 1" in moves and moves[-1] == "pass"
    assert not any(m.startswith("place centre 1") for m in moves)  # covered


def test_at_least_one_real_tile_of_the_colour():
    state = build(round=3, boards=[player(hand="OOOB"), player()])
    moves = legal(state)
    assert "place blue 2 wild 1" in moves and "place blue 4 wild 3" in moves
    assert not any(
        m.startswith(("place red", "place green", "place yellow", "place purple")) for m in moves
    )  # no red tile: wilds alone never pay


def test_centre_star_needs_six_different_colours():
    state = build(boards=[player(hand="RRGG", C="R.G..."), player()])
    moves = legal(state)
    assert not any(m.startswith("place centre") and ("red" in m or "green" in m) for m in moves)
    after = play(build(boards=[player(hand="BBB", C="R.G..."), player()]), "place centre 2 blue")
    assert view(after)["boards"][0]["stars"][6] == "GBR..."  # colours in colour order


@pytest.mark.parametrize(
    "covered, space, points",
    [
        (0b000000, 0, 1),  # alone
        (0b011011, 2, 5),  # 1 2 _ 4 5: joins both sides
        (0b110000, 0, 3),  # 5 6 then 1: the ring wraps
        (0b111110, 0, 6),  # completes the star
        (0b010100, 0, 1),  # 3 and 5 are not beside 1
    ],
)
def test_chain_scoring_within_a_star(covered, space, points):
    star = 4
    spaces = (covered | 1 << space) << (STAR_SPACES * star)
    assert placement_points(spaces, STAR_SPACES * star + space) == points


# ---- bonus regions -------------------------------------------------------------------


def _region_spaces(mask):
    return [(bit // STAR_SPACES, bit % STAR_SPACES + 1) for bit in range(42) if mask >> bit & 1]


@pytest.mark.parametrize("region", range(len(REGION_MASKS)))
def test_every_bonus_region_of_the_data_file(region):
    """Cover all but one space of the region, then place the last: its reward, a choice."""
    spaces = _region_spaces(int(REGION_MASKS[region]))
    (star, number), rest = spaces[-1], spaces[:-1]
    cells = {letter: ["."] * STAR_SPACES for letter in STAR_LETTERS}
    centre_colours = iter("GOYBR")  # round 1: purple is wild; blue is placed last
    for s, k in rest:
        cells[STAR_LETTERS[s]][k - 1] = next(centre_colours) if s == 6 else STAR_LETTERS[s]
    colour = "B" if star == 6 else STAR_LETTERS[star]
    if star == 6:
        cells["C"] = [c if c != "B" else "." for c in cells["C"]]
    state = build(boards=[player(hand=colour * number, **{k: "".join(v) for k, v in cells.items()}), player()])
    move = f"place centre {number} blue" if star == 6 else f"place {COLOUR_NAMES[star]} {number}"
    after = play(state, move)
    reward = int(REGION_REWARDS[region])
    assert view(after)["phase"] == "bonus" and view(after)["reward"] == reward
    takes = legal(after)
    assert all(m.startswith("take ") and len(m) == 5 + reward for m in takes)
    assert len(takes) == {1: 6, 2: 19, 3: 40}[reward]  # supply PPGGOOYYBR: B, R once
    done = play(after, takes[0])
    assert len(tiles(done[player_word(0, P_HAND)])) == reward


def test_a_window_earns_three_supply_tiles():
    state = build(boards=[player(hand="RRRRRR", R="....R."), player()])
    after = play(state, "place red 6")
    assert view(after)["reward"] == 3 and score(after, 0) == 5 + 2


def test_two_regions_at_once_add_up():
    # Red 3 completes the pillar (red 2, red 3, centre 1, centre 2) and the statue
    # (orange 1, orange 2, red 3, red 4): 1 + 2 tiles.
    state = build(boards=[player(hand="RRR", R=".R.R..", O="OO....", C="PG...."), player()])
    assert view(play(state, "place red 3"))["reward"] == 3


def test_a_bonus_without_choice_is_taken_at_once():
    # The supply holds one colour: the tiles are taken and the supply topped up.
    state = build(supply="BBBBBBBBBB", boards=[player(hand="RRRRRR", R="....R."), player()])
    after = play(state, "place red 6")
    assert tiles(after[player_word(0, P_HAND)]) == "BBB"
    assert view(after)["phase"] == "resupply"


def test_a_short_supply_gives_what_it_has():
    """Bag and tower empty: the supply stays short, then refills once the tower has tiles."""
    obj = build_json(supply="YB", boards=[player(hand="RRRRRR", R="....R."), player()])
    obj["bag"], spare = {name: 0 for name in COLOUR_NAMES}, obj["bag"]
    # Park the spare tiles on the second player's hand so no draw is possible.
    obj["boards"][1]["hand"] = "".join(COLOUR_LETTERS[c] * spare[name] for c, name in enumerate(COLOUR_NAMES))
    state = position_from_json(obj)
    after = play(state, "place red 6")  # 3 earned, 2 there: taken at once
    assert tiles(after[player_word(0, P_HAND)]) == "YB"
    assert view(after)["phase"] == "resupply"  # the 5 paid reds reached the tower
    games.resolve_chance(after, make_rng(2))
    assert view(after)["supply"] == "RRRRR" and view(after)["turn"] == 2


# ---- passing and keeping -------------------------------------------------------------


def test_pass_and_keep_at_most_four():
    state = build(boards=[player(score=9, hand="PPGGOY"), player(hand="B")])
    after = play(state, "pass")
    assert view(after)["phase"] == "keep" and view(after)["passed"] == [1]
    keeps = legal(after)
    assert "keep -" in keeps and "keep PPGG" in keeps and "keep PPGGO" not in keeps
    assert len(keeps) == len(set(keeps))
    kept = play(after, "keep PPGO")
    assert score(kept, 0) == 9 - 2  # G and Y discarded
    assert tiles(kept[player_word(0, P_KEPT)]) == "PPGO"
    assert tiles(int(kept[W_TOWER])) == "GY"
    assert view(kept)["turn"] == 2 and view(kept)["phase"] == "place"


def test_keep_choices_are_every_distinct_multiset():
    state = play(build(boards=[player(hand="PPPGGO"), player()]), "pass")
    counts = {}
    for text in legal(state):
        kept = text.split()[1]
        counts[len(kept.strip("-"))] = counts.get(len(kept.strip("-")), 0) + 1
    # sizes 0..4 of {3 P, 2 G, 1 O}: 1, 3, 5, 6, 5 multisets
    assert counts == {0: 1, 1: 3, 2: 5, 3: 6, 4: 5}


def test_pass_penalty_never_below_one():
    state = play(build(boards=[player(score=2, hand="PPGGOYBR"), player()]), "pass")
    assert score(play(state, "keep -"), 0) == 1


def test_a_pass_with_nothing_in_hand_is_one_move():
    state = build(boards=[player(), player(hand="B")])
    after = play(state, "pass")
    assert view(after)["phase"] == "place" and view(after)["turn"] == 2


def test_kept_tiles_come_back_next_round():
    state = build(boards=[player(hand="PGOYB"), player()], passed=[2], turn=1)
    after = play(state, "pass", "keep PGOY")
    assert view(after)["phase"] == "refill" and view(after)["round"] == 2
    assert tiles(after[player_word(0, P_HAND)]) == "PGOY"
    assert tiles(after[player_word(0, P_KEPT)]) == ""


# ---- rulings: order of play, the token, the refill ------------------------------------


def test_placing_order_is_token_holder_then_clockwise_skipping_passed():
    state = build(
        players=3,
        phase="draft",
        factories=["GGGG"] + ["-"] * 6,
        token=2,
        turn=3,
        boards=[player(hand="B"), player(hand="B"), player(hand="B")],
    )
    after = play(state, "F1 green")  # the last tiles: placing begins
    assert view(after)["phase"] == "place" and view(after)["turn"] == 2
    after = play(after, "pass", "keep B")
    assert view(after)["turn"] == 3
    after = play(after, "place blue 1")
    assert view(after)["turn"] == 1
    after = play(after, "place blue 1")
    assert view(after)["turn"] == 3  # player 2 has passed


def test_untouched_centre_keeps_the_start_player():
    state = build(players=2, phase="draft", starter=2, turn=1, round=2, factories=["GGGG", "-", "-", "-", "-"])
    after = play(state, "F1 wild")  # round 2: green is wild
    assert view(after)["phase"] == "draft" and view(after)["centre"] == "GGG"
    state = build(players=2, phase="draft", starter=2, turn=2, round=2, factories=["PPPG", "-", "-", "-", "-"])
    after = play(state, "F1 purple")  # the display is emptied at once
    assert view(after)["phase"] == "place" and view(after)["token"] is None
    assert view(after)["turn"] == 2  # the round's starter places first
    after = play(after, "pass", "keep PPPG", "pass")
    assert view(after)["phase"] == "refill" and int(after[W_STARTER]) == 1


def test_the_token_holder_starts_the_next_round():
    state = build(players=3, token=3, passed=[1, 2], turn=3, starter=1)
    after = play(state, "pass")
    assert int(after[W_ROUND]) == 2 and int(after[W_STARTER]) == 2
    assert view(after)["token"] is None and view(after)["turn"] == 3


def test_round_refill_fills_displays_in_order_then_the_supply():
    state = pavilion.new_game(2)
    draws = 0
    probs = np.empty(games.MAX_MOVES, np.float64)
    moves = np.empty(games.MAX_MOVES, np.int64)
    while games.to_move(state) == games.CHANCE:
        n = games.chance_outcomes(state, moves, probs)
        games.apply_move(state, moves[0])  # always the first colour left
        draws += 1
        if draws == 20:
            assert view(state)["supply"] == "-" and view(state)["factories"][-1] == "PPPP"
    assert draws == 30 and view(state)["supply"] == "PPGGGGGGGG" and view(state)["phase"] == "draft"
    assert n >= 1


def test_a_dry_refill_stops_short_and_drafting_can_be_skipped():
    """Three full boards hold 126 tiles: when the round ends nothing is left to draw, so no
    display gets a tile and the next round goes straight to placing."""
    full = {letter: letter * STAR_SPACES for letter in COLOUR_LETTERS}
    full["C"] = COLOUR_LETTERS
    state = build(
        players=3,
        round=2,
        supply="PGOY",
        passed=[2, 3],
        turn=1,
        boards=[player(hand="R", **full), player(kept="B", **full), player(**full)],
    )
    assert int(state[W_BAG]) == 0 and int(state[W_TOWER]) == 0
    after = play(state, "pass", "keep R")  # the last pass: round 3 begins
    assert view(after)["round"] == 3 and view(after)["phase"] == "place"
    assert all(f == "-" for f in view(after)["factories"]) and view(after)["supply"] == "PGOY"
    assert tiles(after[player_word(0, P_HAND)]) == "R"  # kept tiles are back
    assert tiles(after[player_word(1, P_HAND)]) == "B"
    assert legal(after) == ["pass"]


# ---- the end of the game -------------------------------------------------------------


def test_end_bonuses_and_corner_tiles():
    full = "PPPPPP"
    state = build(
        round=6,
        passed=[2],
        turn=1,
        boards=[
            player(
                score=30, hand="BBBBBY", P=full, G="GGGG..", O="OOOO..", Y="YYYY..", B="BBBB..", R="RRRR..", C="PGOY.."
            ),
            player(score=7, kept="RR"),
        ],
    )
    after = play(state, "pass", "keep BBBB")
    assert view(after)["phase"] == "over"
    # 30 - 2 discarded (B, Y); + purple star 20 + 1s 4 + 2s 8 + 3s 12 + 4s 16; - 4 kept
    assert score(after, 0) == 30 - 2 + 20 + 4 + 8 + 12 + 16 - 4
    assert score(after, 1) == 7 - 2
    assert int(after[player_word(0, P_KEPT)]) == 0 and int(after[player_word(1, P_HAND)]) == 0
    shares = np.zeros(2)
    games.payoffs(after, shares)
    assert shares.tolist() == [1.0, 0.0]


def test_corner_penalty_never_below_one_and_ties_are_shared():
    state = build(round=6, passed=[2], turn=1, boards=[player(score=2, hand="BBBB"), player(score=1, kept="RRRR")])
    after = play(state, "pass", "keep BBBB")
    assert score(after, 0) == 1 and score(after, 1) == 1
    shares = np.zeros(2)
    games.payoffs(after, shares)
    assert shares.tolist() == [0.5, 0.5]


def test_a_whole_game_ends_after_six_rounds():
    state = PAVILION.new(5, players=2)
    rng = make_rng(5)
    moves = np.empty(games.MAX_MOVES, np.int64)
    rounds = set()
    while games.to_move(state) != games.TERMINAL:
        rounds.add(int(state[W_ROUND]))
        if games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, rng)
        else:
            games.apply_move(state, games.random_move(state, rng, moves))
    assert rounds == {1, 2, 3, 4, 5, 6}
    assert int(np.sum([state[player_word(p, P_HAND)] for p in range(2)])) == 0
    assert view(state)["supply"] and int(state[W_SUPPLY]) != 0
