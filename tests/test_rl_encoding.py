"""The learning adapters' observation vectors read back as Tessera's notation of the same
position: each entry rebuilt here from ``Position.to_json()`` (docs/rl.md), for every
observer of positions along seeded random games, so the encodings cannot drift from
the rules. Action ids round-trip through the engine's move codes and the notation."""

import numpy as np
import pytest

from tessera.position import Position
from tessera.rl.encoding import Encoding
from tests.random_games import random_game

pytest.importorskip("gymnasium")


def tile_counts(text, letters):
    """Per colour, the tiles of a tile set written ``text`` (``-`` none, ``1`` the marker)."""
    return [0 if text == "-" else text.count(letter) for letter in letters]


def azul_expected(doc, observer):
    from tessera.kernels.azul import encoding as enc

    letters = "BYRKW"
    players = doc["players"]
    out = [doc["round"], doc["phase"] == "draft", doc["phase"] == "tiling", doc["wall"] == "gray", doc["stalled"]]
    acting = [0.0] * players
    if doc["phase"] in ("draft", "tiling"):
        acting[(doc["turn"] - 1 - observer) % players] = 1.0
    out += acting
    for factory in doc["factories"]:
        out += tile_counts(factory, letters)
    out += tile_counts(doc["centre"], letters) + ["1" in doc["centre"]]
    out += [doc["bag"][name] for name in ("blue", "yellow", "red", "black", "white")]
    out += [doc["lid"][name] for name in ("blue", "yellow", "red", "black", "white")]
    for k in range(players):
        board = doc["boards"][(observer + k) % players]
        wall = [0.0] * 125
        for row, cells in enumerate(board["wall"]):
            for col, letter in enumerate(cells):
                if letter != ".":
                    wall[25 * letters.index(letter) + 5 * row + col] = 1.0
        lines = [0.0] * 25
        for line, cells in enumerate(board["lines"]):
            for letter in cells.replace(".", ""):
                lines[5 * line + letters.index(letter)] += 1
        floor = board["floor"]
        out += [board["score"]] + wall + lines + [len(floor.replace("1", "").replace("-", "")), "1" in floor]
    assert len(out) == enc.observation_size(players)
    return out


def pavilion_expected(doc, observer):
    from tessera.kernels.pavilion.layout import COLOUR_LETTERS, COLOUR_NAMES

    letters = COLOUR_LETTERS
    players = doc["players"]
    phases = ("draft", "place", "bonus", "keep")
    out = [doc["round"]] + [doc["phase"] == p for p in phases]
    out += [name == doc["wild"] for name in COLOUR_NAMES]
    out += [doc["reward"] if doc["phase"] == "bonus" else 0, doc["token"] is None]
    acting = [0.0] * players
    if doc["phase"] in phases:
        acting[(doc["turn"] - 1 - observer) % players] = 1.0
    out += acting
    for factory in doc["factories"]:
        out += tile_counts(factory, letters)
    out += tile_counts(doc["centre"], letters) + tile_counts(doc["supply"], letters)
    out += [doc["bag"][name] for name in COLOUR_NAMES] + [doc["tower"][name] for name in COLOUR_NAMES]
    for k in range(players):
        seat = (observer + k) % players
        board = doc["boards"][seat]
        spaces = [float(letter != ".") for star in board["stars"] for letter in star]
        centre = [float(letter in board["stars"][-1]) for letter in letters]
        out += [board["score"]] + spaces + centre + tile_counts(board["hand"], letters)
        out += tile_counts(board["kept"], letters) + [seat + 1 in doc["passed"], doc["token"] == seat + 1]
    return out


def azure_expected_parts(doc, observer):
    """The per-player entries and a few global ones of an Azure view (the realm planes are
    checked through the stones)."""
    letters = "AWVB"
    players = []
    for k in range(2):
        player = doc["players"][observer ^ k]
        hand = player["known"] if "?" in player["hand"] else player["hand"]
        players.append(
            [
                player["score"],
                player["supply"],
                None,
                *tile_counts(hand, letters),
                *tile_counts(player["known"], letters),
            ]
        )
        players[-1][2] = len(player["hand"]) if player["hand"] != "-" else 0
    return players, [doc["faceup"][name] for name in ("azure", "white", "vermillion", "black")]


