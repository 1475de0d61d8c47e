"""The lines of `tessera analyze`'s input, each at most ``max_bytes`` long.

A longer line is never held whole: its first ``PREFIX_BYTES`` are kept (the query's id
may be read from them) and the rest is read and dropped in chunks up to its newline.
"""

from dataclasses import dataclass

MAX_LINE_BYTES = 1_000_000  # the default limit (--max-line-bytes)
PREFIX_BYTES = 4096
CHUNK_BYTES = 1 << 16


@dataclass
class LongLine:
    """A line beyond the limit: its first bytes and its whole length (newline not counted)."""

    prefix: bytes
    length: int


def read_lines(stream, max_bytes=MAX_LINE_BYTES):
    """Yield each line of the binary ``stream`` as bytes (its newline removed), or as a
    ``LongLine`` when it is longer than ``max_bytes``, until the end of the stream."""
    while True:
        line = stream.readline(max_bytes + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= max_bytes:
            yield line  # the last line, with no newline
        else:
            yield _skip_rest(stream, line)


def _skip_rest(stream, start):
    length = len(start)
    while True:
        chunk = stream.readline(CHUNK_BYTES)
        if not chunk or chunk.endswith(b"\n"):
            length += len(chunk) - chunk.endswith(b"\n")
            return LongLine(start[:PREFIX_BYTES], length)
        length += len(chunk)
