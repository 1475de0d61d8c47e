"""MCTS's round rollouts scored by a learned value model (`--model`, docs/search.md "A
learned value"): the kernel's payoff and margin are the model's, the root value moves as
the weights say, every surface gives the same seeded search and names the model's hash,
a search without a model is the search it was, and `builtin` is the game's shipped model."""

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import tessera
from tessera.agents import parse_agent
from tessera.analysis.client import AnalysisProcess
from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azul.features import N_VALUE_FEATURES, value_features
from tessera.learning.model import load_model
from tessera.search.value_model import model_weights
from tests.best_schema import best_report
from tests.cli_process import tessera as run_tessera
from tests.test_learning import BOUNDARY
from tests.value_models import policy_priors, save_model, weights

REPO = Path(__file__).resolve().parents[1]
AZUL = get_game("azul")
START = AZUL.format_position(AZUL.new(3))
PAVILION_START = get_game("pavilion").format_position(get_game("pavilion").new(3))
VISITS = 300


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    rng = np.random.default_rng(8)
    path = tmp_path_factory.mktemp("models") / "random.npz"
    return path, save_model(path, rng.normal(size=N_VALUE_FEATURES) * 0.1, rng.normal(size=N_VALUE_FEATURES) * 0.05)


def cut_outcome(state, model_array):
    """(payoff, margin) the round instance's ``scored_outcome`` gives ``state``."""
    kernels = bind.instance("azul", "mcts", "round")
    payoff, margin = np.zeros(4), np.zeros(4)
    kernels.scored_outcome(state, payoff, margin, np.zeros(4, np.int64), model_array, kernels.feature_rows())
    return payoff, margin


# ---- the kernel -------------------------------------------------------------------------


def test_a_cut_rollout_is_scored_by_the_models_dot_products(tmp_path):
    state = tessera.Position.parse(BOUNDARY).state
    rng = np.random.default_rng(3)
    margin_w, win_w = rng.normal(size=N_VALUE_FEATURES), rng.normal(size=N_VALUE_FEATURES) * 0.1
    save_model(tmp_path / "m.npz", margin_w, win_w)
    payoff, margin = cut_outcome(state, model_weights(tmp_path / "m.npz", "azul")[0])
    features = np.zeros((2, N_VALUE_FEATURES))
    for p in range(2):
        value_features(state, p, features[p])
    chances = 1 / (1 + np.exp(-(features @ win_w)))
    assert margin[:2] == pytest.approx(features @ margin_w, rel=1e-12, abs=1e-9)
    assert payoff[:2] == pytest.approx(chances / chances.sum(), rel=1e-12)
    assert payoff[:2].sum() == pytest.approx(1.0)


def test_weights_for_the_leader_give_the_leader_the_win(tmp_path):
    """At BOUNDARY the first player leads by 6 points: a model that backs the score
    difference gives that player nearly the whole win, one that backs the trailer the other."""
    state = tessera.Position.parse(BOUNDARY).state
    for sign, winner in ((1.0, 0), (-1.0, 1)):
        save_model(tmp_path / "m.npz", weights(score_diff=sign), weights(score_diff=sign * 3.0))
        payoff, margin = cut_outcome(state, model_weights(tmp_path / "m.npz", "azul")[0])
        assert payoff[winner] > 0.999 and payoff[1 - winner] < 0.001
        assert margin[winner] == pytest.approx(6.0) and margin[1 - winner] == pytest.approx(-6.0)


def test_without_a_model_a_cut_rollout_is_scored_by_the_estimate():
    state = tessera.Position.parse(BOUNDARY).state
    payoff, margin = cut_outcome(state, np.zeros((0, 0)))
    rules = bind.interface("azul")
    estimate = np.zeros(4)
    rules.estimate(state, estimate)
    assert margin[0] == pytest.approx(estimate[0] - estimate[1])
    assert payoff[:2].tolist() == ([1.0, 0.0] if estimate[0] > estimate[1] else [0.0, 1.0])


# ---- the search -------------------------------------------------------------------------


def test_a_constant_model_is_the_root_value(tmp_path):
    """Every rollout from the opening stops at the end of round 1, where a model of the
    constant alone says margin 7 and an even share of the win for each player."""
    save_model(tmp_path / "m.npz", weights(constant=7.0), weights(constant=2.5))
    report = tessera.best(START, visits=VISITS, seed=2, rollout="round", model=str(tmp_path / "m.npz"))
    assert report["root"]["win_rate"] == pytest.approx(0.5)
    assert report["root"]["margin"] == pytest.approx(7.0)
    assert all(move["margin"] == pytest.approx(7.0) for move in report["moves"] if move["visits"])


