"""What the web board's position editor infers in a complete Azure position, and the fixes
it offers where it cannot: the editor sends the position's JSON form with the fields it
leaves to inference ``null``, and gets it back filled (docs/web.md, "Position editor").

- **Supply**: a player's ``supply`` left ``null`` is the stones the player has (14, 18
  with Cosmos) less their common stones on the realm.
- **Beasts** follow the stones, as the rules move them (``follow_beasts``): a stone on
  the Black mountain makes its owner the Tortoise's holder; with none there, the
  Tortoise is held only by a player whose supply is empty. Then, in the phases whose
  beasts the rules check (``setup``, ``place``, ``bird-draw``, ``bird-return``), each
  beast goes to the player who would take it from its holder (unclaimed: at least two
  guards and more than the opponent; held: more guards than the holder; Favored's
  tie-break). A holder nobody would take the beast from keeps it, so a tie keeps what
  was given. Both players' ``beasts`` left ``null`` start from nobody holding any.
- **Cards**: the hidden deck and the face-up decks hold, per colour, the 12 cards not
  in a hand. One of the two given (``deck`` or ``faceup``), the other holds the rest;
  neither given, the hidden deck holds what the unseen limit leaves it (3 of a colour
  less the cards of it drawn unseen into a hand, as a game whose deck has not run out
  and whose players paid no unseen card) and the face-up decks the rest.

Malformed input is left as it is, for the engine's check to name.
"""

import copy

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.azure.layout import (
    BEAST_NAMES,
    BEAST_ORDER,
    BLACK,
    CARDS_PER_COLOUR,
    COLOUR_NAMES,
    COSMOS_STONES,
    DECK_PER_COLOUR,
    GIFTED_NAMES,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_STONES,
    PLAYERS,
    S_MOUNTAIN,
    S_SPACES,
    STATE_SIZE,
    STONES,
    W_BLACK_STONE,
    W_HOLDER,
    player_word,
)
from tessera.notation.azure.realm import layout_from_json, realm_words
from tessera.notation.azure.validation import _guards, _wins_from
from tessera.notation.azure.words import (
    BEAST_OF_NAME,
    cards_of_text,
    cards_text,
    cell_bit,
    cell_name,
    cell_of_name,
    realm_mask,
    signed_word,
)
from tessera.notation.fields import json_counts

# The phases whose beasts the rules check against the guards (docs/azure-notation.md).
BEASTS_CHECKED = ("setup", "place", "bird-draw", "bird-return")
BEAST_TITLES = {"dragon": "Dragon", "tiger": "Tiger", "bird": "Bird", "tortoise": "Tortoise"}
MALFORMED = (PositionError, TypeError, ValueError, KeyError, AttributeError, IndexError)


def _players(obj):
    players = obj.get("players")
    if isinstance(players, list) and len(players) == PLAYERS and all(isinstance(p, dict) for p in players):
        return players
    return None


def editable(obj):
    """Whether ``obj`` is a complete Azure position's JSON form the editor infers in."""
    return isinstance(obj, dict) and obj.get("view") is None and _players(obj) is not None


def total_stones(obj):
    return STONES + (COSMOS_STONES if obj.get("cosmos") is True else 0)


# ---- the realm and the stones ------------------------------------------------------------


def realm_state(obj, stones=True):
    """A state array holding the realm of ``obj``'s layout and each player's stones (the
    words the guards are counted on; none unless ``stones``), nobody holding a beast, or
    None when they do not read."""
    try:
        if type(obj["cosmos"]) is not bool or obj["gifted"] not in GIFTED_NAMES:
            return None
        layout = layout_from_json(obj["layout"], obj["cosmos"])
        state = np.zeros(STATE_SIZE, np.int64)
        state[S_SPACES:] = realm_words(layout, GIFTED_NAMES.index(obj["gifted"]))
        state[W_HOLDER : W_HOLDER + NCOLOURS] = NOBODY
        state[W_BLACK_STONE] = NOBODY
        for p, player in enumerate(obj["players"] if stones else []):
            mask = 0
            for name in player["stones"]:
                mask |= cell_bit(cell_of_name("stones", name))
            gifted = NOBODY if player["gifted"] is None else cell_of_name("gifted", player["gifted"])
            if gifted != NOBODY:
                mask |= cell_bit(gifted)
            state[player_word(p, P_STONES)] = signed_word(mask)
            state[player_word(p, P_GIFTED)] = gifted
    except MALFORMED:
        return None
    return state


def black_mountain(state):
    """The Black mountain's cell name."""
    return cell_name(int(state[S_MOUNTAIN + BLACK]))


def black_owner(state):
    """The player (0 or 1) with a stone on the Black mountain, or NOBODY."""
    black = realm_mask(state[S_MOUNTAIN + BLACK])
    for p in range(PLAYERS):
        if realm_mask(state[player_word(p, P_STONES)]) >> black & 1:
            return p
    return NOBODY


# ---- beasts ------------------------------------------------------------------------------


