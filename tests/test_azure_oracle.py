"""The Azure kernels against an independent plain-Python oracle (tests/oracle/azure_oracle.py).

Seeded random games are played through both at once, on the base game, each Gifted
card and Cosmos; at every step the legal move set, the player to move, the chance
probabilities, every dynamic word of the position (everything below
``layout.DYNAMIC_SIZE``) and the scores must agree, and at the end the payoffs.
Players follow one of a few policies so that rare rules come up (beasts changing
hands, the deck running out, the end of the cosmos track, a player who cannot
place); the events seen are counted and asserted.
"""

import random
import time
from collections import Counter

import numpy as np
import pytest

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    import azure_positions as P
    from oracle import azure_oracle as O
except ImportError:  # pragma: no cover - when tests/ is a package
    import tests.azure_positions as P
    from tests.oracle import azure_oracle as O
from tessera.kernels import games
from tessera.kernels.azure import layout as L
from tessera.kernels.azure import realm as R
from tessera.kernels.azure.setup import new_game
from tests.tiers import fewer

CONFIGS = {  # name: (cosmos, gifted card)
    "base": (False, L.GIFTED_NONE),
    "mighty": (False, L.MIGHTY),
    "perceptive": (False, L.PERCEPTIVE),
    "bountiful": (False, L.BOUNTIFUL),
    "favored": (False, L.FAVORED),
    "cosmos": (True, L.GIFTED_NONE),
    "cosmos-bountiful": (True, L.BOUNTIFUL),
}
FAST_GAMES = fewer(50, 25)
SLOW_GAMES = 2000
POLICIES = ("uniform", "greedy", "beasts", "cosmos", "cheap")

# Events each configuration's fast run must exercise (besides those of every game).
EXPECTED = {
    "base": (
        "dragon taken",
        "tiger taken",
        "tortoise taken",
        "bird taken",
        "bird pair returned",
        "win at 25",
        "cannot place",
    ),
    "mighty": ("gifted stone placed", "dragon taken"),
    "perceptive": ("gifted stone placed", "tortoise taken"),
    "bountiful": ("bountiful choice", "bountiful without a choice"),
    "favored": ("favored tie",),
    "cosmos": ("threshold crossed", "threshold crossed back", "cosmos track end"),
    "cosmos-bountiful": ("bountiful choice", "threshold crossed"),
}


class Mismatch(AssertionError):
    pass


_BUF = np.zeros(max(L.MAX_MOVES, 256), np.int64)
_PROBS = np.zeros(max(L.MAX_MOVES, 256), np.float64)


def kernel_moves(state):
    n = games.legal_moves(state, _BUF)
    return _BUF[:n].tolist()


def compare(state, s, realm_words, where):
    diff = O.word_diff(state, s)
    if diff:
        raise Mismatch(f"{where}: position differs: " + "; ".join(diff))
    if not np.array_equal(state[L.DYNAMIC_SIZE :], realm_words):
        raise Mismatch(f"{where}: the kernel changed a realm word")
    if games.to_move(state) != O.to_move(s):
        raise Mismatch(f"{where}: to_move kernel {games.to_move(state)} != oracle {O.to_move(s)}")
    out = np.zeros(8, np.int64)
    games.scores(state, out)
    if out[: L.PLAYERS].tolist() != O.scores(s):
        raise Mismatch(f"{where}: scores kernel {out[:2].tolist()} != oracle {O.scores(s)}")


def compare_moves(state, s, where):
    listed = kernel_moves(state)
    if len(set(listed)) != len(listed):
        raise Mismatch(f"{where}: the kernel lists a move twice: {sorted(listed)}")
    expected = O.legal_moves(s)
    if set(listed) != expected:
        raise Mismatch(
            f"{where}: legal moves differ; kernel only {sorted(set(listed) - expected)},"
            f" oracle only {sorted(expected - set(listed))}"
        )
    n = games.chance_outcomes(state, _BUF, _PROBS)
    got = dict(zip(_BUF[:n].tolist(), _PROBS[:n].tolist()))
    wanted = O.chance_probabilities(s)
    if got.keys() != wanted.keys() or any(abs(got[m] - wanted[m]) > 1e-12 for m in got):
        raise Mismatch(f"{where}: chance kernel {got} != oracle {wanted}")
    return sorted(expected)


