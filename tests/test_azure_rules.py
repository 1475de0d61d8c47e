"""Azure rules worked by hand: the rulebook's examples and the rulings of docs/azure.md.

Every test runs on two engines, the kernels (``tessera.kernels.games``) and the plain-Python
oracle (tests/oracle/azure_oracle.py), on positions built with tests/azure_positions.py
on fixed realms drawn below. Freya is player 0, Leonie player 1 (the rulebook's names).
Cells are (row, col). In a drawn cell, ``A:1W+2*`` reads: azure domain (cost paid in
azure cards), one white qi card, two points, a serpent space; its cost is 1 + 2 = 3.

BASE = realm.base_layout(0): every domain side 1, unturned.

          0         1         2         3         4         5
    0     A:MOUNT   A:1W+1    A:1W+2    W:MOUNT   W:1A+2    W:1A*
    1     A:1B+1    A:+4      A:1V*     W:1V+1    W:1B*     W:+6
    2     A:2V+1    A:1W*     A:+6      W:+4      W:1A+1    W:2B+1
    3     V:1B+2    V:MOUNT   V:+4      B:MOUNT   B:+7      B:1V*
    4     V:1W+1    V:+6      V:1B+1    B:1V+2    B:1W*     B:2A+1
    5     V:1A+1    V:1B*     V:2W+1    B:1A*     B:1V+1    B:+4

ALIGNED = realm.base_layout(12288): the Black mountain is in line with the Azure
mountain (column 0) and with the White mountain (row 3).

          0         1         2         3         4         5
    0     A:MOUNT   A:1W+1    A:1W+2    V:1B+2    V:MOUNT   V:+4
    1     A:1B+1    A:+4      A:1V*     V:1W+1    V:+6      V:1B+1
    2     A:2V+1    A:1W*     A:+6      V:1A+1    V:1B*     V:2W+1
    3     B:MOUNT   B:+7      B:1V*     W:MOUNT   W:1A+2    W:1A*
    4     B:1V+2    B:1W*     B:2A+1    W:1V+1    W:1B*     W:+6
    5     B:1A*     B:1V+1    B:+4      W:+4      W:1A+1    W:2B+1

COSMOS (the stand-in boards, data/azure-cosmos-standin.json): large azure domain
top-left, large vermillion bottom-right, white and black between; ``c1`` is a cosmos
symbol. The track: 13 spaces, the end 6 steps from the middle; each player's
thresholds lie between steps 1|2 and 3|4 on their side.

          0         1         2         3         4         5         6         7
    0     A:MOUNT   A:1W+1    A:c1+1    A:+4      .         .         .         .
    1     A:1V+1    A:1W*     A:+6      A:1Bc1    W:MOUNT   W:1A+2    W:1A*     .
    2     A:c1*     A:2V+1    A:1B+2    A:1W*     W:1V+1    W:1B*     W:+6      .
    3     A:+4      A:1Bc1+1  A:c1+2    A:2W+1    W:+4      W:1A+1    W:2B+1    .
    4     .         B:MOUNT   B:+7      B:1V*     V:MOUNT   V:1A+1    V:c1+1    V:+4
    5     .         B:1V+2    B:1W*     B:2A+1    V:1W+1    V:1A*     V:+6      V:1Bc1
    6     .         B:1A*     B:1V+1    B:+4      V:c1*     V:2W+1    V:1B+2    V:1A*
    7     .         .         .         .         V:+4      V:1Bc1+1  V:c1+2    V:2A+1
"""

import pytest

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    import azure_positions as P
except ImportError:  # pragma: no cover - when tests/ is a package
    import tests.azure_positions as P

from tessera.errors import PositionError
from tessera.kernels.azure import layout as L
from tessera.kernels.azure import realm as R
from tessera.kernels.azure.setup import new_game
from tessera.notation.azure import validate

cell, hand, holder, known, phase = P.cell, P.hand, P.holder, P.known, P.phase
position, score, stones_of, winner = P.position, P.score, P.stones_of, P.winner

BASE = R.base_layout(0)
ALIGNED = R.base_layout(12288)
COSMOS = R.Layout(((L.AZURE, 1, 0), (L.WHITE, 1, 0), (L.BLACK, 1, 0), (L.VERMILLION, 1, 0)), cosmos=True, arrangement=0)
FREYA, LEONIE = 0, 1
A, W, V, B = L.AZURE, L.WHITE, L.VERMILLION, L.BLACK

ENGINES = [P.ORACLE, P.KERNEL]


@pytest.fixture(params=ENGINES, ids=lambda e: e.name)
def E(request):
    return request.param


def gifted(row, col):
    return L.GIFTED_BASE + cell(row, col)


def places(E, state):
    """The (row, col) of the legal common-stone moves."""
    return sorted(divmod(m, L.GRID) for m in E.legal(state) if m < L.GIFTED_BASE)


def word(state, w):
    return int(state[w])


def supply(state, p):
    return P.pw(state, p, L.P_SUPPLY)


def draw_all(E, state, *colours):
    """Play chance: the hidden deck gives these colours, in order."""
    for colour in colours:
        assert E.to_move(state) == -1, "not a chance node"
        state = E.play(state, L.DRAW_BASE + colour)
    return state


def _rows(text):
    """Cell tokens per grid row of a drawing, trailing cells outside the realm dropped."""
    rows = []
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) > 1 and tokens[0].isdigit() and ":" in line:
            while tokens[-1] == ".":
                tokens.pop()
            rows.append(tokens[1:])
    return rows


