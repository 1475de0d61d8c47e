"""Checking an Azure state array is a position the rules can reach, each failure a
PositionError naming the field; the checks, in order, are listed in
docs/azure-notation.md ("Validation"). The checks of each phase are ``phase_checks``."""

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.azure.layout import (
    AZURE,
    BEAST_NAMES,
    BEAST_ORDER,
    BLACK,
    CARDS_PER_COLOUR,
    CELL_KIND,
    CELLS,
    COLOUR_NAMES,
    COSMOS_STONES,
    DECK_PER_COLOUR,
    FAVORED,
    FIRST_GUARDS,
    GAME_ID,
    GIFTED_NAMES,
    GIFTED_NONE,
    HAND_START,
    HIDDEN,
    KIND_MOUNTAIN,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_OVER,
    PLAYERS,
    S_ARRANGEMENT,
    S_CELL,
    S_COSMOS,
    S_DOMAIN,
    S_GIFTED,
    S_MOUNTAIN,
    S_SERPENTS,
    S_SIGHT,
    S_SPACES,
    S_THRESHOLDS,
    S_TRACK_END,
    STATE_SIZE,
    STONES,
    VERMILLION,
    W_BIRD_LOSER,
    W_BLACK_STONE,
    W_DECK,
    W_DECK_SIZE,
    W_DRAGON,
    W_DRAW_FOR,
    W_DRAWS,
    W_FACEUP,
    W_HOLDER,
    W_PHASE,
    W_PLACED,
    W_RETURNS,
    W_STEP,
    W_TAKES,
    W_TURN,
    W_VIEW,
    W_WINNER,
    WHITE,
    WIN_SCORE,
    cell_field,
    player_word,
)
from tessera.kernels.azure.realm import layout_of
from tessera.notation.azure.phase_checks import PHASE_CHECKS
from tessera.notation.azure.realm import realm_words
from tessera.notation.azure.words import (
    MID_TURN,
    cards_text,
    cell_bit,
    cell_name,
    cells_of,
    phase_name,
    player_words,
    realm_mask,
    words_at,
)
from tessera.notation.fields import check_array


def validate(state):
    """Raise PositionError unless ``state`` is a position the rules can reach.

    The checks, in order, are listed in docs/azure-notation.md ("Validation").
    """
    check_array(state, STATE_SIZE, GAME_ID, "Azure")
    _check_realm(state)
    _check_header(state)
    _check_turn_words(state)
    _check_stones(state)
    _check_beasts(state)
    _check_cards(state)
    _check_scores(state)
    PHASE_CHECKS[int(state[W_PHASE])](state)


def _check_realm(state):
    if not 0 <= state[S_GIFTED] < len(GIFTED_NAMES):
        raise PositionError("gifted", f"unknown gifted card {state[S_GIFTED]}")
    if state[S_COSMOS] not in (0, 1):
        raise PositionError("cosmos", f"the Cosmos word is {state[S_COSMOS]}, not 0 or 1")
    if state[S_ARRANGEMENT] not in (0, 1):
        raise PositionError("layout", f"the arrangement word is {state[S_ARRANGEMENT]}, not 0 or 1")
    expected = realm_words(layout_of(state), int(state[S_GIFTED]))
    if not np.array_equal(expected, state[S_SPACES:]):
        raise PositionError("layout", "the realm words do not match the layout (they are built from the board data)")


def _check_header(state):
    if phase_name(state) is None:
        raise PositionError(
            "phase", f"phase word {state[W_PHASE]} with step word {state[W_STEP]} is no phase of the rules"
        )
    for field, word in (("turn", W_TURN),):
        if state[word] not in (0, 1):
            raise PositionError(field, f"no player {state[word] + 1} in Azure")
    for field, word in (("view", W_VIEW), ("winner", W_WINNER), ("bird_loser", W_BIRD_LOSER)):
        if state[word] not in (NOBODY, 0, 1):
            raise PositionError(field, f"no player {state[word] + 1} in Azure")
    over = state[W_PHASE] == PHASE_OVER
    if over != (state[W_WINNER] != NOBODY):
        raise PositionError("winner", "a winner is named exactly when the game is over")


