"""The Azul kernels against an independent plain-Python oracle (tests/oracle/azul_oracle.py).

Seeded random games are played through both at once; at every step the legal move set,
the player to move, the chance probabilities, the decoded position and the scores must
agree, and at the end the payoffs. A few hand-worked tests check the oracle itself
against the rulebook's examples.
"""

import random
import time
from collections import Counter

import numpy as np
import pytest

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    from oracle import azul_oracle as O
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.oracle import azul_oracle as O
import tessera.kernels.azul as K
from tessera.kernels.azul import layout as L
from tests.tiers import fewer

VARIANTS = (L.VARIANT_COLOUR, L.VARIANT_GRAY)
CONFIGS = [(players, variant) for players in (2, 3, 4) for variant in VARIANTS]
CONFIG_IDS = [f"{p}p-{'gray' if v == L.VARIANT_GRAY else 'colour'}" for p, v in CONFIGS]

# Games per configuration: the default run of this file stays under a minute, the quick tier's
# under a few seconds.
FAST_GAMES = {2: fewer(120, 16), 3: fewer(80, 10), 4: fewer(50, 6)}
SLOW_GAMES = 3000


# ---------------------------------------------------------------------------
# Kernel wrappers
# ---------------------------------------------------------------------------
_MOVES = np.zeros(L.MAX_MOVES, dtype=np.int64)
_PROBS = np.zeros(L.MAX_MOVES, dtype=np.float64)


def kernel_moves(state):
    n = K.legal_moves(state, _MOVES)
    return _MOVES[:n].tolist()


def kernel_chance(state):
    n = K.chance_outcomes(state, _MOVES, _PROBS)
    return list(zip(_MOVES[:n].tolist(), _PROBS[:n].tolist()))


def kernel_scores(state):
    out = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    K.scores(state, out)
    return out.tolist()


def kernel_payoffs(state):
    out = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
    K.payoffs(state, out)
    return out.tolist()


def move_name(move):
    if move >= L.CHANCE_MOVE_BASE:
        return f"draw {L.COLOUR_NAMES[move - L.CHANCE_MOVE_BASE]}"
    if move >= L.TILE_MOVE_BASE:
        return f"col {move - L.TILE_MOVE_BASE + 1}"
    source, colour, dest = L.split_draft_move(move)
    src = "C" if source == L.SOURCE_CENTRE else f"F{source + 1}"
    return f"{src} {L.COLOUR_LETTERS[colour]} {'floor' if dest == L.DEST_FLOOR else dest + 1}"


# ---------------------------------------------------------------------------
# Lock-step comparison
# ---------------------------------------------------------------------------
class Mismatch(AssertionError):
    pass


def _at(where):
    return where() if callable(where) else where


def compare(state, o, where):
    """Kernel position ``state`` against oracle position ``o``: decoded form, actor, scores.

    ``where`` (a string or a function giving one) names the step in failure messages.
    """
    try:
        decoded = O.to_canonical(O.from_array(state))
    except O.DecodeError as err:
        raise Mismatch(f"{_at(where)}: kernel state does not decode: {err}") from None
    expected = O.to_canonical(o)
    if decoded != expected:
        diff = "\n  ".join(O.canon_diff(decoded, expected))
        raise Mismatch(f"{_at(where)}: position differs (kernel != oracle):\n  {diff}")
    k_to_move = K.to_move(state)
    if k_to_move != O.to_move(o):
        raise Mismatch(f"{_at(where)}: to_move kernel {k_to_move} != oracle {O.to_move(o)}")
    k_scores = kernel_scores(state)[: o.players]
    if k_scores != O.final_scores(o):
        raise Mismatch(f"{_at(where)}: scores kernel {k_scores} != oracle {O.final_scores(o)}")


