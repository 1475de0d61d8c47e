"""MCTS's first-play urgency (``fpu``): the value PUCT gives a move it has not tried."""

import pytest

from tessera.agents import parse_agent
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.search.mcts import Mcts, MctsOptions

AZUL = get_game("azul")


def tried(fpu, iterations=200):
    """How many of the opening's root moves a PUCT search of ``iterations`` visits."""
    result = Mcts(MctsOptions(iterations=iterations, seed=2, rollout="random", fpu=fpu)).search(AZUL.new(1, players=2))
    return sum(line.visits > 0 for line in result.moves), len(result.moves)


def test_an_optimistic_first_play_tries_every_move_and_a_pessimistic_one_few():
    optimistic, moves = tried(1.0)
    assert optimistic == moves
    assert tried(0.0)[0] < tried(0.5)[0] < moves


def test_a_first_play_relative_to_the_parent_lies_between():
    assert tried(0.0)[0] <= tried(-0.1)[0] <= tried(1.0)[0]


def test_fpu_is_an_agent_key_and_checked():
    agent = parse_agent("mcts:iters=10,fpu=-0.1")
    assert agent.mcts.options.fpu == -0.1
    with pytest.raises(OptionError, match="fpu must be from -1 to 1"):
        parse_agent("mcts:iters=10,fpu=2")
