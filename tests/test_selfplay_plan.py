"""What game i of a batch is: seating, seeds, chunks, the --agents list and the plan checks."""

from collections import Counter

import numpy as np
import pytest

from tessera.errors import OptionError
from tessera.games import get_game
from tessera.selfplay import seating
from tessera.selfplay.plan import Plan, make_plan, split_agents
from tessera.selfplay.seeds import agent_seeds, game_seeds

AZUL = get_game("azul")


def lineups(agents, seats, games):
    return [seating.lineup(agents, seats, i) for i in range(games)]


def test_lineups_rotate_and_round_robin():
    assert lineups(2, 2, 3) == [(0, 1), (1, 0), (0, 1)]
    assert lineups(3, 3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert lineups(2, 3, 2) == [(0, 1, 0), (1, 0, 1)]
    assert lineups(2, 4, 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert lineups(1, 3, 1) == [(0, 0, 0)]
    assert lineups(3, 2, 6) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


@pytest.mark.parametrize("agents, seats", [(1, 2), (2, 2), (2, 3), (2, 4), (3, 3), (4, 4), (3, 2), (4, 2), (4, 3)])
def test_every_agent_holds_every_seat_equally_over_a_period(agents, seats):
    period = seating.period(agents, seats)
    counts = Counter(
        (agent, seat) for i in range(period) for seat, agent in enumerate(seating.lineup(agents, seats, i))
    )
    assert len(counts) == agents * seats and len(set(counts.values())) == 1


def test_round_robin_meets_every_pairing_in_both_orders():
    pairs = Counter(seating.lineup(3, 2, i) for i in range(seating.period(3, 2)))
    assert set(pairs) == {(a, b) for a in range(3) for b in range(3) if a != b}


def test_seeds_depend_on_seed_and_game_number_only():
    seeds = game_seeds(7, range(1000))
    assert len(set(seeds.tolist())) == 1000 and seeds.min() >= 0
    assert game_seeds(7, [500, 3]).tolist() == [seeds[500], seeds[3]]
    assert not set(game_seeds(8, range(1000)).tolist()) & set(seeds.tolist())
    assert game_seeds(2**63 - 1, [0, 10**12]).min() >= 0
    seats = agent_seeds(seeds[:10], 4)
    assert seats.shape == (10, 4) and seats.min() >= 0 and seats.max() < 2**32
    assert len(set(seats.ravel().tolist())) == 40
    assert np.array_equal(agent_seeds(seeds[3:4], 4), seats[3:4])


@pytest.mark.parametrize(
    "text, specs",
    [
        ("random,greedy", ["random", "greedy"]),
        (" random , greedy ", ["random", "greedy"]),
        ("greedy,mcts:iters=500,c=0.7,random", ["greedy", "mcts:iters=500,c=0.7", "random"]),
        ("mcts:iters=10,alphabeta:depth=2", ["mcts:iters=10", "alphabeta:depth=2"]),
        ("greedy", ["greedy"]),
    ],
)
def test_split_agents(text, specs):
    assert split_agents(text) == specs


@pytest.mark.parametrize("text", ["random,,greedy", "random,", ""])
def test_split_agents_rejects_empty_specs(text):
    with pytest.raises(OptionError, match="empty agent spec"):
        split_agents(text)


def test_plan_chunks_labels_and_json():
    plan = make_plan(AZUL, {"players": 3}, ["greedy", "random", "greedy"], 1001, 5, 250)
    assert plan.seats == 3 and plan.options == {"players": 3, "variant": "colour"}
    assert plan.chunks == 5 and plan.chunk_games(4) == range(1000, 1001)
    assert plan.labels() == ["greedy (1)", "random", "greedy (3)"]
    assert plan.lineups(range(2)).tolist() == [[0, 1, 2], [1, 2, 0]]
    assert Plan.from_json(plan.to_json()) == plan


@pytest.mark.parametrize(
    "agents, size",
    [
        (["random"], 2000),
        (["greedy", "random"], 2000),
        (["greedy", "mcts:iters=10"], 250),
        (["alphabeta:depth=1"], 250),
    ],
)
def test_the_default_chunk_size_follows_the_agents(agents, size):
    # Kernel games are cheap, so a chunk's file costs more than its games unless it is big.
    assert make_plan(AZUL, {}, agents, 5000, 1).chunk_size == size
    assert make_plan(AZUL, {}, agents, 5000, 1, 7).chunk_size == 7


def test_plan_differences_name_each_parameter():
    plan = make_plan(AZUL, {}, ["random", "greedy"], 100, 1, 50)
    other = make_plan(AZUL, {"variant": "gray"}, ["greedy", "random"], 100, 2, 50)
    assert plan.differences(other) == [
        "options players=2 variant=colour there, players=2 variant=gray here",
        "agents random,greedy there, greedy,random here",
        "seed 1 there, 2 here",
    ]
    assert plan.differences(plan) == []


@pytest.mark.parametrize(
    "options, agents, games, seed, chunk, message",
    [
        ({}, ["random", "minimax"], 10, 0, 5, "bad agent spec 'minimax': unknown agent"),
        ({}, ["mcts"], 10, 0, 5, "mcts needs iters=N or time=S"),
        ({}, [], 10, 0, 5, "at least one agent"),
        ({}, ["random"], 0, 0, 5, "--games must be at least 1, not 0"),
        ({}, ["random"], 10, 0, 0, "--chunk-size must be at least 1, not 0"),
        ({}, ["random"], 10, -1, 5, "--seed must be from 0"),
        ({"players": 5}, ["random"], 10, 0, 5, "players must be 2, 3 or 4, not 5"),
        ({"variant": "blue"}, ["random"], 10, 0, 5, "unknown variant 'blue'"),
        ({"speed": 3}, ["random"], 10, 0, 5, "azul has no option 'speed'"),
    ],
)
def test_bad_plans_raise_one_line(options, agents, games, seed, chunk, message):
    with pytest.raises(OptionError) as err:
        make_plan(AZUL, options, agents, games, seed, chunk)
    assert message in str(err.value) and "\n" not in str(err.value)
