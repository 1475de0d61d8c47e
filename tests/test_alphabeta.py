"""Alpha-beta and exact solving (docs/search-alphabeta.md).

Alpha-beta is checked against a plain minimax written here in Python over the
game interface, on late-round positions of seeded random games: 2 and 3 players,
colour and gray wall (where wall-tiling makes one player move several times in a
row). Then: a small transposition table proves the same values, proven values at
the game's end replay to the final scores, and a final round worked by hand.
"""

import random
import time

import numpy as np
import pytest

from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.azul.layout import W_CENTRE, W_FACTORY, W_PLAYERS, W_ROUND
from tessera.kernels.azul.tiles import total
from tessera.kernels.rng import make_rng
from tessera.kernels.search import alphabeta_layout as kernel
from tessera.kernels.search import ttable
from tessera.search.alphabeta import search_alphabeta, solve

AZUL = get_game("azul")
LETTERS = "BYRKW"


# ---- positions ---------------------------------------------------------------------


def table_tiles(state):
    factories = range(2 * int(state[W_PLAYERS]) + 1)
    return int(total(state[W_CENTRE])) + sum(int(total(state[W_FACTORY + f])) for f in factories)


def late_in_round(seed, players, variant, tiles, last_round):
    """The first position of a round with at most ``tiles`` left on the table.

    The game is seeded and random; the round is its first or its last (the game
    ends in it under the random play).
    """
    state = AZUL.new(seed, players=players, variant=variant)
    pick, chance = random.Random(seed), make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    first_by_round = {}
    while games.to_move(state) != games.TERMINAL:
        if games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, chance)
            continue
        if 0 < table_tiles(state) <= tiles:
            first_by_round.setdefault(int(state[W_ROUND]), state.copy())
        games.apply_move(state, moves[pick.randrange(games.legal_moves(state, moves))])
    return first_by_round[max(first_by_round) if last_round else min(first_by_round)]


def hand_position(factories, centre, boards, round_=4):
    """A colour-wall draft position, player 1 to move; the bag holds the tiles not shown.

    Walls may write ``x`` for a tile (its colour is where the colour wall prints it).
    """
    used = dict.fromkeys(LETTERS, 0)
    for text in factories + [centre] + [b["lines"] + b["floor"] for b in boards]:
        for ch in text:
            if ch in used:
                used[ch] += 1
    for b in boards:
        for row, cells in enumerate(b["wall"].split("/")):
            for col, cell in enumerate(cells):
                if cell != ".":
                    used[LETTERS[(col - row) % 5] if cell == "x" else cell] += 1
    bag = "/".join(str(20 - used[c]) for c in LETTERS)
    text = (
        f"azul players {len(boards)} wall colour round {round_} phase draft turn 1 starter 1;"
        f" factories {' '.join(factories)}; centre {centre}; bag {bag}; lid 0/0/0/0/0"
    )
    for number, b in enumerate(boards, 1):
        text += f"; player {number} score {b['score']} wall {b['wall']} lines {b['lines']} floor {b['floor']}"
    return AZUL.parse_position(text)


# ---- a plain minimax, the reference --------------------------------------------------


def margin(values, root):
    return values[root] - max(v for p, v in enumerate(values) if p != root)


def minimax(state, root, depth, seen=None):
    """The value alpha-beta should find: documented in kernels/search/alphabeta.py.

    ``seen["repeat"]``, when given, counts moves after which the same player is to
    move again.
    """
    who = games.to_move(state)
    values = np.zeros(games.players(state))
    if who == games.CHANCE or who == games.TERMINAL:
        games.scores(state, values)
        value = kernel.SCALE * margin(values, root)
        if who == games.TERMINAL:
            games.payoffs(state, values)
            value += 1 if values[root] == 1 else -1 if values[root] == 0 else 0
        return value
    if depth == 0:
        games.evaluate(state, values)
        return kernel.SCALE * margin(values, root)
    moves = np.empty(games.MAX_MOVES, np.int64)
    child_values = []
    for move in moves[: games.legal_moves(state, moves)]:
        child = state.copy()
        games.apply_move(child, move)
        if seen is not None:
            seen["repeat"] += games.to_move(child) == who
        child_values.append(minimax(child, root, depth - 1, seen))
    return max(child_values) if who == root else min(child_values)


def kernel_values(state, depth):
    """Per root move (engine order): the values and proven flags of an iterative deepening."""
    table, counters = ttable.new_table(16), kernel.new_counters()
    search = bind.instance(state[0], "alphabeta")
    work = search.new_work(state, 64)
    values = np.zeros(games.MAX_MOVES)
    nodes = np.zeros(games.MAX_MOVES, np.int64)
    proven = np.zeros(games.MAX_MOVES, np.bool_)
    for d in range(1, depth + 1):
        n = search.search_root(state, d, work, table, counters, kernel.new_limits(), values, nodes, proven)
    return values[:n].copy(), proven[:n].copy()


