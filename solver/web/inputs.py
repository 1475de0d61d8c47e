"""The fields of a request body, each checked for its type and range before it meets the
rules or the engine: a bad one is a BadRequest (HTTP 400) that names it."""

import math

from tessera.web.documents import BadRequest

MISSING = object()
SHOWN = 60  # characters of a bad value quoted in its error


def shown(value):
    """``value`` as an error quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def text(body, name, what, default=MISSING):
    """A non-empty string field; ``what`` says what it must be (for the error)."""
    value = body.get(name, default)
    if value is MISSING or not isinstance(value, str) or not value:
        raise BadRequest(f"{name} must be {what}, not {shown(body.get(name))}")
    return value


def whole(body, name, low, high, default=MISSING):
    """An integer field from ``low`` to ``high`` (a bool or 3.0 is not one)."""
    value = body.get(name, default)
    if type(value) is not int or not low <= value <= high:
        raise BadRequest(f"{name} must be a whole number from {low} to {high}, not {shown(body.get(name))}")
    return value


def seconds(body, name, high, default):
    """A time in seconds: a finite number over 0 and at most ``high``."""
    value = body.get(name, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 < value <= high
    ):
        raise BadRequest(f"{name} must be a number of seconds over 0 and at most {high:g}, not {shown(value)}")
    return float(value)


def flag(body, name, default):
    """A true/false field."""
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false, not {shown(value)}")
    return value


def game_options(game, options):
    """``options`` (an object) checked against ``game``'s: known names, values of their kinds."""
    if not isinstance(options, dict):
        raise BadRequest(f"options must be an object of option names and values, not {shown(options)}")
    game.check_options(options)  # "seed" and unknown names are refused here
    for name, value in options.items():
        kind, default, _ = game.options[name]
        if value is None and default is None:
            fits = True  # the option left to the game (Azure's layout)
        elif isinstance(kind, tuple):
            fits = isinstance(value, str) and value in kind
        elif kind is int:
            fits = type(value) is int
        else:
            fits = isinstance(value, kind)
        if not fits:
            wanted = (
                f"one of {', '.join(kind)}"
                if isinstance(kind, tuple)
                else {int: "a whole number", bool: "true or false"}.get(kind, "a text")
            )
            raise BadRequest(f"{name} must be {wanted} (an option of {game.name}), not {shown(value)}")
    return options
