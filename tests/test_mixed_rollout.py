"""MCTS's mixed rollouts (`--rollout mixed`, docs/search.md): the round's end is scored as a
round rollout scores it, the rollout plays on to the end of the game, and the simulation
backs up the mean of the two; every surface takes the rollout and names it."""

import numpy as np
import pytest

import tessera
from tessera.agents import parse_agent
from tessera.analysis.client import AnalysisProcess
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azul.features import N_VALUE_FEATURES
from tessera.kernels.constants import TERMINAL
from tessera.kernels.rng import make_rng
from tessera.kernels.search.mcts_layout import MAX_PLAYERS
from tessera.search.mcts import MctsOptions, position_defaults
from tessera.search.value_model import model_weights
from tests.best_schema import best_report
from tests.cli_process import tessera as run_tessera
from tests.test_learned_value import top_visits
from tests.test_learning import BOUNDARY
from tests.value_models import save_model, weights

AZUL, PAVILION = get_game("azul"), get_game("pavilion")
START = AZUL.format_position(AZUL.new(3))
VISITS = 300
MIXED = bind.instance("azul", "mcts", "mixed")


def buffers():
    """payoff, margin, score and the move buffers of one simulation."""
    moves, values, _, _, payoff, margin, score = MIXED.simulation_buffers()
    return moves, values, payoff, margin, score


def cut_then_played_on(state, model, mix, seed):
    """(cut, played, mixed): each (payoff, margin) of ``state`` at the round's end, at the
    game's end after the greedy rollout drawn from ``seed``, and by ``mixed_outcome`` with
    weight ``mix`` and the same generator."""
    moves, values, payoff, margin, score = buffers()
    features = MIXED.feature_rows()
    MIXED.scored_outcome(state, payoff, margin, score, model, features)
    cut = payoff[:2].copy(), margin[:2].copy()
    played_state = state.copy()
    MIXED.greedy_rollout(played_state, make_rng(seed), moves, values, False)
    assert AZUL.kernels().to_move(played_state) == TERMINAL
    MIXED.outcome(played_state, payoff, margin, score)
    played = payoff[:2].copy(), margin[:2].copy()
    mixed_state = state.copy()
    MIXED.scored_outcome(mixed_state, payoff, margin, score, model, features)
    MIXED.mixed_outcome(
        mixed_state, make_rng(seed), moves, values, payoff, margin, score, mix, np.zeros(2 * MAX_PLAYERS)
    )
    return cut, played, (payoff[:2].copy(), margin[:2].copy())


@pytest.fixture(scope="module")
def leader_model(tmp_path_factory):
    """A model that backs the score difference: at BOUNDARY (the first player leads by 6)
    it gives the first player nearly the whole win and a 6-point margin."""
    path = tmp_path_factory.mktemp("models") / "leader.npz"
    save_model(path, weights(score_diff=1.0), weights(score_diff=3.0))
    return model_weights(path, "azul")[0]


# ---- the kernel -------------------------------------------------------------------------


@pytest.mark.long  # compiles the parts of the mixed rollout, which the package ships compiled inside its searches only
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_mix_is_the_weighted_mean_of_the_cut_and_the_finished_game(leader_model, seed):
    state = tessera.Position.parse(BOUNDARY).state
    cut, played, mixed = cut_then_played_on(state, leader_model, 0.5, seed)
    assert cut[1] == pytest.approx([6.0, -6.0])
    assert played[0].sum() == pytest.approx(1.0)  # a finished game's payoffs
    for k in range(2):
        assert mixed[k] == pytest.approx(0.5 * cut[k] + 0.5 * played[k])


@pytest.mark.long  # compiles the parts of the mixed rollout, which the package ships compiled inside its searches only
def test_the_weights_at_either_end_give_the_cut_or_the_finished_game(leader_model):
    state = tessera.Position.parse(BOUNDARY).state
    cut, played, all_cut = cut_then_played_on(state, leader_model, 1.0, 4)
    _, _, all_played = cut_then_played_on(state, leader_model, 0.0, 4)
    for k in range(2):
        assert all_cut[k] == pytest.approx(cut[k])
        assert all_played[k] == pytest.approx(played[k])
    assert cut[1].tolist() != played[1].tolist()  # the two differ: the test can fail


@pytest.mark.long  # compiles the parts of the mixed rollout, which the package ships compiled inside its searches only
def test_without_a_model_the_cut_is_the_estimate():
    state = tessera.Position.parse(BOUNDARY).state
    cut, _, _ = cut_then_played_on(state, np.zeros((0, 0)), 0.5, 1)
    estimate = np.zeros(4)
    bind.interface("azul").estimate(state, estimate)
    assert cut[1][0] == pytest.approx(estimate[0] - estimate[1])


