"""Summer Pavilion's value features (kernels/pavilion/features.py, docs/learning.md): a
round boundary worked out by hand, the two sides of a 2-player position, agreement with a
plain-Python reading of the board on random games, the round boundaries of replayed
self-play games, and a model trained on Pavilion self-play scoring MCTS's round rollouts."""

import json

import numpy as np
import pytest

import tessera
from tessera.kernels import bind
from tessera.kernels.pavilion.features import (
    FEATURE_NAMES,
    N_VALUE_FEATURES,
    PLAYER_FEATURE_NAMES,
    is_round_boundary,
    value_features,
    value_of,
)
from tessera.kernels.pavilion.layout import PHASE_REFILL, ROUNDS, W_PHASE, W_ROUND
from tessera.learning import dataset
from tessera.learning.model import ValueModel, load_model
from tessera.search.value_model import model_weights
from tessera.selfplay.records import read_records
from tessera.selfplay.rundir import load_plan
from tests.cli_process import tessera as run_tessera
from tests.oracle import pavilion_oracle as oracle
from tests.random_games import random_game

# Round 3 (orange wild) is about to be drawn; player 2 starts it. Player 1: purple one space
# short, two greens, an orange and a blue, and two greens kept. Player 2: a whole red star,
# four yellows, a purple, red and blue on the centre star.
BOUNDARY = """pavilion players 2 round 3 wild orange phase refill turn 2 starter 2 token - passed - reward 0
factories - - - - -
centre -
supply PPGGOOYYBR
bag 10/10/15/10/15/10
tower 4/6/4/6/4/4
player 1 score 20 stars PPPPP./GG..../O...../....../B...../....../...... hand GG kept -
player 2 score 15 stars P...../....../....../YYYY../....../RRRRRR/RB.... hand - kept -"""


def features(state, player):
    out = np.full(N_VALUE_FEATURES, np.nan)
    value_features(state, player, out)
    return dict(zip(FEATURE_NAMES, out))


def test_a_round_boundary_worked_out_by_hand():
    state = tessera.Position.parse(BOUNDARY).state
    first = features(state, 0)
    # Unfinished stars, bonus times share squared. Player 1: purple 20 * (5/6)^2, green
    # 18 * (2/6)^2, orange 17 * (1/6)^2, blue 15 * (1/6)^2. Player 2: purple 20 * (1/6)^2,
    # yellow 16 * (4/6)^2, the centre 12 * (2/6)^2 (the whole red star is a bonus earned).
    own_stars = (20 * 25 + 18 * 4 + 17 + 15) / 36
    other_stars = (20 + 16 * 16 + 12 * 4) / 36
    # Numbers on all seven stars, bonus times share squared. Player 1: 1s on purple, green,
    # orange, blue; 2s on purple, green; 3s, 4s on purple. Player 2: 1s on purple, yellow,
    # red, centre; 2s on yellow, red, centre; 3s, 4s on yellow and red.
    own_numbers = (4 * 16 + 8 * 4 + 12 * 1 + 16 * 1) / 49
    other_numbers = (4 * 16 + 8 * 9 + 12 * 4 + 16 * 4) / 49
    expected = {
        "score_diff": 5,
        "own_score": 20,
        "bonuses_earned_diff": -14,
        "own_bonuses_earned": 0,  # red star: 14
        "spaces_covered_diff": 9 - 13,
        "own_spaces_covered": 9,
        "stars_complete_diff": -1,
        "own_stars_complete": 0,
        "stars_near_diff": 0,
        "own_stars_near": 1,  # purple 5/6, yellow 4/6
        "star_progress_diff": own_stars - other_stars,
        "own_star_progress": own_stars,
        "number_progress_diff": own_numbers - other_numbers,
        "own_number_progress": own_numbers,
        # The two greens: the green star's four empty spaces and the centre take them.
        "usable_tiles_diff": 2,
        "own_usable_tiles": 2,
        "unusable_tiles_diff": 0,
        "own_unusable_tiles": 0,
        "constant": 1,
        "round": 3,
        "starts_next": 0,
        "players_2": 1,
        "players_3": 0,
        "players_4": 0,
        "score_diff_x_progress": 5 * 2 / 5,  # two rounds of five begun
    }
    assert {name: first[name] for name in expected} == pytest.approx(expected)
    evaluated = np.zeros(4)
    bind.interface("pavilion").evaluate(state, evaluated)
    assert first["own_evaluation"] == pytest.approx(evaluated[0])
    assert first["evaluation_diff"] == pytest.approx(evaluated[0] - evaluated[1])
    assert first["evaluation_diff_x_progress"] == pytest.approx(first["evaluation_diff"] * 0.4)
    assert features(state, 1)["starts_next"] == 1
    assert is_round_boundary(state)


