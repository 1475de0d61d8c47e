"""Learning a position's value and move priors from Tessera's own self-play
(docs/learning.md).

- ``features``: which games have value features, their feature kernels (value, and move
  features for a policy) and where their rounds end (the positions a value is trained on);
- ``dataset``: self-play runs replayed into rows of features and final outcomes, split
  into training and validation games by a seed;
- ``fit``: ridge regression of the final margin and logistic regression of the win share,
  and a softmax regression of the searches' visit shares (the policy), numpy only, with
  their validation figures beside baselines;
- ``model``: the model file (``.npz``): weights, what they were trained on, and their hash.

``tessera train`` (``tessera.cli.learning``) runs the three in turn.
"""