def test_the_realms_drawn_above():
    drawn = _rows(__doc__)
    assert drawn == _rows(P.draw(BASE)) + _rows(P.draw(ALIGNED)) + _rows(P.draw(COSMOS))
    assert len(drawn) == 6 + 6 + 8


# ---- setup ---------------------------------------------------------------------------


def test_setup_start_player_draws_two_the_other_three(E):
    state = new_game(BASE)
    assert E.to_move(state) == -1
    assert E.chance(state) == {L.DRAW_BASE + c: 0.25 for c in range(4)}  # 3 of each of 12
    state = draw_all(E, state, A, A)
    assert hand(state, FREYA) == "AA" and E.chance(state)[L.DRAW_BASE + A] == pytest.approx(1 / 10)
    state = draw_all(E, state, W, B, B)
    assert hand(state, LEONIE) == "WBB" and P.deck(state) == "AWWVVVB"
    assert E.to_move(state) == FREYA and phase(state) == L.PHASE_PLACE
    assert known(state, FREYA) == known(state, LEONIE) == ""  # drawn: secret
    assert P.faceup(state) == [9, 9, 9, 9]
    assert supply(state, FREYA) == supply(state, LEONIE) == 14


# ---- costs and bonds -----------------------------------------------------------------

# The rulebook's example: "this would cost four Azure cards, but since Freya has three
# bonds - two in the row and one in the column (the other is blocked by the mountain) -
# she only has to pay one Azure card to place the stone, gaining four points."
# Freya: row 1 at (1,0) and (1,4), column 1 at (0,1) and (4,1) (behind V:MOUNT (3,1)).
# Leonie's stones at (1,2) and (1,3) stand between: stones never block. Freya holds the
# Dragon already ((1,0) and (0,1) guard A:MOUNT).
BONDS = dict(
    stones={FREYA: [(1, 0), (1, 4), (0, 1), (4, 1)], LEONIE: [(1, 2), (1, 3)]},
    holders={"dragon": FREYA},
    scores={FREYA: 3},
    hands={FREYA: "A", LEONIE: "WW"},
)


def test_four_point_space_with_three_bonds_costs_one_card(E):
    state = position(BASE, **BONDS)
    assert (1, 1) in places(E, state)
    after = E.play(state, cell(1, 1))
    assert hand(after, FREYA) == "" and score(after, FREYA) == 3 + 4
    assert P.faceup(after)[A] == P.faceup(state)[A] + 1  # paid back to its face-up deck
    assert (1, 1) in stones_of(after, FREYA) and supply(after, FREYA) == 14 - 5
    assert E.to_move(after) == LEONIE and holder(after, "dragon") == FREYA


def test_the_mountain_blocked_stone_gives_no_bond(E):
    state = position(BASE, **{**BONDS, "hands": {FREYA: "", LEONIE: "WW"}})
    assert (1, 1) not in places(E, state)  # 4 - 3 = 1 card, none held


def test_a_cost_is_never_below_zero(E):
    # (1,2) A:1V* costs 1; Freya's (1,0) and (1,4) give two bonds: she pays nothing.
    state = position(BASE, stones={FREYA: [(1, 0), (1, 4)]}, hands={FREYA: "A", LEONIE: "W"})
    after = E.play(state, cell(1, 2))
    assert hand(after, FREYA) == "AV" and P.faceup(after) == [
        P.faceup(state)[A],
        P.faceup(state)[W],
        P.faceup(state)[V] - 1,
        P.faceup(state)[B],
    ]


def test_only_own_stones_bond(E):
    # Leonie's (1,0) and (1,4) do nothing for Freya: (1,2) costs her one azure card.
    state = position(BASE, stones={LEONIE: [(1, 0), (1, 4)]}, hands={FREYA: "", LEONIE: "W"})
    assert (1, 2) not in places(E, state)
    state = position(BASE, stones={LEONIE: [(1, 0), (1, 4)]}, hands={FREYA: "A", LEONIE: "W"})
    assert hand(E.play(state, cell(1, 2)), FREYA) == "V"


def test_known_cards_are_paid_first_and_face_up_cards_are_known(E):
    # Freya holds two azure cards, one of them taken face up (known to Leonie).
    state = position(BASE, hands={FREYA: "AA", LEONIE: "W"}, known={FREYA: "A"})
    after = E.play(state, cell(1, 2))  # (1,2) A:1V*: pays one azure
    assert hand(after, FREYA) == "AV" and known(after, FREYA) == "V"


# ---- beasts --------------------------------------------------------------------------


def test_first_player_with_two_guards_claims_the_dragon(E):
    # Leonie's (5,0) guards A:MOUNT down column 0, past Freya's (1,0) (stones never
    # block). (0,2) A:1W+2 guards it along row 0: her second guard against Freya's one.
    state = position(BASE, turn=LEONIE, stones={FREYA: [(1, 0)], LEONIE: [(5, 0)]}, hands={FREYA: "B", LEONIE: "AAA"})
    assert holder(state, "dragon") == L.NOBODY
    after = E.play(state, cell(0, 2))
    assert holder(after, "dragon") == LEONIE
    assert score(after, LEONIE) == 2 + 3 and score(after, FREYA) == 0
    assert hand(after, LEONIE) == "W"
    assert holder(after, "tiger") == L.NOBODY  # (0,2) is her only W guard