def cell_index(name):
    """docs/azure-notation.md: ``c5`` is column 3, row 5, cell 8 * 4 + 2."""
    return 8 * (int(name[1:]) - 1) + ord(name[0]) - ord("a")


def azure_check(doc, observer, vector):
    from tessera.kernels.azure import encoding as enc

    players, faceup = azure_expected_parts(doc, observer)
    for k, expected in enumerate(players):
        at = enc.PLAYERS_AT + k * enc.PLAYER_SIZE
        assert vector[at : at + enc.PLAYER_SIZE].tolist() == expected
        player = doc["players"][observer ^ k]
        stones = vector[enc.GLOBAL_SIZE + 64 * (enc.R_STONE + k) :][:64]
        gifted = vector[enc.GLOBAL_SIZE + 64 * (enc.R_GIFTED_STONE + k) :][:64]
        named = {cell_index(cell) for cell in player["stones"]}
        if player["gifted"] is not None:
            named.add(cell_index(player["gifted"]))
            assert np.flatnonzero(gifted).tolist() == [cell_index(player["gifted"])]
        assert set(np.flatnonzero(stones)) == named
    assert vector[enc.G_FACEUP : enc.G_FACEUP + 4].tolist() == faceup
    assert vector[enc.G_DECK_SIZE] == len(doc["deck"].replace("-", ""))


@pytest.mark.parametrize(
    "game,options",
    [
        ("azul", {"players": 2}),
        ("azul", {"players": 3, "variant": "gray"}),
        ("pavilion", {"players": 3}),
        ("azure", {"gifted": "mighty"}),
    ],
)
def test_observations_read_back_as_the_notation(game, options):
    encoding = Encoding(game, **options)
    stride = 2 if game == "azure" else 7  # Azure's games are short
    checked = 0
    for seed in (1, 2):
        for ply, state in enumerate(random_game(game, options, seed)):
            if ply % stride:
                continue
            position = Position.from_state(state)
            for observer in range(encoding.players):
                vector = encoding.observation(state, observer)
                doc = position.view(observer + 1).to_json()
                if game == "azul":
                    assert vector.tolist() == azul_expected(doc, observer)
                elif game == "pavilion":
                    assert vector.tolist() == pavilion_expected(doc, observer)
                else:
                    azure_check(doc, observer, vector)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    "game,options",
    [("azul", {"players": 4, "variant": "gray"}), ("pavilion", {"players": 2}), ("azure", {"cosmos": True})],
)
def test_action_ids_round_trip_through_the_notation(game, options):
    """Every legal move's id maps back to the same move, ids stay inside ``num_actions``
    and differ between the moves of a position."""
    encoding = Encoding(game, **options)
    for ply, state in enumerate(random_game(game, options, 5)):
        position = Position.from_state(state)
        if position.is_chance or position.is_over or ply % 3:
            continue
        ids = set()
        for text in position.legal_moves:
            move = position.parse_move(text)
            action = encoding.action_of_move(state, move)
            assert 0 <= action < encoding.num_actions
            assert encoding.move_of_action(state, action) == move
            ids.add(action)
        assert len(ids) == len(position.legal_moves)


def test_pavilion_choice_ids_are_every_small_count_vector_once():
    from tessera.kernels.pavilion import encoding as enc

    counts = [tuple((code >> (3 * c)) & 7 for c in range(6)) for code in enc.CHOICES]
    assert len(set(counts)) == len(counts) == 210  # multisets of 0..4 tiles of 6 colours
    assert [sum(c) for c in counts] == sorted(sum(c) for c in counts)
    assert counts[0] == (0,) * 6 and counts[1] == (1, 0, 0, 0, 0, 0)


