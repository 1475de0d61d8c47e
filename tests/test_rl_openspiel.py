"""OpenSpiel's own checks on the registered games (``tessera.rl.spiel``) and its MCTS and
IS-MCTS bots playing them; observations, chance and information states against the
Python API."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import tessera.rl.spiel  # noqa: E402,F401  (registers the games)
from tessera.position import Position  # noqa: E402
from tessera.rl.encoding import Encoding  # noqa: E402
from tests.random_games import VARIANTS, variant_id  # noqa: E402


# Each game's encoding compiles on first use (the package does not ship it compiled): the
# quick tier simulates Azul's variants.
@pytest.mark.parametrize(
    "variant",
    [variant if variant[0] == "azul" else pytest.param(variant, marks=pytest.mark.long) for variant in VARIANTS],
    ids=variant_id,
)
def test_random_sim_test_with_serialization(variant):
    game, options = variant
    loaded = pyspiel.load_game(f"tessera_{game}", options)
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_game_types():
    azul = pyspiel.load_game("tessera_azul", {"players": 3, "variant": "gray"})
    azure = pyspiel.load_game("tessera_azure", {"gifted": "favored", "realm_seed": 4})
    assert azul.num_players() == 3 and azul.num_distinct_actions() == 305
    assert azul.max_chance_outcomes() == 5 and azure.max_chance_outcomes() == 4  # the colours
    assert azul.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert azul.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert azure.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert azure.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    start = azure.new_initial_state()  # the realm of seed 4, the hands still to draw
    assert start.is_chance_node()
    from tessera.games import get_game
    from tessera.kernels.rng import make_rng

    dealt = start.array.copy()
    get_game("azure").kernels().resolve_chance(dealt, make_rng(4))
    assert np.array_equal(dealt, Position.new("azure", seed=4, gifted="favored").state)


def play_random(state, rng, until=None):
    """Random actions (chance by its probabilities) to the end or for ``until`` actions."""
    done = 0
    while not state.is_terminal() and (until is None or done < until):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        done += 1
    return state


@pytest.mark.parametrize(
    "game,params", [("azul", {"players": 2}), ("pavilion", {"players": 3}), ("azure", {"gifted": "mighty"})]
)
def test_observations_chance_and_actions_agree_with_the_python_api(game, params):
    loaded = pyspiel.load_game(f"tessera_{game}", params)
    encoding = Encoding(game, **params)
    state = loaded.new_initial_state()
    rng = np.random.default_rng(2)
    seen = 0
    while not state.is_terminal():
        position = Position.from_state(state.array)
        if state.is_chance_node():
            assert [(state.action_to_string(a), p) for a, p in state.chance_outcomes()] == position.chance_outcomes()
        else:
            assert [state.action_to_string(a) for a in state.legal_actions()] == sorted(
                position.legal_moves, key=lambda t: encoding.action_of_move(state.array, position.parse_move(t))
            )
            for player in range(loaded.num_players()):
                assert state.observation_string(player) == position.view(player + 1).text()
                assert state.observation_tensor(player) == pytest.approx(
                    encoding.observation(state.array, player).tolist()
                )
            seen += 1
        play_random(state, rng, until=1 if seen < 6 else 7)
    returns, scores = np.array(state.returns()), np.array(Position.from_state(state.array).scores)
    assert returns.sum() == pytest.approx(0.0)
    if game != "azure":  # the winners have the top score (ties: complete rows)
        assert scores[returns == returns.max()].min() == scores.max()


def test_azure_information_states_hide_the_opponents_draws_and_resampling_keeps_them():
    """At a player's turn where the opponent holds cards that player cannot name, resampling
    deals them anew and keeps everything the player knows."""
    loaded = pyspiel.load_game("tessera_azure")
    rng = np.random.default_rng(5)
    state = loaded.new_initial_state()
    while True:
        play_random(state, rng, until=1)
        assert not state.is_terminal()
        me = state.current_player()
        if me >= 0 and "?" in Position.from_state(state.array).view(me + 1).to_json()["players"][1 - me]["hand"]:
            break
    mine, theirs = state.information_state_string(me), state.information_state_string(1 - me)
    assert "?" in mine and "?" in theirs and mine != theirs  # each misses the other's draws
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = False
    for _ in range(8):
        other = state.resample_from_infostate(me, sampler)
        assert other.information_state_string(me) == mine
        assert other.observation_string(me) == state.observation_string(me)
        assert other.observation_tensor(me) == state.observation_tensor(me)
        assert other.legal_actions() == state.legal_actions()
        differed |= not np.array_equal(other.array, state.array)
    assert differed


def test_openspiel_mcts_and_ismcts_bots_play_whole_games():
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    azul = pyspiel.load_game("tessera_azul")
    bot = mcts.MCTSBot(azul, 2.0, 2, evaluator, random_state=rng)
    state = azul.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sum(state.returns()) == pytest.approx(0.0) and max(state.returns()) >= 0
    azure = pyspiel.load_game("tessera_azure", {"gifted": "bountiful"})
    bot = ismcts.ISMCTSBot(azure, evaluator, 2.0, 5, random_state=rng, allow_inconsistent_action_sets=True)
    state = azure.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]