def test_a_tie_keeps_the_dragon_with_its_holder(E):
    state = position(
        BASE,
        turn=LEONIE,
        stones={FREYA: [(1, 0), (2, 0)], LEONIE: [(5, 0)]},
        holders={"dragon": FREYA},
        scores={FREYA: 3},
        hands={FREYA: "B", LEONIE: "AAA"},
    )
    after = E.play(state, cell(0, 2))  # two guards each
    assert holder(after, "dragon") == FREYA
    assert score(after, FREYA) == 3 and score(after, LEONIE) == 2


def test_one_guard_claims_nothing(E):
    state = position(BASE, hands={FREYA: "AAA", LEONIE: "B"})
    after = E.play(state, cell(0, 2))
    assert holder(after, "dragon") == holder(after, "tiger") == L.NOBODY


# "Leonie places a third stone that guards the White mountain, which is more than
# Freya's two stones. Leonie takes the White Tiger from Freya - Freya loses two points
# and Leonie gains two points." W:MOUNT (0,3) is guarded from (0,1), (0,2), (0,4), (0,5),
# (1,3) and (2,3); A:MOUNT and B:MOUNT block further.
TIGER = dict(
    turn=LEONIE,
    stones={FREYA: [(0, 4), (1, 3)], LEONIE: [(0, 5), (2, 3)]},
    holders={"tiger": FREYA},
    scores={FREYA: 5, LEONIE: 4},
    hands={FREYA: "B", LEONIE: "AAA"},
)


def test_a_third_guard_takes_the_tiger(E):
    state = position(BASE, **TIGER)
    after = E.play(state, cell(0, 2))  # 3 azure: (0,5) is cut off by W:MOUNT
    assert holder(after, "tiger") == LEONIE
    assert score(after, FREYA) == 5 - 2 and score(after, LEONIE) == 4 + 2 + 2
    assert holder(after, "dragon") == L.NOBODY  # (0,2): one A guard only


def test_losing_points_stops_at_zero(E):
    state = position(BASE, **{**TIGER, "scores": {FREYA: 1, LEONIE: 4}})
    after = E.play(state, cell(0, 2))
    assert score(after, FREYA) == 0 and score(after, LEONIE) == 8


# The Tortoise on ALIGNED. Freya holds the Dragon ((0,1), (1,0) guard A:MOUNT) and the
# Tiger ((3,4), (4,3) guard W:MOUNT); Leonie ties both ((0,2), (2,0); (3,5), (5,3)) and
# has one serpent (3,5). Her second serpent (1,2), bonded for free by (0,2), takes the
# Tortoise: her stone goes onto B:MOUNT (3,0), which guards A:MOUNT up column 0 and
# W:MOUNT along row 3: three guards each, and the Dragon and the Tiger follow.
TORTOISE = dict(
    turn=LEONIE,
    stones={FREYA: [(0, 1), (1, 0), (3, 4), (4, 3)], LEONIE: [(0, 2), (2, 0), (3, 5), (5, 3)]},
    holders={"dragon": FREYA, "tiger": FREYA},
    scores={FREYA: 10, LEONIE: 4},
    hands={FREYA: "AAWWBB", LEONIE: ""},
)


def test_two_serpent_stones_claim_the_tortoise_and_its_stone_moves_dragon_and_tiger(E):
    state = position(ALIGNED, **TORTOISE)
    after = E.play(state, cell(1, 2))
    assert holder(after, "tortoise") == LEONIE and word(after, L.W_BLACK_STONE) == LEONIE
    assert (3, 0) in stones_of(after, LEONIE)
    assert supply(after, LEONIE) == 14 - 5 - 1
    assert holder(after, "dragon") == holder(after, "tiger") == LEONIE
    assert score(after, FREYA) == 10 - 3 - 2 and score(after, LEONIE) == 4 + 3 + 2
    assert hand(after, LEONIE) == "V"


def test_the_black_mountain_stone_gives_bonds(E):
    # Leonie's only stone is on B:MOUNT (3,0); with no cards she can place where its
    # bond pays everything: (3,2) B:1V* along row 3 and (5,0) B:1A* down column 0.
    # (1,0) A:1B+1 and (2,0) A:2V+1 get a bond too, but cost more.
    state = position(ALIGNED, turn=LEONIE, black_stone=LEONIE, holders={"tortoise": LEONIE}, hands={FREYA: "B"})
    assert places(E, state) == [(3, 2), (5, 0)]
    state = position(
        ALIGNED, turn=LEONIE, black_stone=LEONIE, holders={"tortoise": LEONIE}, hands={FREYA: "B", LEONIE: "A"}
    )
    assert (1, 0) in places(E, state) and (2, 0) not in places(E, state)  # 2 - 1; 3 - 1


def test_losing_the_tortoise_brings_its_stone_back(E):
    # Leonie holds all three (after the test above, with a fifth stone at (1,2)); Freya
    # has two serpents (4,1), (2,4) and places a third, (4,4) W:1B*, free with four
    # bonds. Leonie's stone leaves B:MOUNT for her supply, Freya's goes there, and the
    # Dragon and the Tiger come back to Freya.
    state = position(
        ALIGNED,
        stones={
            FREYA: [(0, 1), (1, 0), (3, 4), (4, 3), (4, 1), (2, 4)],
            LEONIE: [(0, 2), (2, 0), (3, 5), (5, 3), (1, 2)],
        },
        black_stone=LEONIE,
        holders={"tortoise": LEONIE, "dragon": LEONIE, "tiger": LEONIE},
        scores={FREYA: 5, LEONIE: 9},
        hands={FREYA: "", LEONIE: "AAWWBB"},
    )
    after = E.play(state, cell(4, 4))
    assert holder(after, "tortoise") == FREYA and word(after, L.W_BLACK_STONE) == FREYA
    assert (3, 0) in stones_of(after, FREYA) and (3, 0) not in stones_of(after, LEONIE)
    assert supply(after, LEONIE) == 14 - 5 and supply(after, FREYA) == 14 - 7 - 1
    assert holder(after, "dragon") == holder(after, "tiger") == FREYA
    assert score(after, FREYA) == 5 + 3 + 2 and score(after, LEONIE) == 9 - 3 - 2
    assert hand(after, FREYA) == "B"


