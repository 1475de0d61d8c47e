"""One input line of `tessera analyze` as a JSON value, whatever its bytes.

``load`` never raises anything but ``BadLine``: the bytes must be UTF-8, the JSON nested
at most ``MAX_DEPTH`` deep (checked before parsing, so the parser cannot run out of
stack), and every number finite. Python's parser reads ``NaN``, ``Infinity`` and
numbers beyond a float's range, and refuses integers of more than 4,300 digits with a
``ValueError``; here such numbers parse to ``OutOfRange`` markers, which ``check_values``
turns into an error naming the field. Strings that hold a lone surrogate (``"\\ud800"``)
are not Unicode text and are refused the same way.

``shorten`` is how an error shows a value: never more than ``SHOWN_CHARS`` of it.
"""

import json
import math
import re

MAX_DEPTH = 64  # arrays and objects inside one another
SHOWN_CHARS = 80  # of a bad value, in an error
MAX_INTEGER_DIGITS = 40  # longer integers are out of every range a query has

_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape, a quote or a bracket
_LEADING_ID = re.compile(rb'\A\s*\{\s*"id"\s*:\s*("[^"\\]*(?:\\.[^"\\]*)*")')
_SURROGATE = re.compile("[\ud800-\udfff]")


class BadLine(Exception):
    """A line that is no JSON value: ``query_id`` is its id when its first field gives it."""

    def __init__(self, message, query_id=None):
        self.query_id = query_id
        super().__init__(message)


class OutOfRange:
    """A number the query cannot mean: NaN, an infinity, or an integer too long to be one."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return shorten_text(self.text)


def load(data):
    """The JSON value of ``data`` (bytes, or text as the web page's queries come)."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise BadLine(f"not valid JSON: the line is not UTF-8 (byte {err.start + 1})", leading_id(data)) from None
    else:
        text = data
    depth = too_deep(text)
    if depth:
        raise BadLine(f"JSON nested {depth} deep; at most {MAX_DEPTH} levels are read", leading_id(data))
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=OutOfRange)
    except json.JSONDecodeError as err:
        raise BadLine(f"not valid JSON ({err.msg} at column {err.colno})", leading_id(data)) from None


def too_deep(text):
    """How deep arrays and objects nest in ``text`` if deeper than ``MAX_DEPTH``, else 0.

    One pass over its escapes, quotes and brackets: brackets inside strings do not count.
    (A backslash outside a string is not JSON, and the parser stops there.)"""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0
    depth = deepest = 0
    inside_string = False
    for token in _TOKEN.findall(text):
        if token == '"':
            inside_string = not inside_string
        elif inside_string or len(token) > 1:
            continue
        elif token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest if deepest > MAX_DEPTH else 0


def leading_id(data):
    """The line's id when it is the first field (a line too long or too deep to parse)."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    found = _LEADING_ID.match(raw[:4096])
    if found is None:
        return None
    try:
        query_id = json.loads(found.group(1).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return query_id if not _SURROGATE.search(query_id) else None


def _integer(text):
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_INTEGER_DIGITS else OutOfRange(text)


def _float(text):
    value = float(text)
    return value if math.isfinite(value) else OutOfRange(text)


def check_values(value, path=()):
    """(path, message) of the first number out of range or string with a lone surrogate
    in ``value``, or None. ``path``: the keys and indices down to it."""
    if isinstance(value, OutOfRange):
        what = "is not a finite number" if not value.text.lstrip("-")[:1].isdigit() else "is out of range"
        return path, f"{value!r} {what}"
    if isinstance(value, str):
        if _SURROGATE.search(value):
            return path, "a string with a lone surrogate (\\ud800-\\udfff) is not Unicode text"
        return None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        if isinstance(key, str) and _SURROGATE.search(key):
            return path, "a name with a lone surrogate (\\ud800-\\udfff) is not Unicode text"
        found = check_values(item, (*path, key))
        if found is not None:
            return found
    return None


def shorten(value):
    """``repr(value)``, cut to at most ``SHOWN_CHARS`` characters."""
    return shorten_text(repr(value))


def shorten_text(text):
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[: SHOWN_CHARS - 1]}… ({len(text):,} characters)"
