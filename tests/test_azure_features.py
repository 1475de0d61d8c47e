"""Azure's value features and its round counted in turns (kernels/azure/features.py,
docs/learning.md "Azure's boundary"): a position of the notation's examples read by hand,
the two sides of a position, agreement with the plain-Python oracle on random games, round
rollouts that stop after ``ROUND_TURNS`` turns and play through chance, the boundaries of
a replayed self-play game, and a model scoring IS-MCTS's round rollouts on a player's view."""

import numpy as np
import pytest

import tessera
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azul.features import FEATURE_NAMES as AZUL_FEATURES
from tessera.kernels.azure.bits import count
from tessera.kernels.azure.features import (
    FEATURE_NAMES,
    N_VALUE_FEATURES,
    ROUND_TURNS,
    starts_turn,
    value_features,
)
from tessera.kernels.azure.heuristic import BEAST_WORTH
from tessera.kernels.azure.layout import (
    BOON_BASE,
    GIFTED_BASE,
    NCOLOURS,
    P_STONES,
    PHASE_PLACE,
    S_SPACES,
    W_PHASE,
    W_TURN,
)
from tessera.kernels.azure.state import player_base
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import make_rng
from tessera.learning import dataset
from tessera.learning.model import ValueModel
from tessera.search.value_model import model_weights
from tests.cli_process import tessera as run_tessera
from tests.oracle import azure_oracle as oracle
from tests.random_games import random_game
from tests.value_models import save_model

AZURE = get_game("azure")
# The notation's Cosmos example (docs/azure-notation.md): Favored, the Dragon one step
# toward player 2, player 1's gifted stone on c7, player 1 to place.
COSMOS = """azure gifted favored cosmos yes track -1 view -
layout A2@180 W2@270* V1@180* B1@90
phase place turn 1
faceup 8/9/11/8 deck AAW
player 1 score 9 supply 11 stones b3,b4,h4,a5,c5,e5,g5 gifted c7 beasts dragon,bird,tortoise hand AABB known AAB
player 2 score 5 supply 11 stones e2,f2,d3,d6,a7,d7,g7 gifted - beasts tiger hand WWVBB known WVB"""


def features(state, player):
    out = np.full(N_VALUE_FEATURES, np.nan)
    value_features(state, player, out)
    return dict(zip(FEATURE_NAMES, out))


def test_the_notations_cosmos_example_read_by_hand():
    state = tessera.Position.parse(COSMOS).state
    first, second = features(state, 0), features(state, 1)
    # 8 stones of player 1 (7 on spaces, one on the Black mountain: the Tortoise), 7 of player 2
    progress = 15 / count(state[S_SPACES])
    expected = {
        "score_diff": 9 - 5,
        "cards_diff": 4 - 5,
        "supply_diff": 0,
        "gifted_left_diff": 0 - 1,  # player 1's gifted stone is on c7
        "colours_diff": 2 - 3,  # AABB against WWVBB
        "constant": 1,
        "places_next": 1,
        "dragon_toward": -1,  # one step toward player 2
        "progress": progress,
        "score_diff_x_progress": 4 * progress,
        "cards_diff_x_progress": -progress,
        "own_score_share_sq": (9 / 25) ** 2,
        "other_score_share_sq": (5 / 25) ** 2,
    }
    assert {name: first[name] for name in expected} == pytest.approx(expected)
    assert second["places_next"] == -1 and second["dragon_toward"] == 1
    assert second["own_score_share_sq"] == first["other_score_share_sq"]


def test_the_two_sides_of_a_position_mirror_each_other():
    """Every feature but the constant, the progress and the two score shares (which swap)
    is the opposite from the other side."""
    for seed in range(4):
        for state in random_game("azure", {"gifted": "favored", "cosmos": True}, seed):
            if state[W_PHASE] != PHASE_PLACE:
                continue
            first, second = features(state, 0), features(state, 1)
            for name in FEATURE_NAMES:
                if name in ("constant", "progress"):
                    assert first[name] == second[name]
                elif name not in ("own_score_share_sq", "other_score_share_sq"):
                    assert first[name] == pytest.approx(-second[name]), name
            assert first["own_score_share_sq"] == second["other_score_share_sq"]