def test_the_tortoise_without_a_stone_in_supply(E):
    # Freya's last common stone takes the Tortoise (serpents (2,1) and (1,4) against
    # Leonie's (5,1)); nothing goes onto B:MOUNT - never the gifted stone.
    state = position(
        BASE,
        gifted=L.FAVORED,
        stones={FREYA: [(2, 1)], LEONIE: [(5, 1)]},
        hands={FREYA: "WWW", LEONIE: "VV"},
        supply={FREYA: 1},
    )
    after = E.play(state, cell(1, 4))
    assert holder(after, "tortoise") == FREYA and word(after, L.W_BLACK_STONE) == L.NOBODY
    assert stones_of(after, FREYA) == {(2, 1), (1, 4)} and supply(after, FREYA) == 0
    assert P.pw(after, FREYA, L.P_GIFTED) == L.NOBODY


# The Bird on BASE: V:MOUNT (3,1) is guarded by the stones in the vermillion domain
# (rows 3-5, columns 0-2).
def test_the_bird_taker_draws_two_cards(E):
    state = position(BASE, stones={FREYA: [(4, 1)]}, hands={FREYA: "V", LEONIE: "W"}, deck="AWWB")
    after = E.play(state, cell(4, 2))  # V:1B+1 costs 2, one bond from (4,1)
    assert holder(after, "bird") == FREYA
    assert E.to_move(after) == -1 and word(after, L.W_DRAW_FOR) == FREYA
    assert E.chance(after) == {L.DRAW_BASE + A: 0.25, L.DRAW_BASE + W: 0.5, L.DRAW_BASE + B: 0.25}
    after = draw_all(E, after, W, B)
    assert hand(after, FREYA) == "WBB" and known(after, FREYA) == "B"  # the qi card only
    assert P.deck(after) == "AW" and E.to_move(after) == LEONIE


BIRD = dict(stones={FREYA: [(4, 0), (4, 1)], LEONIE: [(5, 0), (5, 2)]}, holders={"bird": LEONIE}, deck="AAWVB")


def test_the_bird_loser_returns_two_cards_of_their_choice_after_the_draws(E):
    state = position(BASE, hands={FREYA: "", LEONIE: "AWW"}, known={LEONIE: "W"}, **BIRD)
    after = E.play(state, cell(4, 2))  # free: two bonds; three guards against two
    assert holder(after, "bird") == FREYA and E.to_move(after) == -1
    assert hand(after, LEONIE) == "AWW"  # the draws come first
    after = draw_all(E, after, A, V)
    assert phase(after) == L.PHASE_RETURN_PAIR and E.to_move(after) == LEONIE
    assert E.legal(after) == sorted([L.pair_move(A, W), L.pair_move(W, W)])
    faceup = P.faceup(after)
    after = E.play(after, L.pair_move(W, A))
    assert hand(after, LEONIE) == "W" and known(after, LEONIE) == ""  # the known W went
    assert P.faceup(after) == [faceup[A] + 1, faceup[W] + 1, faceup[V], faceup[B]]
    assert E.to_move(after) == LEONIE and phase(after) == L.PHASE_PLACE


@pytest.mark.parametrize("cards, left", [("A", ""), ("", ""), ("BB", ""), ("BBB", "B"), ("AW", "")])
def test_the_bird_loser_without_a_choice_returns_without_a_move(E, cards, left):
    # Leonie's (5,1) V:1B* is free for her afterwards (bonds from (5,0) and (5,2)).
    state = position(BASE, hands={FREYA: "", LEONIE: cards}, **BIRD)
    after = draw_all(E, E.play(state, cell(4, 2)), A, A)
    assert E.to_move(after) == LEONIE and phase(after) == L.PHASE_PLACE
    assert hand(after, LEONIE) == left


# ---- the Gifted module ---------------------------------------------------------------


def test_mighty_gifted_stone_gives_two_bonds(E):
    # Freya's gifted stone at (1,0): (1,1) A:+4 costs 4 - 2.
    state = position(BASE, gifted=L.MIGHTY, gifted_stones={FREYA: (1, 0)}, hands={FREYA: "AA", LEONIE: "W"})
    assert (1, 1) in places(E, state)
    state = position(BASE, gifted=L.MIGHTY, gifted_stones={FREYA: (1, 0)}, hands={FREYA: "A", LEONIE: "W"})
    assert (1, 1) not in places(E, state)
    state = position(
        BASE,
        gifted=L.MIGHTY,
        stones={FREYA: [(1, 0)]},  # a common stone
        hands={FREYA: "AA", LEONIE: "W"},
    )
    assert (1, 1) not in places(E, state)


