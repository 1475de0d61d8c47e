"""Why a move (tessera.explain): hand-worked breakdowns of Azul, Summer Pavilion and Azure
moves, the breakdown checked against the positions the engine reaches over random games,
and the web route's answers and errors."""

import random

import pytest
from starlette.testclient import TestClient

from tessera.errors import MoveError, TesseraError
from tessera.explain import explain
from tessera.position import Position
from tests.test_web_browser import AZUL_GRAY_TILING, PAVILION_PLACING
from tests.tiers import fewer

AZUL_COLOURS = "BYRKW"


def azul(
    factories,
    centre,
    player1,
    player2="score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -",
    round_=2,
    lid="0/0/0/0/0",
    wall="colour",
):
    """An Azul position of two players, player 1 to move, the bag holding every tile the
    rest of the position does not (tiles written as in the notation)."""
    tiles = factories + centre + player1 + player2  # the notation's words are lower case
    lids = [int(n) for n in lid.split("/")]
    bag = "/".join(str(20 - tiles.count(c) - lids[i]) for i, c in enumerate(AZUL_COLOURS))
    return Position.parse(
        f"azul players 2 wall {wall} round {round_} phase draft turn 1 starter 1;"
        f" factories {factories}; centre {centre}; bag {bag}; lid {lid};"
        f" player 1 {player1}; player 2 {player2}"
    )


def texts(breakdown):
    return [term["text"] for term in breakdown["terms"]]


# ---- Azul ------------------------------------------------------------------------------------


def test_azul_a_move_completing_a_line_scores_its_wall_tile_by_hand():
    # Line 3 holds two blue; F1's blue fills it. At the round's end blue goes to row 3,
    # column 3 (the colour wall: (blue 0 + row 2) mod 5 = 2): black and white to its left
    # make a row of 3, red and yellow above it a column of 3: 3 + 3 = 6 points.
    position = azul(
        "BYYK RRWW BKKW YRWW BBRK", "1", "score 10 wall B.R../..Y../KW.../...../..... lines ./../BB./..../..... floor -"
    )
    found = explain(position, "F1 blue 3")
    assert found["line"] == {"row": 3, "placed": 1, "filled": 3, "size": 3, "completes": True}
    wall = found["wall"]
    assert (wall["row"], wall["column"], wall["points"]) == (3, 3, 6)
    # Bonus progress: row 3 holds K W B (3/5), column 3 R Y B (3/5), blue B B (2/5).
    assert (wall["row_tiles"], wall["column_tiles"], wall["colour_tiles"]) == (3, 3, 2)
    assert wall["row_bonus"] == wall["column_bonus"] == wall["colour_bonus"] == 0
    assert (found["to_floor"], found["floor_penalty"], found["first_player_token"]) == (0, 0, False)
    assert found["score_change"] == [0, 0]  # nothing is scored before the round's end
    assert texts(found) == [
        "takes 1 blue",
        "1 to line 3 (full)",
        "wall +6 at round end (column 3)",
        "row 3/5, column 3/5, blue 2/5",
    ]


def test_azul_the_full_lines_above_are_tiled_first():
    # Line 1's white (already full) goes to row 1, column 5 before line 2's tile: line 2's
    # black lands in column 5 of row 2, under it: a column of 2.
    position = azul(
        "BYYK RRWW BKKW YRWW BBRK",
        "1",
        "score 0 wall ...../...../...../...../..... lines W/K./.../..../..... floor -",
        round_=1,
    )
    wall = explain(position, "F3 black 2")["wall"]
    assert (wall["row"], wall["column"], wall["points"], wall["column_tiles"]) == (2, 5, 2, 2)
    # The same without the line above: a lone tile, 1 point.
    alone = azul(
        "BYYK RRWW BKKW YRWW BBRK",
        "1",
        "score 0 wall ...../...../...../...../..... lines ./K./.../..../..... floor -",
        round_=1,
    )
    assert explain(alone, "F3 black 2")["wall"]["points"] == 1


def test_azul_a_completed_row_names_its_bonus():
    position = azul(
        "BYYK RRWW BKKW YRWW BBRK", "1", "score 10 wall BYRK./...../...../...../..... lines ./../.../..../..... floor -"
    )
    wall = explain(position, "F2 white 1")["wall"]
    assert (wall["points"], wall["row_tiles"], wall["row_bonus"]) == (5, 5, 2)
    assert "completes its row: +2 at game end" in texts(explain(position, "F2 white 1"))