def holders_of(players):
    """[holder index or NOBODY] by colour from the players' ``beasts`` lists (None: nobody),
    or None when they do not read."""
    holders = [NOBODY] * NCOLOURS
    for p, player in enumerate(players):
        beasts = player.get("beasts")
        if beasts is None:
            continue
        if not isinstance(beasts, list) or not all(isinstance(b, str) and b in BEAST_OF_NAME for b in beasts):
            return None
        for name in beasts:
            holders[BEAST_OF_NAME[name]] = p
    return holders


def follow_beasts(obj, state, holders, supplies):
    """The holders by colour once the beasts follow the stones (the module's docstring),
    starting from ``holders``; ``supplies``: each player's stones in supply."""
    holders = list(holders)
    owner = black_owner(state)
    tortoise = holders[BLACK]
    if owner != NOBODY:
        holders[BLACK] = owner
    elif tortoise != NOBODY and supplies[tortoise] != 0:
        holders[BLACK] = NOBODY
    if obj.get("phase") not in BEASTS_CHECKED:
        return holders
    for colour in BEAST_ORDER:
        if colour == BLACK and owner != NOBODY:
            continue  # the stone's owner holds it; a challenger is the engine's to name
        holder = holders[colour]
        for challenger in range(PLAYERS):
            if challenger != holder and _wins_from(state, colour, challenger, holder):
                holders[colour] = challenger
                break
    return holders


def beasts_lists(holders):
    return [[BEAST_NAMES[c] for c in range(NCOLOURS) if holders[c] == p] for p in range(PLAYERS)]


def guards_text(state, colour, player):
    mine, _ = _guards(state, colour, player)
    theirs, _ = _guards(state, colour, 1 - player)
    return f"{mine} guards to {theirs}"


# ---- cards -------------------------------------------------------------------------------


def _hands(players):
    """(hand counts, known counts) by player, or None when they do not read."""
    try:
        hands = [cards_of_text("hand", player["hand"], unknown_allowed=False)[0] for player in players]
        known = [cards_of_text("known", player["known"], unknown_allowed=False)[0] for player in players]
    except MALFORMED:
        return None
    return hands, known


def _infer_cards(obj, filled, inferred):
    deck_given, faceup_given = obj.get("deck") is not None, obj.get("faceup") is not None
    if deck_given and faceup_given:
        return
    read = _hands(filled["players"])
    if read is None:
        return
    hands, known = read
    in_hands = [sum(hand[c] for hand in hands) for c in range(NCOLOURS)]
    try:
        if deck_given:
            deck = cards_of_text("deck", obj["deck"], unknown_allowed=False)[0]
        elif faceup_given:
            faceup = json_counts("faceup", obj["faceup"], COLOUR_NAMES, CARDS_PER_COLOUR, "cards")
            deck = [max(0, CARDS_PER_COLOUR - faceup[c] - in_hands[c]) for c in range(NCOLOURS)]
        else:
            unseen = [sum(max(0, hand[c] - k[c]) for hand, k in zip(hands, known)) for c in range(NCOLOURS)]
            deck = [max(0, min(DECK_PER_COLOUR - unseen[c], CARDS_PER_COLOUR - in_hands[c])) for c in range(NCOLOURS)]
    except MALFORMED:
        return
    if not deck_given:
        filled["deck"] = cards_text(deck)
        inferred.append("deck")
    if not faceup_given:
        filled["faceup"] = {
            name: max(0, CARDS_PER_COLOUR - deck[c] - in_hands[c]) for c, name in enumerate(COLOUR_NAMES)
        }
        inferred.append("faceup")


# ---- inference ---------------------------------------------------------------------------


def infer(obj):
    """(``obj`` with the fields the module's docstring names filled in, the names of the
    fields inferred: ``supply``, ``beasts``, ``deck``, ``faceup``). Input that is not a
    complete position, or parts that do not read, come back as they were."""
    if not editable(obj):
        return obj, []
    filled = {**obj, "players": [dict(player) for player in obj["players"]]}
    players = filled["players"]
    inferred = []
    state = realm_state(filled)
    if state is not None and any(player.get("supply") is None for player in players):
        for player in players:
            if player.get("supply") is None:
                player["supply"] = max(0, total_stones(filled) - len(player["stones"]))
        inferred.append("supply")
    start = holders_of(players)
    left_out = all(player.get("beasts") is None for player in players)
    supplies = [player.get("supply") for player in players]
    if state is not None and start is not None and all(type(s) is int for s in supplies):
        holders = follow_beasts(filled, state, start, supplies)
        given = holders_of(obj["players"])
        if left_out or holders != given:
            for player, beasts in zip(players, beasts_lists(holders)):
                player["beasts"] = beasts
            inferred.append("beasts")
    elif left_out:
        for player in players:
            player["beasts"] = []
    _infer_cards(obj, filled, inferred)
    return filled, inferred


# ---- fixes -------------------------------------------------------------------------------


