"""Hidden high card: state words, phases and move codes.

A position is a 1-D int64 array of ``STATE_SIZE`` words. A hand word holds the
player's card (1..N), ``NO_CARD`` before the deal, or ``HIDDEN`` in a player's
view for a card that player cannot see.
"""

from tessera.kernels.constants import TOY as GAME_ID  # noqa: F401  (re-exported)

MAX_CARDS = 16
PLAYERS = 2

NO_CARD = 0
HIDDEN = -1

# Phases. Who acts: DEAL is chance; BET player 1 (index 0); REPLY player 2; OVER nobody.
PHASE_DEAL = 0
PHASE_BET = 1
PHASE_REPLY = 2
PHASE_OVER = 3

W_GAME = 0
W_CARDS = 1  # N: the deck is the cards 1..N
W_REPLY = 2  # 1: player 2 answers a bet (call or raise); 0: a bet goes straight to the showdown
W_PHASE = 3
W_STAKE = 4  # 0 until a bet, then 1, or 2 after a raise
W_HAND = 5  # W_HAND + p: player p's card
W_SCORE = W_HAND + PLAYERS  # W_SCORE + p: points won, set at the end
STATE_SIZE = W_SCORE + PLAYERS

# Moves. Chance deals card c as DEAL_BASE + c.
PASS = 0
BET = 1
CALL = 2
RAISE = 3
DEAL_BASE = 16
MAX_MOVES = MAX_CARDS
