"""Learning a position's value from Tessera's own self-play (docs/learning.md).

- ``features``: which games have value features, their feature kernel and where their
  rounds end (the positions a value model is trained on);
- ``dataset``: self-play runs replayed into rows of features and final outcomes, split
  into training and validation games by a seed;
- ``fit``: ridge regression of the final margin and logistic regression of the win share,
  numpy only, with their validation figures beside two baselines;
- ``model``: the model file (``.npz``): weights, what they were trained on, and their hash.

``tessera train`` (``tessera.cli.learning``) runs the three in turn.
"""
