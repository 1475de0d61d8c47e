"""Which tier the run is (tests/README.md, "Tiers"), for checks that play random games or
generated examples: the quick tier runs the same checks over fewer of them.

conftest.py sets ``QUICK`` when pytest is configured, before any test module is imported,
so a module may read it where it is defined (a count of games, hypothesis' ``max_examples``).
"""

QUICK = False


def fewer(count, quick):
    """``count`` in the default run, ``quick`` in the quick tier: how many random games,
    seeds or generated examples a check goes through."""
    return quick if QUICK else count
