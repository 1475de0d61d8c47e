"""Move priors learned from self-play (a policy, docs/learning.md "Move priors"): Azul's move
features, the policy's priors in MCTS (a policy equal to the heuristic searches exactly as
the heuristic does), the fit, the model file with a policy, `tessera train` with searches
recorded and `tessera best --model` under the default rollout."""

import json

import numpy as np
import pytest

import tessera
from tessera.agents import parse_agent
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azul.features import FEATURE_NAMES, N_VALUE_FEATURES
from tessera.kernels.azul.layout import TILE_MOVE_BASE
from tessera.kernels.azul.policy import N_POLICY_FEATURES, POLICY_FEATURE_NAMES, move_features
from tessera.kernels.rng import make_rng
from tessera.kernels.search import mcts_layout
from tessera.kernels.search.clock import FOREVER
from tessera.learning import dataset, fit
from tessera.learning.model import ModelError, ValueModel, load_model, weights_hash
from tessera.search.mcts import PRIOR_TEMPERATURE, MctsOptions
from tessera.search.value_model import NO_MODEL, has_policy, model_weights
from tests.best_schema import best_report
from tests.cli_process import tessera as run_tessera
from tests.random_games import random_game
from tests.value_models import policy_priors, save_model, save_policy_model

AZUL = get_game("azul")
START = AZUL.format_position(AZUL.new(3))
VISITS = 300

# Player 1 to move in round 2. Player 1 has blue and white on the wall's first column and
# one yellow waiting on line 2; player 2 two blacks on line 3. The centre holds a red and
# the first-player marker.
DRAFT = """azul players 2 wall colour round 2 phase draft turn 1 starter 2
factories BBYR - KKWW RRYK YBBW
centre 1R
bag 12/12/13/10/13
lid 3/4/2/5/3
player 1 score 6 wall B..../W..../...../...../..... lines -/Y/-/-/- floor -
player 2 score 3 wall ..R../...../...../...../..... lines -/-/KK/-/- floor -"""


def features_of(text, moves):
    """{move: {feature: value}} of the moves (their notation) in the position ``text``."""
    position = tessera.Position.parse(text)
    codes = np.array([position.parse_move(move) for move in moves], np.int64)
    out = np.full((len(codes), N_POLICY_FEATURES), np.nan)
    move_features(position.state, codes, np.int64(len(codes)), out)
    return {move: dict(zip(POLICY_FEATURE_NAMES, row)) for move, row in zip(moves, out)}


def policy_weights(**named):
    """Weights over Azul's move features, zero but for ``named``."""
    out = np.zeros(N_POLICY_FEATURES)
    for name, weight in named.items():
        out[POLICY_FEATURE_NAMES.index(name)] = weight
    return out


# ---- the move features ------------------------------------------------------------------