def test_mighty_gifted_stone_is_still_one_guard(E):
    # Leonie holds the Dragon with (0,1), (0,2); Freya's mighty gifted (1,0) and a
    # common (2,0) are two guards: a tie, Leonie keeps it.
    state = position(
        BASE,
        gifted=L.MIGHTY,
        gifted_stones={FREYA: (1, 0)},
        stones={LEONIE: [(0, 1), (0, 2)]},
        holders={"dragon": LEONIE, "tiger": LEONIE},
        scores={LEONIE: 5},
        hands={FREYA: "AA", LEONIE: "W"},
    )
    after = E.play(state, cell(2, 0))  # A:2V+1 costs 3, two bonds from (1,0)
    assert holder(after, "dragon") == LEONIE and score(after, LEONIE) == 5


def test_gifted_stone_extra_cost_in_the_domain_colour_less_bonds(E):
    # (1,1) A:+4 with bonds from (1,4) and (0,1): 4 - 2 = 2 for a common stone,
    # 4 + 2 - 2 = 4 for Freya's gifted stone (Mighty: +2).
    kw = dict(gifted=L.MIGHTY, stones={FREYA: [(1, 4), (0, 1)]})
    state = position(BASE, hands={FREYA: "AAAWWW", LEONIE: "B"}, **kw)
    assert cell(1, 1) in E.legal(state) and gifted(1, 1) not in E.legal(state)
    state = position(BASE, hands={FREYA: "AAAA", LEONIE: "B"}, **kw)
    assert gifted(1, 1) in E.legal(state)
    after = E.play(state, gifted(1, 1))
    assert hand(after, FREYA) == "" and score(after, FREYA) == 4
    assert P.pw(after, FREYA, L.P_GIFTED) == cell(1, 1) and (1, 1) in stones_of(after, FREYA)
    assert supply(after, FREYA) == 14 - 2  # not a common stone


@pytest.mark.parametrize("card, extra", [(L.MIGHTY, 2), (L.PERCEPTIVE, 2), (L.BOUNTIFUL, 1), (L.FAVORED, 1)])
def test_each_gifted_card_extra_cost(E, card, extra):
    # (1,2) A:1V* costs 1; the gifted stone 1 + extra, no bonds.
    enough = position(BASE, gifted=card, hands={FREYA: "A" * (1 + extra), LEONIE: "W"})
    short = position(BASE, gifted=card, hands={FREYA: "A" * extra, LEONIE: "W"})
    assert gifted(1, 2) in E.legal(enough) and gifted(1, 2) not in E.legal(short)
    assert cell(1, 2) in E.legal(short)


def test_the_gifted_stone_is_placed_once(E):
    state = position(BASE, gifted=L.BOUNTIFUL, gifted_stones={FREYA: (5, 5)}, hands={FREYA: "AAAAAA", LEONIE: "W"})
    assert not [m for m in E.legal(state) if m >= L.GIFTED_BASE]
    assert [
        m for m in E.legal(position(BASE, hands={FREYA: "AAAAAA", LEONIE: "W"})) if m >= L.GIFTED_BASE
    ] == []  # and only with the module


def test_gifted_stone_without_common_stones_left(E):
    # No common stone in supply: the gifted stone is still a stone to place.
    state = position(BASE, gifted=L.FAVORED, hands={FREYA: "AA", LEONIE: "W"}, supply={FREYA: 0})
    assert E.legal(state) and all(m >= L.GIFTED_BASE for m in E.legal(state))
    assert cell(1, 2) not in E.legal(state) and gifted(1, 2) in E.legal(state)


def test_perceptive_diagonal_bond_stops_at_a_mountain(E):
    # Freya's perceptive gifted stone at (2,2) A:+6. Diagonals: (1,3), (0,4) up-right;
    # (1,1) up-left; B:MOUNT (3,3) stops the way to (4,4) and (5,5), V:MOUNT (3,1) that to
    # (4,0). With no cards: (1,2) and (2,1) (cost 1, in line). (4,4) B:1W* would be free
    # if the diagonal went through the mountain.
    kw = dict(gifted=L.PERCEPTIVE, gifted_stones={FREYA: (2, 2)})
    state = position(BASE, hands={FREYA: "", LEONIE: "W"}, **kw)
    assert places(E, state) == [(1, 2), (2, 1)]
    # One white card: (0,5) and (1,4) (cost 1), (2,4) W:1A+1 (2 - 1, in row 2) and
    # (1,3) W:1V+1 (2 - 1, diagonal); not (0,4) W:1A+2 (3 - 1 = 2).
    state = position(BASE, hands={FREYA: "W", LEONIE: "W"}, **kw)
    assert places(E, state) == [(0, 5), (1, 2), (1, 3), (1, 4), (2, 1), (2, 4)]
    state = position(BASE, hands={FREYA: "WW", LEONIE: "W"}, **kw)
    assert (0, 4) in places(E, state)
    state = position(BASE, hands={FREYA: "BBB", LEONIE: "W"}, **kw)
    assert (4, 4) in places(E, state) and (5, 5) not in places(E, state)  # B:+4, no bond


def test_perceptive_common_stones_have_no_diagonal_bond(E):
    state = position(BASE, gifted=L.PERCEPTIVE, stones={FREYA: [(2, 2)]}, hands={FREYA: "W", LEONIE: "W"})
    assert (1, 3) not in places(E, state)