def _check_turn_words(state):
    """The words of a turn in progress: each is set exactly in the phases that use it."""
    phase = phase_name(state)
    draws, takes, returns = int(state[W_DRAWS]), int(state[W_TAKES]), int(state[W_RETURNS])
    for field, value, top in (("draws", draws, max(HAND_START)), ("takes", takes, CELLS), ("returns", returns, CELLS)):
        if not 0 <= value <= top:
            raise PositionError(field, f"{value} is not 0..{top}")
    if phase == "setup":
        size0, size1 = player_words(state, 0, P_HAND_SIZE), player_words(state, 1, P_HAND_SIZE)
        want = HAND_START[0] - size0 if size0 < HAND_START[0] else HAND_START[1] - size1
        if draws != want:
            raise PositionError(
                "draws", f"the starting hands hold {size0} and {size1} cards, so {want} draws are left, not {draws}"
            )
    elif phase == "bird-draw":
        if draws not in (1, 2):
            raise PositionError("draws", f"the Bird's taker draws 1 or 2 more cards, not {draws}")
    elif draws:
        raise PositionError("draws", f"draws are pending only in phases setup and bird-draw, not {phase}")
    if phase == "take" and takes < 1:
        raise PositionError("takes", "phase take needs a card to take (takes 1 or more)")
    if phase not in ("boon", "take", "over") and takes:
        raise PositionError("takes", f"cards of choice are taken only in phase take (pending in boon), not {phase}")
    if phase == "return" and returns < 1:
        raise PositionError("returns", "phase return needs a card to return (returns 1 or more)")
    if phase not in ("boon", "take", "return", "over") and returns:
        raise PositionError(
            "returns", f"cards of choice are returned only in phase return (pending in boon and take), not {phase}"
        )
    limit = bin(int(state[S_THRESHOLDS])).count("1")
    for field, value in (("takes", takes), ("returns", returns)):
        if value > limit:
            raise PositionError(field, f"{value} is more than the {limit} thresholds a turn can cross")
    loser = int(state[W_BIRD_LOSER])
    if phase == "bird-return" and loser == NOBODY:
        raise PositionError("bird_loser", "phase bird-return needs the player who lost the Bird")
    if phase not in ("bird-draw", "bird-return") and loser != NOBODY:
        raise PositionError(
            "bird_loser", f"the Bird's loser is pending only in phases bird-draw and bird-return, not {phase}"
        )
    placed = int(state[W_PLACED])
    if phase in MID_TURN and placed == NOBODY:
        raise PositionError("placed", f"phase {phase} comes after a placement: name the cell of the stone just placed")
    if phase in ("setup", "place") and placed != NOBODY:
        raise PositionError("placed", f"no stone has been placed this turn in phase {phase}")
    if placed != NOBODY:
        if not 0 <= placed < CELLS:
            raise PositionError("placed", f"cell {placed} is off the realm")
        if not realm_mask(state[player_word(int(state[W_TURN]), P_STONES)]) >> placed & 1:
            raise PositionError(
                "placed", f"{cell_name(placed)} holds no stone of player {state[W_TURN] + 1}, whose turn it is"
            )
    expected = state.copy()
    derive_draw_for(expected)
    if state[W_DRAW_FOR] != expected[W_DRAW_FOR]:
        raise PositionError(
            "draws", f"the draw word names player {state[W_DRAW_FOR] + 1}, not player {expected[W_DRAW_FOR] + 1}"
        )


def _check_stones(state):
    spaces = realm_mask(state[S_SPACES])
    black = int(state[S_MOUNTAIN + BLACK])
    owner = int(state[W_BLACK_STONE])
    if owner not in (NOBODY, 0, 1):
        raise PositionError("stones", f"no player {owner + 1} in Azure")
    total = STONES + (COSMOS_STONES if state[S_COSMOS] else 0)
    seen = 0
    for p in range(PLAYERS):
        field = f"player {p + 1} stones"
        stones = realm_mask(state[player_word(p, P_STONES)])
        on_black = stones >> black & 1
        off = stones & ~spaces & ~cell_bit(black)
        if off:
            cell = cells_of(off)[0]
            what = (
                "a mountain"
                if cell_field(int(state[S_CELL + cell]), CELL_KIND) == KIND_MOUNTAIN
                else "outside the realm"
            )
            raise PositionError(
                field, f"a stone on {cell_name(cell)}, {what} (stones go on spaces, and one on the Black mountain)"
            )
        if on_black != (owner == p):
            raise PositionError(
                field,
                f"the Black mountain ({cell_name(black)}) holds"
                f" {'this' if on_black else 'no'} stone but the word"
                " says otherwise",
            )
        if seen & stones:
            raise PositionError(field, f"{cell_name(cells_of(seen & stones)[0])} holds a stone of both players")
        seen |= stones
        gifted = player_words(state, p, P_GIFTED)
        gfield = f"player {p + 1} gifted"
        if gifted != NOBODY:
            if state[S_GIFTED] == GIFTED_NONE:
                raise PositionError(gfield, "a gifted stone without the Gifted module")
            if not 0 <= gifted < CELLS or not spaces >> gifted & 1:
                where = cell_name(gifted) if 0 <= gifted < CELLS else str(gifted)
                raise PositionError(
                    gfield, f"{where} is not a space (the gifted stone goes on a space, never on the Black mountain)"
                )
            if not stones >> gifted & 1:
                raise PositionError(gfield, f"{cell_name(gifted)} is not among the stones")
        supply = player_words(state, p, P_SUPPLY)
        common = bin(stones).count("1") - (gifted != NOBODY)
        if supply < 0 or supply + common != total:
            raise PositionError(
                f"player {p + 1} supply",
                f"{common} common stones on the realm and {supply} in supply, not the {total} each player has",
            )


