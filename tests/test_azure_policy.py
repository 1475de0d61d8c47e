"""Azure's move priors (docs/learning.md, "Move priors"): its move features, which take the
move heuristic apart, a policy's priors in IS-MCTS (a policy equal to the heuristic
searches exactly as the heuristic does; another gives the softmax of its logits), and a
policy fitted by `tessera train` to recorded IS-MCTS searches."""

import re

import numpy as np
import pytest

import tessera
from tessera.agents import parse_agent
from tessera.analysis.client import AnalysisProcess
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azure.features import FEATURE_NAMES, N_VALUE_FEATURES
from tessera.kernels.azure.heuristic import (
    CARD_VALUE,
    DEFEND,
    DRAGON_STEP_VALUE,
    PROGRESS,
    TORTOISE_VALUE,
    WIN_BONUS,
)
from tessera.kernels.azure.layout import BOON_BASE, GIFTED_BASE
from tessera.kernels.azure.policy import N_POLICY_FEATURES, POLICY_FEATURE_NAMES, move_features
from tessera.kernels.rng import make_rng
from tessera.kernels.search import ismcts_layout
from tessera.kernels.search.clock import FOREVER
from tessera.learning import dataset, fit
from tessera.learning.model import ValueModel, load_model
from tessera.search.mcts import PRIOR_TEMPERATURE, MctsOptions
from tessera.search.value_model import NO_MODEL, builtin_model_file, model_weights
from tests.cli_process import tessera as run_tessera
from tests.random_games import VARIANTS, random_game

AZURE = get_game("azure")
COLUMN = {name: i for i, name in enumerate(POLICY_FEATURE_NAMES)}
PLACEMENT_ONLY = (
    "gifted",
    "wisdom",
    "qi",
    "paid",
    "bonds",
    "their_bonds",
    "cosmos_steps",
    "wins",
    "guarded",
    "defended",
    "progressed",
    "beast_points",
    "tortoise",
    "bird_cards",
    "stolen",
)
CHOICE_KINDS = ("boon_card", "boon_point", "boon_step", "take_card", "return_card", "return_pair")


def player_positions(options, seeds):
    """(state, legal moves, their features) of every player decision of seeded random games."""
    rules = bind.interface("azure")
    moves = np.zeros(rules.MAX_MOVES, np.int64)
    for seed in seeds:
        for state in random_game("azure", options, seed):
            if rules.to_move(state) < 0:  # chance or the end
                continue
            n = rules.legal_moves(state, moves)
            out = np.full((n, N_POLICY_FEATURES), np.nan)
            move_features(state, moves, np.int64(n), out)
            yield state, moves[:n].copy(), out


def placement_heuristic(row):
    """The move heuristic of a placement, put back together from its features."""
    value = (
        row[COLUMN["wisdom"]]
        + CARD_VALUE * (row[COLUMN["qi"]] - row[COLUMN["paid"]])
        + DRAGON_STEP_VALUE * row[COLUMN["cosmos_steps"]]
    )
    if row[COLUMN["wins"]]:
        return value + WIN_BONUS
    return (
        value
        + DEFEND * row[COLUMN["defended"]]
        + PROGRESS * row[COLUMN["progressed"]]
        + row[COLUMN["beast_points"]]
        + TORTOISE_VALUE * row[COLUMN["tortoise"]]
        + CARD_VALUE * row[COLUMN["bird_cards"]]
    )


@pytest.mark.parametrize(
    "options",
    [options for game, options in VARIANTS if game == "azure"],
    ids=lambda options: "-".join(f"{k}={v}" for k, v in options.items()),
)
def test_the_features_take_the_move_heuristic_apart(options):
    rules = bind.interface("azure")
    heuristics = np.zeros(rules.MAX_MOVES)
    placements = choices = 0
    for state, moves, out in player_positions(options, range(3)):
        assert np.array_equal(out[:, COLUMN["gifted"]] == 1, (moves >= GIFTED_BASE) & (moves < BOON_BASE))
        assert np.isfinite(out).all()
        rules.move_heuristics(state, moves, np.int64(len(moves)), heuristics)
        assert np.array_equal(out[:, COLUMN["heuristic"]], heuristics[: len(moves)])
        for row in out:
            if row[COLUMN["placement"]] == 1:
                placements += 1
                assert row[COLUMN["heuristic"]] == placement_heuristic(row)
                assert row[COLUMN["paid"]] >= 0 and row[COLUMN["guarded"]] <= 4
                assert not any(row[COLUMN[kind]] for kind in CHOICE_KINDS)
            else:
                choices += 1
                assert sum(row[COLUMN[kind]] for kind in CHOICE_KINDS) == 1
                assert not any(row[COLUMN[name]] for name in PLACEMENT_ONLY)
    assert placements > 0
    assert choices > 0 or not (options.get("cosmos") or options.get("gifted") == "bountiful")