# Bountiful: Freya's gifted stone at (1,1). (0,1) A:1W+1 surrounds it and shows two
# kinds of symbol: after its boons she chooses one more. It costs 2, one bond from (1,1).
BOUNTY = dict(gifted=L.BOUNTIFUL, gifted_stones={FREYA: (1, 1)}, hands={FREYA: "A", LEONIE: "W"})


@pytest.mark.parametrize("kind, cards, points", [(L.BOON_QI, "WW", 1), (L.BOON_WISDOM, "W", 2)])
def test_bountiful_extra_boon_of_choice(E, kind, cards, points):
    state = E.play(position(BASE, **BOUNTY), cell(0, 1))
    assert phase(state) == L.PHASE_BOON and E.to_move(state) == FREYA
    assert E.legal(state) == [L.BOON_BASE + L.BOON_QI, L.BOON_BASE + L.BOON_WISDOM]
    assert hand(state, FREYA) == "W" and score(state, FREYA) == 1
    after = E.play(state, L.BOON_BASE + kind)
    assert hand(after, FREYA) == cards and known(after, FREYA) == cards
    assert score(after, FREYA) == points and E.to_move(after) == LEONIE


def test_bountiful_with_one_kind_of_symbol_needs_no_move(E):
    # (1,2) A:1V*, free with a bond from (1,1): its qi card twice.
    after = E.play(position(BASE, **BOUNTY), cell(1, 2))
    assert hand(after, FREYA) == "AVV" and E.to_move(after) == LEONIE


def test_bountiful_only_around_ones_own_gifted_stone(E):
    # (1,3) W:1V+1 is not next to (1,1); Leonie's gifted stone next to (0,1) is hers.
    after = E.play(position(BASE, **{**BOUNTY, "hands": {FREYA: "W", LEONIE: "W"}}), cell(1, 3))
    assert hand(after, FREYA) == "V" and E.to_move(after) == LEONIE
    state = position(BASE, gifted=L.BOUNTIFUL, gifted_stones={LEONIE: (1, 1)}, hands={FREYA: "AA", LEONIE: "W"})
    after = E.play(state, cell(0, 1))
    assert hand(after, FREYA) == "W" and score(after, FREYA) == 1 and E.to_move(after) == LEONIE


def test_bountiful_gifted_stone_itself_takes_no_extra_boon(E):
    after = E.play(
        position(BASE, gifted=L.BOUNTIFUL, hands={FREYA: "AAA", LEONIE: "W"}), gifted(1, 2)
    )  # 1 + 1 azure; (1,2) A:1V*
    assert hand(after, FREYA) == "AV" and E.to_move(after) == LEONIE


# Favored: Leonie holds the Dragon with (1,0), (2,0). Freya's gifted stone (0,1) guards
# A:MOUNT; her common stone at (0,2) A:1W+2 (3 - 1 bond) makes it two against two.
FAVOR = dict(
    stones={LEONIE: [(1, 0), (2, 0)]},
    gifted_stones={FREYA: (0, 1)},
    holders={"dragon": LEONIE},
    scores={LEONIE: 3},
    hands={FREYA: "AA", LEONIE: "W"},
)


def test_favored_gifted_stone_wins_a_tie(E):
    after = E.play(position(BASE, gifted=L.FAVORED, **FAVOR), cell(0, 2))
    assert holder(after, "dragon") == FREYA
    # (0,1) and (0,2) also guard W:MOUNT: the Tiger, unclaimed, two against none.
    assert holder(after, "tiger") == FREYA
    assert score(after, LEONIE) == 0 and score(after, FREYA) == 2 + 3 + 2


def test_without_favored_the_holder_keeps_a_tie(E):
    after = E.play(position(BASE, gifted=L.MIGHTY, **FAVOR), cell(0, 2))
    assert holder(after, "dragon") == LEONIE and score(after, LEONIE) == 3


def test_favored_tie_not_won_when_both_gifted_stones_guard(E):
    kw = {**FAVOR, "stones": {LEONIE: [(1, 0)]}, "gifted_stones": {FREYA: (0, 1), LEONIE: (2, 0)}}
    after = E.play(position(BASE, gifted=L.FAVORED, **kw), cell(0, 2))
    assert holder(after, "dragon") == LEONIE


# ---- Cosmos --------------------------------------------------------------------------


def test_cosmos_eighteen_stones(E):
    state = new_game(COSMOS)
    assert supply(state, FREYA) == supply(state, LEONIE) == 18
    # Fourteen of Freya's stones on the realm: four are left to place.
    fourteen = [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 3),
        (3, 0),
        (3, 1),
        (3, 2),
    ]
    state = position(COSMOS, stones={FREYA: fourteen}, hands={FREYA: "WWWW", LEONIE: "B"})
    assert supply(state, FREYA) == 4 and places(E, state)
    # Without Cosmos, fourteen is all: Freya has cards but no stone to place.
    state = position(BASE, stones={FREYA: [(0, 1)]}, supply={FREYA: 0}, turn=LEONIE, hands={FREYA: "WWWW", LEONIE: "B"})
    after = E.play(state, cell(5, 3))  # Leonie: B:1A*
    assert winner(after) == LEONIE  # no stone left to Freya