def test_azul_the_first_player_token_and_the_floor_penalty():
    # Three red from the centre onto line 1: one fits, two overflow. The token takes the
    # third floor slot (two black are there), the reds the fourth and fifth: the floor's
    # penalty goes from 2 (slots 1-2) to 8 (slots 1-5), 6 more.
    position = azul(
        "BYYK - - - -",
        "1RRRW",
        "score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor KK",
        round_=1,
    )
    found = explain(position, "C red 1")
    assert found["first_player_token"] is True
    assert found["line"]["placed"] == 1
    assert (found["to_floor"], found["to_lid"], found["floor_penalty"]) == (2, 0, 6)
    assert texts(found)[-3:] == ["takes the first-player token", "2 to the floor", "floor -6 at round end"]
    after = position.play("C red 1").to_json()["boards"][0]
    assert sorted(after["floor"]) == sorted("1KKRR")  # the engine's floor agrees


def test_azul_a_full_floor_sends_the_rest_to_the_lid():
    # Six slots taken: one of the three blue fits (-3 for the seventh), two go to the lid.
    position = azul(
        "BBBY YYKK - - -",
        "1W",
        "score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor RRKKWW",
        round_=1,
    )
    found = explain(position, "F1 blue floor")
    assert (found["to_floor"], found["to_lid"], found["floor_penalty"]) == (1, 2, 3)


def test_azul_on_the_gray_wall_a_full_line_is_worth_its_best_legal_column():
    # Yellow for row 1: column 1 is taken, column 2 has a yellow (a colour once a column);
    # column 4, above row 2's red, links 2; columns 3 and 5 are lone: the best is 2.
    position = azul(
        "BYYK RRWW BKKW YRWW BBRK",
        "1",
        "score 3 wall B..../.Y.R./...../...../..... lines ./../.../..../..... floor -",
        wall="gray",
    )
    found = explain(position, "F1 yellow 1")
    assert found["wall"]["column"] is None and found["wall"]["points"] == 2
    assert found["to_floor"] == 1  # the second yellow
    assert "wall +2 at round end (the best column)" in texts(found)


def test_azul_the_gray_walls_tiling_scores_the_chosen_column():
    position = Position.parse(AZUL_GRAY_TILING)
    for move in position.legal_moves:
        found = explain(position, move)
        assert found["kind"] == "tiling" and found["wall"]["column"] == int(move.split()[1])
        # Scored at once, and more lines are to come, so the score moves by the tile alone.
        assert found["score_change"][0] == found["wall"]["points"] == 1


# The last tile of the table is a black in the centre; player 1 has the token and two
# black on the floor.
ROUND_END = "score 10 wall B..../...../...../...../..... lines ./../.../..../..... floor 1KK"


def test_azul_a_round_ending_draft_reports_the_score_it_makes():
    position = azul("- - - - -", "K", ROUND_END)
    found = explain(position, "C black 1")
    # Black to row 1, column 4: a lone tile, +1; the floor's three slots -4: -3 now.
    assert found["wall"]["points"] == 1
    assert found["score_change"] == [-3, 0]
    assert texts(found)[-1] == "ends the round: score -3 now"