def _gain(s, move):
    space = s.realm.cells[move % L.CELLS]
    return space.wisdom + space.cosmos


def choose(s, moves, rng, policy):
    """A player's move under ``policy`` (any move outside the placement phase).

    uniform: any; greedy: the most points; beasts: serpents and the vermillion domain
    first (beasts change hands, the Bird's draws run the deck out); cosmos: cosmos
    steps first (the end of the track); cheap: the cheapest, keeping cards.
    """
    if s.phase != L.PHASE_PLACE or policy == "uniform" or rng.random() < 0.15:
        return rng.choice(moves)
    if policy == "greedy":
        best = max(_gain(s, m) for m in moves)
        return rng.choice([m for m in moves if _gain(s, m) == best])
    if policy == "beasts":

        def liked(m):
            space = s.realm.cells[m % L.CELLS]
            return space.serpent or space.domain == L.VERMILLION

        return rng.choice([m for m in moves if liked(m)] or moves)
    if policy == "cosmos":
        best = max(s.realm.cells[m % L.CELLS].cosmos for m in moves)
        return rng.choice([m for m in moves if s.realm.cells[m % L.CELLS].cosmos == best])
    gifted = [m >= L.GIFTED_BASE for m in moves]
    costs = [O.cost(s, s.turn, m % L.CELLS, g) for m, g in zip(moves, gifted)]
    return rng.choice([m for m, c in zip(moves, costs) if c == min(costs)])


def play_lockstep(state, s, rng, policies, label, script=(), all_stones=True):
    """Play kernel ``state`` (in place) and oracle ``s`` together to the end; return the
    oracle's last position. Raises ``Mismatch`` with the recent moves on a disagreement."""
    realm_words = state[L.DYNAMIC_SIZE :].copy()
    history = []
    script = list(script)
    compare(state, s, realm_words, label)
    while True:
        where = f"{label} step {len(history)} after {history[-8:]}"
        moves = compare_moves(state, s, where)
        if O.to_move(s) == O.TERMINAL:
            pays = np.zeros(8, np.float64)
            games.payoffs(state, pays)
            if pays[: L.PLAYERS].tolist() != O.payoffs(s):
                raise Mismatch(f"{where}: payoffs kernel {pays[:2].tolist()} != {O.payoffs(s)}")
            return s
        if script:
            move = script.pop(0)
        elif O.to_move(s) == O.CHANCE:
            probs = O.chance_probabilities(s)
            move = rng.choices(moves, [probs[m] for m in moves])[0]
        else:
            move = choose(s, moves, rng, policies[O.to_move(s)])
        games.apply_move(state, move)
        s = O.apply(s, move, check=False)
        O.check_invariants(s, all_stones)
        history.append(move)
        compare(state, s, realm_words, f"{where}: after {move}")


def start(config, seed):
    cosmos, gifted = CONFIGS[config]
    rng = random.Random(f"{config} {seed}")
    layout = R.deal_layout(rng, cosmos)
    return new_game(layout, gifted), O.new_game(layout, gifted), rng


def run_games(config, seeds, events):
    failures = []
    O.EVENTS = events
    try:
        for seed in seeds:
            state, s, rng = start(config, seed)
            policies = [rng.choice(POLICIES) for _ in range(L.PLAYERS)]
            if CONFIGS[config][0] and seed % 2:  # Cosmos: someone runs for the end
                policies[rng.randrange(L.PLAYERS)] = "cosmos"
            label = f"[{config} seed {seed} {policies} layout {R.layout_of(state)}]"
            try:
                final = play_lockstep(state, s, rng, policies, label)
            except Mismatch as err:
                failures.append(str(err))
                continue
            events["games"] += 1
            events[f"won by {final.winner}"] += 1
    finally:
        O.EVENTS = None
    return failures


def report(failures):
    return f"{len(failures)} game(s) disagree; first ones:\n\n" + "\n\n".join(failures[:3])


