"""The Summer Pavilion kernels against an independent plain-Python oracle
(tests/oracle/pavilion_oracle.py).

Seeded random games are played through both at once; at every step the legal move
set, the player to move, the chance probabilities, the decoded position and the
scores must agree, and at the end the payoffs. Players follow one of a few random
policies, so that rare rules (a dry bag and tower, a short supply, corner tiles at
the end) come up; the events seen are counted and asserted.
"""

import random
import time
from collections import Counter

import numpy as np
import pytest

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    import test_pavilion_rules as R
    from oracle import pavilion_oracle as O
except ImportError:  # pragma: no cover - when tests/ is a package
    import tests.test_pavilion_rules as R
    from tests.oracle import pavilion_oracle as O
import tessera.kernels.pavilion as K
from tessera.kernels.pavilion import layout as L
from tests.tiers import fewer

# Games per player count: the default run of this file stays under half a minute, the quick
# tier's under a few seconds.
FAST_GAMES = {2: fewer(60, 12), 3: fewer(40, 8), 4: fewer(30, 6)}
SLOW_GAMES = 3000
POLICIES = ("uniform", "eager", "hoarder", "passer")

_MOVES = np.zeros(L.MAX_MOVES, np.int64)
_PROBS = np.zeros(L.MAX_MOVES, np.float64)


class Mismatch(AssertionError):
    pass


def kernel_moves(state):
    n = K.legal_moves(state, _MOVES)
    return _MOVES[:n].tolist()


def kernel_scores(state, players):
    out = np.zeros(L.MAX_PLAYERS, np.int64)
    K.scores(state, out)
    return out.tolist()[:players]


def compare(state, o, where):
    try:
        decoded = O.to_canonical(O.from_array(state))
    except O.DecodeError as err:
        raise Mismatch(f"{where}: kernel state does not decode: {err}") from None
    expected = O.to_canonical(o)
    if decoded != expected:
        raise Mismatch(f"{where}: position differs (kernel != oracle): " + "; ".join(O.canon_diff(decoded, expected)))
    if K.to_move(state) != O.to_move(o):
        raise Mismatch(f"{where}: to_move kernel {K.to_move(state)} != oracle {O.to_move(o)}")
    if kernel_scores(state, o.players) != O.final_scores(o):
        raise Mismatch(f"{where}: scores differ")


def compare_moves(state, o, where):
    listed = kernel_moves(state)
    if len(set(listed)) != len(listed):
        raise Mismatch(f"{where}: the kernel lists a move twice")
    expected = O.legal_moves(o)
    if set(listed) != expected:
        raise Mismatch(
            f"{where}: legal moves differ; kernel only {sorted(set(listed) - expected)},"
            f" oracle only {sorted(expected - set(listed))}"
        )
    if O.to_move(o) == O.CHANCE:
        n = K.chance_outcomes(state, _MOVES, _PROBS)
        got = dict(zip(_MOVES[:n].tolist(), _PROBS[:n].tolist()))
        wanted = O.chance_probabilities(o)
        if got.keys() != wanted.keys() or any(abs(got[m] - wanted[m]) > 1e-12 for m in got):
            raise Mismatch(f"{where}: chance kernel {got} != oracle {wanted}")
    elif K.chance_outcomes(state, _MOVES, _PROBS) != 0:
        raise Mismatch(f"{where}: chance outcomes at a player's turn")
    return sorted(expected)


def choose(o, moves, rng, policy):
    """A player's move under ``policy``.

    uniform: any legal move; eager: place while possible, the cheapest space first
    (boards fill up and the bag and tower run dry); hoarder: draft, then pass at once
    keeping all it may (tiles pile up beside the boards); passer: pass half the time.
    """
    placements = [m for m in moves if L.PLACE_BASE <= m < L.PASS_MOVE]
    if policy == "eager" and placements:
        cheapest = min(L.split_place_move(m)[1] for m in placements)
        return rng.choice([m for m in placements if L.split_place_move(m)[1] == cheapest])
    if policy == "hoarder" and o.phase == O.PLACE:
        return L.PASS_MOVE
    if policy == "hoarder" and o.phase == O.KEEPING:
        return max(moves, key=lambda m: sum(L.choice_counts(m - L.KEEP_BASE)))
    if policy == "passer" and o.phase == O.PLACE and rng.random() < 0.5:
        return L.PASS_MOVE
    return rng.choice(moves)


def play_lockstep(state, o, rng, policies, label, script=()):
    """Play kernel ``state`` (in place) and oracle ``o`` together to the end; returns the
    oracle's last position. Raises ``Mismatch`` with the recent moves on a disagreement."""
    history = []
    script = list(script)
    where = label
    compare(state, o, where)
    while True:
        where = f"{label} step {len(history)} after {history[-8:]}"
        moves = compare_moves(state, o, where)
        if O.to_move(o) == O.TERMINAL:
            pays = np.zeros(L.MAX_PLAYERS, np.float64)
            K.payoffs(state, pays)
            if pays.tolist()[: o.players] != O.payoffs(o):
                raise Mismatch(f"{where}: payoffs differ")
            return o
        if script:
            move = script.pop(0)
        elif O.to_move(o) == O.CHANCE:
            probs = O.chance_probabilities(o)
            move = rng.choices(moves, [probs[m] for m in moves])[0]
        else:
            move = choose(o, moves, rng, policies[o.actor])
        K.apply_move(state, move)
        o = O.apply(o, move, check=False)
        history.append(move)
        compare(state, o, f"{where}: after {move}")