def compare_moves(state, o, where):
    """The legal move sets (and, at chance, the probabilities); returns the sorted moves."""
    k_list = kernel_moves(state)
    if len(set(k_list)) != len(k_list):
        raise Mismatch(f"{_at(where)}: kernel lists a move twice: {sorted(k_list)}")
    k_set, o_set = set(k_list), O.legal_moves(o)
    if k_set != o_set:
        only_k = sorted(move_name(m) for m in k_set - o_set)
        only_o = sorted(move_name(m) for m in o_set - k_set)
        raise Mismatch(f"{_at(where)}: legal moves differ; kernel only {only_k}, oracle only {only_o}")
    if O.to_move(o) == O.CHANCE:
        k_probs = kernel_chance(state)
        o_probs = O.chance_probabilities(o)
        if len(k_probs) != len(o_probs) or {m for m, _ in k_probs} != set(o_probs):
            raise Mismatch(f"{_at(where)}: chance outcomes kernel {k_probs} != oracle {o_probs}")
        for m, p in k_probs:
            if abs(p - o_probs[m]) > 1e-12:
                raise Mismatch(f"{_at(where)}: P({move_name(m)}) kernel {p} != oracle {o_probs[m]}")
    else:
        n = K.chance_outcomes(state, _MOVES, _PROBS)
        if n != 0:
            raise Mismatch(f"{_at(where)}: chance_outcomes gives {n} outcomes at a player's turn")
    return sorted(o_set)


def compare_end(state, o, where):
    k_pay = kernel_payoffs(state)
    o_pay = O.payoffs(o) + [0.0] * (L.MAX_PLAYERS - o.players)
    if any(abs(a - b) > 1e-12 for a, b in zip(k_pay, o_pay)):
        raise Mismatch(
            f"{_at(where)}: payoffs kernel {k_pay} != oracle {o_pay} "
            f"(scores {O.final_scores(o)}, rows "
            f"{[b.complete_rows() for b in o.boards]})"
        )


def hoarding_filter(o, moves):
    """Draft moves that do not touch a line whose wall row already holds 4 tiles."""
    board = o.boards[o.actor]
    keep = []
    for m in moves:
        if m < L.TILE_MOVE_BASE and m % L.NDESTS != L.DEST_FLOOR:
            row = m % L.NDESTS
            if sum(cell is not None for cell in board.wall[row]) == 4:
                continue
        keep.append(m)
    return keep


def play_lockstep(state, o, rng, floor_bias=0.0, script=(), label="", max_steps=3000, hoard_until=0):
    """Play kernel ``state`` (in place) and oracle ``o`` together until the game ends.

    Moves come from ``script`` first, then from ``rng``: chance with its probabilities,
    players uniformly, except that with probability ``floor_bias`` a player avoids the
    floor when a line is possible (random play otherwise floods the floor and games
    drag on), and before round ``hoard_until`` nobody completes a wall row, so that
    tiles pile up on the walls and the bag and lid run dry. Raises ``Mismatch`` with a
    reproduction on the first disagreement. Returns the oracle's last position (not over
    when the step cap stopped the game).
    """
    history = []
    script = list(script)

    def where():
        recent = ", ".join(move_name(m) for m in history[-12:])
        return f"{label} step {len(history)} after [{recent}]"

    compare(state, o, where)
    for _ in range(max_steps):
        before = state.copy()
        try:
            moves = compare_moves(state, o, where)
            if O.to_move(o) == O.TERMINAL:
                compare_end(state, o, where)
                return o
            if script:
                move = script.pop(0)
            elif O.to_move(o) == O.CHANCE:
                probs = O.chance_probabilities(o)
                move = rng.choices(moves, [probs[m] for m in moves])[0]
            else:
                choice = moves
                if o.round < hoard_until:
                    choice = hoarding_filter(o, moves)
                if floor_bias and rng.random() < floor_bias:
                    choice = [m for m in choice if m >= L.TILE_MOVE_BASE or m % L.NDESTS != L.DEST_FLOOR] or choice
                move = rng.choice(choice)
            K.apply_move(state, move)
            o = O.apply(o, move, check=False)
            history.append(move)
            compare(state, o, lambda move=move: f"{where()}: after {move_name(move)} ({move})")
        except Mismatch as err:
            raise Mismatch(
                f"{err}\n  move history: {history}\n  kernel state before the last step: {before.tolist()}"
            ) from None
    return o  # no end within the step cap (both sides agreed all along)


def run_games(players, variant, seeds, events=None):
    """Play seeded games in lock-step; return the failure reports (one per bad game)."""
    failures = []
    O.EVENTS = events
    try:
        for seed in seeds:
            rng = random.Random(seed * 1000 + players * 10 + variant)
            floor_bias = rng.choice((0.0, 0.5, 0.9, 1.0))
            # one game in four hoards tiles on the walls for a while (bag and lid run dry)
            hoard_until = rng.choice((0, 0, 0, rng.randint(6, 16)))
            state = K.new_game(players, variant)
            o = O.new_game(players, variant)
            label = f"[{players}p variant {variant} seed {seed}]"
            try:
                final = play_lockstep(state, o, rng, floor_bias, label=label, hoard_until=hoard_until)
            except Mismatch as err:
                failures.append(str(err))
                continue
            if events is not None:
                events["games"] += 1
                if final.phase != O.OVER:
                    events["no end within the step cap"] += 1
                    continue
                keys = [(b.score, b.complete_rows()) for b in final.boards]
                top = max(k[0] for k in keys)
                tied = [k for k in keys if k[0] == top]
                if len(tied) > 1:
                    events["tie on score" + (" broken by rows" if len({k[1] for k in tied}) > 1 else " shared")] += 1
    finally:
        O.EVENTS = None
    return failures