def test_crossing_ones_own_threshold_gives_a_point_and_a_card_of_choice(E):
    # The Yellow Dragon at step 1 toward Freya; (2,0) A:c1* moves it to 2.
    state = position(COSMOS, dragon=1, hands={FREYA: "A", LEONIE: "W"})
    after = E.play(state, cell(2, 0))
    assert word(after, L.W_DRAGON) == 2 and score(after, FREYA) == 1
    assert phase(after) == L.PHASE_TAKE and E.to_move(after) == FREYA
    assert E.legal(after) == [L.TAKE_BASE + c for c in range(4)]
    after = E.play(after, L.TAKE_BASE + V)
    assert hand(after, FREYA) == "V" and known(after, FREYA) == "V"
    assert E.to_move(after) == LEONIE


def test_leonie_crosses_her_own_threshold_the_other_way(E):
    state = position(COSMOS, dragon=-3, turn=LEONIE, hands={FREYA: "W", LEONIE: "A"})
    after = E.play(state, cell(2, 0))
    assert word(after, L.W_DRAGON) == -4 and score(after, LEONIE) == 1
    assert E.to_move(after) == LEONIE and phase(after) == L.PHASE_TAKE


def test_a_card_of_choice_from_the_only_face_up_deck_needs_no_move(E):
    # Every card but the vermillion ones is in Leonie's hand; (2,0) is free for Freya
    # (a bond from (2,2) along row 2).
    state = position(
        COSMOS, dragon=1, stones={FREYA: [(2, 2)]}, deck="", hands={FREYA: "", LEONIE: "A" * 12 + "W" * 12 + "B" * 12}
    )
    after = E.play(state, cell(2, 0))
    assert hand(after, FREYA) == "V" and score(after, FREYA) == 1 and E.to_move(after) == LEONIE


def test_moving_the_dragon_back_across_a_threshold(E):
    # Freya crossed her 1|2 threshold before; Leonie moves the Dragon back to 1: Freya
    # loses a point and returns a card of her choice.
    state = position(
        COSMOS, dragon=2, turn=LEONIE, scores={FREYA: 3}, hands={FREYA: "VW", LEONIE: "A"}, known={FREYA: "VW"}
    )
    after = E.play(state, cell(2, 0))
    assert word(after, L.W_DRAGON) == 1 and score(after, FREYA) == 2
    assert phase(after) == L.PHASE_RETURN and E.to_move(after) == FREYA
    assert E.legal(after) == [L.RETURN_BASE + W, L.RETURN_BASE + V]
    faceup = P.faceup(after)
    after = E.play(after, L.RETURN_BASE + W)
    assert hand(after, FREYA) == "V" and known(after, FREYA) == "V"
    assert P.faceup(after)[W] == faceup[W] + 1 and E.to_move(after) == FREYA


@pytest.mark.parametrize("cards, points, left", [("VV", 0, "V"), ("", 2, "")])
def test_a_card_returned_without_a_choice(E, cards, points, left):
    state = position(
        COSMOS,
        dragon=2,
        turn=LEONIE,
        scores={FREYA: points},
        hands={FREYA: cards, LEONIE: "A"},
        stones={FREYA: [(1, 0)]},
    )
    after = E.play(state, cell(2, 0))
    assert score(after, FREYA) == max(0, points - 1) and hand(after, FREYA) == left
    assert E.to_move(after) == FREYA and phase(after) == L.PHASE_PLACE


def test_the_end_of_the_cosmos_track_wins(E):
    # (0,2) A:c1+1: a point, then the Dragon's sixth step toward Freya.
    state = position(COSMOS, dragon=5, hands={FREYA: "AA", LEONIE: "W"})
    after = E.play(state, cell(0, 2))
    assert word(after, L.W_DRAGON) == 6 and winner(after) == FREYA and score(after, FREYA) == 1
    state = position(COSMOS, dragon=-5, turn=LEONIE, hands={FREYA: "W", LEONIE: "AA"})
    assert winner(E.play(state, cell(0, 2))) == LEONIE


def test_a_threshold_point_can_win(E):
    state = position(COSMOS, dragon=3, scores={FREYA: 24}, hands={FREYA: "A", LEONIE: "W"})
    after = E.play(state, cell(2, 0))
    assert winner(after) == FREYA and score(after, FREYA) == 25


# ---- the end of the game -------------------------------------------------------------


def test_reaching_25_wins_at_once(E):
    # Freya at 23; (0,2) A:1W+2 would also be her second guard of A:MOUNT (with (1,0)),
    # but the game is over before the beasts are checked. The qi card comes first.
    state = position(BASE, stones={FREYA: [(1, 0)]}, scores={FREYA: 23}, hands={FREYA: "AAA", LEONIE: "W"})
    after = E.play(state, cell(0, 2))
    assert winner(after) == FREYA and score(after, FREYA) == 25
    assert holder(after, "dragon") == L.NOBODY and hand(after, FREYA) == "W"
    assert E.to_move(after) == -2 and E.legal(after) == []


def test_scores_stop_at_25(E):
    state = position(
        BASE,
        stones={FREYA: [(1, 0), (0, 1)]},
        holders={"dragon": FREYA},
        scores={FREYA: 22},
        hands={FREYA: "AA", LEONIE: "W"},
    )
    after = E.play(state, cell(1, 1))  # +4, two bonds
    assert score(after, FREYA) == 25 and winner(after) == FREYA


def test_a_beast_can_win(E):
    state = position(
        BASE,
        turn=LEONIE,
        stones={FREYA: [(1, 0)], LEONIE: [(5, 0)]},
        scores={LEONIE: 21},
        hands={FREYA: "B", LEONIE: "AAA"},
    )
    after = E.play(state, cell(0, 2))  # 21 + 2 + Dragon 3
    assert winner(after) == LEONIE and score(after, LEONIE) == 25