def test_the_worked_azul_example_of_the_notation_docs():
    """docs/azul-notation.md's position, seen by player 2: the numbers of its text."""
    from tessera.kernels.azul import encoding as enc

    position = Position.parse(
        "azul players 2 wall colour round 3 phase draft turn 2 starter 1; factories BBYR - KKWW - YRKW;"
        " centre BBY; bag 12/14/11/13/14; lid 1/0/2/0/0; player 1 score 7 wall BY.../W..../..B../...../....."
        " lines ./YY/R../..../KKK.. floor 1RR; player 2 score 2 wall ..R../...../...../R..../....."
        " lines B/../WW./..../..... floor K"
    )
    vector = Encoding("azul").observation(position.state, 1)
    assert vector[enc.G_ROUND] == 3 and vector[enc.G_TO_MOVE] == 1  # player 2 acts: the observer
    factories = enc.G_TO_MOVE + 2
    assert vector[factories : factories + 5].tolist() == [2, 1, 1, 0, 0]  # F1 BBYR
    me = enc.global_size(2)
    assert vector[me + enc.PL_SCORE] == 2 and vector[me + enc.PL_FLOOR] == 1
    assert vector[me + enc.PL_WALL + 25 * 2 + 2] == 1  # red at row 1, column 3
    opponent = me + enc.PLAYER_SIZE
    assert vector[opponent + enc.PL_SCORE] == 7 and vector[opponent + enc.PL_MARKER] == 1
    assert vector[opponent + enc.PL_LINES + 5 * 4 + 3] == 3  # KKK on line 5


def test_an_azure_observation_does_not_show_what_the_player_cannot_know():
    """Complete positions a player cannot tell apart (its view determinized two ways: the
    opponent's hand and the deck dealt anew) give that player the same observation, and
    they differ in what they hide."""
    from tessera.kernels.azure import determinize
    from tessera.kernels.rng import make_rng

    encoding = Encoding("azure")
    differed = 0
    for ply, state in enumerate(random_game("azure", {}, 3)):
        position = Position.from_state(state)
        if position.is_over:
            break
        for observer in (0, 1):
            view = position.view(observer + 1).state
            first, second = np.empty_like(state), np.empty_like(state)
            determinize(view, observer, make_rng(ply), first)
            determinize(view, observer, make_rng(ply + 1000), second)
            differed += not np.array_equal(first, second)
            assert np.array_equal(encoding.observation(first, observer), encoding.observation(second, observer))
            assert np.array_equal(encoding.observation(first, observer), encoding.observation(state, observer))
    assert differed > 0


@pytest.mark.repo
def test_docs_rl_states_the_sizes_of_the_encodings():
    """docs/rl.md's action counts and observation sizes are the encodings'."""
    from tests.repo import repo_text

    text = repo_text("docs/rl.md")
    sizes = {"azul": (305, 354), "pavilion": (2003, 195), "azure": (156, 1282)}
    for game, (actions, observation) in sizes.items():
        encoding = Encoding(game)
        assert (encoding.num_actions, encoding.observation_size) == (actions, observation)
        assert f"| {actions} |" in text and str(observation) in text


@pytest.mark.parametrize("game", ["azul", "pavilion", "azure"])
def test_a_list_of_moves_maps_as_each_move_does(game):
    encoding = Encoding(game)
    state = Position.new(game, seed=4).state
    moves = np.empty(400, np.int64)
    count = encoding_kernels(game).legal_moves(state, moves)
    assert encoding.actions_of_moves(state, moves[:count]) == [
        int(encoding.kernels.action_of_move(state, m)) for m in moves[:count]
    ]


def encoding_kernels(game):
    from tessera.kernels import bind

    return bind.interface(game)


@pytest.mark.parametrize("game", ["azul", "pavilion", "azure"])
def test_an_action_id_out_of_range_is_a_move_error(game):
    """Not a move code read from past the kernels' tables (Summer Pavilion's choices)."""
    from tessera.errors import MoveError

    encoding = Encoding(game)
    state = Position.new(game, seed=1).state
    for action in (-1, encoding.num_actions, 10**6):
        with pytest.raises(MoveError, match=f"action ids are 0 to {encoding.num_actions - 1}"):
            encoding.move_of_action(state, action)


def test_an_unknown_option_is_an_option_error():
    """As `tessera new` says it, not a TypeError from the game's set-up."""
    from tessera.errors import OptionError

    with pytest.raises(OptionError, match=r"azul has no option 'colours' \(its options: players, variant\)"):
        Encoding("azul", colours=6)