def _report(failures):
    head = "\n\n".join(failures[:3])
    return f"{len(failures)} game(s) disagree; first ones:\n\n{head}"


# ---------------------------------------------------------------------------
# Oracle against the rulebook (hand-worked)
# ---------------------------------------------------------------------------
def _empty_wall():
    return [[None] * 5 for _ in range(5)]


def test_oracle_wall_colours_match_rulings():
    # rulings.md: row r, column c holds [blue, yellow, red, black, white][(c - r) mod 5]
    for r in range(5):
        for c in range(5):
            colour = (c - r) % 5
            assert O.colour_wall_column(colour, r) == c
    assert [O.colour_wall_column(c, 1) for c in range(5)] == [1, 2, 3, 4, 0]  # W B Y R K


def test_oracle_wall_points_rulebook_examples():
    wall = _empty_wall()
    wall[2][2] = 0
    assert O.wall_points(wall, 2, 2) == 1  # alone: 1
    wall = _empty_wall()
    wall[2][0] = wall[2][1] = wall[2][2] = 0
    assert O.wall_points(wall, 2, 2) == 3  # 2 to its left: 3
    wall[1][2] = 0
    wall[2][2] = 0
    assert O.wall_points(wall, 2, 2) == 5  # 2 left, 1 above: 3 + 2
    wall = _empty_wall()
    wall[1][1] = wall[2][0] = wall[2][1] = 0
    assert O.wall_points(wall, 2, 1) == 4  # 1 above, 1 left: 2 + 2
    wall = _empty_wall()
    wall[2][0] = wall[2][1] = wall[2][3] = wall[2][4] = 0  # gap filled: whole row of 5
    wall[2][2] = 0
    assert O.wall_points(wall, 2, 2) == 5
    wall = _empty_wall()
    wall[0][0] = wall[2][1] = 0  # diagonal / not linked
    wall[1][0] = 0
    assert O.wall_points(wall, 1, 0) == 2


def test_oracle_floor_penalties():
    board = O.Board.empty()
    assert O.floor_penalty(board) == 0
    board.floor = [0, 1, 2]
    assert O.floor_penalty(board) == 4  # 3 floor tiles cost 4
    board.floor = [0] * 7
    assert O.floor_penalty(board) == 14  # a full floor costs 14
    board.floor = [O.MARKER] + [0] * 7  # marker on a full floor: no more
    assert O.floor_penalty(board) == 14
    for n in range(8):
        board.floor = [O.MARKER] + [1] * (n - 1) if n else []
        assert O.floor_penalty(board) == L.FLOOR_PENALTY[n]


def test_oracle_end_bonus_21():
    # 2 complete rows, 1 complete column, 1 complete colour: 2 + 2 + 7 + 10 = 21
    board = O.Board.empty()
    for r in (0, 1):
        for colour in range(5):
            board.wall[r][O.colour_wall_column(colour, r)] = colour
    for r in (2, 3, 4):
        board.wall[r][0] = (0 - r) % 5
    for r in (2, 3):
        board.wall[r][O.colour_wall_column(1, r)] = 1  # yellow now on all five rows
    assert board.complete_rows() == 2
    assert board.complete_columns() == 1
    assert board.complete_colours() == 1
    assert O.end_bonus(board) == 21


