"""Azure's move heuristic (kernels/azure/heuristic.py) worked by hand on the realm
BASE drawn in tests/test_azure_rules.py (Freya is player 0, Leonie player 1)."""

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    import azure_positions as P
except ImportError:  # pragma: no cover - when tests/ is a package
    import tests.azure_positions as P

from tessera.kernels.azure import heuristic as H
from tessera.kernels.azure import layout as L
from tessera.kernels.azure import realm as R

BASE = R.base_layout(0)
FREYA, LEONIE = 0, 1
# The rulebook's Tiger example one turn earlier: Freya holds the White Tiger with two
# guards of W:MOUNT (0,3), (0,4) and (1,3); Leonie has two, (0,5) and (2,3), so one more
# of hers would take it.
TIGER = dict(
    turn=FREYA,
    stones={FREYA: [(0, 4), (1, 3)], LEONIE: [(0, 5), (2, 3)]},
    holders={"tiger": FREYA},
    scores={FREYA: 5, LEONIE: 4},
    hands={FREYA: "AAA", LEONIE: "B"},
)


def test_a_stone_that_keeps_a_threatened_beast_and_nears_another():
    """Freya's (0,2) A:1W+2, three azure cards with no bond ((0,4) is behind W:MOUNT):
    2 points + a white card - 3 cards paid = 2 + 0.5 * (1 - 3) = 1.0; her third Tiger
    guard keeps the Tiger from Leonie's next stone, DEFEND of its 4-point swing = 2.0;
    her first Dragon guard (along row 0 to A:MOUNT) against none of Leonie's makes her
    next one take it, PROGRESS of its 6-point swing = 1.5. In all 4.5."""
    state = P.position(BASE, **TIGER)
    assert H.BEAST_WORTH[L.WHITE] == 4 and H.BEAST_WORTH[L.AZURE] == 6
    expected = 1.0 + H.DEFEND * 4 + H.PROGRESS * 6
    assert H.move_heuristic(state, P.cell(0, 2)) == expected == 4.5


def test_no_guard_credit_where_the_beast_is_safe_or_out_of_reach():
    """With Leonie's guards gone the Tiger is not threatened: no DEFEND; the Dragon term
    is the same. With two Leonie stones guarding the Dragon, Freya's one guard is behind:
    no PROGRESS."""
    safe = P.position(BASE, **{**TIGER, "stones": {FREYA: [(0, 4), (1, 3)], LEONIE: [(5, 5)]}})
    assert H.move_heuristic(safe, P.cell(0, 2)) == 1.0 + H.PROGRESS * 6
    behind = P.position(
        BASE, **{**TIGER, "stones": {FREYA: [(0, 4), (1, 3)], LEONIE: [(0, 5), (2, 3), (1, 0), (2, 0)]}}
    )
    assert H.move_heuristic(behind, P.cell(0, 2)) == 1.0 + H.DEFEND * 4
