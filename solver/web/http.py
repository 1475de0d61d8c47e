"""Reading a request's JSON body, for every route of the API."""
import asyncio
import json

from starlette.responses import JSONResponse

from tessera.web.documents import BadRequest

MAX_BODY = 1 << 20                  # bytes of a request body


async def json_body(request):
    """The request's JSON object; BadRequest when it is not one."""
    raw = bytearray()
    async for chunk in request.stream():    # refused as it passes the limit, not once all read
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request is over {MAX_BODY} bytes")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    return body


def json_route(handler):
    """An endpoint of ``handler(body) -> dict``, run in a worker thread."""
    async def endpoint(request):
        body = await json_body(request)
        return JSONResponse(await asyncio.to_thread(handler, body))
    endpoint.__name__ = handler.__name__
    return endpoint