def top_visits(moves, count=8):
    return [(move["code"], move["visits"]) for move in moves[:count]]


def test_without_a_model_the_search_is_the_same(random_model):
    path, _ = random_model
    # 4-player Summer Pavilion: its round rollouts have no built-in model by default.
    pavilion = get_game("pavilion")
    four = pavilion.format_position(pavilion.new(3, players=4))
    for position, rollout in ((START, "greedy"), (four, "greedy"), (four, "round")):
        plain = tessera.best(position, visits=VISITS, seed=4, rollout=rollout)
        none = tessera.best(position, visits=VISITS, seed=4, rollout=rollout, model="none")
        assert plain["moves"] == none["moves"] and plain["root"]["margin"] == none["root"]["margin"]
        assert "model" not in plain["settings"] and "model_hash" not in none["settings"]
    estimated = tessera.best(START, visits=VISITS, seed=4, rollout="round", model="none")
    learned = tessera.best(START, visits=VISITS, seed=4, rollout="round", model=str(path))
    assert learned["root"]["margin"] != estimated["root"]["margin"]


@pytest.mark.long  # a search on every surface
def test_every_surface_gives_the_same_seeded_search_and_the_models_hash(random_model):
    path, model = random_model
    by_cli = run_tessera(
        "best", START, "-n", VISITS, "--seed", 6, "--threads", 1, "--rollout", "round", "--model", path, "--json"
    )
    assert by_cli.returncode == 0, by_cli.stderr
    by_cli = best_report(by_cli.stdout)
    by_api = tessera.best(START, visits=VISITS, seed=6, rollout="round", model=str(path))
    agent = parse_agent(f"mcts:iters={VISITS},rollout=round,model={path}", seed=6)
    by_agent = agent.decide(AZUL.parse_position(START)).result
    with AnalysisProcess(threads=1) as engine:
        engine.send(
            {
                "id": "q",
                "position": START,
                "maxVisits": VISITS,
                "seed": 6,
                "threads": 1,
                "rollout": "round",
                "model": str(path),
            }
        )
        by_analyze = engine.answer_to("q", timeout=300)
    assert "error" not in by_analyze, by_analyze
    expected = top_visits(by_cli["moves"])
    assert top_visits(by_api["moves"]) == top_visits(by_analyze["moves"]) == expected
    assert [(line.move, line.visits) for line in by_agent.moves[:8]] == expected
    for settings in (by_cli["settings"], by_api["settings"], by_analyze["settings"]):
        assert settings["model"] == str(path) and settings["model_hash"] == model.hash


# ---- bad input --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bad_models(tmp_path_factory, random_model):
    folder = tmp_path_factory.mktemp("bad")
    (folder / "junk.npz").write_bytes(b"not a model")
    return {
        "missing": (folder / "missing.npz", "no such file"),
        "junk": (folder / "junk.npz", "not a value model file"),
        "greedy": (random_model[0], "it needs rollout round or mixed, not greedy"),
        "pavilion": (random_model[0], "a model of azul, not pavilion"),
    }


@pytest.mark.parametrize("case", ["missing", "junk", "greedy", "pavilion"])
def test_a_bad_model_is_one_line_on_the_command_line(bad_models, case):
    path, message = bad_models[case]
    position = PAVILION_START if case == "pavilion" else START
    rollout = "greedy" if case == "greedy" else "round"
    done = run_tessera("best", position, "-n", 10, "--rollout", rollout, "--model", path)
    assert done.returncode != 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: model") and message in lines[0], lines


def test_a_bad_model_is_one_line_for_agents_and_analyze(bad_models):
    for case in ("missing", "junk", "greedy"):
        path, message = bad_models[case]
        rollout = "greedy" if case == "greedy" else "round"
        with pytest.raises(TesseraError, match=message) as caught:
            parse_agent(f"mcts:iters=10,rollout={rollout},model={path}")
        assert "\n" not in str(caught.value)
    with AnalysisProcess(threads=1) as engine:
        for case in ("missing", "junk", "greedy"):
            path, message = bad_models[case]
            rollout = "greedy" if case == "greedy" else "round"
            engine.send({"id": case, "position": START, "maxVisits": 10, "rollout": rollout, "model": str(path)})
            answer = engine.answer_to(case, timeout=300)
            assert answer.get("field") == "model" and message in answer["error"], answer


# ---- the built-in model -----------------------------------------------------------------

MODELS = resources.files("tessera.learning") / "models"
SHIPPED = MODELS / "azul.npz"
AZURE_START = get_game("azure").format_position(get_game("azure").new(3))