# ---------------------------------------------------------------------------
# Kernel against oracle
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("config", list(CONFIGS))
def test_kernel_matches_oracle(config):
    events = Counter()
    failures = run_games(config, range(FAST_GAMES), events)
    assert not failures, report(failures)
    for event in (
        "dragon claimed",
        "tortoise claimed",
        "bird claimed",
        "bonds reduced a cost",
        "won by 0",
        "won by 1",
    ) + EXPECTED[config]:
        assert events[event], f"no {config} game exercised: {event} ({dict(events)})"


def _rare_positions():
    """Hand-made positions (tests/azure_positions.py) that random play rarely reaches, and
    the first move that makes the event happen."""
    base = R.base_layout(0)
    cosmos = R.Layout(((0, 1, 0), (1, 1, 0), (3, 1, 0), (2, 1, 0)), cosmos=True)
    bird = {0: [(4, 0), (4, 1)], 1: [(5, 0), (5, 2)]}
    return {
        # Freya takes the Bird from Leonie with a two-card deck: the deck is rebuilt.
        "deck rebuilt": (
            P.position(base, stones=bird, holders={"bird": 1}, hands={0: "VVVV", 1: "AWBBBBBBBBBB"}, deck="AW"),
            [P.cell(4, 2)],
        ),
        # ... and with no face-up card left to rebuild it from.
        "deck stays empty": (
            P.position(
                base, stones=bird, holders={"bird": 1}, hands={0: "A" * 12 + "W" * 12 + "V" * 11, 1: "B" * 12}, deck="V"
            ),
            [P.cell(4, 2)],
        ),
        # Freya has one stone in supply and takes the Tortoise with it.
        "tortoise without a stone": (
            P.position(
                base, gifted=L.FAVORED, stones={0: [(2, 1)], 1: [(5, 1)]}, hands={0: "WWW", 1: "VV"}, supply={0: 1}
            ),
            [P.cell(1, 4)],
        ),
        # The Yellow Dragon one step from Freya's end.
        "cosmos track end": (P.position(cosmos, dragon=5, hands={0: "AAAVVV", 1: "AAWW"}), [P.cell(0, 2)]),
    }


@pytest.mark.parametrize("event", ["deck rebuilt", "deck stays empty", "tortoise without a stone", "cosmos track end"])
def test_kernel_matches_oracle_from_rare_positions(event):
    """From each position the two play on together to the end of the game."""
    events = Counter()
    O.EVENTS = events
    try:
        for seed in range(6):
            state, script = _rare_positions()[event]
            play_lockstep(
                state,
                O.from_state(state),
                random.Random(seed),
                [POLICIES[seed % 5], POLICIES[(seed + 2) % 5]],
                f"[{event} seed {seed}]",
                script,
                all_stones=False,
            )
    finally:
        O.EVENTS = None
    assert events[event] >= 6


@pytest.mark.slow
@pytest.mark.parametrize("config", list(CONFIGS))
def test_kernel_matches_oracle_long(config):
    events = Counter()
    began = time.time()
    failures = run_games(config, range(10_000, 10_000 + SLOW_GAMES), events)
    print(f"\n{config}: {events['games']} games in {time.time() - began:.0f}s; events {dict(sorted(events.items()))}")
    assert not failures, report(failures)


def test_kernel_new_game_is_the_oracle_start():
    for config in CONFIGS:
        for seed in range(3):
            state, s, _ = start(config, seed)
            compare(state, s, state[L.DYNAMIC_SIZE :].copy(), f"new {config} game")


def test_oracle_keeps_every_card_and_stone_and_round_trips_arrays():
    for seed, config in enumerate(CONFIGS):
        state, s, rng = start(config, seed)
        while O.to_move(s) != O.TERMINAL:
            moves = sorted(O.legal_moves(s))
            if O.to_move(s) == O.CHANCE:
                probs = O.chance_probabilities(s)
                assert abs(sum(probs.values()) - 1) < 1e-12
                move = rng.choices(moves, [probs[m] for m in moves])[0]
            else:
                move = rng.choice(moves)
            s = O.apply(s, move)
            O.check_invariants(s)
            assert O.to_words(O.from_state(O.to_state(s, state))) == O.to_words(s)
        assert O.payoffs(s) == [1.0 if p == O.winner(s) else 0.0 for p in range(L.PLAYERS)]