def test_move_features_of_a_hand_written_position_are_worked_out_by_hand():
    found = features_of(DRAFT, ["F1 yellow 2", "C red floor", "F3 black 4"])
    zero = dict.fromkeys(POLICY_FEATURE_NAMES, 0.0)
    # One yellow completes line 2 (one held): the tile goes to row 2, column 3, alone
    # there (1 point), worth 1 + 3.8 (a fifth of the row, column and colour bonuses); a
    # full line earns its worth less the half-share already counted for the held tile:
    # 4.8 * (1 - 0.25). The heuristic is that in half points. Yellow left on the table:
    # F4 and F5 one each. The wall row holds the white: one bonus tile.
    assert found["F1 yellow 2"] == pytest.approx(
        {
            **zero,
            "heuristic": 0.5 * 3.6,
            "line_gain": 3.6,
            "tiles_taken": 1,
            "completes_line": 1,
            "line_size": 2,
            "line_fill": 1.0,
            "line_held": 1,
            "colour_elsewhere": 2,
            "placement_points": 1,
            "bonus_tiles": 1,
            "leftover_to_centre": 3,
        }
    )
    # The red and the marker to the floor: two slots, 2 points.
    assert found["C red floor"] == pytest.approx(
        {
            **zero,
            "heuristic": -1.0,
            "floor_cost": 2,
            "floor_tiles": 2,
            "marker": 1,
            "tiles_taken": 1,
            "to_floor_only": 1,
            "colour_elsewhere": 3,
            "from_centre": 1,
        }
    )
    # Two blacks half fill line 4: its tile (row 4, column 2: 1 point, worth 4.8) earns
    # 2 * 4.8 / 8. One black is left elsewhere, too few for the two missing. Player 2's
    # line 3 has room for one black: the move keeps one from it.
    assert found["F3 black 4"] == pytest.approx(
        {
            **zero,
            "heuristic": 0.5 * 1.2,
            "line_gain": 1.2,
            "tiles_taken": 2,
            "line_size": 4,
            "line_fill": 0.5,
            "line_missing": 2,
            "colour_elsewhere": 1,
            "placement_points": 1,
            "denies": 1,
            "leftover_to_centre": 2,
        }
    )


def test_the_heuristic_feature_is_the_move_heuristic_of_every_move():
    rules = bind.interface("azul")
    position = tessera.Position.parse(DRAFT)
    state = position.state
    moves = np.zeros(rules.MAX_MOVES, np.int64)
    n = rules.legal_moves(state, moves)
    out = np.zeros((n, N_POLICY_FEATURES))
    move_features(state, moves, n, out)
    heuristics = np.zeros(rules.MAX_MOVES)
    rules.move_heuristics(state, moves, n, heuristics)
    assert np.array_equal(out[:, POLICY_FEATURE_NAMES.index("heuristic")], heuristics[:n])
    # Every move either fills a line or goes to the floor; tiles taken are never negative.
    assert np.all(
        (out[:, POLICY_FEATURE_NAMES.index("line_size")] > 0)
        != (out[:, POLICY_FEATURE_NAMES.index("to_floor_only")] == 1)
    )
    assert np.all(out[:, POLICY_FEATURE_NAMES.index("tiles_taken")] >= 1)


@pytest.mark.parametrize("players, variant", [(2, "gray"), (3, "colour"), (4, "gray")])
def test_move_features_hold_their_invariants_in_random_games(players, variant):
    rules = bind.interface("azul")
    moves = np.zeros(rules.MAX_MOVES, np.int64)
    heuristics = np.zeros(rules.MAX_MOVES)
    column = {name: i for i, name in enumerate(POLICY_FEATURE_NAMES)}
    tiling = 0
    for seed in range(3):
        for state in random_game("azul", {"players": players, "variant": variant}, seed):
            if rules.to_move(state) < 0:  # chance or the end
                continue
            n = rules.legal_moves(state, moves)
            out = np.full((n, N_POLICY_FEATURES), np.nan)
            move_features(state, moves, n, out)
            rules.move_heuristics(state, moves, n, heuristics)
            assert np.isfinite(out).all()
            assert np.array_equal(out[:, column["heuristic"]], heuristics[:n])
            tile_moves = moves[:n] >= TILE_MOVE_BASE
            tiling += tile_moves.sum()
            assert np.array_equal(out[:, column["tile_move"]] == 1, tile_moves)
            drafts = out[~tile_moves]
            assert np.all(drafts[:, column["line_fill"]] <= 1) and np.all(drafts[:, column["floor_cost"]] >= 0)
            assert np.all(drafts[:, column["denies"]] <= drafts[:, column["tiles_taken"]])
    assert (tiling > 0) == (variant == "gray")


# ---- the priors in MCTS -----------------------------------------------------------------