def test_builtin_is_the_shipped_azul_model_of_the_model_card():
    """docs/learning.md, "The built-in models", Azul: value 2 of results/strength, 2-player
    Azul, with move priors fitted to searches of 20,000 simulations a move."""
    shipped = load_model(SHIPPED, "azul")
    assert model_weights("builtin", "azul")[1] == shipped.hash
    assert model_weights("builtin")[1] == shipped.hash  # before the game is known
    assert shipped.hash == load_model(REPO / "results/strength/azul-value2-policy20k.npz").hash
    value = load_model(REPO / "results/strength/azul-value2.npz")
    assert np.array_equal(shipped.margin_weights, value.margin_weights)
    assert np.array_equal(shipped.win_weights, value.win_weights)
    assert shipped.players == [2] and shipped.data["games"] == 2000
    assert shipped.has_policy and shipped.settings["policy_runs"] == ["runs/strong20k"]
    assert shipped.policy["data"]["positions"] == 31770


def test_the_default_search_takes_its_priors_from_the_builtin_policy():
    """Two-player Azul's default search gives each root move the built-in policy's prior:
    the softmax of the move's features dotted with the policy's weights."""
    shipped = load_model(SHIPPED, "azul")
    report = tessera.best(START, visits=VISITS, seed=6)
    assert report["settings"]["model"] == "builtin"
    assert report["settings"]["model_hash"] == shipped.hash
    expected = policy_priors(
        tessera.Position.parse(START).state, [move["code"] for move in report["moves"]], shipped.policy_weights
    )
    assert [move["prior"] for move in report["moves"]] == pytest.approx(expected, rel=1e-9)


@pytest.mark.long  # a search on every surface
def test_builtin_searches_as_the_shipped_file_on_every_surface():
    by_file = tessera.best(START, visits=VISITS, seed=6, rollout="round", model=str(SHIPPED))
    by_cli = run_tessera(
        "best", START, "-n", VISITS, "--seed", 6, "--threads", 1, "--rollout", "round", "--model", "builtin", "--json"
    )
    assert by_cli.returncode == 0, by_cli.stderr
    by_cli = best_report(by_cli.stdout)
    by_api = tessera.Position.parse(START).best(visits=VISITS, seed=6, rollout="round", model="builtin")
    agent = parse_agent(f"mcts:iters={VISITS},rollout=round,model=builtin", seed=6)
    by_agent = agent.decide(AZUL.parse_position(START)).result
    with AnalysisProcess(threads=1) as engine:
        engine.send(
            {
                "id": "q",
                "position": START,
                "maxVisits": VISITS,
                "seed": 6,
                "threads": 1,
                "rollout": "round",
                "model": "builtin",
            }
        )
        by_analyze = engine.answer_to("q", timeout=300)
    assert "error" not in by_analyze, by_analyze
    expected = top_visits(by_file["moves"])
    assert top_visits(by_cli["moves"]) == top_visits(by_api["moves"]) == expected
    assert top_visits(by_analyze["moves"]) == expected
    assert [(line.move, line.visits) for line in by_agent.moves[:8]] == expected
    assert by_api["root"]["margin"] == by_file["root"]["margin"]
    for settings in (by_cli["settings"], by_api["settings"], by_analyze["settings"]):
        assert settings["model"] == "builtin"
        assert settings["model_hash"] == by_file["settings"]["model_hash"] == load_model(SHIPPED).hash


SHIPPED_PAVILION = MODELS / "pavilion.npz"


def test_builtin_is_the_shipped_pavilion_model_of_the_model_card():
    """docs/learning.md, "The built-in models", Summer Pavilion: the fourth generation of
    results/strength, 2 players; ``builtin`` names each game's own file."""
    shipped = load_model(SHIPPED_PAVILION, "pavilion")
    assert model_weights("builtin", "pavilion")[1] == shipped.hash
    assert model_weights("builtin", "azul")[1] != shipped.hash
    assert shipped.hash == load_model(REPO / "results/strength/pavilion-value4.npz").hash
    assert shipped.players == [2] and shipped.data["games"] == 3400


def test_pavilion_builtin_searches_as_its_file():
    by_file = tessera.best(PAVILION_START, visits=VISITS, seed=6, rollout="round", model=str(SHIPPED_PAVILION))
    by_cli = run_tessera(
        "best",
        PAVILION_START,
        "-n",
        VISITS,
        "--seed",
        6,
        "--threads",
        1,
        "--rollout",
        "round",
        "--model",
        "builtin",
        "--json",
    )
    assert by_cli.returncode == 0, by_cli.stderr
    by_cli = best_report(by_cli.stdout)
    assert top_visits(by_cli["moves"]) == top_visits(by_file["moves"])
    assert by_cli["settings"]["model"] == "builtin"
    assert by_cli["settings"]["model_hash"] == load_model(SHIPPED_PAVILION).hash
    without = tessera.best(PAVILION_START, visits=VISITS, seed=6, rollout="round", model="none")
    assert by_file["root"]["margin"] != without["root"]["margin"]  # the model scored the cuts


