"""The checks of each Azure phase, after the checks every position passes
(``validation``): that the phase's choice is a real one, made by someone who can make it."""

from tessera.errors import PositionError
from tessera.kernels.azure.layout import (
    BOUNTIFUL,
    CARDS_PER_COLOUR,
    CELL_COSMOS,
    CELL_QI,
    CELL_WISDOM,
    DECK_PER_COLOUR,
    GIFTED_NONE,
    GRID,
    HAND_START,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    PLAYERS,
    S_CELL,
    S_COSMOS,
    S_GIFTED,
    S_TRACK_END,
    STEP_SETUP,
    VERMILLION,
    W_BIRD_LOSER,
    W_DECK_SIZE,
    W_DRAGON,
    W_FACEUP,
    W_HOLDER,
    W_PLACED,
    W_STEP,
    W_TURN,
    W_VIEW,
    W_WINNER,
    WIN_SCORE,
    cell_field,
    player_word,
)
from tessera.kernels.azure.moves import can_place
from tessera.notation.azure.words import cards_text, cell_name, player_words, words_at


def _check_setup(state):
    if state[W_TURN] != 0:
        raise PositionError("turn", "player 1 starts, so the setup is in player 1's turn")
    for p in range(PLAYERS):
        if state[player_word(p, P_STONES)] or player_words(state, p, P_SCORE):
            raise PositionError(f"player {p + 1} stones", "stones or points before the starting hands are drawn")
        if any(player_words(state, p, P_KNOWN, NCOLOURS)):
            raise PositionError(f"player {p + 1} known", "starting cards come from the hidden deck and are not known")
    if any(int(state[W_HOLDER + c]) != NOBODY for c in range(NCOLOURS)) or state[W_DRAGON]:
        raise PositionError("beasts", "beasts held or the Yellow Dragon moved in setup")
    if words_at(state, W_FACEUP) != [CARDS_PER_COLOUR - DECK_PER_COLOUR] * NCOLOURS:
        raise PositionError("faceup", "the face-up decks are untouched in setup")
    sizes = [player_words(state, p, P_HAND_SIZE) for p in range(PLAYERS)]
    if sizes[0] > HAND_START[0] or sizes[1] >= HAND_START[1] or (sizes[1] and sizes[0] < HAND_START[0]):
        raise PositionError(
            "player 1 hand",
            f"starting hands of {sizes[0]} and {sizes[1]}"
            f" cards (player 1 draws {HAND_START[0]}, then"
            f" player 2 {HAND_START[1]})",
        )


def _check_place(state):
    """The player to move can place a stone: one who cannot loses at once when their turn
    starts (``tessera.kernels.azure.apply.start_turn``), so their turn never waits for a placement.
    In a view with the mover's hand hidden, only a hand no deal of the unseen cards could
    give them is rejected (docs/azure-notation.md, "Validation")."""
    turn = int(state[W_TURN])
    view = int(state[W_VIEW])
    base = player_word(turn, 0)
    common = state[base + P_SUPPLY] > 0
    gifted = state[S_GIFTED] != GIFTED_NONE and state[base + P_GIFTED] == NOBODY
    if not (common or gifted):
        why = "has none left"
    else:
        hand = player_words(state, turn, P_HAND, NCOLOURS)
        probe = state
        cards = f"the hand {cards_text(hand)}" if any(hand) else "no cards"
        unknown = player_words(state, turn, P_HAND_SIZE) - sum(hand)
        if view not in (NOBODY, turn) and unknown:
            # The most cards of each colour the hidden hand can hold: a space is paid in
            # one colour, so the mover can place in some deal iff they can with this.
            probe = state.copy()
            own = player_words(state, view, P_HAND, NCOLOURS)
            for c, (up, mine) in enumerate(zip(words_at(state, W_FACEUP), own)):
                unseen = CARDS_PER_COLOUR - up - mine - hand[c]
                probe[base + P_HAND + c] = hand[c] + min(unknown, unseen)
            known = f"the known cards {cards_text(hand)} and " if any(hand) else ""
            cards = f"{known}any {unknown} unknown card{'s' if unknown > 1 else ''}"
        if can_place(probe, turn):
            return
        why = f"can afford no empty space with {cards}"
    raise PositionError(
        "turn",
        f"player {turn + 1} is to place a stone but {why}; a player who"
        " cannot place at the start of their turn loses at once, so the"
        f" game is already over, won by player {2 - turn} (phase over"
        f" winner {2 - turn})",
    )


