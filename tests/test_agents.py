"""Agents: spec parsing and its errors, greedy on a hand-made position, games, strength."""

import numpy as np
import pytest

from tessera.agents import (
    AlphaBetaAgent,
    GreedyAgent,
    MctsAgent,
    RandomAgent,
    parse_agent,
    play_game,
)
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import games
from tessera.strength import head_to_head

AZUL = get_game("azul")
# The first pairing of bench/agent_strength.py.
MCTS_SPEC = "mcts:iters=300,select=puct,rollout=greedy,value=margin"

# Round 2, player 1 to move. F5 blue 4 completes line 4 next to the white tile on the
# wall: 2 points. Every other move scores at most 1 (F5 yellow 2, F5 white 1, F5 blue 1
# complete a line whose tile links to nothing) and the centre costs the marker.
GREEDY_POSITION = (
    "azul players 2 wall colour round 2 phase draft turn 1 starter 1; factories - - - - BYYW;"
    " centre 1YKKWWW; bag 12/11/11/15/11; lid 3/4/4/3/4;"
    " player 1 score 1 wall ...../...../...../..W../..... lines ./../RR./BBB./..... floor -;"
    " player 2 score 1 wall B..../...../...../...../..... lines ./YY/RRR/..../..... floor -"
)

# Round 3, the last: player 1's full line 1 completes wall row 1. Seven tiles are left in
# the centre; C blue 4 (+16 at the end of the game) is the only best move.
LATE_POSITION = (
    "azul players 2 wall colour round 3 phase draft turn 1 starter 1; factories - - - - -;"
    " centre BYYRRKK; bag 8/8/7/9/8; lid 6/7/6/7/7;"
    " player 1 score 8 wall BYRK./...../...../..W../..... lines W/../.../BBB./K.... floor -;"
    " player 2 score 3 wall B..../W..../...../...../..... lines ./YY/RRR/..../WW... floor 1R"
)


def position(text):
    return AZUL.parse_position(text)


def legal(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return [int(m) for m in moves[: games.legal_moves(state, moves)]]


def evaluation_after(state, move):
    child = state.copy()
    games.apply_move(child, move)
    values = np.zeros(games.players(state), np.float64)
    games.evaluate(child, values)
    return values[games.to_move(state)]


# ---- specs ---------------------------------------------------------------------------


def test_simple_specs():
    assert isinstance(parse_agent("random"), RandomAgent)
    assert isinstance(parse_agent("greedy", seed=3), GreedyAgent)
    agent = parse_agent(" greedy ")
    assert agent.name == "greedy" and agent.spec == " greedy "


def test_mcts_spec_sets_the_options():
    agent = parse_agent("mcts:iters=500,c=0.7,select=puct,rollout=greedy,value=margin,threads=2,width=4", seed=9)
    assert isinstance(agent, MctsAgent) and agent.name == "mcts"
    options = agent.mcts.options
    assert (options.iterations, options.time_limit, options.exploration) == (500, None, 0.7)
    assert (options.select, options.rollout, options.value) == ("puct", "greedy", "margin")
    assert (options.threads, options.chance_width, options.seed) == (2, 4, 9)
    assert parse_agent("mcts:time=0.5").mcts.options.time_limit == 0.5


def test_alphabeta_spec():
    agent = parse_agent("alphabeta:depth=3")
    assert isinstance(agent, AlphaBetaAgent) and (agent.depth, agent.time_limit) == (3, None)
    agent = parse_agent("alphabeta:time=2")
    assert (agent.depth, agent.time_limit) == (None, 2.0)


@pytest.mark.parametrize(
    "spec, names",
    [
        ("", "no agent name"),
        (":iters=3", "no agent name"),
        ("minimax", "unknown agent 'minimax'"),
        ("random:depth=2", "unknown key 'depth'"),
        ("greedy:x", "expected key=value, not 'x'"),
        ("mcts", "mcts needs iters=N or time=S"),
        ("mcts:threads=2", "mcts needs iters=N or time=S"),
        ("mcts:iters=10,iters=20", "'iters' is given twice"),
        ("mcts:iters=ten", "iters must be a whole number, not 'ten'"),
        ("mcts:iters=1.5", "iters must be a whole number"),
        ("mcts:time=soon", "time must be a number, not 'soon'"),
        ("mcts:iters=0", "iterations must be at least 1"),
        ("mcts:time=-1", "time must be more than 0"),
        ("mcts:iters=10,depth=3", "unknown key 'depth'"),
        ("mcts:iters=10,rollout=smart", "unknown rollout 'smart'"),
        ("mcts:iters=10,", "expected key=value"),
        ("mcts:iters=", "expected key=value"),
        ("alphabeta", "alphabeta needs depth=D or time=S"),
        ("alphabeta:depth=0", "depth must be at least 1"),
        ("alphabeta:depth=deep", "depth must be a whole number"),
        ("alphabeta:time=0", "time must be more than 0"),
    ],
)
def test_bad_specs_give_one_line(spec, names):
    with pytest.raises(OptionError) as err:
        parse_agent(spec)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"bad agent spec '{spec}': ")
    assert names in message


