"""Reading a request's JSON body and writing JSON answers, for every route of the API.

A body is read up to ``MAX_BODY`` bytes (413 past it, refused as it passes the limit),
must be UTF-8 JSON with finite numbers of at most ``MAX_DIGITS`` digits, nested at most
``MAX_DEPTH`` deep and without lone surrogates (``"\\ud800"``): whatever the rules and
the error messages later do with its strings and numbers, they are well-formed.
"""

import asyncio
import json
import re

from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse

from tessera.web.documents import BadRequest

MAX_BODY = 1 << 20  # bytes of a request body
MAX_DEPTH = 32  # arrays and objects inside each other (a position needs 5)
MAX_DIGITS = 40  # of a number, sign and exponent included
SURROGATE = re.compile("[\ud800-\udfff]")


class TooLarge(BadRequest):
    """A request body over MAX_BODY bytes: HTTP 413."""

    status = 413


class ClientGone(Exception):
    """The client went away before its request was read: nobody to answer."""


class Json(JSONResponse):
    """A JSON answer written as ASCII: any string in it, whatever it holds, encodes."""

    def render(self, content):
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


async def json_body(request):
    """The request's JSON object; BadRequest (TooLarge) when it is not one."""
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > MAX_BODY:
        raise TooLarge(f"the request is over {MAX_BODY} bytes")
    raw = bytearray()
    try:
        async for chunk in request.stream():  # refused as it passes the limit, not once all read
            raw += chunk
            if len(raw) > MAX_BODY:
                raise TooLarge(f"the request is over {MAX_BODY} bytes")
    except ClientDisconnect:
        raise ClientGone from None
    return parse_object(bytes(raw))


def parse_object(raw):
    """The JSON object of ``raw`` (bytes), checked as the module's docstring says."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the request is not UTF-8 text") from None
    try:
        body = json.loads(text, parse_constant=_no_constant, parse_int=_whole, parse_float=_real)
    except RecursionError:
        raise BadRequest(f"the request nests arrays or objects over {MAX_DEPTH} deep") from None
    except ValueError as err:
        if isinstance(err, BadRequest):
            raise
        raise BadRequest(f"the request is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    _check_tree(body)
    return body


def _no_constant(name):
    raise BadRequest(f"the request holds {name}, which is no JSON number")


def _whole(text):
    if len(text) > MAX_DIGITS:
        raise BadRequest(f"the request holds a number of over {MAX_DIGITS} digits")
    return int(text)


def _real(text):
    if len(text) > MAX_DIGITS:
        raise BadRequest(f"the request holds a number of over {MAX_DIGITS} digits")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadRequest(f"the request holds a number too large for a float ({text})")
    return value


def _check_tree(body):
    """Every value of ``body`` at most MAX_DEPTH deep, no string or key with a surrogate."""
    pending = [(body, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if SURROGATE.search(value):
                raise BadRequest("the request holds a lone surrogate (\\ud800 to \\udfff), which is no text")
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise BadRequest(f"the request nests arrays or objects over {MAX_DEPTH} deep")
        items = value.items() if isinstance(value, dict) else ((None, item) for item in value)
        for key, item in items:
            if key is not None:
                pending.append((key, depth))
            pending.append((item, depth + 1))


def json_route(handler):
    """An endpoint of ``handler(body) -> dict``, run in a worker thread."""

    async def endpoint(request):
        body = await json_body(request)
        return Json(await asyncio.to_thread(handler, body))

    endpoint.__name__ = handler.__name__
    return endpoint
