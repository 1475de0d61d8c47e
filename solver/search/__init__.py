"""Search: MCTS, alpha-beta and exact solving, with one result shape for all."""