def seeded_tree(state, model, iterations=400, policy_temperature=None):
    """(nodes, stats) of a one-thread greedy-rollout search of ``state`` with ``model``."""
    kernels = bind.instance("azul", "mcts", "greedy")
    nodes, stats, size = mcts_layout.new_tree(20_000)
    prm = MctsOptions(policy_temperature=policy_temperature).kernel_params("azul")
    done = kernels.run_tree(nodes, stats, size, state, iterations, FOREVER, prm, make_rng(5), 1, model)
    assert done == iterations
    return nodes[: size[0]], stats[: size[0]]


def test_a_policy_equal_to_the_heuristic_gives_exactly_the_heuristics_search(tmp_path):
    path = tmp_path / "heuristic.npz"
    save_policy_model(path, fit.heuristic_policy(POLICY_FEATURE_NAMES, PRIOR_TEMPERATURE))
    weights = model_weights(path, "azul")[0]
    assert has_policy(weights) and not has_policy(NO_MODEL)
    state = tessera.Position.parse(START).state
    plain_nodes, plain_stats = seeded_tree(state, NO_MODEL)
    nodes, stats = seeded_tree(state, weights)
    assert np.array_equal(stats[:, mcts_layout.PRIOR], plain_stats[:, mcts_layout.PRIOR])
    assert np.array_equal(nodes, plain_nodes) and np.array_equal(stats, plain_stats)
    # The same through the API: the same answer, the settings naming the model.
    plain = tessera.best(START, visits=VISITS, seed=3, rollout="greedy", model="none")
    same = tessera.best(START, visits=VISITS, seed=3, rollout="greedy", model=str(path))
    timing = ("seconds", "nodes_per_second", "compile_seconds")
    assert same["moves"] == plain["moves"]
    assert {k: v for k, v in same["root"].items() if k not in timing} == {
        k: v for k, v in plain["root"].items() if k not in timing
    }
    assert same["settings"]["model_hash"] == load_model(path).hash


@pytest.mark.parametrize("temperature", [None, 1.5])  # None: 1, the policy as fitted
def test_the_priors_are_the_softmax_of_the_policys_logits(tmp_path, temperature):
    path = tmp_path / "floor.npz"
    policy = policy_weights(to_floor_only=2.0, tiles_taken=0.5, marker=-1.0)
    save_policy_model(path, policy)
    state = tessera.Position.parse(DRAFT).state
    nodes, stats = seeded_tree(state, model_weights(path, "azul")[0], iterations=2, policy_temperature=temperature)
    first, count = nodes[0, mcts_layout.FIRST], nodes[0, mcts_layout.COUNT]
    expected = policy_priors(state, nodes[first : first + count, mcts_layout.MOVE], policy / (temperature or 1.0))
    assert stats[first : first + count, mcts_layout.PRIOR] == pytest.approx(expected, rel=1e-12)


@pytest.mark.long  # tessera train, then best
def test_best_with_a_policy_model_and_a_greedy_rollout_uses_the_policy_alone(tmp_path):
    path = tmp_path / "floor.npz"
    model = save_policy_model(path, policy_weights(to_floor_only=3.0))
    greedy = ("best", START, "-n", VISITS, "--seed", 2, "--threads", 1, "--rollout", "greedy")
    with_policy = run_tessera(*greedy, "--model", path, "--json")
    assert with_policy.returncode == 0, with_policy.stderr
    report = best_report(with_policy.stdout)
    assert report["settings"]["rollout"] == "greedy"
    assert report["settings"]["model"] == str(path) and report["settings"]["model_hash"] == model.hash
    plain = best_report(run_tessera(*greedy, "--json").stdout)
    priors = {move["move"]: move["prior"] for move in report["moves"]}
    plain_priors = {move["move"]: move["prior"] for move in plain["moves"]}
    floor = [move for move in priors if move.endswith("floor")]
    assert floor and all(priors[move] > plain_priors[move] for move in floor)
    assert [m["visits"] for m in report["moves"]] != [m["visits"] for m in plain["moves"]]
    # An agent takes it in the same way, and searches as the command does.
    agent = parse_agent(f"mcts:iters={VISITS},rollout=greedy,model={path}", seed=2)
    decided = agent.decide(AZUL.parse_position(START)).result
    assert [(line.move, line.visits) for line in decided.moves[:5]] == [
        (move["code"], move["visits"]) for move in report["moves"][:5]
    ]


