"""The agent kinds and the overflow mark of the self-play batches, shared by the self-play
template (``tessera.kernels.selfplay``) and its callers in Python (``tessera.selfplay``),
which never import the template itself.
"""

RANDOM = 0  # a seat that plays ``games.random_move``
GREEDY = 1  # a seat that plays the template's ``greedy_move``
OVERFLOW = -1  # the length of a game that needed more plies than the batch holds