def run_games(players, seeds, events=None):
    """Play seeded games with mixed policies; return the failures."""
    failures = []
    O.EVENTS = events
    try:
        for seed in seeds:
            rng = random.Random(seed * 10 + players)
            policies = [rng.choice(POLICIES) for _ in range(players)]
            label = f"[{players}p seed {seed} {policies}]"
            try:
                final = play_lockstep(K.new_game(players), O.new_game(players), rng, policies, label)
            except Mismatch as err:
                failures.append(str(err))
                continue
            if events is not None:
                events["games"] += 1
                if len(set(O.final_scores(final))) < players:
                    events["tie on score"] += 1
    finally:
        O.EVENTS = None
    return failures


def report(failures):
    return f"{len(failures)} game(s) disagree; first ones:\n\n" + "\n\n".join(failures[:3])


# ---------------------------------------------------------------------------
# Kernel against oracle
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_matches_oracle(players):
    events = Counter()
    failures = run_games(players, range(FAST_GAMES[players]), events)
    assert not failures, report(failures)
    for event in (
        "start-player penalty",
        "wild tiles paid",
        "bonus region completed",
        "tower into bag",
        "corner tiles at the end",
    ):
        assert events[event], f"no game exercised: {event}"


def test_the_bag_and_tower_run_dry():
    """Four eager players fill their boards until a refill finds nothing left to draw."""
    events = Counter()
    O.EVENTS = events
    try:
        for seed in range(6):
            play_lockstep(K.new_game(4), O.new_game(4), random.Random(seed), ["eager"] * 4, f"[eager 4p seed {seed}]")
    finally:
        O.EVENTS = None
    assert events["refill stopped short"]


def _rare_positions():
    """Hand-made positions like those of tests/test_pavilion_rules.py, which random play
    rarely reaches."""
    everything = "".join(letter * L.TILES_PER_COLOUR for letter in L.COLOUR_LETTERS)
    short = R.build_json(supply="YB", boards=[R.player(hand="RRRRRR", R="....R."), R.player()])
    short["bag"], spare = {name: 0 for name in L.COLOUR_NAMES}, short["bag"]
    short["boards"][1]["hand"] = "".join(L.COLOUR_LETTERS[c] * spare[name] for c, name in enumerate(L.COLOUR_NAMES))
    full = {letter: letter * 6 for letter in L.COLOUR_LETTERS}
    full["C"] = L.COLOUR_LETTERS
    return {
        "supply left short": R.position_from_json(short),
        "nothing to draft": R.build(
            players=3,
            round=2,
            supply="PGOY",
            passed=[2, 3],
            turn=1,
            boards=[R.player(hand="R", **full), R.player(kept="B", **full), R.player(**full)],
        ),
        "untouched centre": R.build(
            players=2, phase="draft", starter=2, turn=2, round=2, factories=["PPPG", "-", "-", "-", "-"]
        ),
        "bonus without a choice": R.build(
            supply="BBBBBBBBBB", boards=[R.player(hand="RRRRRR", R="....R."), R.player()]
        ),
        "corner tiles at the end": R.build(
            round=6, passed=[2], turn=1, boards=[R.player(score=2, hand="BBBB"), R.player(score=1, kept="RRRR")]
        ),
        "tower into bag": R.build(
            round=2,
            phase="refill",
            supply=everything[:10],
            tower=everything[18:],
            boards=[R.player(hand=everything[10:14]), R.player(hand=everything[14:18])],
        ),
    }


@pytest.mark.parametrize(
    "event",
    [
        "supply left short",
        "nothing to draft",
        "untouched centre",
        "bonus without a choice",
        "corner tiles at the end",
        "tower into bag",
    ],
)
def test_kernel_matches_oracle_from_rare_positions(event):
    """From each position the two play on together to the end of the game."""
    events = Counter()
    O.EVENTS = events
    try:
        for seed in range(4):
            state = _rare_positions()[event]
            play_lockstep(
                state,
                O.from_array(state),
                random.Random(seed),
                ["uniform", "eager", "passer"][: int(state[L.W_PLAYERS])],
                f"[{event} seed {seed}]",
            )
    finally:
        O.EVENTS = None
    assert events[event]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_matches_oracle_long(players):
    events = Counter()
    start = time.time()
    failures = run_games(players, range(10_000, 10_000 + SLOW_GAMES), events)
    print(f"\n{players}p: {events['games']} games in {time.time() - start:.0f}s; events {dict(sorted(events.items()))}")
    assert not failures, report(failures)


def test_kernel_new_game_is_the_oracle_start():
    for players in (2, 3, 4):
        compare(K.new_game(players), O.new_game(players), f"new {players}p game")


def test_oracle_keeps_132_tiles_and_round_trips_arrays():
    for seed in range(6):
        rng = random.Random(seed)
        s = O.new_game(2 + seed % 3)
        while O.to_move(s) != O.TERMINAL:
            moves = sorted(O.legal_moves(s))
            if O.to_move(s) == O.CHANCE:
                probs = O.chance_probabilities(s)
                move = rng.choices(moves, [probs[m] for m in moves])[0]
            else:
                move = rng.choice(moves)
            s = O.apply(s, move)
            assert s.total_tiles() == [O.TILES_PER_COLOUR] * O.NCOL
            assert O.to_canonical(O.from_array(O.to_array(s))) == O.to_canonical(s)