def test_oracle_draft_overflow_marker_and_clamp():
    s = O.new_game(2)
    s.phase, s.actor = O.DRAFT, 0
    s.bag = [20, 20, 20, 20, 20]
    s.factories[0] = [0, 0, 0, 0, 0]
    s.factories[1] = [3, 1, 0, 0, 0]
    s.centre = [5, 0, 0, 0, 0]
    s.bag[0] -= 8
    s.bag[1] -= 1
    # player 0 takes 5 blue from the centre to line 2 (holds 2): marker + 3 blue on the floor
    t = O.apply(s, O.draft_move(L.SOURCE_CENTRE, 0, 1))
    b = t.boards[0]
    assert b.lines[1] == (0, 2) and sorted(map(str, b.floor)) == ["0", "0", "0", "M"]
    assert not t.centre_marker and t.actor == 1
    # player 1 takes 3 blue from factory 2 onto the floor; the yellow goes to the centre
    t = O.apply(t, O.draft_move(1, 0, L.DEST_FLOOR))
    assert t.centre == [0, 1, 0, 0, 0] and t.boards[1].floor == [0, 0, 0]
    # player 0 takes the last yellow to line 1; the round ends: line 2 and line 1 tile
    t = O.apply(t, O.draft_move(L.SOURCE_CENTRE, 1, 0))
    b0, b1 = t.boards
    assert b0.wall[1][O.colour_wall_column(0, 1)] == 0 and b0.wall[0][1] == 1
    # line 1: yellow at (0,1) alone scores 1; line 2: blue at (1,1) under it scores 2
    # then the floor (marker + 3 tiles, 4 spaces) costs 6: 3 - 6 clamps at 0
    assert b0.score == 0 and b1.score == 0
    assert t.phase == O.REFILL and t.starter == 0 and t.round == 2 and t.centre_marker
    assert t.lid[0] == 1 + 3 + 3  # line 2 rest + both floors


def test_oracle_gray_forced_blocked_and_chosen_columns():
    s = O.new_game(2, O.GRAY_VARIANT)
    s.phase, s.actor = O.DRAFT, 1
    b = s.boards[0]
    b.score = 10
    b.wall[0] = [None, 1, 2, 3, 4]  # row 0: Y R K W in columns 2-5
    b.wall[2] = [None, 2, 3, 0, None]  # row 2: R K B in columns 2-4
    b.wall[3][0] = 4  # white in column 1 (row 4)
    b.lines[0] = (0, 1)  # full blue line 1: only column 1 is free -> forced
    b.lines[2] = (4, 3)  # full white line 3: columns 1 and 5 both hold white
    s.boards[1].lines[0] = (1, 1)  # player 2: full yellow line 1, empty wall -> a choice
    s.factories = [[0] * 5 for _ in range(5)]
    s.factories[0] = [0, 0, 0, 1, 0]
    s.bag = [20] * 5
    t = O.apply(s, O.draft_move(0, 3, L.DEST_FLOOR))  # player 2 takes the last tile: round over
    b = t.boards[0]
    assert b.wall[0][0] == 0 and b.score == 10 + 5  # forced: placed without a move, row of 5
    assert b.lines[2] == (None, 0) and b.floor == [4, 4, 4]  # no legal column: line to floor
    assert t.phase == O.TILING and O.to_move(t) == 1
    assert O.legal_moves(t) == {L.TILE_MOVE_BASE + c for c in range(5)}
    t = O.apply(t, L.TILE_MOVE_BASE + 3)
    assert t.boards[1].wall[0][3] == 1
    assert t.phase == O.OVER  # player 1 completed row 1
    # player 1: 15 - 4 (3 floor tiles) + 2 (one row); player 2: 1 - 1 (black on floor)
    assert O.final_scores(t) == [13, 0]
    assert O.payoffs(t) == [1.0, 0.0]
    assert t.lid[4] == 3 and t.lid[3] == 1


def test_oracle_tie_break_by_rows_then_shared():
    s = O.new_game(3)
    s.phase, s.actor = O.OVER, O.TERMINAL
    for p, score in enumerate((20, 20, 20)):
        s.boards[p].score = score
    s.boards[1].wall[4] = [0, 1, 2, 3, 4]
    assert O.payoffs(s) == [0.0, 1.0, 0.0]
    s.boards[2].wall[3] = [0, 1, 2, 3, 4]
    assert O.payoffs(s) == [0.0, 0.5, 0.5]
    s.boards[0].score = 21
    assert O.payoffs(s) == [1.0, 0.0, 0.0]


def test_oracle_refill_lid_and_stop():
    s = O.new_game(2)
    s.bag = [0, 0, 0, 0, 0]
    s.lid = [1, 0, 2, 0, 0]
    assert O.chance_probabilities(s) == {400: 1 / 3, 402: 2 / 3}
    t = O.apply(s, 402)  # the lid goes into the bag, then a red is drawn
    assert t.bag == [1, 0, 1, 0, 0] and t.lid == [0] * 5 and t.factories[0] == [0, 0, 1, 0, 0]
    t = O.apply(O.apply(t, 400), 402)  # bag and lid now empty: the refill stops
    assert t.phase == O.DRAFT and t.factories[0] == [1, 0, 2, 0, 0]
    assert O.to_move(t) == t.starter == 0