def fixes(sent, filled, check):
    """One-click fixes of the refusal of ``filled`` (the position ``sent``, inferred): each
    {"label", "position"}, the position to send instead (nulls still left to inference),
    kept only when ``check`` (a position's JSON form -> the refusal's text, or None when
    legal) says it is legal or refused for another reason."""
    if not editable(sent) or not editable(filled):
        return []
    reason = check(filled)
    found = []
    try:
        for label, position in _candidates(sent, filled):
            after = check(infer(position)[0])
            if after != reason:
                found.append((after is not None, {"label": label, "position": position}))
    except MALFORMED:  # a part the fixes read does not: the engine's reason says which
        return []
    found.sort(key=lambda item: item[0])  # the fixes that make the position legal first
    return [fix for _, fix in found[:3]]


def _candidates(sent, filled):
    state = realm_state(filled)
    players = filled["players"]
    if state is not None:
        yield from _stone_fixes(sent, filled, state)
    read = _hands(players)
    if read is not None:
        yield from _unseen_fixes(sent, filled, *read)
    for p, player in enumerate(sent["players"]):
        if player.get("supply") is not None and state is not None:
            right = total_stones(filled) - len(player["stones"])
            if right >= 0 and right != player["supply"]:
                position = copy.deepcopy(sent)
                for other in position["players"]:
                    other["supply"] = None
                yield f"supply as the stones say ({right} for player {p + 1})", position
    if sent.get("deck") is not None and sent.get("faceup") is not None:
        position = copy.deepcopy(sent)
        position["faceup"] = None
        yield "face-up decks inferred (the cards not in the hidden deck or a hand)", position
    elif sent.get("faceup") is not None:
        position = copy.deepcopy(sent)
        position["faceup"] = None
        yield "face-up decks and hidden deck inferred", position


def _stone_fixes(sent, filled, state):
    players = filled["players"]
    holders = holders_of(players)
    if holders is None:
        return
    black = black_mountain(state)
    owner = black_owner(state)
    tortoise = holders[BLACK]
    if tortoise != NOBODY and owner == NOBODY:
        # The Tortoise's holder keeps a stone on the Black mountain while their supply has one.
        position = copy.deepcopy(sent)
        player = position["players"][tortoise]
        player["stones"] = [*player["stones"], black]
        if player.get("supply") is not None:
            player["supply"] -= 1
        yield f"put player {tortoise + 1}'s stone on the Black mountain ({black})", position
    if owner != NOBODY and filled.get("phase") in BEASTS_CHECKED:
        challenger = 1 - owner
        if _wins_from(state, BLACK, challenger, owner):
            # More serpent guards: the Tortoise and the mountain's stone go to the challenger.
            position = copy.deepcopy(sent)
            moved = position["players"]
            moved[owner]["stones"] = [cell for cell in moved[owner]["stones"] if cell != black]
            moved[challenger]["stones"] = [*moved[challenger]["stones"], black]
            for p, player in enumerate(moved):
                if player.get("supply") is not None:
                    player["supply"] += 1 if p == owner else -1
                if player.get("beasts") is not None:
                    player["beasts"] = [b for b in player["beasts"] if b != "tortoise"]
                    if p == challenger:
                        player["beasts"].append("tortoise")
            text = guards_text(state, BLACK, challenger)
            yield f"the Tortoise and its stone to player {challenger + 1} ({text})", position


def _unseen_fixes(sent, filled, hands, known):
    """The cards of a colour in the hidden deck or drawn from it unseen are at most 3: the
    excess of every colour known to one player first (then the other), or, with the
    hidden deck given, that many fewer in it."""
    try:
        deck = cards_of_text("deck", filled["deck"], unknown_allowed=False)[0]
    except MALFORMED:
        return
    unseen = [[max(0, hand[c] - k[c]) for c in range(NCOLOURS)] for hand, k in zip(hands, known)]
    excess = [deck[c] + sum(u[c] for u in unseen) - DECK_PER_COLOUR for c in range(NCOLOURS)]
    if all(n <= 0 for n in excess):
        return
    for first in range(PLAYERS):
        more = [[0] * NCOLOURS for _ in range(PLAYERS)]
        for c in range(NCOLOURS):
            left = max(0, excess[c])
            for p in (first, 1 - first):
                more[p][c] = min(left, unseen[p][c])
                left -= more[p][c]
        if not any(more[first]):
            continue
        position = copy.deepcopy(sent)
        told = []
        for p in range(PLAYERS):
            if any(more[p]):
                position["players"][p]["known"] = cards_text([k + m for k, m in zip(known[p], more[p])])
                told.append(f"player {p + 1} knows {_cards_words(more[p])} more")
        yield f"{' and '.join(told)} (taken face up)", position
    if sent.get("deck") is not None:
        fewer = [min(max(0, excess[c]), deck[c]) for c in range(NCOLOURS)]
        if any(fewer):
            position = copy.deepcopy(sent)
            position["deck"] = cards_text([d - f for d, f in zip(deck, fewer)])
            yield f"{_cards_words(fewer)} fewer in the hidden deck", position


def _cards_words(counts):
    """``[2, 0, 1, 0]`` as "2 azure and 1 vermillion card(s)"."""
    parts = [f"{n} {name}" for n, name in zip(counts, COLOUR_NAMES) if n]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) + (
        " card" if sum(counts) == 1 else " cards"
    )