# ---- the priors in IS-MCTS --------------------------------------------------------------


def save_azure_policy(path, policy):
    """An Azure model with zero value weights and the policy ``policy``."""
    model = ValueModel(
        "azure",
        np.zeros(N_VALUE_FEATURES),
        np.zeros(N_VALUE_FEATURES),
        FEATURE_NAMES,
        [2],
        policy_weights=np.asarray(policy, np.float64),
        policy_feature_names=POLICY_FEATURE_NAMES,
        policy={"data": {"positions": 1}},
    )
    model.save(path)
    return model_weights(path, "azure")[0]


def azure_view(seed=4):
    """Player 1's view of a dealt Azure game: the other hand hidden."""
    state = AZURE.new(seed)
    return AZURE.view(state, bind.interface("azure").to_move(state))


def searched_tree(view, model, iterations=300):
    """(nodes, stats) of a one-thread greedy-rollout IS-MCTS of ``view`` with ``model``."""
    nodes, stats, size = ismcts_layout.new_tree(20_000)
    prm = MctsOptions().kernel_params("azure")
    done = bind.instance("azure", "ismcts", "greedy").run_tree(
        nodes[0], stats[0], size[0], view, iterations, FOREVER, prm, make_rng(7), model
    )
    assert done == iterations
    used = size[0, ismcts_layout.USED]
    return nodes[0, :used], stats[0, :used]


def test_a_policy_equal_to_the_heuristic_gives_exactly_the_heuristics_is_mcts(tmp_path):
    weights = save_azure_policy(
        tmp_path / "heuristic.npz", fit.heuristic_policy(POLICY_FEATURE_NAMES, PRIOR_TEMPERATURE)
    )
    view = azure_view()
    plain_nodes, plain_stats = searched_tree(view, NO_MODEL)
    nodes, stats = searched_tree(view, weights)
    assert np.array_equal(nodes, plain_nodes) and np.array_equal(stats, plain_stats)


def test_is_mcts_priors_are_the_softmax_of_the_policys_logits(tmp_path):
    policy = np.zeros(N_POLICY_FEATURES)
    policy[COLUMN["wisdom"]], policy[COLUMN["their_bonds"]], policy[COLUMN["paid"]] = 1.0, 0.5, -0.7
    weights = save_azure_policy(tmp_path / "wisdom.npz", policy)
    view = azure_view()
    nodes, stats = searched_tree(view, weights, iterations=1)
    children = np.arange(1, len(nodes))  # one simulation: the root's children, added at once
    moves = nodes[children, ismcts_layout.MOVE]
    rules = bind.interface("azure")
    state = view.copy()
    rules.determinize(view, rules.to_move(view), make_rng(7), state)  # the priors read no hidden card
    rows = np.zeros((len(moves), N_POLICY_FEATURES))
    move_features(state, moves.astype(np.int64), np.int64(len(moves)), rows)
    logits = rows @ policy
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert stats[children, ismcts_layout.PRIOR] == pytest.approx(expected, rel=1e-12)
    # Unlike the heuristic's priors.
    plain_nodes, plain_stats = searched_tree(view, NO_MODEL, iterations=1)
    assert not np.allclose(plain_stats[children, ismcts_layout.PRIOR], expected)