def root_children(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    children = []
    for move in moves[: games.legal_moves(state, moves)]:
        child = state.copy()
        games.apply_move(child, move)
        children.append(child)
    return children


FULL_DEPTH = 40  # deeper than any of these rounds: the searches reach the horizon
# (seed, players, variant, tiles on the table, last round): small trees, several moves.
SMALL_TREES = [
    (0, 2, "colour", 8, False),
    (3, 2, "colour", 6, True),
    (11, 2, "colour", 6, True),
    (0, 2, "gray", 6, False),
    (6, 2, "gray", 6, True),
    (4, 2, "gray", 7, True),
    (0, 3, "colour", 5, False),
    (2, 3, "colour", 7, True),
    (1, 3, "gray", 5, False),
    (0, 3, "gray", 6, True),
    (10, 3, "gray", 7, True),
]


@pytest.mark.parametrize("seed, players, variant, tiles, last_round", SMALL_TREES)
def test_alphabeta_equals_minimax(seed, players, variant, tiles, last_round):
    state = late_in_round(seed, players, variant, tiles, last_round)
    root = games.to_move(state)
    for depth in (1, 2, 3, FULL_DEPTH):
        values, _ = kernel_values(state, depth)
        expected = [minimax(child, root, depth - 1) for child in root_children(state)]
        assert values.tolist() == expected, f"depth {depth}"


def test_gray_wall_trees_have_a_player_moving_twice():
    seen = {"repeat": 0}
    state = late_in_round(6, 2, "gray", 6, True)
    for child in root_children(state):
        minimax(child, games.to_move(state), FULL_DEPTH, seen)
    assert seen["repeat"] > 0


def test_unlimited_depth_is_proven_and_depth_one_is_not():
    state = late_in_round(0, 2, "colour", 5, False)
    _, proven = kernel_values(state, 1)
    assert not proven.all()
    _, proven = kernel_values(state, FULL_DEPTH)
    assert proven.all()


# ---- the transposition table -------------------------------------------------------


def exact_by_move(result):
    return {line.move: (line.exact.margin, line.exact.horizon, line.exact.result) for line in result.moves}


@pytest.mark.parametrize(
    "seed, players, variant, tiles, last_round",
    [
        (3, 2, "colour", 8, True),
        (5, 2, "gray", 7, False),
        (3, 3, "colour", 6, True),
    ],
)
def test_table_never_changes_a_proven_value(seed, players, variant, tiles, last_round):
    state = late_in_round(seed, players, variant, tiles, last_round)
    large = solve(state, tt_bits=20)
    assert large.exact is not None
    for bits in (1, 6):
        assert exact_by_move(solve(state, tt_bits=bits)) == exact_by_move(large)
    # Deepening step by step reuses entries of every depth: still the same values.
    assert exact_by_move(search_alphabeta(state, tt_bits=20)) == exact_by_move(large)


def test_table_keeps_deep_entries_and_the_newest():
    table = ttable.new_table(1)
    ttable.store(table, 10, 1.0, ttable.EXACT, ttable.PROVEN, 7)
    ttable.store(table, 12, 2.0, ttable.LOWER, 3, 8)
    ttable.store(table, 14, 3.0, ttable.UPPER, 2, 9)
    assert table[1][ttable.probe(table, 10)] == 1.0  # proven: kept in slot A
    assert ttable.probe(table, 12) == -1  # shallow: pushed out of slot B
    assert table[4][ttable.probe(table, 14)] == 9
    ttable.store(table, 16, 4.0, ttable.EXACT, ttable.PROVEN, 5)
    assert table[1][ttable.probe(table, 16)] == 4.0  # as deep: takes A
    assert table[1][ttable.probe(table, 10)] == 1.0  # and the old A moves to B


# ---- results -------------------------------------------------------------------------


def replay(state, pv):
    end = state.copy()
    for move in pv:
        games.apply_move(end, move)
    return end


@pytest.mark.parametrize(
    "seed, players, variant, tiles",
    [
        (1, 2, "colour", 7),
        (3, 2, "colour", 7),
        (1, 3, "colour", 6),
        (6, 2, "gray", 6),
    ],
)
def test_exact_game_value_replays_to_the_final_scores(seed, players, variant, tiles):
    state = late_in_round(seed, players, variant, tiles, True)
    root = games.to_move(state)
    result = solve(state)
    assert result.exact is not None
    game_lines = [line for line in result.moves if line.exact.horizon == "game"]
    assert game_lines
    for line in game_lines:
        end = replay(state, line.pv)
        assert games.to_move(end) == games.TERMINAL
        scores, payoffs = np.zeros(players), np.zeros(players)
        games.scores(end, scores)
        games.payoffs(end, payoffs)
        assert line.exact.margin == margin(scores, root)
        expected = "win" if payoffs[root] == 1 else "loss" if payoffs[root] == 0 else "draw"
        assert line.exact.result == expected
        assert line.win_rate == {"win": 1.0, "draw": 0.5, "loss": 0.0}[expected]


def test_round_horizon_replays_to_the_refill():
    state = late_in_round(0, 2, "colour", 6, False)
    result = solve(state)
    assert result.exact.horizon == "round" and result.exact.result is None
    for line in result.moves:
        end = replay(state, line.pv)
        assert games.to_move(end) == games.CHANCE
        scores = np.zeros(2)
        games.scores(end, scores)
        assert line.margin == margin(scores, games.to_move(state))
        assert line.win_rate is None


def test_every_root_move_is_listed_best_first():
    state = late_in_round(0, 2, "colour", 8, False)
    result = search_alphabeta(state, depth=2)
    moves = np.empty(games.MAX_MOVES, np.int64)
    n = games.legal_moves(state, moves)
    assert sorted(line.move for line in result.moves) == sorted(moves[:n].tolist())
    margins = [line.margin for line in result.moves]
    assert margins == sorted(margins, reverse=True)
    assert result.margin == margins[0] and result.depth == 2 and result.exact is None
    assert all(line.pv[0] == line.move and line.visits > 0 for line in result.moves)
    assert all(line.lcb is None and line.prior is None for line in result.moves)


def test_identical_factories_give_twin_moves_with_one_value():
    empty = "...../...../...../...../....."
    board = dict(score=0, wall=empty, lines="./../.../..../.....", floor="-")
    state = hand_position(["BBYR", "BBYR", "KKWW", "-", "-"], "1", [board, dict(board)], round_=1)
    result = search_alphabeta(state, depth=3)
    by_text = {AZUL.format_move(state, line.move): line for line in result.moves}
    for dest in ("1", "2", "floor"):
        assert by_text[f"F1 blue {dest}"].margin == by_text[f"F2 blue {dest}"].margin


def test_limits_stop_deepening_but_finish_the_first_iteration():
    state = late_in_round(3, 2, "colour", 10, True)
    calls = []
    result = search_alphabeta(state, node_limit=2000, progress=lambda depth, nodes, s: calls.append(depth))
    assert result.exact is None and 1 <= result.depth < solve(state).depth
    assert calls == list(range(1, result.depth + 1))
    started = time.perf_counter()
    result = search_alphabeta(state, time_limit=0.0)
    assert result.depth == 1 and time.perf_counter() - started < 5


def test_no_search_without_a_player_to_move():
    state = AZUL.new(1)
    pick = random.Random(1)
    moves = np.empty(games.MAX_MOVES, np.int64)
    while games.to_move(state) != games.CHANCE:
        games.apply_move(state, moves[pick.randrange(games.legal_moves(state, moves))])
    with pytest.raises(TesseraError):
        solve(state)


def test_one_compiled_specialisation_of_the_recursion():
    """A second one could not be loaded back from numba's cache (numba issue 6061).

    Only a fresh compile lists signatures; a cache load lists none (and a bad one
    would have crashed before this test).
    """
    solve(late_in_round(1, 2, "colour", 5, True))
    assert len(bind.instance("azul", "alphabeta")._search.signatures) <= 1


# ---- a final round worked by hand ----------------------------------------------------


def test_final_round_worked_by_hand():
    """Player 1 blocks the blues and completes a column; player 2 can only use the floor.

    Player 1 (20 points) has row 1 B Y R K . with a white on line 1, and column 4 full
    but for row 4, whose blue goes there. Player 2 (15 points) has lines 1-3 full and
    lines 4-5 holding yellow and black, so any tiles go to its floor. The table: F1
    BBBB, centre 1RR. Whatever happens the round ends the game (player 1's row 1).

    F1 blue 4: player 1 tiles W (row 1 complete: 5) and B (column 4: 5) = 30, plus
    row 2 and column 7 = 39. Player 2 must take C red to the floor: marker + 2 tiles,
    -4; its three full lines score 1 each: 15 + 3 - 4 = 14. Margin 25.
    Next best, 14: F1 blue 3 (player 1: 20 + 5 + 2 - 1 + 2 = 28), or red from the
    centre to a line (player 1: 20 + 5 - 1 + 2 = 26; player 2 floors 4 blues, -6: 12).
    """
    p1 = dict(score=20, wall="xxxx./...x./...x./...../...x.", lines="W/../.../..../.....", floor="-")
    p2 = dict(score=15, wall="...../...../...../x..../x....", lines="Y/KK/WWW/YYY./KKKK.", floor="-")
    state = hand_position(["BBBB", "-", "-", "-", "-"], "1RR", [p1, p2])
    result = solve(state)
    assert AZUL.format_move(state, result.best.move) == "F1 blue 4"
    assert (result.exact.margin, result.exact.horizon, result.exact.result) == (25, "game", "win")
    assert [AZUL.format_move(state, m) for m in result.best.pv] == ["F1 blue 4", "C red floor"]
    second = {AZUL.format_move(state, line.move) for line in result.moves if line.margin == 14}
    assert second == {"F1 blue 3", "C red 3", "C red 4", "C red 5"}
    assert result.value == 1.0


# ---- speed ---------------------------------------------------------------------------


@pytest.mark.slow
def test_proves_a_two_player_final_round_with_12_tiles_under_10_s():
    from tessera.bench import final_round

    state = final_round(12)
    solve(final_round(8))  # compile or load first
    result = solve(state)
    assert result.exact is not None and result.exact.horizon == "game"
    assert result.seconds < 10