# ---- the search and its surfaces ---------------------------------------------------------


def test_a_mixed_search_is_neither_the_round_search_nor_the_greedy_one():
    searches = {
        rollout: tessera.best(START, visits=VISITS, seed=5, threads=1, rollout=rollout, model=model)
        for rollout, model in (("mixed", "builtin"), ("round", "builtin"), ("greedy", "none"))
    }
    root = {rollout: [(m["visits"], m["win_rate"]) for m in report["moves"]] for rollout, report in searches.items()}
    assert root["mixed"] != root["round"] and root["mixed"] != root["greedy"]
    assert searches["mixed"]["settings"]["rollout"] == "mixed"
    assert searches["mixed"]["settings"]["model"] == "builtin"


def test_where_the_round_ends_the_game_the_long_default_is_the_greedy_search():
    """In a last round every rollout finishes the game at the round's end, where a value has
    nothing left to score: 2-player Azul's default for a long budget (mixed rollouts, the
    built-in model, exploration by the budget) is there the full greedy search with the
    built-in model's priors at that exploration, visit for visit (the exact-play check's
    positions are such rounds)."""
    from tessera.bench import final_round

    position = AZUL.format_position(final_round(12))  # player 1 completes a wall row
    by_default = tessera.best(position, visits=10_000, seed=5, threads=1)
    exploration = by_default["settings"]["exploration"]
    greedy = tessera.best(
        position, visits=10_000, seed=5, threads=1, rollout="greedy", model="builtin", exploration=exploration
    )
    assert (by_default["settings"]["rollout"], by_default["settings"]["model"]) == ("mixed", "builtin")
    assert 1.0 < exploration < 2.0  # 10,000 simulations: between a long budget's start and a full one
    assert [(m["move"], m["visits"], m["margin"]) for m in by_default["moves"]] == [
        (m["move"], m["visits"], m["margin"]) for m in greedy["moves"]
    ]


@pytest.mark.long  # a search on every surface
def test_every_surface_gives_the_same_mixed_search():
    done = run_tessera(
        "best", START, "-n", VISITS, "--seed", 6, "--threads", 1, "--rollout", "mixed", "--model", "builtin", "--json"
    )
    assert done.returncode == 0, done.stderr
    by_cli = best_report(done.stdout)
    by_api = tessera.best(START, visits=VISITS, seed=6, threads=1, rollout="mixed", model="builtin")
    with AnalysisProcess() as engine:
        engine.send(
            {
                "id": "q",
                "position": START,
                "maxVisits": VISITS,
                "seed": 6,
                "threads": 1,
                "rollout": "mixed",
                "model": "builtin",
            }
        )
        by_analyze = engine.answer_to("q", timeout=300)
    assert "error" not in by_analyze, by_analyze
    assert top_visits(by_cli["moves"]) == top_visits(by_api["moves"]) == top_visits(by_analyze["moves"])
    for settings in (by_cli["settings"], by_api["settings"], by_analyze["settings"]):
        assert (settings["rollout"], settings["model"]) == ("mixed", "builtin")
    agent = parse_agent("mcts:iters=20,rollout=mixed,model=builtin")
    assert agent.mcts.options.rollout == "mixed"


def test_a_value_model_takes_mixed_rollouts_and_is_refused_with_greedy_ones(tmp_path):
    value = str(tmp_path / "value.npz")
    save_model(value, np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    MctsOptions(iterations=10, rollout="mixed", model=value).check()
    with pytest.raises(OptionError, match="needs rollout round or mixed, not greedy"):
        MctsOptions(iterations=10, rollout="greedy", model=value).check()
    # Azul's built-in model has move priors too, which serve any rollout.
    MctsOptions(iterations=10, rollout="mixed", model="builtin").check()
    MctsOptions(iterations=10, rollout="greedy", model="builtin").check()


def test_mixed_rollouts_keep_the_games_builtin_model_where_it_is_the_default():
    pavilion = PAVILION.new(5, players=2)
    assert position_defaults(pavilion, "mixed", None) == ("mixed", "builtin")
    assert position_defaults(AZUL.new(5), "mixed", None) == ("mixed", "builtin")
    assert position_defaults(AZUL.new(5, players=3), "mixed", None) == ("mixed", "builtin")
    assert position_defaults(AZUL.new(5, players=4), "mixed", None) == ("mixed", "builtin")
    assert position_defaults(PAVILION.new(5, players=4), "mixed", None) == ("mixed", "none")