@pytest.mark.parametrize(
    "options, temperature",
    [
        ({"visits": 1}, 1.0),
        ({"visits": 1, "time": 60.0}, 1.0),  # as fitted, at every budget
        ({"visits": 1, "policy_temperature": 1.5}, 1.5),
        ({"visits": 1, "policy_temperature": 0.5}, 0.5),
    ],
)
def test_the_root_priors_are_the_built_in_policy_at_the_searchs_temperature(options, temperature):
    """The root's priors of a search are the softmax of the built-in policy's logits at
    the search's policy temperature, Azure's own 1 (the policy as fitted) on a short
    budget and a long one alike unless the search names one, and its settings name the
    temperature."""
    view = azure_view()
    report = tessera.best(AZURE.format_position(view), seed=3, threads=1, **options)
    assert report["settings"]["policy_temperature"] == temperature
    policy = load_model(builtin_model_file("azure", 2), "azure").policy_weights
    moves = np.array([move["code"] for move in report["moves"]], np.int64)
    rows = np.zeros((len(moves), N_POLICY_FEATURES))
    move_features(view, moves, np.int64(len(moves)), rows)  # the view: no hidden card is read
    logits = (rows @ policy) / temperature
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert [move["prior"] for move in report["moves"]] == pytest.approx(expected, rel=1e-9)


@pytest.mark.long  # searches on every surface
def test_a_policy_temperature_needs_a_policy_to_act_on():
    """Without a policy (no model, or a model with none) a temperature would change
    nothing: one line, on every surface; without one named, the settings name none."""
    position = AZURE.format_position(azure_view())
    without = tessera.best(position, visits=1, seed=3, threads=1, model="none")
    assert "policy_temperature" not in without["settings"]
    message = "policy temperature 2: the search's model (none) has no policy"
    done = run_tessera("best", position, "-n", 1, "--model", "none", "--policy-temperature", 2)
    assert done.returncode != 0 and done.stdout == "" and done.stderr.splitlines() == [f"error: {message}"]
    agent = parse_agent("mcts:iters=1,model=none,policy_temperature=2")
    assert agent.request.policy_temperature == 2.0
    with pytest.raises(OptionError, match=re.escape(message)):
        agent.decide(azure_view())
    with AnalysisProcess(threads=1) as engine:
        engine.send({"id": "t", "position": position, "maxVisits": 1, "model": "none", "policyTemperature": 2})
        answer = engine.answer_to("t", timeout=300)
        assert answer == {"id": "t", "error": message, "field": "policyTemperature"}
        engine.send({"id": "zero", "position": position, "maxVisits": 1, "policyTemperature": 0})
        assert engine.answer_to("zero", timeout=60)["field"] == "policyTemperature"


# ---- tessera train ----------------------------------------------------------------------


@pytest.mark.long  # tessera selfplay, then train
def test_train_fits_an_azure_policy_to_recorded_searches(tmp_path):
    run = tmp_path / "run"
    made = run_tessera(
        "selfplay",
        "azure",
        "--games",
        6,
        "--agents",
        "mcts:iters=60,mcts:iters=60",
        "--seed",
        5,
        "--workers",
        1,
        "--record-search",
        "--out",
        run,
        "--no-plots",
        "--no-progress",
    )
    assert made.returncode == 0, made.stderr
    data = dataset.replay_policy_runs("azure", dataset.read_runs("azure", [run]))
    assert data.games == 6 and np.all(data.counts >= 2)
    assert np.add.reduceat(data.target, data.start[:-1]) == pytest.approx(np.ones(data.positions))
    placements = data.features[:, COLUMN["placement"]] == 1
    assert placements.any() and np.all(data.features[placements, COLUMN["wisdom"]] >= 0)
    out = tmp_path / "m.npz"
    done = run_tessera("train", "azure", run, "--out", out, "--seed", 1, "--validation", 0.5, "--no-progress")
    assert done.returncode == 0, done.stderr
    model = load_model(out, "azure")
    assert model.has_policy and model.policy_feature_names == POLICY_FEATURE_NAMES
    assert model.policy["data"]["positions"] == data.positions
    # The search takes it: the same options without it rank the moves otherwise.
    view = azure_view()
    text = AZURE.format_position(view)
    with_policy = tessera.best(text, visits=300, seed=3, threads=1, model=str(out))
    plain = tessera.best(text, visits=300, seed=3, threads=1, model="builtin")
    assert with_policy["settings"]["model_hash"] == model.hash
    assert [m["prior"] for m in with_policy["moves"]] != [m["prior"] for m in plain["moves"]]