def test_azul_breakdowns_agree_with_the_engine_over_random_games():
    """Whatever a draft leaves in its line, on the floor and in the lid is what the engine's
    position after it holds (drafts that leave the round going)."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        position = Position.new("azul", seed=seed, players=2 + seed % 3)
        while not position.is_over and checked < 600:
            if position.is_chance:
                position = position.draw_chance(rng.randrange(10**6))
                continue
            move = rng.choice(position.legal_moves)
            found, after = explain(position, move), position.play(move)
            doc, later = position.to_json(), after.to_json()
            if found["kind"] == "draft" and later["phase"] == "draft" and later["round"] == doc["round"]:
                mover = position.to_move - 1
                board = later["boards"][mover]
                if "line" in found:
                    line = board["lines"][found["line"]["row"] - 1]
                    assert sum(c != "." for c in line) == found["line"]["filled"]
                floor_before = doc["boards"][mover]["floor"].replace("-", "")
                floor_after = board["floor"].replace("-", "")
                assert len(floor_after) - len(floor_before) == found["to_floor"] + found["first_player_token"]
                assert sum(later["lid"].values()) - sum(doc["lid"].values()) == found["to_lid"]
                assert found["score_change"] == [0] * position.players
                checked += 1
            position = after
    assert checked > 300


# ---- Summer Pavilion -------------------------------------------------------------------------


def test_pavilion_a_placement_scores_its_run_and_counts_its_star_and_number():
    # Player 2 covers purple 3 beside purple 1 and 2: a run of three, +3. The purple star
    # then has 3 of 6 spaces; space 3 is covered on purple and the centre star (2 of 7).
    found = explain(Position.parse(PAVILION_PLACING), "place purple 3")
    assert found["player"] == 2 and found["score_change"] == [0, 3]
    assert (found["points"], found["star_spaces"], found["number_stars"], found["to_tower"]) == (3, 3, 2, 2)
    assert found["regions"] == [] and found["star_bonus"] == found["number_bonus"] == 0
    assert texts(found) == ["+3 now", "pays 3", "purple star 3/6", "3s on 2/7 stars"]


def test_pavilion_a_draft_from_the_centre_takes_the_token_and_costs_a_point_a_tile():
    position = Position.new("pavilion", seed=1)
    while position.is_chance:
        position = position.draw_chance(3)
    # Round 1, purple wild: F2 GGYB gives two green, Y and B slide to the centre.
    first = explain(position, "F2 green")
    assert (first["taken"], first["wild"], first["to_centre"]) == (2, 0, 2)
    assert first["start_player_token"] is False
    # F1 POBR: the orange and the purple wild; B and R to the centre.
    assert (explain(position, "F1 orange")["taken"], explain(position, "F1 orange")["wild"]) == (1, 1)
    after = position.play("F2 green")
    token = explain(after, "C yellow")
    assert token["player"] == 2 and token["start_player_token"] is True
    assert token["taken"] == 1 and token["points"] == -1 and token["score_change"] == [0, -1]


def test_pavilion_completed_regions_are_the_supply_tiles_the_engine_gives():
    rng = random.Random(3)
    regions = 0
    for seed in range(4):
        position = Position.new("pavilion", seed=seed)
        while not position.is_over:
            if position.is_chance:
                position = position.draw_chance(rng.randrange(10**6))
                continue
            move = rng.choice(position.legal_moves)
            found, after = explain(position, move), position.play(move)
            if found["kind"] == "place":
                earned = sum(region["reward"] for region in found["regions"])
                later = after.to_json()
                mover = position.to_move - 1
                hand = len(position.to_json()["boards"][mover]["hand"].replace("-", ""))
                hand_after = len(later["boards"][mover]["hand"].replace("-", ""))
                supply = len(position.to_json()["supply"].replace("-", ""))
                if later["phase"] == "bonus":
                    assert later["reward"] == earned > 0
                else:
                    assert hand_after == hand - found["space"] + min(earned, supply)
                regions += earned > 0
            position = after
    assert regions > 5


# ---- Azure -----------------------------------------------------------------------------------

AZURE_MIGHTY = """azure gifted mighty cosmos no view -
layout A2@270 V1@90 B2@90 W1@0
phase place turn 2
faceup 7/7/8/10 deck AAWWB
player 1 score 5 supply 9 stones c3,d3,e3,a4,c4 gifted - beasts tiger,bird hand AAWWVB known AWWV
player 2 score 5 supply 9 stones b2,d2,a5,b5,c5 gifted - beasts dragon,tortoise hand AWVVV known AVV"""


def test_azure_a_placement_pays_its_cost_less_the_bonds_and_takes_its_boons():
    position = Position.parse(AZURE_MIGHTY)
    found = explain(position, "place d1")
    # d1 is in the vermillion domain (top right); its symbols are one wisdom and one azure
    # qi: cost 2. Player 2's stone on d2, in the same column, is one bond: 1 vermillion paid.
    assert (found["domain"], found["cost"], found["bonds"], found["paid"]) == ("vermillion", 2, 1, 1)
    assert found["qi"] == {"azure": 1} and found["wisdom"] == 1
    # The hand: one vermillion paid, one azure taken face up.
    assert found["cards"] == {"azure": 1, "vermillion": -1}
    assert found["score_change"] == [0, 1]
    assert texts(found) == ["pays 1 vermillion of 2 (1 by bonds)", "wisdom +1", "cards +1 azure"]
    # The gifted stone costs Mighty's two more.
    gifted = explain(position, "gifted d1")
    assert (gifted["cost"], gifted["paid"], gifted["gifted"]) == (4, 3, True)


def test_azure_beasts_that_change_hands_and_the_points_they_move():
    rng = random.Random(1)
    seen = 0
    for seed in range(12):
        position = Position.new("azure", seed=seed)
        while not position.is_over:
            if position.is_chance:
                position = position.draw_chance(rng.randrange(10**6))
                continue
            move = rng.choice(position.legal_moves)
            found, after = explain(position, move), position.play(move)
            mover = position.to_move - 1
            beasts = [set(player["beasts"]) for player in position.to_json()["players"]]
            beasts_after = [set(player["beasts"]) for player in after.to_json()["players"]]
            assert set(found.get("beasts_taken", [])) == beasts_after[mover] - beasts[mover]
            if found["kind"] == "place":
                assert found["paid"] == max(0, found["cost"] - found["bonds"])
                # With no beast moving, the points are the space's wisdom.
                if beasts_after == beasts:
                    assert found["score_change"][mover] == min(found["wisdom"], 25 - position.scores[mover])
                seen += bool(found.get("beasts_taken"))
            position = after
    assert seen > 10


# ---- errors and the web route ----------------------------------------------------------------


def test_an_illegal_move_or_a_view_is_one_error():
    position = Position.parse(PAVILION_PLACING)
    with pytest.raises(MoveError):
        explain(position, "F1 red")
    with pytest.raises(TesseraError, match="complete position"):
        explain(Position.parse(AZURE_MIGHTY).view(2), "place d1")


def test_chance_outcomes_have_no_terms():
    position = azul("- - - - -", "K", ROUND_END).play("C black 1")  # the refill: chance
    found = explain(position, position.legal_moves[0])
    assert found["kind"] == "chance" and found["terms"] == [] and found["player"] is None


@pytest.fixture(scope="module")
def client():
    from tessera.web.app import create_app

    with TestClient(create_app(analysis=False), base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def test_the_route_answers_the_breakdowns_in_order(client):
    answer = client.post("/api/explain", json={"position": PAVILION_PLACING, "moves": ["place purple 3", "pass"]})
    assert answer.status_code == 200
    position = Position.parse(PAVILION_PLACING)
    assert answer.json()["moves"] == [explain(position, "place purple 3"), explain(position, "pass")]


@pytest.mark.parametrize(
    "body, message",
    [
        ({"position": PAVILION_PLACING, "moves": "pass"}, "moves must be a list of 1 to 64 move texts"),
        ({"position": PAVILION_PLACING, "moves": []}, "moves must be a list"),
        ({"position": PAVILION_PLACING, "moves": ["pass"] * 65}, "moves must be a list"),
        ({"position": PAVILION_PLACING, "moves": ["pass", 3]}, "moves must be a list"),
        ({"position": PAVILION_PLACING, "moves": ["F1 red"]}, "bad move 'F1 red'"),
        ({"position": "azul nonsense", "moves": ["pass"]}, "bad position"),
        ({"moves": ["pass"]}, "position must be"),
        ({"position": Position.parse(AZURE_MIGHTY).view(2).text(), "moves": ["place d1"]}, "complete position"),
    ],
)
def test_the_route_refuses_bad_input_with_one_line(client, body, message):
    answer = client.post("/api/explain", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert message in error and "\n" not in error


@pytest.mark.parametrize(
    "game, options",
    [
        ("azul", {}),
        ("azul", {"variant": "gray", "players": 3}),
        ("pavilion", {"players": 3}),
        ("azure", {"gifted": "bountiful"}),
        ("azure", {"cosmos": True, "gifted": "perceptive"}),
    ],
)
def test_every_legal_move_of_random_games_has_a_breakdown(game, options):
    """Every move of every position of seeded random games: terms of text, a score change
    that is the engine's, the move as the notation writes it."""
    rng = random.Random(11)
    for seed in range(fewer(3, 1)):
        position = Position.new(game, seed=seed, **options)
        while not position.is_over:
            if position.is_chance:
                position = position.draw_chance(rng.randrange(10**6))
                continue
            for move in position.legal_moves:
                found = explain(position, move)
                after = position.play(move)
                assert found["move"] == move and found["player"] == position.to_move
                assert found["score_change"] == [a - b for a, b in zip(after.scores, position.scores)]
                assert all(isinstance(term["text"], str) and term["text"] for term in found["terms"])
            position = position.play(rng.choice(position.legal_moves))


def test_random_bodies_get_an_answer_or_one_error(client):
    rng = random.Random(5)
    position = Position.parse(PAVILION_PLACING)
    pieces = [
        PAVILION_PLACING,
        AZURE_MIGHTY,
        "",
        "azul",
        3,
        None,
        [],
        {},
        True,
        -1.5,
        "pass",
        *position.legal_moves[:5],
        "place purple 9",
        "F9 red",
        "\u00e9\u00e9",
        "x" * 300,
    ]
    for _ in range(300):
        body = {}
        if rng.random() < 0.9:
            body["position"] = rng.choice(pieces)
        if rng.random() < 0.9:
            body["moves"] = (
                [rng.choice(pieces) for _ in range(rng.randrange(4))] if rng.random() < 0.8 else rng.choice(pieces)
            )
        answer = client.post("/api/explain", json=body)
        assert answer.status_code in (200, 400), (body, answer.text)
        assert ("moves" if answer.status_code == 200 else "error") in answer.json()
