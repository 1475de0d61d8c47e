"""``ChanceDraws``: the chance of one game drawn from its seed, step after step, as self-play,
the analysis engine and the web board deal it."""

import pytest

import tessera
from tessera import ChanceDraws, Position


@pytest.mark.parametrize("game, options", [("azul", {"players": 3}), ("pavilion", {}), ("azure", {})])
def test_replaying_a_records_moves_with_its_seeds_draws_gives_its_game(game, options):
    seats = [tessera.parse_agent("greedy", seed=seat) for seat in range(options.get("players", 2))]
    record = tessera.play_game(game, options, seats, seed=21)
    position, draws = Position.new(game, seed=21, **options), ChanceDraws(21)
    for _, move in record.moves:
        position = draws.deal(position.play_codes(move))
    assert position.is_over and position.scores == record.scores


def test_a_resumed_generator_draws_what_the_first_would_have():
    start = tessera.Position.new("azul", seed=4)
    first = ChanceDraws(9)
    second = ChanceDraws.resume(first.state)
    played = start
    while not played.is_chance:
        played = played.play(played.legal_moves[-1])
    assert first.deal(played) == second.deal(played)
    assert first.state == second.state != ChanceDraws(9).state


def test_deal_leaves_a_position_where_a_player_acts():
    start = Position.new("pavilion", seed=2)
    draws = ChanceDraws(3)
    assert draws.deal(start) is start and draws.state == ChanceDraws(3).state


@pytest.mark.parametrize("state", [-1, 2**64, 1.0, True, "7"])
def test_resume_takes_only_a_64_bit_whole_number(state):
    with pytest.raises(ValueError, match="whole number from 0 to 2\\*\\*64 - 1"):
        ChanceDraws.resume(state)


def test_moves_by_code_and_text_agree():
    start = Position.new("azul", seed=8)
    text = start.legal_moves[5]
    code = start.parse_move(text)
    assert start.move_text(code) == text and start.play_codes(code) == start.play(text)