def _check_boon(state):
    turn = int(state[W_TURN])
    if state[S_GIFTED] != BOUNTIFUL:
        raise PositionError("phase", "phase boon comes only with the Bountiful gifted card")
    gifted = player_words(state, turn, P_GIFTED)
    placed = int(state[W_PLACED])
    if gifted == NOBODY or placed == gifted:
        raise PositionError(
            "placed", f"player {turn + 1}'s gifted stone is not on the realm beside the common stone just placed"
        )
    (pr, pc), (gr, gc) = divmod(placed, GRID), divmod(gifted, GRID)
    if max(abs(pr - gr), abs(pc - gc)) != 1:
        raise PositionError(
            "placed", f"{cell_name(placed)} is not next to player {turn + 1}'s gifted stone on {cell_name(gifted)}"
        )
    packed = int(state[S_CELL + placed])
    kinds = sum(cell_field(packed, shift) > 0 for shift in (CELL_QI, CELL_WISDOM, CELL_COSMOS))
    if kinds < 2:
        raise PositionError(
            "phase", f"{cell_name(placed)} shows one kind of symbol, so Bountiful's extra boon needs no choice"
        )


def _check_take(state):
    if not state[S_COSMOS]:
        raise PositionError("phase", "phase take comes only with the Cosmos expansion")
    if sum(1 for n in words_at(state, W_FACEUP) if n) < 2:
        raise PositionError("faceup", "fewer than two face-up decks have cards, so the card is taken without a choice")


def _check_return(state):
    if not state[S_COSMOS]:
        raise PositionError("phase", "phase return comes only with the Cosmos expansion")
    _check_return_choice(state, 1 - int(state[W_TURN]), 1, "a card")


def _check_return_choice(state, player, cards, what):
    """The returning player must have a real choice, where the position shows the hand."""
    view = int(state[W_VIEW])
    if view not in (NOBODY, player):
        return
    hand = player_words(state, player, P_HAND, NCOLOURS)
    if sum(hand) <= cards or sum(1 for n in hand if n) < 2:
        raise PositionError(
            f"player {player + 1} hand",
            f"returning {what} from {cards_text(hand)} is no choice (it is made without a move)",
        )


def _check_bird_draw(state):
    holder = int(state[W_HOLDER + VERMILLION])
    if holder == NOBODY:
        raise PositionError("beasts", "phase bird-draw, but nobody holds the bird")
    loser = int(state[W_BIRD_LOSER])
    if loser == holder:
        raise PositionError("bird_loser", f"player {holder + 1} holds the bird, so did not lose it")
    if state[W_DECK_SIZE] < 1:
        raise PositionError("deck", "the hidden deck is empty, so there is nothing to draw")


def _check_bird_return(state):
    loser = int(state[W_BIRD_LOSER])
    if int(state[W_HOLDER + VERMILLION]) != 1 - loser:
        raise PositionError("bird_loser", f"player {loser + 1} lost the bird, so player {2 - loser} holds it")
    _check_return_choice(state, loser, 2, "two cards")


def _check_draw(state):
    if state[W_STEP] == STEP_SETUP:
        _check_setup(state)  # the deck then holds cards: 9 of each colour are face up
    else:
        _check_bird_draw(state)


def _check_over(state):
    winner = int(state[W_WINNER])
    loser = 1 - winner
    end = int(state[S_TRACK_END])
    toward = int(state[W_DRAGON]) * (1 if winner == 0 else -1)
    if player_words(state, loser, P_SCORE) == WIN_SCORE or (end and toward == -end):
        raise PositionError("winner", f"player {loser + 1} reached the end first, so won")
    reached = player_words(state, winner, P_SCORE) == WIN_SCORE or (end and toward == end)
    if not reached and state[W_TURN] != loser:
        raise PositionError(
            "winner",
            f"player {winner + 1} has not reached the end, and player"
            f" {loser + 1} did not fail to place (it is not their"
            " turn)",
        )


PHASE_CHECKS = {
    PHASE_DRAW: _check_draw,
    PHASE_PLACE: _check_place,
    PHASE_BOON: _check_boon,
    PHASE_TAKE: _check_take,
    PHASE_RETURN: _check_return,
    PHASE_RETURN_PAIR: _check_bird_return,
    PHASE_OVER: _check_over,
}