def builtin_hash(position):
    """The model hash in the settings of `tessera best` with the built-in model."""
    done = run_tessera("best", position, "-n", 50, "--rollout", "round", "--model", "builtin", "--json")
    assert done.returncode == 0, done.stderr
    return best_report(done.stdout)["settings"]["model_hash"]


@pytest.mark.long  # searches on every surface
def test_builtin_takes_the_model_fitted_to_the_player_count_where_one_ships():
    """Summer Pavilion ships a 3-player model beside its general one, Azul a 3- and a
    4-player one; the other player counts take the general one."""
    pavilion = get_game("pavilion")
    three = pavilion.format_position(pavilion.new(3, players=3))
    fitted = load_model(MODELS / "pavilion-3p.npz", "pavilion")
    assert fitted.players == [3]
    assert fitted.hash == load_model(REPO / "results/strength/pavilion3p-value2.npz").hash
    assert builtin_hash(three) == fitted.hash
    assert builtin_hash(PAVILION_START) == load_model(SHIPPED_PAVILION).hash
    azul_three = load_model(MODELS / "azul-3p.npz", "azul")
    assert azul_three.players == [3]
    assert azul_three.hash == load_model(REPO / "results/strength/azul3p-value1-policy20k.npz").hash
    assert builtin_hash(AZUL.format_position(AZUL.new(3, players=3))) == azul_three.hash
    azul_four = load_model(MODELS / "azul-4p.npz", "azul")
    assert azul_four.players == [4]
    assert azul_four.hash == load_model(REPO / "results/strength/azul4p-value1-policy20k.npz").hash
    # Each is the value fitted to its count with the 2-player priors of the 2-player model.
    two = load_model(SHIPPED, "azul")
    for model, value in ((azul_three, "azul3p-value1"), (azul_four, "azul4p-value1")):
        alone = load_model(REPO / f"results/strength/{value}.npz")
        assert np.array_equal(model.margin_weights, alone.margin_weights)
        assert np.array_equal(model.win_weights, alone.win_weights)
        assert np.array_equal(model.policy_weights, two.policy_weights)
    assert builtin_hash(AZUL.format_position(AZUL.new(3, players=4))) == azul_four.hash
    with AnalysisProcess(threads=1) as engine:
        engine.send({"id": "three", "position": three, "maxVisits": 50, "rollout": "round", "model": "builtin"})
        answer = engine.answer_to("three", timeout=300)
    assert answer["settings"]["model_hash"] == fitted.hash, answer


SHIPPED_AZURE = MODELS / "azure.npz"


@pytest.mark.long  # searches on every surface
def test_builtin_is_the_shipped_azure_model_of_the_model_card():
    """docs/learning.md, "The built-in models", Azure: the first generation's value of
    results/strength with the priors fitted to its searches of 16,000 simulations a move,
    searched from a player's view (IS-MCTS) on every surface."""
    shipped = load_model(SHIPPED_AZURE, "azure")
    assert shipped.hash == load_model(REPO / "results/strength/azure-value1-policy16k.npz").hash
    value = load_model(REPO / "results/strength/azure-value1.npz")
    assert np.array_equal(shipped.margin_weights, value.margin_weights)
    assert np.array_equal(shipped.win_weights, value.win_weights)
    assert shipped.has_policy and shipped.settings["policy_runs"] == ["runs/azure-strong16k"]
    assert shipped.players == [2] and shipped.data["games"] == 2000
    view = get_game("azure").format_position(get_game("azure").view(get_game("azure").new(3), 0))
    assert builtin_hash(view) == builtin_hash(AZURE_START) == shipped.hash
    by_file = tessera.best(view, visits=VISITS, seed=6, rollout="round", model=str(SHIPPED_AZURE))
    by_api = tessera.best(view, visits=VISITS, seed=6, rollout="round", model="builtin")
    assert by_file["algo"] == by_api["algo"] == "ismcts"
    assert top_visits(by_api["moves"]) == top_visits(by_file["moves"])
    with AnalysisProcess(threads=1) as engine:
        engine.send(
            {
                "id": "view",
                "position": view,
                "maxVisits": VISITS,
                "seed": 6,
                "threads": 1,
                "rollout": "round",
                "model": "builtin",
            }
        )
        answer = engine.answer_to("view", timeout=300)
    assert top_visits(answer["moves"]) == top_visits(by_file["moves"]), answer
    assert answer["settings"]["model_hash"] == shipped.hash