def test_the_two_sides_of_a_two_player_position_mirror_each_other():
    for state in list(random_game("pavilion", {"players": 2}, 11))[::37]:
        first, second = features(state, 0), features(state, 1)
        for name in PLAYER_FEATURE_NAMES:
            assert first[name + "_diff"] == pytest.approx(-second[name + "_diff"])
            assert first[name + "_diff"] == pytest.approx(first["own_" + name] - second["own_" + name])
        assert first["score_diff_x_progress"] == pytest.approx(-second["score_diff_x_progress"])
        assert first["starts_next"] + second["starts_next"] == 1
        for name in ("constant", "round", "players_2", "players_3", "players_4"):
            assert first[name] == second[name]


def oracle_quantities(board, wild):
    """The board quantities of ``PLAYER_FEATURE_NAMES`` but the evaluation, read from the
    plain-Python oracle's board (tests/oracle/pavilion_oracle.py)."""
    stars = oracle.STARS
    covered = {star: {k for k in oracle.NUMBERS if (star, k) in board.covered} for star in stars}
    star_progress = sum(oracle.STAR_POINTS[s] * (len(covered[s]) / 6) ** 2 for s in stars if len(covered[s]) < 6)
    number_progress = 0.0
    for number, points in oracle.NUMBER_POINTS.items():
        on = sum((s, number) in board.covered for s in stars)
        if on < len(stars):
            number_progress += points * (on / len(stars)) ** 2
    regions = sum(reward for region, reward, _ in oracle.REGIONS if len(region - board.covered) == 1)
    centre_empty = [k for k in oracle.NUMBERS if k not in covered[oracle.CENTRE]]
    held = [board.hand[c] + board.kept[c] for c in range(oracle.NCOL)]
    usable = 0
    for colour in range(oracle.NCOL):
        room = sum(k for k in oracle.NUMBERS if k not in covered[colour])
        if colour not in board.centre_colours:
            room += max(centre_empty, default=0)
        usable += held[colour] if colour == wild else min(held[colour], room)
    return {
        "score": board.score,
        "bonuses_earned": oracle.end_bonus(board),
        "spaces_covered": len(board.covered),
        "stars_complete": sum(len(covered[s]) == 6 for s in stars),
        "stars_near": sum(4 <= len(covered[s]) < 6 for s in stars),
        "star_progress": star_progress,
        "number_progress": number_progress,
        "region_tiles_near": regions,
        "usable_tiles": usable,
        "unusable_tiles": sum(held) - usable,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_kernel_agrees_with_a_plain_python_reading_of_the_boards(players):
    rules = bind.interface("pavilion")
    evaluated = np.zeros(4)
    checked = 0
    for seed in (5, 6):
        for state in list(random_game("pavilion", {"players": players}, seed))[::11]:
            s = oracle.from_array(state)
            own = [oracle_quantities(board, oracle.wild_of(s.round)) for board in s.boards]
            rules.evaluate(state, evaluated)
            for p in range(players):
                got = features(state, p)
                for name, value in own[p].items():
                    best_other = max(own[q][name] for q in range(players) if q != p)
                    assert got["own_" + name] == pytest.approx(value), (name, p)
                    assert got[name + "_diff"] == pytest.approx(value - best_other), (name, p)
                assert got["own_evaluation"] == pytest.approx(evaluated[p])
                assert got["round"] == s.round and got[f"players_{players}"] == 1
                checked += 1
    assert checked > 20 * players


def test_a_model_value_is_the_dot_product_of_its_weights_and_the_features():
    state = tessera.Position.parse(BOUNDARY).state
    weights = np.linspace(-1, 1, N_VALUE_FEATURES)
    expected = weights @ np.array(list(features(state, 1).values()))
    assert value_of(state, 1, weights, np.empty(N_VALUE_FEATURES)) == pytest.approx(expected)


@pytest.mark.long  # Azul's model scores a cut rollout in the quick tier (tests/test_learned_value.py)
def test_a_cut_round_rollout_is_scored_by_a_pavilion_model(tmp_path):
    """The round instance of MCTS for Summer Pavilion reads the model's weights over these
    features: each player's margin the margin weights' dot product."""
    rng = np.random.default_rng(4)
    margin_w, win_w = rng.normal(size=N_VALUE_FEATURES), rng.normal(size=N_VALUE_FEATURES) * 0.1
    ValueModel("pavilion", margin_w, win_w, FEATURE_NAMES, [2]).save(tmp_path / "m.npz")
    state = tessera.Position.parse(BOUNDARY).state
    kernels = bind.instance("pavilion", "mcts", "round")
    payoff, margin = np.zeros(4), np.zeros(4)
    kernels.scored_outcome(
        state,
        payoff,
        margin,
        np.zeros(4, np.int64),
        model_weights(tmp_path / "m.npz", "pavilion")[0],
        kernels.feature_rows(),
    )
    rows = np.array([list(features(state, p).values()) for p in range(2)])
    chances = 1 / (1 + np.exp(-(rows @ win_w)))
    assert margin[:2] == pytest.approx(rows @ margin_w)
    assert payoff[:2] == pytest.approx(chances / chances.sum())


# ---- self-play, training, search -------------------------------------------------------


@pytest.fixture(scope="module")
def greedy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("pavilion") / "run"
    done = run_tessera(
        "selfplay",
        "pavilion",
        "--games",
        6,
        "--agents",
        "greedy,greedy",
        "--seed",
        3,
        "--workers",
        1,
        "--out",
        out,
        "--no-plots",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    return out


def test_each_replayed_game_has_a_boundary_before_every_round_but_the_first(greedy_run):
    """Chance also acts after a move when the supply is topped up after a bonus; only the
    refills that start a round are boundaries: rounds - 1 of them per game."""
    plan = load_plan(greedy_run)
    records = read_records(greedy_run).to_pylist()
    data = dataset.load_runs("pavilion", [greedy_run])
    assert data.games == len(records) == 6
    mid_round_chance = 0
    for index, record in enumerate(records):
        boundaries, final = dataset.boundary_positions("pavilion", plan.options, record["seed"], record["moves"])
        assert final.is_over
        assert [int(b.state[W_ROUND]) for b in boundaries] == list(range(2, ROUNDS + 1))
        assert all(b.is_chance and b.state[W_PHASE] == PHASE_REFILL for b in boundaries)
        assert (data.game == index).sum() == 2 * (ROUNDS - 1)
        position = tessera.Position.new("pavilion", seed=record["seed"], **plan.options)
        draws = tessera.ChanceDraws(record["seed"])
        for move in record["moves"]:
            position = position.play_codes(int(move))
            mid_round_chance += position.is_chance and not is_round_boundary(position.state)
            position = draws.deal(position)
    assert mid_round_chance > 0  # the games had top-ups the boundaries left out


@pytest.mark.long  # tessera selfplay, then train
def test_a_model_trained_on_pavilion_self_play_scores_round_rollouts(greedy_run, tmp_path):
    out = tmp_path / "pavilion.npz"
    done = run_tessera("train", "pavilion", greedy_run, "--out", out, "--seed", 1, "--validation", 0.34, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    model = load_model(out, game="pavilion")
    assert report["hash"] == model.hash and list(model.feature_names) == list(FEATURE_NAMES)
    assert model.players == [2] and model.data["games"] == 6
    assert set(report["validation"]) == {"model", "score_difference", "constant"}

    position = tessera.Position.parse(BOUNDARY).draw_chance(7)  # round 3's draft
    searched = run_tessera(
        "best", position.text(), "-n", 200, "--seed", 2, "--threads", 1, "--rollout", "round", "--model", out, "--json"
    )
    assert searched.returncode == 0, searched.stderr
    answer = json.loads(searched.stdout)
    assert answer["settings"]["model_hash"] == model.hash
    assert sum(m["visits"] for m in answer["moves"]) == 200
    plain = tessera.best(position.text(), visits=200, seed=2, threads=1, rollout="round")
    assert [(m["move"], m["visits"]) for m in plain["moves"]] != [(m["move"], m["visits"]) for m in answer["moves"]]
