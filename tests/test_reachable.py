"""Engine and notation agree on every reachable position: each position of random
games of every game and variant reads back, as text and as JSON (and, in Azure,
each player's view of it); and the Azul cases random games found."""

import json

import numpy as np
import pytest

from tessera.errors import PositionError
from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.azul.layout import PHASE_OVER, STALL_LIMIT, W_PHASE, W_ROUND, W_STALLED
from tessera.kernels.rng import make_rng
from tests.cli_process import tessera
from tests.random_games import VARIANTS, random_game, variant_id
from tests.tiers import fewer

AZUL = get_game("azul")
STALLED_GRAY_SEED = 77  # a 2-player gray-wall random game ended by five stalled rounds


def assert_reads_back(game, state):
    text = game.format_position(state)
    assert np.array_equal(game.parse_position(text), state), text
    obj = json.loads(json.dumps(game.position_to_json(state)))
    assert np.array_equal(game.position_from_json(obj), state), text


def assert_every_position_reads_back(variant, seeds):
    name, options = variant
    game = get_game(name)
    for seed in seeds:
        for state in random_game(name, options, seed):
            assert_reads_back(game, state)
            if game.observer(state) is None and name == "azure":
                for observer in range(games.players(state)):
                    assert_reads_back(game, game.view(state, observer))


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_random_games_read_back(variant):
    assert_every_position_reads_back(variant, range(fewer(2, 1)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_many_random_games_read_back(variant):
    assert_every_position_reads_back(variant, range(2, 202))


# ---- Azul: stalled games and the round number ----------------------------------------


def stalled_game_end():
    state = AZUL.new(STALLED_GRAY_SEED, players=2, variant="gray")
    rules = bind.interface(state[0])
    bind.instance(state[0], "playout").random_playout(
        state, make_rng(STALLED_GRAY_SEED), np.empty(rules.MAX_MOVES, np.int64)
    )
    return state


def test_a_game_ended_by_stalled_rounds_reads_back():
    state = stalled_game_end()
    assert state[W_PHASE] == PHASE_OVER and state[W_STALLED] == STALL_LIMIT
    assert not any(
        row == "BYRKW" for board in AZUL.position_to_json(state)["boards"] for row in board["wall"]
    )  # no complete row: the stall ended it
    assert_reads_back(AZUL, state)
    result = tessera("moves", "-", stdin=AZUL.format_position(state))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "game over: no moves\n"


def test_a_game_over_needs_a_reason_to_end():
    text = AZUL.format_position(stalled_game_end())
    with pytest.raises(PositionError, match="fewer than 5 rounds in a row stalled"):
        AZUL.parse_position(text.replace("stalled 5", "stalled 4"))


def with_round(text, round_number):
    obj = AZUL.position_to_json(AZUL.parse_position(text))
    return dict(obj, round=round_number)


def test_round_is_bounded_by_what_the_rules_reach():
    # Round 1 ended stalled: round 2 is the latest round without a wall tile.
    start = AZUL.format_position(AZUL.new(1)).replace("round 1", "round 2 stalled 1")
    AZUL.parse_position(start)
    for late in (3, 2**31 - 1):
        with pytest.raises(PositionError, match=f"round: round {late} with 0 wall tiles and 1 stalled rounds"):
            AZUL.position_from_json(with_round(start, late))


@pytest.mark.parametrize("seed", range(3))
def test_the_latest_round_is_reached_and_goes_on(seed):
    """A draft position at the latest round its walls allow: its round ends, and the
    next position reads back too."""
    state = AZUL.new(seed)
    rng = make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    while state[W_ROUND] < 3 or games.to_move(state) == games.CHANCE:
        if games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, rng)
        else:
            games.apply_move(state, games.random_move(state, rng, moves))
    obj = AZUL.position_to_json(state)
    tiles = sum(row.count(".") for board in obj["boards"] for row in board["wall"])
    wall_tiles = 25 * len(obj["boards"]) - tiles
    latest = STALL_LIMIT * wall_tiles + obj["stalled"] + 1
    AZUL.position_from_json(dict(obj, round=latest))
    with pytest.raises(PositionError, match="round"):
        AZUL.position_from_json(dict(obj, round=latest + 1))
    late = AZUL.position_from_json(dict(obj, round=latest))
    while late[W_ROUND] == latest and games.to_move(late) != games.TERMINAL:
        if games.to_move(late) == games.CHANCE:
            games.resolve_chance(late, rng)
        else:
            games.apply_move(late, games.random_move(late, rng, moves))
    assert_reads_back(AZUL, late)


def test_a_tiling_round_is_not_stalled():
    positions = map(AZUL.position_to_json, random_game("azul", {"variant": "gray"}, 4))
    obj = next(obj for obj in positions if obj["phase"] == "tiling")
    assert obj["stalled"] == 0
    with pytest.raises(PositionError, match="stalled: 1 stalled rounds in phase tiling"):
        AZUL.position_from_json(dict(obj, stalled=1))