# ---- choosing moves ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_greedy_takes_the_line_that_scores_most(seed):
    state = position(GREEDY_POSITION)
    move = parse_agent("greedy", seed=seed).choose(state)
    assert AZUL.format_move(state, move) == "F5 blue 4"
    assert evaluation_after(state, move) == 3  # 1 point now, 2 for the blue tile


def test_greedy_breaks_ties_by_seed():
    state = AZUL.new(3)  # several moves complete a line worth 1 point
    values = {move: evaluation_after(state, move) for move in legal(state)}
    top = max(values.values())
    picks = [parse_agent("greedy", seed=seed).choose(state) for seed in range(20)]
    assert all(values[move] == top for move in picks)
    assert len(set(picks)) > 1
    assert parse_agent("greedy", seed=4).choose(state) == picks[4]


def test_random_agent_is_seeded_and_legal():
    state = AZUL.new(5)
    picks = [parse_agent("random", seed=seed).choose(state) for seed in range(10)]
    assert set(picks) <= set(legal(state)) and len(set(picks)) > 1
    assert parse_agent("random", seed=2).choose(state) == picks[2]


def test_alphabeta_agent_finds_the_best_move():
    state = position(LATE_POSITION)
    move = parse_agent("alphabeta:depth=4").choose(state)
    assert AZUL.format_move(state, move) == "C blue 4"


def test_mcts_agent_keeps_its_tree_through_observed_moves():
    state = position(LATE_POSITION)  # few enough moves that every reply is visited
    agent = parse_agent("mcts:iters=2000", seed=1)
    mine = agent.choose(state)
    agent.observe(mine)
    games.apply_move(state, mine)
    reply = legal(state)[0]
    agent.observe(reply)
    games.apply_move(state, reply)
    assert agent.mcts.search(state).reused_visits > 0


# ---- games ---------------------------------------------------------------------------


def test_play_game_is_reproducible():
    def game():
        agents = [parse_agent("greedy", seed=1), parse_agent("random", seed=2)]
        return play_game(AZUL, {"players": 2}, agents, seed=11)

    record = game()
    assert record == game()
    assert record.agents == ["greedy", "random"] and record.seed == 11
    assert sum(record.payoffs) == pytest.approx(1.0) and len(record.scores) == 2
    assert {player for player, _ in record.moves} == {0, 1}


def test_play_game_replays_from_its_record():
    from tessera.kernels.rng import CHANCE_SALT, make_rng

    agents = [parse_agent("random", seed=s) for s in (1, 2, 3)]
    record = play_game(AZUL, {"players": 3}, agents, seed=4)
    state = AZUL.new(4, players=3)
    chance = make_rng(4 ^ CHANCE_SALT)
    for player, move in record.moves:
        while games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, chance)
        assert games.to_move(state) == player
        games.apply_move(state, move)
    assert games.to_move(state) == games.TERMINAL
    scores = np.zeros(3, np.int64)
    games.scores(state, scores)
    assert scores.tolist() == record.scores


def test_play_game_needs_an_agent_per_seat():
    with pytest.raises(OptionError, match="3 seats, not 2"):
        play_game(AZUL, {"players": 3}, [parse_agent("random"), parse_agent("random")], seed=1)


# ---- strength (bench/agent_strength.py records the same figures) ----------------------


def test_greedy_beats_random():
    figures = head_to_head("greedy", "random", games=24)
    assert figures["win_rate"] >= 0.9 and figures["mean_margin"] > 20


@pytest.mark.long  # a match of searches
def test_mcts_beats_greedy():
    figures = head_to_head(MCTS_SPEC, "greedy", games=24)
    assert figures["win_rate"] >= 0.75 and figures["mean_margin"] > 5


def test_a_python_player_in_a_file_that_is_not_python_is_one_line(tmp_path):
    """A file no importer reads (here .txt) is refused like any bad spec, not with a traceback."""
    player = tmp_path / "player.txt"
    player.write_text("def last(position):\n    return position.legal_moves[-1]\n")
    spec = f"python:file={player},function=last"
    with pytest.raises(OptionError) as err:
        parse_agent(spec)
    assert str(err.value) == f"bad agent spec '{spec}': cannot load {player}: not a Python module (a .py file)"