def oracle_features(state, player):
    """The features that read the realm (bonds, the spaces a player can place on, wisdom
    in reach, guard leads), from the oracle's own reading of the position."""
    s = oracle.from_state(state)
    free = [c for c in s.realm.spaces() if c not in s.occupied()]

    def quantities(p):
        cells = {move % GIFTED_BASE for move in oracle.place_moves(s, p)}
        wisdom = [s.realm.cells[c].wisdom for c in cells]
        return np.array(
            [sum(oracle.bonds(s, p, c) for c in free), len(cells), not cells, sum(wisdom), max(wisdom, default=0)],
            np.float64,
        )

    diff = quantities(player) - quantities(1 - player)
    leads = 0.0
    for colour in range(NCOLOURS):
        lead = oracle.guards(s, player, colour) - oracle.guards(s, 1 - player, colour)
        leads += BEAST_WORTH[colour] * max(-2, min(2, lead)) / 2
    names = ("bonds_diff", "placeable_diff", "stuck_diff", "wisdom_in_reach_diff", "best_wisdom_diff")
    return {**dict(zip(names, diff)), "guard_leads": leads}


@pytest.mark.parametrize("gifted, cosmos", [("none", False), ("mighty", False), ("perceptive", True)])
def test_the_realm_features_agree_with_the_oracle_on_random_games(gifted, cosmos):
    checked = 0
    for seed in range(6):
        for state in random_game("azure", {"gifted": gifted, "cosmos": cosmos}, seed):
            if state[W_PHASE] != PHASE_PLACE:
                continue
            for player in range(2):
                expected = oracle_features(state, player)
                got = features(state, player)
                assert {name: got[name] for name in expected} == pytest.approx(expected)
            checked += 1
    assert checked > 50


# ---- the round, counted in turns --------------------------------------------------------


def stones_on_spaces(state):
    """Stones placed so far (the Tortoise's stone on the Black mountain is on no space)."""
    return sum(count(state[player_base(p) + P_STONES] & state[S_SPACES]) for p in range(2))


def test_a_round_rollout_stops_after_its_turns_and_plays_through_chance():
    """From the opening, every round rollout places ``ROUND_TURNS`` stones (no game ends
    that soon), stops where the next player is to place, and draws any cards on the way."""
    kernels = bind.instance("azure", "mcts", "round")
    rules = bind.interface("azure")
    moves, values = np.zeros(rules.MAX_MOVES, np.int64), np.zeros(rules.MAX_MOVES)
    for seed in range(20):
        start = AZURE.new(seed)
        assert starts_turn(start)
        state = start.copy()
        kernels.greedy_rollout(state, make_rng(seed), moves, values, True)
        assert starts_turn(state) and rules.to_move(state) not in (CHANCE, TERMINAL)
        assert stones_on_spaces(state) - stones_on_spaces(start) == ROUND_TURNS
        assert state[W_TURN] == (start[W_TURN] + ROUND_TURNS) % 2
        full = start.copy()
        kernels.greedy_rollout(full, make_rng(seed), moves, values, False)
        assert rules.to_move(full) == TERMINAL


