"""Summer Pavilion: what a draft, a placement, a pass, a keep or a bonus choice does
(docs/web.md, "Why a move").

A draft: the tiles taken (the colour and the wild tile that comes with it), the tiles
slid to the centre, the start-player token and the points it costs. A placement: the
space and its payment (wild tiles among it, the tiles to the tower), the points scored
now, and what it brings nearer: its star's six spaces (the whole star's end bonus), its
number on all seven stars (the number's end bonus) and the bonus regions it completes
(their supply tiles). A pass or a keep: the tiles held, kept and discarded, and the
points the discarded tiles cost.
"""

from tessera.explain import signed, term
from tessera.games import get_game
from tessera.kernels.pavilion.board import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NUMBER_BONUS,
    REGION_KIND,
    REGION_MASKS,
    REGION_REWARDS,
    STAR_BONUS,
    STAR_SPACES,
)

NAME = dict(zip(COLOUR_LETTERS, COLOUR_NAMES))
CENTRE = "C"  # the centre star, as a move's fields name it


def breakdown(before, move, after):
    fields = get_game(before.game).move_fields(move)
    doc, later = before.to_json(), after.to_json()
    mover = before.to_move - 1
    board, board_after = doc["boards"][mover], later["boards"][mover]
    points = after.scores[mover] - before.scores[mover]
    kind = fields["kind"]
    if kind == "draft":
        return _draft(doc, fields, move, points)
    if kind == "place":
        return _place(board, board_after, fields, points)
    if kind in ("keep", "take"):
        tiles = fields["tiles"].replace("-", "")
        terms = [term(kind, len(tiles), f"{kind}s {len(tiles)} tile{'s' * (len(tiles) != 1)}")]
        if points:
            terms.append(term("points", points, f"{signed(points)} now (tiles discarded)"))
        return {"kind": kind, "tiles": len(tiles), "points": points, "terms": terms}
    held = _count(board["hand"])
    terms = [term("pass", held, f"passes holding {held} tile{'s' * (held != 1)}")]
    if points:
        terms.append(term("points", points, f"{signed(points)} now"))
    return {"kind": "pass", "held": held, "points": points, "terms": terms}


def _draft(doc, fields, move, points):
    source = move.split()[0]
    tiles = doc["centre"] if source == "C" else doc["factories"][int(source[1:]) - 1]
    tiles = tiles.replace("-", "")
    wild = doc["wild"][0].upper()
    if fields["colour"] == "wild":  # the lone wild of an all-wild source
        colour, taken, wilds = None, 0, 1
    else:
        colour = fields["colour"]
        taken, wilds = tiles.count(colour), min(1, tiles.count(wild))
    to_centre = 0 if source == "C" else len(tiles) - taken - wilds
    token = source == "C" and doc["token"] is None
    out = {
        "kind": "draft",
        "source": source,
        "colour": NAME.get(colour),
        "taken": taken,
        "wild": wilds,
        "to_centre": to_centre,
        "start_player_token": token,
        "points": points,
    }
    what = f"{taken} {NAME[colour]}" if colour else ""
    what += (" + " if what and wilds else "") + ("1 wild" if wilds else "")
    terms = [term("taken", taken + wilds, f"takes {what}")]
    if to_centre:
        terms.append(term("to_centre", to_centre, f"{to_centre} to the centre"))
    if token:
        terms.append(term("start_player_token", True, f"takes the start-player token ({signed(points)})"))
    return {**out, "terms": terms}


def _place(board, board_after, fields, points):
    star = len(COLOUR_NAMES) if fields["star"] == CENTRE else COLOUR_LETTERS.index(fields["star"])
    space = fields["space"]
    wilds = fields["wild"]
    covered = _covered(board_after["stars"][star])
    number_stars = sum(line[space - 1] != "." for line in board_after["stars"])
    before_mask, after_mask = _mask(board["stars"]), _mask(board_after["stars"])
    regions = [
        {"region": REGION_KIND[i], "reward": int(REGION_REWARDS[i])}
        for i, mask in enumerate(REGION_MASKS)
        if after_mask & mask == mask and before_mask & mask != mask
    ]
    star_name = "centre" if star == len(COLOUR_NAMES) else COLOUR_NAMES[star]
    out = {
        "kind": "place",
        "star": star_name,
        "space": space,
        "colour": NAME[fields["colour"]],
        "wild": wilds,
        "to_tower": space - 1,
        "points": points,
        "star_spaces": covered,
        "number_stars": number_stars,
        "regions": regions,
        "star_bonus": int(STAR_BONUS[star]) if covered == STAR_SPACES else 0,
        "number_bonus": int(NUMBER_BONUS[space - 1]) if number_stars == len(board["stars"]) else 0,
    }
    paid = f"pays {space}" + (f" ({wilds} wild)" if wilds else "")
    terms = [
        term("points", points, f"{signed(points)} now"),
        term("paid", space, paid),
        term("star", covered, f"{star_name} star {covered}/{STAR_SPACES}"),
    ]
    if NUMBER_BONUS[space - 1]:
        terms.append(term("number", number_stars, f"{space}s on {number_stars}/{len(board['stars'])} stars"))
    if out["star_bonus"]:
        terms.append(
            term("star_bonus", out["star_bonus"], f"completes the star: {signed(out['star_bonus'])} at game end")
        )
    if out["number_bonus"]:
        terms.append(
            term(
                "number_bonus", out["number_bonus"], f"all {space}s covered: {signed(out['number_bonus'])} at game end"
            )
        )
    for region in regions:
        tiles = f"{region['reward']} supply tile{'s' * (region['reward'] != 1)}"
        terms.append(term("region", region["reward"], f"completes a {region['region']}: {tiles}"))
    return {**out, "terms": terms}


def _covered(star):
    return sum(cell != "." for cell in star)


def _mask(stars):
    """The covered spaces of a board as the board data's region masks number them."""
    return sum(1 << (STAR_SPACES * s + k) for s, star in enumerate(stars) for k, cell in enumerate(star) if cell != ".")


def _count(tiles):
    return len(tiles.replace("-", ""))
