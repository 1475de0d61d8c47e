"""Azure: what a placement (or a choice inside a turn) does (docs/web.md, "Why a move").

A placement: the space, its domain and symbols, the cards it costs and the cards paid
after the bonds, the boons (qi cards gained, wisdom points, Yellow Dragon steps), the
beasts that change hands and every player's points, and whether it wins. A boon,
take or return choice: the points and cards it moves.
"""

from tessera.explain import letter_counts, signed, term
from tessera.games import get_game
from tessera.kernels.azure.layout import COLOUR_LETTERS, COLOUR_NAMES, GIFTED_COST, GIFTED_NAMES
from tessera.kernels.azure.moves import price
from tessera.kernels.azure.state import player_base

NAME = dict(zip(COLOUR_LETTERS, COLOUR_NAMES))


def breakdown(before, move, after):
    fields = get_game(before.game).move_fields(move)
    doc, later = before.to_json(), after.to_json()
    mover = before.to_move - 1
    me, me_after = doc["players"][mover], later["players"][mover]
    cards = {NAME[c]: n for c, n in _card_change(me["hand"], me_after["hand"]).items() if n}
    out = {"kind": fields["kind"], "cards": cards, "terms": []}
    if fields["kind"] in ("place", "gifted"):
        out.update(_placement(before, fields, fields["kind"] == "gifted", doc, cards))
    out["terms"] += _card_terms(cards, out.get("paid", 0), out.get("domain"))
    out["terms"] += _beast_terms(doc, later, mover, out)
    change = [a - b for a, b in zip(after.scores, before.scores)]
    if change[mover] != out.get("wisdom", 0):  # beasts, thresholds: more than the wisdom
        out["terms"].append(term("points", change[mover], f"{signed(change[mover])} points in all"))
    for other, points in enumerate(change):
        if other != mover and points:
            out["terms"].append(term("opponent_points", points, f"player {other + 1} {signed(points)}"))
    if doc.get("track") is not None and later.get("track") != doc.get("track"):
        steps = later["track"] - doc["track"]
        out["cosmos"] = steps
        out["terms"].append(
            term(
                "cosmos",
                steps,
                f"Yellow Dragon {abs(steps)} step{'s' * (abs(steps) != 1)} toward player {1 if steps > 0 else 2}",
            )
        )
    if after.is_over and later.get("winner") == mover + 1:
        out["wins"] = True
        out["terms"].append(term("wins", True, "wins the game"))
    return out


def _placement(before, fields, gifted, doc, cards):
    realm = get_game(before.game).board(before.state)["realm"]
    cell = next(c for c in realm["cells"] if c["cell"] == fields["cell"])
    state = before.state
    index = 8 * cell["row"] + cell["col"]
    card = GIFTED_NAMES.index(doc["gifted"])
    cost = cell["cost"] + (GIFTED_COST[card] if gifted else 0)
    paid = int(price(state, player_base(before.to_move - 1), index, gifted))
    domain = NAME[cell["domain"]]
    qi = {NAME[cell["qi_colour"]]: cell["qi"]} if cell["qi"] else {}
    saved = f" ({cost - paid} by bonds)" if cost > paid else ""
    terms = [term("paid", paid, f"pays {paid} {domain} of {cost}{saved}")]
    if cell["wisdom"]:
        terms.append(term("wisdom", cell["wisdom"], f"wisdom {signed(cell['wisdom'])}"))
    return {
        "cell": cell["cell"],
        "domain": domain,
        "gifted": gifted,
        "cost": cost,
        "paid": paid,
        "bonds": cost - paid,
        "qi": qi,
        "wisdom": cell["wisdom"],
        "cosmos_symbols": cell["cosmos"],
        "terms": terms,
    }


def _card_change(hand, hand_after):
    before, after = letter_counts(hand, COLOUR_LETTERS), letter_counts(hand_after, COLOUR_LETTERS)
    return {c: after[c] - before[c] for c in COLOUR_LETTERS}


def _card_terms(cards, paid, domain):
    """The cards gained (qi and other boons): the hand's change with the payment added back."""
    gained = dict(cards)
    if domain:
        gained[domain] = gained.get(domain, 0) + paid
    shown = [f"{signed(n)} {colour}" for colour, n in gained.items() if n]
    return [term("cards", sum(gained.values()), "cards " + ", ".join(shown))] if shown else []


def _beast_terms(doc, later, mover, out):
    terms = []
    mine, mine_after = set(doc["players"][mover]["beasts"]), set(later["players"][mover]["beasts"])
    taken, lost = sorted(mine_after - mine), sorted(mine - mine_after)
    if taken:
        out["beasts_taken"] = taken
        terms.append(term("beasts", len(taken), "takes the " + " and the ".join(taken)))
    if lost:
        out["beasts_lost"] = lost
        terms.append(term("beasts_lost", len(lost), "loses the " + " and the ".join(lost)))
    return terms