def test_oracle_random_games_keep_100_tiles():
    for seed in range(12):
        rng = random.Random(seed)
        s = O.new_game(2 + seed % 3, seed % 2)
        while O.to_move(s) != O.TERMINAL:
            moves = sorted(O.legal_moves(s))
            if O.to_move(s) == O.CHANCE:
                probs = O.chance_probabilities(s)
                assert abs(sum(probs.values()) - 1) < 1e-12
                move = rng.choices(moves, [probs[m] for m in moves])[0]
            else:
                move = rng.choice(moves)
            s = O.apply(s, move)
            assert s.total_tiles() == 100
            assert O.to_canonical(O.from_array(O.to_array(s))) == O.to_canonical(s)


# ---------------------------------------------------------------------------
# Kernel against oracle
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,variant", CONFIGS, ids=CONFIG_IDS)
def test_kernel_matches_oracle(players, variant):
    failures = run_games(players, variant, range(FAST_GAMES[players]))
    assert not failures, _report(failures)


@pytest.mark.slow
@pytest.mark.parametrize("players,variant", CONFIGS, ids=CONFIG_IDS)
def test_kernel_matches_oracle_long(players, variant):
    events = Counter()
    start = time.time()
    failures = run_games(players, variant, range(10_000, 10_000 + SLOW_GAMES), events)
    print(
        f"\n{players}p variant {variant}: {events['games']} games in {time.time() - start:.0f}s;"
        f" events {dict(sorted(events.items()))}"
    )
    assert not failures, _report(failures)


def test_kernel_new_game_is_the_oracle_start():
    for players in (2, 3, 4):
        for variant in VARIANTS:
            compare(K.new_game(players, variant), O.new_game(players, variant), "new game")


# ---------------------------------------------------------------------------
# Scripted and constructed positions for rules random play rarely reaches
# ---------------------------------------------------------------------------
def _draws(*factories):
    """Chance moves filling the factories in order, e.g. _draws("BBBY", "RRRR")."""
    return [L.CHANCE_MOVE_BASE + L.COLOUR_LETTERS.index(ch) for f in factories for ch in f]


def _draft(source, colour, dest):
    src = L.SOURCE_CENTRE if source == "C" else int(source[1:]) - 1
    return L.draft_move(src, L.COLOUR_LETTERS.index(colour), L.DEST_FLOOR if dest == "floor" else dest - 1)


def _play_script(players, variant, script, seed=0):
    """Play ``script`` then random moves in lock-step; return (events, kernel states after the script)."""
    events = Counter()
    O.EVENTS = events
    try:
        state = K.new_game(players, variant)
        o = O.new_game(players, variant)
        after = state.copy()
        # the script alone first (rng unused), then the same from the start to the end
        play_lockstep(after, o, random.Random(seed), script=script, max_steps=len(script), label="[script]")
        events.clear()
        play_lockstep(
            state,
            O.new_game(players, variant),
            random.Random(seed),
            floor_bias=0.9,
            script=script,
            label=f"[script seed {seed}]",
        )
    finally:
        O.EVENTS = None
    return events, after


@pytest.mark.parametrize("variant", VARIANTS)
def test_untouched_centre_keeps_the_starter(variant):
    round1 = _draws("BBBY", "RRRR", "KKKK", "WWWW", "BBBB") + [
        _draft("F1", "B", "floor"),
        _draft("C", "Y", 2),  # player 2 takes the marker
        _draft("F2", "R", "floor"),
        _draft("F3", "K", "floor"),
        _draft("F4", "W", "floor"),
        _draft("F5", "B", "floor"),
    ]
    round2 = _draws("BBBB", "YYYY", "RRRR", "KKKK", "WWWW") + [  # every pick empties its factory
        _draft("F1", "B", "floor"),
        _draft("F2", "Y", "floor"),
        _draft("F3", "R", "floor"),
        _draft("F4", "K", "floor"),
        _draft("F5", "W", "floor"),
    ]
    for seed in range(5):
        events, after = _play_script(2, variant, round1 + round2, seed)
        assert events["untouched centre"] >= 1
    assert after[L.W_PHASE] == L.PHASE_REFILL and after[L.W_ROUND] == 3
    assert after[L.W_STARTER] == 1  # player 2 starts again
    assert after[L.W_CENTRE] & L.MARKER_BIT