def _guards(state, colour, p):
    """(guards of ``colour``'s mountain for player p, whether p's gifted stone is one)."""
    if colour in (AZURE, WHITE):
        mask = realm_mask(state[S_SIGHT + int(state[S_MOUNTAIN + colour])])
    elif colour == BLACK:
        mask = realm_mask(state[S_SERPENTS])
    else:
        mask = realm_mask(state[S_DOMAIN + VERMILLION])
    stones = realm_mask(state[player_word(p, P_STONES)]) & mask
    gifted = player_words(state, p, P_GIFTED)
    return bin(stones).count("1"), gifted != NOBODY and bool(stones >> gifted & 1)


def _wins_from(state, colour, challenger, holder):
    """Whether ``challenger`` takes ``colour``'s beast from ``holder`` (NOBODY: unclaimed)."""
    favored = state[S_GIFTED] == FAVORED
    g, gifted = _guards(state, colour, challenger)
    h, h_gifted = _guards(state, colour, 1 - challenger)
    if holder == NOBODY and g < FIRST_GUARDS:
        return False
    return g > h or (favored and g == h and gifted and not h_gifted)


def _check_beasts(state):
    for c in range(NCOLOURS):
        if state[W_HOLDER + c] not in (NOBODY, 0, 1):
            raise PositionError("beasts", f"the {BEAST_NAMES[c]}'s holder word is {state[W_HOLDER + c]}")
    tortoise = int(state[W_HOLDER + BLACK])
    owner = int(state[W_BLACK_STONE])
    if owner != NOBODY and owner != tortoise:
        raise PositionError("beasts", f"player {owner + 1} has a stone on the Black mountain but not the tortoise")
    if tortoise != NOBODY and owner == NOBODY and player_words(state, tortoise, P_SUPPLY) > 0:
        raise PositionError(
            "beasts", f"player {tortoise + 1} holds the tortoise with stones in supply but none on the Black mountain"
        )
    phase = phase_name(state)
    if phase not in ("setup", "place", "bird-draw", "bird-return"):
        return  # the beasts are checked later in the turn (or the game ended first)
    for colour in BEAST_ORDER:
        holder = int(state[W_HOLDER + colour])
        for challenger in range(PLAYERS):
            if challenger != holder and _wins_from(state, colour, challenger, holder):
                g, _ = _guards(state, colour, challenger)
                h, _ = _guards(state, colour, 1 - challenger)
                now = "is unclaimed" if holder == NOBODY else f"is with player {holder + 1}"
                raise PositionError(
                    "beasts",
                    f"the {BEAST_NAMES[colour]} {now} but player"
                    f" {challenger + 1} guards its mountain with {g}"
                    f" stones to {h}, so would hold it",
                )


def _check_cards(state):
    view = int(state[W_VIEW])
    faceup = words_at(state, W_FACEUP)
    if any(not 0 <= n <= CARDS_PER_COLOUR for n in faceup):
        raise PositionError("faceup", f"face-up counts {faceup} are not 0..{CARDS_PER_COLOUR}")
    deck = words_at(state, W_DECK)
    size = int(state[W_DECK_SIZE])
    if view == NOBODY:
        if any(not 0 <= n <= DECK_PER_COLOUR for n in deck):
            raise PositionError(
                "deck",
                f"the hidden deck holds {cards_text(deck)}: at most"
                f" {DECK_PER_COLOUR} of a colour (it is built with 3 of"
                " each)",
            )
        if size != sum(deck):
            raise PositionError("deck", f"deck size word {size}, but it holds {sum(deck)} cards")
    else:
        if any(n != HIDDEN for n in deck):
            raise PositionError("deck", "a view does not name the hidden deck's cards")
        if not 0 <= size <= NCOLOURS * DECK_PER_COLOUR:
            raise PositionError("deck", f"{size} cards in the hidden deck (at most {NCOLOURS * DECK_PER_COLOUR})")
    for p in range(PLAYERS):
        field = f"player {p + 1} hand"
        hand = player_words(state, p, P_HAND, NCOLOURS)
        known = player_words(state, p, P_KNOWN, NCOLOURS)
        hand_size = player_words(state, p, P_HAND_SIZE)
        if any(n < 0 for n in hand) or any(n < 0 for n in known):
            raise PositionError(field, "a negative card count")
        if any(k > h for k, h in zip(known, hand)):
            raise PositionError(
                f"player {p + 1} known", f"known cards {cards_text(known)} are not all in the hand {cards_text(hand)}"
            )
        if view in (NOBODY, p):
            if hand_size != sum(hand):
                raise PositionError(field, f"hand size word {hand_size}, but the hand holds {sum(hand)} cards")
        else:
            if hand != known:
                raise PositionError(
                    field, f"in player {view + 1}'s view the opponent's hand names exactly their known cards"
                )
            if hand_size < sum(hand):
                raise PositionError(field, f"{hand_size} cards, fewer than the {sum(hand)} known")
    if view == NOBODY:
        _check_complete_cards(state, faceup, deck)
    else:
        _check_view_cards(state, view, faceup, size)