@pytest.mark.long  # tessera train, then best
def test_a_model_without_a_policy_takes_round_rollouts_and_refuses_others(tmp_path):
    path = tmp_path / "value.npz"
    save_model(path, np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    done = run_tessera("best", START, "-n", 10, "--model", path, "--json")
    assert done.returncode == 0, done.stderr
    assert best_report(done.stdout)["settings"]["rollout"] == "round"
    done = run_tessera("best", START, "-n", 10, "--rollout", "greedy", "--model", path)
    assert done.returncode != 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "it needs rollout round or mixed, not greedy" in lines[0], lines
    with pytest.raises(OptionError, match="it needs rollout round or mixed, not random"):
        parse_agent(f"mcts:iters=10,rollout=random,model={path}", seed=1).decide(AZUL.parse_position(START))


# ---- the fit ----------------------------------------------------------------------------


def synthetic_positions(rng, positions, columns):
    """(features, start) of ``positions`` positions of 2 to 30 moves each."""
    counts = rng.integers(2, 31, size=positions)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    features = rng.normal(size=(start[-1], columns)) * rng.uniform(0.5, 3.0, size=columns)
    return features + rng.normal(size=columns) * 5, start


def test_the_fit_recovers_known_weights_from_visit_shares():
    rng = np.random.default_rng(11)
    features, start = synthetic_positions(rng, 3000, 5)
    features[:, 4] = 1.0  # a feature that never varies: weight 0
    truth = np.array([0.8, -1.2, 0.3, 0.0, 0.0])
    target = fit.group_softmax(features @ truth, start)
    weights = fit.policy_regression(features, start, target, ridge=0.0)
    assert weights == pytest.approx(truth, abs=1e-6)
    # Visits drawn from the policy: the weights come back near the truth.
    counts = np.diff(start)
    sampled = np.concatenate([rng.multinomial(200, target[a:b]) / 200.0 for a, b in zip(start[:-1], start[1:])])
    noisy = fit.policy_regression(features, start, sampled, ridge=1.0)
    assert noisy == pytest.approx(truth, abs=0.05)
    assert counts.sum() == len(target)


def test_the_policy_figures_count_cross_entropy_and_ties_for_first():
    start = np.array([0, 2, 5])
    probabilities = np.array([0.5, 0.5, 0.2, 0.7, 0.1])
    data = dataset.PolicyDataset(
        "azul", np.zeros((5, 1)), start, np.array([1.0, 0.0, 0.25, 0.75, 0.0]), np.array([0, 3]), np.array([0, 1]), 2
    )
    figures = fit.policy_figures(probabilities, data)
    # Position 1: a tie of two for first, the best one of them: half a hit. Position 2: a hit.
    assert figures["top1"] == pytest.approx((0.5 + 1.0) / 2)
    expected = (-np.log(0.5) - 0.25 * np.log(0.2) - 0.75 * np.log(0.7)) / 2
    assert figures["cross_entropy"] == pytest.approx(expected)


# ---- the model file ---------------------------------------------------------------------


def test_a_model_file_with_a_policy_round_trips_and_its_hash_covers_the_policy(tmp_path):
    policy = np.linspace(-1, 1, N_POLICY_FEATURES)
    model = save_policy_model(tmp_path / "m.npz", policy)
    loaded = load_model(tmp_path / "m.npz", game="azul")
    assert loaded.has_policy and np.array_equal(loaded.policy_weights, policy)
    assert loaded.policy_feature_names == POLICY_FEATURE_NAMES
    assert loaded.policy == {"data": {"positions": 1}}
    assert loaded.hash == model.hash == weights_hash(np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES), policy)
    assert loaded.hash != weights_hash(np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    weights = model_weights(tmp_path / "m.npz", "azul")[0]
    assert weights.shape == (
        mcts_layout.MODEL_HIDDEN,
        max(mcts_layout.HIDDEN_INPUT + N_VALUE_FEATURES, N_POLICY_FEATURES),
    )
    assert np.array_equal(weights[mcts_layout.MODEL_POLICY, :N_POLICY_FEATURES], policy)
    assert weights[mcts_layout.MODEL_SHAPE, mcts_layout.SHAPE_POLICY] == 1
    # A value-only file loads without a policy, its hash that of the value alone.
    save_model(tmp_path / "value.npz", np.ones(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    value = load_model(tmp_path / "value.npz")
    assert not value.has_policy
    assert value.hash == weights_hash(np.ones(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    value_only = model_weights(tmp_path / "value.npz")[0]
    assert not has_policy(value_only) and not value_only[mcts_layout.MODEL_POLICY].any()


def test_bad_policies_are_named_in_one_line(tmp_path):
    save_policy_model(tmp_path / "m.npz", np.ones(N_POLICY_FEATURES))
    arrays = dict(np.load(tmp_path / "m.npz"))
    tampered = {**arrays, "policy_weights": arrays["policy_weights"] * 2}
    np.savez(tmp_path / "tampered.npz", **tampered)
    with pytest.raises(ModelError, match="damaged"):
        load_model(tmp_path / "tampered.npz")
    half = {name: value for name, value in arrays.items() if name != "policy_feature_names"}
    np.savez(tmp_path / "half.npz", **half)
    with pytest.raises(ModelError, match="a policy without policy_feature_names"):
        load_model(tmp_path / "half.npz")
    short = ValueModel(
        "azul",
        np.zeros(N_VALUE_FEATURES),
        np.zeros(N_VALUE_FEATURES),
        FEATURE_NAMES,
        [2],
        policy_weights=np.zeros(3),
        policy_feature_names=POLICY_FEATURE_NAMES[:3],
    )
    short.save(tmp_path / "short.npz")
    with pytest.raises(ModelError, match="other move features") as caught:
        load_model(tmp_path / "short.npz")
    assert "\n" not in str(caught.value)


# ---- tessera train ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def searched_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("policy") / "run"
    done = run_tessera(
        "selfplay",
        "azul",
        "--games",
        4,
        "--agents",
        "mcts:iters=40,mcts:iters=40",
        "--seed",
        5,
        "--workers",
        1,
        "--record-search",
        "--out",
        out,
        "--no-plots",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.long  # reads the searched self-play run the module plays once
def test_the_policy_rows_are_every_searched_position_with_its_visit_shares(searched_run):
    runs = dataset.read_runs("azul", [searched_run])
    assert dataset.runs_have_searches(runs)
    data = dataset.replay_policy_runs("azul", runs)
    assert data.games == 4 and data.positions > 4 * 20
    counts = data.counts
    assert np.all(counts >= 2) and data.start[-1] == len(data.target) == len(data.features)
    assert np.add.reduceat(data.target, data.start[:-1]) == pytest.approx(np.ones(data.positions))
    # The most visited move has the largest share of its position's visits.
    top = np.maximum.reduceat(data.target, data.start[:-1])
    assert np.array_equal(data.target[data.best], top)
    training, held = data.split(0.5, 1)
    assert set(training.game).isdisjoint(held.game)
    assert training.positions + held.positions == data.positions
    # The value's rows of the same games, split alike: a game is on one side for both.
    value_training, value_held = dataset.replay_runs("azul", runs).split(0.5, 1)
    assert set(training.game) == set(value_training.game) and set(held.game) == set(value_held.game)
    assert np.array_equal(held.target[held.best], np.maximum.reduceat(held.target, held.start[:-1]))


@pytest.mark.long  # tessera train, three times
def test_train_with_searches_recorded_fits_a_policy(searched_run, tmp_path):
    out = tmp_path / "m.npz"
    done = run_tessera("train", "azul", searched_run, "--out", out, "--seed", 1, "--validation", 0.5, "--no-progress")
    assert done.returncode == 0, done.stderr
    model = load_model(out, game="azul")
    assert model.has_policy and f"sha256 {model.hash}" in done.stdout
    assert set(model.policy["validation"]) == {"model", "heuristic"}
    assert "policy" in done.stdout and "heuristic priors" in done.stdout
    assert model.policy["data"]["positions"] == (
        model.policy["data"]["training_positions"] + model.policy["data"]["validation_positions"]
    )
    report = json.loads(
        run_tessera(
            "train", "azul", searched_run, "--out", tmp_path / "j.npz", "--seed", 1, "--validation", 0.5, "--json"
        ).stdout
    )
    assert report["hash"] == model.hash and report["policy"]["validation"] == model.policy["validation"]
    value_only = run_tessera(
        "train", "azul", searched_run, "--out", tmp_path / "v.npz", "--seed", 1, "--validation", 0.5, "--no-policy"
    )
    assert value_only.returncode == 0 and not load_model(tmp_path / "v.npz").has_policy


@pytest.mark.long  # tessera selfplay, then train
def test_train_policy_refuses_runs_without_searches(tmp_path):
    run = tmp_path / "run"
    made = run_tessera(
        "selfplay",
        "azul",
        "--games",
        2,
        "--agents",
        "greedy,greedy",
        "--seed",
        3,
        "--workers",
        1,
        "--out",
        run,
        "--no-plots",
        "--no-progress",
    )
    assert made.returncode == 0, made.stderr
    done = run_tessera("train", "azul", run, "--out", tmp_path / "m.npz", "--validation", 0.5, "--policy")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: --policy needs runs that recorded their searches (tessera selfplay --record-search)"
    ]
    default = run_tessera("train", "azul", run, "--out", tmp_path / "m.npz", "--validation", 0.5)
    assert default.returncode == 0 and not load_model(tmp_path / "m.npz").has_policy


@pytest.mark.long  # tessera selfplay, then train, six times
def test_train_fits_the_policy_to_the_policy_runs_and_the_value_to_the_others(searched_run, tmp_path):
    """--policy-runs: the value of a run that recorded no searches, the policy of one that
    did, each exactly as if trained on its own runs."""
    greedy = tmp_path / "greedy"
    made = run_tessera(
        "selfplay",
        "azul",
        "--games",
        4,
        "--agents",
        "greedy,greedy",
        "--seed",
        3,
        "--workers",
        1,
        "--out",
        greedy,
        "--no-plots",
        "--no-progress",
    )
    assert made.returncode == 0, made.stderr
    split = ("--seed", 1, "--validation", 0.5, "--no-progress")
    done = run_tessera("train", "azul", greedy, "--policy-runs", searched_run, "--out", tmp_path / "both.npz", *split)
    assert done.returncode == 0, done.stderr
    assert "policy data" in done.stdout
    both = load_model(tmp_path / "both.npz", "azul")
    assert run_tessera("train", "azul", greedy, "--out", tmp_path / "value.npz", *split).returncode == 0
    assert run_tessera("train", "azul", searched_run, "--out", tmp_path / "policy.npz", *split).returncode == 0
    value, policy = load_model(tmp_path / "value.npz"), load_model(tmp_path / "policy.npz")
    assert not value.has_policy and both.has_policy
    assert np.array_equal(both.margin_weights, value.margin_weights)
    assert np.array_equal(both.win_weights, value.win_weights)
    assert np.array_equal(both.policy_weights, policy.policy_weights)
    assert both.policy == policy.policy and both.data == value.data
    assert both.settings["policy_runs"] == [str(searched_run)]
    assert both.settings["command"].endswith(f"--policy-runs {searched_run}")
    # A policy asked of runs without searches, or refused beside --policy-runs: one line.
    for extra, message in (
        ((), "--policy-runs needs runs that recorded their searches"),
        (("--no-policy",), "--policy-runs fits a policy: it cannot go with --no-policy"),
    ):
        bad_runs = greedy if not extra else searched_run
        refused = run_tessera(
            "train", "azul", searched_run, "--policy-runs", bad_runs, "--out", tmp_path / "bad.npz", *split, *extra
        )
        assert refused.returncode == 2 and refused.stdout == ""
        lines = refused.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], lines


@pytest.mark.long  # tessera train, eight times
def test_train_value_from_keeps_a_models_value_and_fits_the_policy(searched_run, tmp_path):
    """--value-from: the value of a model file exactly as it is (its weights, its fit's
    settings and figures), the policy of the runs exactly as a plain train fits it."""
    value = save_model(tmp_path / "value.npz", np.arange(N_VALUE_FEATURES) / 10.0, np.full(N_VALUE_FEATURES, -0.25))
    split = ("--seed", 1, "--validation", 0.5, "--no-progress")
    done = run_tessera(
        "train", "azul", searched_run, "--value-from", tmp_path / "value.npz", "--out", tmp_path / "both.npz", *split
    )
    assert done.returncode == 0, done.stderr
    assert "policy data" in done.stdout and "heuristic priors" in done.stdout
    both = load_model(tmp_path / "both.npz", "azul")
    assert run_tessera("train", "azul", searched_run, "--out", tmp_path / "plain.npz", *split).returncode == 0
    plain = load_model(tmp_path / "plain.npz", "azul")
    assert np.array_equal(both.margin_weights, value.margin_weights)
    assert np.array_equal(both.win_weights, value.win_weights)
    assert np.array_equal(both.policy_weights, plain.policy_weights) and both.policy == plain.policy
    assert both.settings["policy_runs"] == [str(searched_run)]
    assert "--value-from" in both.settings["policy_command"]
    assert f"sha256 {both.hash}" in done.stdout
    # What --value-from cannot go with, and a model file that is not one: one line each.
    for extra, message in (
        (("--no-policy",), "--value-from keeps the value of its model"),
        (("--hidden", 4), "it cannot go with --no-policy, --policy-runs or --hidden"),
        (("--policy-runs", searched_run), "--value-from keeps the value"),
    ):
        refused = run_tessera(
            "train",
            "azul",
            searched_run,
            "--value-from",
            tmp_path / "value.npz",
            "--out",
            tmp_path / "bad.npz",
            *split,
            *extra,
        )
        assert refused.returncode == 2 and refused.stdout == ""
        lines = refused.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], lines
    missing = run_tessera(
        "train", "azul", searched_run, "--value-from", tmp_path / "none.npz", "--out", tmp_path / "bad.npz", *split
    )
    assert missing.returncode == 2 and "no such file" in missing.stderr
    assert len(missing.stderr.splitlines()) == 1
    greedy = tmp_path / "greedy"  # runs that recorded no searches
    assert (
        run_tessera(
            "selfplay",
            "azul",
            "--games",
            2,
            "--agents",
            "greedy,greedy",
            "--seed",
            3,
            "--workers",
            1,
            "--out",
            greedy,
            "--no-plots",
            "--no-progress",
        ).returncode
        == 0
    )
    unsearched = run_tessera(
        "train", "azul", greedy, "--value-from", tmp_path / "value.npz", "--out", tmp_path / "bad.npz", *split
    )
    assert unsearched.returncode == 2 and unsearched.stderr.splitlines() == [
        "error: --value-from needs runs that recorded their searches (tessera selfplay --record-search)"
    ]
