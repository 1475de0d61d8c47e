"""MCTS's round rollouts: epsilon-greedy to the next chance event, scored with the game's
``estimate`` (docs/search.md, "Rollouts"); Azul's estimate worked by hand."""

import numpy as np
import pytest

from tessera.agents import parse_agent
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import azul, bind
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import Mcts, MctsOptions
from tests.azul_positions import BOARD, azul_position


def test_azul_estimate_adds_the_bonus_shares_and_the_unfinished_lines_to_the_evaluation():
    state = azul_position("colour", "RRRR - - - -", BOARD)
    evaluated, estimated = np.zeros(4), np.zeros(4)
    azul.evaluate(state, evaluated)
    azul.estimate(state, estimated)
    assert list(evaluated[:2]) == [5, 0]
    # Rows: 2 tiles of 5 and 1 of 5 at 2 points, 0.8 + 0.4; columns: 1 and 2 at 7, 1.4 + 2.8;
    # colours: 2 blues and a yellow at 10, 4 + 2; together 11.4. The yellow line (half
    # full) goes to row 2, column 3, beside the blue: 2 points, half of them 1.0.
    assert estimated[0] == pytest.approx(5 + 11.4 + 1.0)
    assert estimated[1] == 0


def test_on_the_gray_wall_an_unfinished_line_counts_nothing_yet():
    state = azul_position("gray", "RRRR - - - -", BOARD)
    estimated = np.zeros(4)
    azul.estimate(state, estimated)
    assert estimated[0] == pytest.approx(5 + 11.4)  # its column is not chosen yet


def test_the_other_games_estimate_is_their_evaluation():
    for game in ("pavilion", "azure", "toy"):
        rules = bind.interface(game)
        assert rules.estimate is rules.evaluate


def search(state, rollout, iterations=2000):
    """A search whose round rollouts the hand-written estimate scores (no model)."""
    return Mcts(MctsOptions(iterations=iterations, seed=3, threads=1, rollout=rollout, model="none")).search(state)


def test_where_the_round_ends_the_game_round_rollouts_are_greedy_ones():
    """Row 1 is completed at this round's end (its line is full), so the game ends with no
    chance event: a round rollout plays exactly the greedy one, and the searches agree."""
    state = azul_position(
        "colour", "RRKK YYBB WWKR - -", "score 12 wall BYRK./...../...../...../..... lines W/../.../..../..... floor -"
    )
    greedy, round_ = search(state, "greedy"), search(state, "round")
    assert [(m.move, m.visits, m.win_rate, m.margin) for m in greedy.moves] == [
        (m.move, m.visits, m.win_rate, m.margin) for m in round_.moves
    ]


def test_before_the_last_round_round_rollouts_search_their_own_way():
    state = get_game("azul").new(1, players=2)
    greedy, round_ = search(state, "greedy"), search(state, "round")
    assert sum(m.visits for m in round_.moves) == sum(m.visits for m in greedy.moves) == 2000
    assert [m.visits for m in greedy.moves] != [m.visits for m in round_.moves]
    assert [(m.move, m.visits) for m in round_.moves] == [(m.move, m.visits) for m in search(state, "round").moves]


def test_is_mcts_takes_the_rollouts_mcts_takes():
    with pytest.raises(OptionError, match=r"unknown rollout 'cut' \(known: random, greedy, round, mixed\)"):
        Ismcts(MctsOptions(iterations=10, rollout="cut"))


def test_an_agent_with_round_rollouts_plays_azul_and_an_azure_view():
    """IS-MCTS cuts Azure's rollouts after its turns (tests/test_azure_features.py) and
    scores them with the estimate when no model is given."""
    agent = parse_agent("mcts:iters=50,rollout=round")
    azul_state = get_game("azul").new(2, players=2)
    assert agent.choose(azul_state) in legal(azul_state)
    azure = get_game("azure")
    view = azure.view(azure.new(5), 0)
    assert agent.choose(view) in legal(view)


def legal(state):
    rules = bind.interface(state[0])
    moves = np.empty(rules.MAX_MOVES, np.int64)
    return set(moves[: rules.legal_moves(state, moves)].tolist())


def test_summer_pavilion_round_rollouts_play_through_the_supply_top_ups():
    """Chance acts inside a Summer Pavilion round too (the supply's top-up after a bonus):
    a round rollout draws those and stops only where the next round is dealt (or the game
    is over), the positions its value model was trained on (docs/learning.md). The
    rollouts start in the placing phase of rounds 1 to 5 of random games: past the first
    round most of them meet a top-up before the round ends."""
    from tessera.kernels.constants import CHANCE, TERMINAL
    from tessera.kernels.pavilion.features import is_round_boundary
    from tessera.kernels.pavilion.layout import PHASE_PLACE, W_PHASE, W_ROUND
    from tessera.kernels.rng import make_rng

    kernels, rules = bind.instance("pavilion", "mcts", "round"), bind.interface("pavilion")
    moves, values = np.zeros(rules.MAX_MOVES, np.int64), np.zeros(rules.MAX_MOVES)
    for seed in range(60):
        state, pick, chance = get_game("pavilion").new(seed, players=2), np.random.default_rng(seed), make_rng(seed)
        while not (state[W_PHASE] == PHASE_PLACE and state[W_ROUND] >= 1 + seed % 5):
            if rules.to_move(state) == CHANCE:
                rules.resolve_chance(state, chance)
            else:
                rules.apply_move(state, moves[pick.integers(rules.legal_moves(state, moves))])
        kernels.rollout(state, make_rng(seed), moves, values)
        assert rules.to_move(state) == TERMINAL or is_round_boundary(state), f"seed {seed}: stopped inside a round"