def test_a_player_who_cannot_place_loses(E):
    # Leonie has no card and no stone to give a bond: after Freya's turn she is lost.
    state = position(BASE, hands={FREYA: "A", LEONIE: ""})
    after = E.play(state, cell(1, 2))
    assert winner(after) == FREYA and E.to_move(after) == -2


def test_a_position_waiting_for_a_placement_that_cannot_be_made_is_invalid(E):
    # docs/azure.md, "Turn order and the end": the loss comes when the turn starts, so the
    # game above ends in phase over with Leonie to move; the same words in phase place
    # (her turn waiting for a stone she cannot place) are no position of the rules.
    after = E.play(position(BASE, hands={FREYA: "A", LEONIE: ""}), cell(1, 2))
    validate(after)
    after[L.W_PHASE], after[L.W_WINNER] = L.PHASE_PLACE, L.NOBODY
    with pytest.raises(PositionError, match="player 2 is to place a stone but can afford no empty space with no cards"):
        validate(after)


def test_the_deck_is_rebuilt_when_it_runs_out_and_every_card_becomes_known(E):
    # Freya takes the Bird with a two-card hidden deck. Face up: A 10, W 10, V 8, B 2.
    state = position(
        BASE,
        stones={FREYA: [(4, 0), (4, 1)], LEONIE: [(5, 0), (5, 2)]},
        holders={"bird": LEONIE},
        hands={FREYA: "VVVV", LEONIE: "AW" + "B" * 10},
        known={LEONIE: "B" * 10},
        deck="AW",
    )
    assert P.faceup(state) == [10, 10, 8, 2]
    after = E.play(state, cell(4, 2))  # free; takes a black card
    assert E.chance(after) == {L.DRAW_BASE + A: 0.5, L.DRAW_BASE + W: 0.5}
    after = draw_all(E, after, A)
    assert E.chance(after) == {L.DRAW_BASE + W: 1.0}
    after = draw_all(E, after, W)
    assert known(after, FREYA) == hand(after, FREYA) == "AWVVVVB"
    assert known(after, LEONIE) == hand(after, LEONIE) == "AW" + "B" * 10
    # Three of each colour from the face-up decks; only one black was left there.
    assert P.deck(after) == "AAAWWWVVVB" and P.faceup(after) == [7, 7, 5, 0]
    assert word(after, L.W_DECK_SIZE) == 10
    assert phase(after) == L.PHASE_RETURN_PAIR and E.to_move(after) == LEONIE
    after = E.play(after, L.pair_move(B, B))
    assert known(after, LEONIE) == "AW" + "B" * 8 and P.faceup(after) == [7, 7, 5, 2]


def test_a_held_beast_goes_to_one_guard_when_the_holder_has_none(E):
    # docs/azure.md: "any number, even one, if the holder has none" (a built position:
    # Leonie holds the Dragon without a guard).
    state = position(BASE, holders={"dragon": LEONIE}, scores={LEONIE: 3}, hands={FREYA: "AAA", LEONIE: "W"})
    after = E.play(state, cell(0, 2))
    assert holder(after, "dragon") == FREYA
    assert score(after, FREYA) == 2 + 3 and score(after, LEONIE) == 0


def test_favored_claims_an_unclaimed_beast_on_a_tie_of_two(E):
    # A built position: Leonie's (1,0), (2,0) guard A:MOUNT, the Dragon unclaimed.
    state = position(
        BASE,
        gifted=L.FAVORED,
        stones={LEONIE: [(1, 0), (2, 0)]},
        gifted_stones={FREYA: (0, 1)},
        hands={FREYA: "AA", LEONIE: "W"},
    )
    after = E.play(state, cell(0, 2))
    assert holder(after, "dragon") == FREYA and score(after, FREYA) == 2 + 3 + 2  # + Tiger


# ---- where the rule texts and docs/azure.md are silent (tests/oracle/azure_oracle.py,
# OPEN_POINTS): the choices both engines make --------------------------------------------


def test_a_beast_that_wins_still_costs_its_loser_first(E):
    # Leonie at 21 takes the Dragon from Freya (three guards against two) and wins:
    # Freya's -3 is part of the same change of hands.
    state = position(
        BASE,
        turn=LEONIE,
        stones={FREYA: [(1, 0), (2, 0)], LEONIE: [(5, 0), (4, 0)]},
        holders={"dragon": FREYA},
        scores={FREYA: 5, LEONIE: 21},
        hands={FREYA: "B", LEONIE: "AAA"},
    )
    after = E.play(state, cell(0, 2))
    assert winner(after) == LEONIE and score(after, LEONIE) == 25 and score(after, FREYA) == 2


def test_bountiful_offers_a_qi_boon_whose_deck_is_empty(E):
    # Every white card is in Leonie's hand: the extra white qi card would take nothing,
    # yet it is one of the choices (the space shows it).
    state = position(
        BASE, gifted=L.BOUNTIFUL, gifted_stones={FREYA: (1, 1)}, hands={FREYA: "A", LEONIE: "W" * 12}, deck="AAAVVVBBB"
    )
    after = E.play(state, cell(0, 1))
    assert E.legal(after) == [L.BOON_BASE + L.BOON_QI, L.BOON_BASE + L.BOON_WISDOM]
    after = E.play(after, L.BOON_BASE + L.BOON_QI)
    assert hand(after, FREYA) == "" and score(after, FREYA) == 1 and E.to_move(after) == LEONIE
