"""Drawing positions for people: one module per game, each turning a state into a
rich renderable. Rich drops colour by itself when the output is not a terminal."""