def _check_complete_cards(state, faceup, deck):
    hands = [player_words(state, p, P_HAND, NCOLOURS) for p in range(PLAYERS)]
    totals = [f + d + sum(h[c] for h in hands) for c, (f, d) in enumerate(zip(faceup, deck))]
    wrong = [f"{n} {name}" for name, n in zip(COLOUR_NAMES, totals) if n != CARDS_PER_COLOUR]
    if wrong:
        raise PositionError(
            "cards", f"each colour has {CARDS_PER_COLOUR} cards in all, but there are {', '.join(wrong)}"
        )
    knowns = [player_words(state, p, P_KNOWN, NCOLOURS) for p in range(PLAYERS)]
    for c in range(NCOLOURS):
        unseen = deck[c] + sum(hands[p][c] - knowns[p][c] for p in range(PLAYERS))
        if unseen > DECK_PER_COLOUR:
            raise PositionError("cards", _unseen_message(c, unseen))


def _unseen_message(c, unseen):
    return (
        f"{unseen} {COLOUR_NAMES[c]} cards are in the hidden deck or drawn from it"
        f" unseen, at most {DECK_PER_COLOUR} (the deck is built with 3 of a colour and"
        " every card becomes known when it runs out)"
    )


def _check_view_cards(state, view, faceup, deck_size):
    own = player_words(state, view, P_HAND, NCOLOURS)
    own_known = player_words(state, view, P_KNOWN, NCOLOURS)
    other = 1 - view
    other_known = player_words(state, other, P_KNOWN, NCOLOURS)
    unknown = player_words(state, other, P_HAND_SIZE) - sum(other_known)
    rest = [CARDS_PER_COLOUR - f - o - k for f, o, k in zip(faceup, own, other_known)]
    for c, n in enumerate(rest):
        if n < 0:
            raise PositionError(
                "cards",
                f"{CARDS_PER_COLOUR - n} {COLOUR_NAMES[c]} cards are"
                f" seen (face up, in hand, known), but"
                f" {CARDS_PER_COLOUR} exist",
            )
    if sum(rest) != unknown + deck_size:
        raise PositionError(
            "cards",
            f"{sum(rest)} cards are not seen by player {view + 1},"
            f" but player {other + 1}'s {unknown} unknown cards and"
            f" the deck's {deck_size} make {unknown + deck_size}",
        )
    for c in range(NCOLOURS):
        unseen = rest[c] + own[c] - own_known[c]
        if unseen > DECK_PER_COLOUR:
            raise PositionError("cards", _unseen_message(c, unseen))


def _check_scores(state):
    over = state[W_PHASE] == PHASE_OVER
    for p in range(PLAYERS):
        score = player_words(state, p, P_SCORE)
        if not 0 <= score <= WIN_SCORE:
            raise PositionError(f"player {p + 1} score", f"{score} is not 0..{WIN_SCORE}")
        if score == WIN_SCORE and not over:
            raise PositionError(f"player {p + 1} score", f"{WIN_SCORE} points win at once, but the game is not over")
    track, end = int(state[W_DRAGON]), int(state[S_TRACK_END])
    if not -end <= track <= end:
        raise PositionError(
            "track", f"the Yellow Dragon is {abs(track)} steps from the middle; the track ends {end} steps out"
        )
    if end and abs(track) == end and not over:
        raise PositionError("track", "the Yellow Dragon is at the end of the track, but the game is not over")


def derive_draw_for(state):
    """Who receives the draws: in setup the player drawing a starting hand, else the
    Bird's holder (the last player it went to); with the Bird unclaimed, the last to
    draw a starting hand (player 2). The engine keeps the word between draws."""
    phase = phase_name(state)
    bird = int(state[W_HOLDER + VERMILLION])
    if phase == "setup":
        state[W_DRAW_FOR] = 0 if player_words(state, 0, P_HAND_SIZE) < HAND_START[0] else 1
    else:
        state[W_DRAW_FOR] = 1 if bird == NOBODY else bird