@pytest.mark.long  # a self-play run replayed
def test_the_boundaries_of_a_replayed_game_are_its_turns(tmp_path):
    run = tmp_path / "run"
    done = run_tessera(
        "selfplay", "azure", "--games", 2, "--agents", "greedy,greedy", "--seed", 5, "--workers", 1, "--out", run
    )
    assert done.returncode == 0, done.stderr
    data = dataset.load_runs("azure", [run])
    runs = dataset.read_runs("azure", [run])
    _, records = runs[0]
    for seed, moves in zip(records["seed"], records["moves"]):
        boundaries, final = dataset.boundary_positions("azure", runs[0][0].options, seed, moves)
        assert final.is_over
        # One boundary before each placement (a move below BOON_BASE), nowhere else.
        assert len(boundaries) == sum(1 for move in moves if move < BOON_BASE) >= 10
        assert all(starts_turn(position.state) and not position.is_chance for position in boundaries)
    assert data.rows == 2 * sum(
        len(dataset.boundary_positions("azure", runs[0][0].options, seed, moves)[0])
        for seed, moves in zip(records["seed"], records["moves"])
    )


# ---- a model in IS-MCTS ---------------------------------------------------------------


def azure_model(path, **named):
    """An Azure model whose margin and win weights are zero but for ``named``
    ({feature: (margin weight, win weight)})."""
    margin, win = np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES)
    for name, (m, w) in named.items():
        margin[FEATURE_NAMES.index(name)], win[FEATURE_NAMES.index(name)] = m, w
    model = ValueModel("azure", margin, win, FEATURE_NAMES, [2])
    model.save(path)
    return model


def test_a_constant_model_is_the_root_value_of_a_view(tmp_path):
    """From the opening view every round rollout stops after its turns, where a model of the
    constant alone says margin 3 and an even share of the win."""
    azure_model(tmp_path / "m.npz", constant=(3.0, 1.0))
    view = AZURE.format_position(AZURE.view(AZURE.new(4), 0))
    report = tessera.best(view, visits=400, seed=2, rollout="round", model=str(tmp_path / "m.npz"))
    assert report["algo"] == "ismcts"
    assert report["root"]["win_rate"] == pytest.approx(0.5)
    assert report["root"]["margin"] == pytest.approx(3.0)
    assert report["settings"]["model_hash"] == model_weights(tmp_path / "m.npz", "azure")[1]


def test_a_model_that_backs_the_leader_changes_the_search_and_the_mix_differs(tmp_path):
    azure_model(tmp_path / "m.npz", score_diff=(1.0, 0.5), bonds_diff=(0.5, 0.25))
    view = AZURE.format_position(AZURE.view(AZURE.new(6), 0))
    path = str(tmp_path / "m.npz")
    searches = {
        name: tessera.best(view, visits=600, seed=3, **options)
        for name, options in {
            "estimate": {"rollout": "round", "model": "none"},
            "round": {"rollout": "round", "model": path},
            "mixed": {"rollout": "mixed", "model": path},
            "greedy": {"rollout": "greedy"},
        }.items()
    }
    margins = {name: report["root"]["margin"] for name, report in searches.items()}
    assert len(set(margins.values())) == 4, margins
    again = tessera.best(view, visits=600, seed=3, rollout="round", model=path)
    assert again["moves"] == searches["round"]["moves"]


def test_a_model_of_another_game_is_one_line_for_a_view(tmp_path):
    view = AZURE.format_position(AZURE.view(AZURE.new(4), 0))
    azul_model = tmp_path / "azul.npz"
    save_model(azul_model, np.zeros(len(AZUL_FEATURES)), np.zeros(len(AZUL_FEATURES)))
    done = run_tessera("best", view, "-n", 10, "--rollout", "round", "--model", azul_model)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"error: model {azul_model}: a model of azul, not azure"]


def test_the_gifted_stone_left_is_the_modules():
    plain, mighty = AZURE.new(1), AZURE.new(1, gifted="mighty")
    assert [features(plain, p)["gifted_left_diff"] for p in range(2)] == [0, 0]
    assert [features(mighty, p)["gifted_left_diff"] for p in range(2)] == [0, 0]  # both left
    favored = tessera.Position.parse(COSMOS).state  # player 1's gifted stone is placed
    assert [features(favored, p)["gifted_left_diff"] for p in range(2)] == [-1, 1]