@pytest.mark.parametrize("variant", VARIANTS)
def test_marker_onto_a_full_floor(variant):
    script = _draws("BBBB", "BBBB", "YYYR", "KKKK", "WWWW") + [
        _draft("F4", "K", "floor"),
        _draft("F1", "B", "floor"),
        _draft("F5", "W", "floor"),
        _draft("F2", "B", "floor"),  # player 2: 7 on the floor
        _draft("F3", "Y", 4),
        _draft("C", "R", 2),
    ]  # player 2 takes the marker
    for seed in range(5):
        events, after = _play_script(2, variant, script[:-1], seed)
        o = O.from_array(after)
        assert len(o.boards[1].floor) == 7 and o.centre_marker
        events, after = _play_script(2, variant, script, seed)
    assert after[L.W_STARTER] == 1 and after[L.W_ROUND] == 2  # the marker still decides
    assert kernel_scores(after)[:2] == [0, 0]  # -14 each, clamped at 0


def _empty_table_position(variant):
    """4 players, bag and lid empty, 99 tiles on walls and lines, 1 blue in the centre.

    Every wall row lacks one tile, so no row is complete. Player 1's wall lacks yellow in
    rows 1-4 and red in row 5: column 1 and the colours blue, black and white are
    complete (end bonus 7 + 3 * 10). Player p > 1 lacks colour (r + p) mod 5 in row r.
    Player 2 is to move and can only take the blue to line 5 (holding 2 blue) or to the
    floor; to line 5, nothing is full, the round ends and the refill finds no tile.
    """
    s = O.new_game(4, variant)
    s.phase, s.actor, s.round, s.starter = O.DRAFT, 1, 9, 0
    s.bag = [0] * 5
    missing = {0: [1, 1, 1, 1, 2]}
    for p, board in enumerate(s.boards):
        board.score = 10 * (p + 1)
        for r in range(5):
            lacks = missing[p][r] if p in missing else (r + p) % 5
            for colour in range(5):
                if colour != lacks:
                    board.wall[r][O.colour_wall_column(colour, r)] = colour
    b0, b1, b2, b3 = s.boards
    b0.lines = [(None, 0), (1, 1), (1, 2), (1, 3), (2, 4)]
    b1.lines[2], b1.lines[3], b1.lines[4] = (3, 2), (4, 3), (0, 2)
    b2.lines[1], b2.lines[4] = (3, 1), (1, 1)
    s.centre = [1, 0, 0, 0, 0]
    assert s.total_tiles() == 100 and not any(b.complete_rows() for b in s.boards)
    assert b0.complete_columns() == 1 and b0.complete_colours() == 3
    return s


@pytest.mark.parametrize("variant", VARIANTS)
def test_empty_table_ends_the_game(variant):
    o = _empty_table_position(variant)
    assert O.legal_moves(o) == {_draft("C", "B", 5), _draft("C", "B", "floor")}
    end = O.apply(o, _draft("C", "B", 5))
    # docs: the game ends there "and is scored as usual" (read: with the end bonuses)
    assert end.phase == O.OVER and O.final_scores(end) == [10 + 37, 20 - 1, 30, 40]
    assert O.payoffs(end) == [1.0, 0.0, 0.0, 0.0]
    for seed in range(10):
        state = O.to_array(o)
        play_lockstep(
            state,
            o,
            random.Random(seed),
            label=f"[empty table seed {seed}]",
            script=[_draft("C", "B", 5)] if seed == 0 else [],
        )
        if seed == 0:
            assert K.to_move(state) == O.TERMINAL


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_when_the_bag_runs_dry(variant):
    """Tiles hoarded on 4 player walls: the lid refills the bag, then both run out."""
    events = Counter()
    O.EVENTS = events
    failures = []
    try:
        for seed in range(8):
            rng = random.Random(seed)
            try:
                play_lockstep(
                    K.new_game(4, variant),
                    O.new_game(4, variant),
                    rng,
                    floor_bias=1.0,
                    hoard_until=12,
                    label=f"[hoard 4p variant {variant} seed {seed}]",
                )
            except Mismatch as err:
                failures.append(str(err))
    finally:
        O.EVENTS = None
    assert not failures, _report(failures)
    assert events["lid into bag"] and events["refill stopped short"]
