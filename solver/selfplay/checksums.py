"""The run's manifest of chunk checksums: DIR/chunks.sha256, a SHA-256 line per chunk.

The lines are ``sha256sum``'s (``<hex>  chunks/chunk-000123.parquet``), so
``cd DIR && sha256sum -c chunks.sha256`` checks a run by hand. A chunk's line is
appended before the chunk gets its final name (``records.write_chunk``), so a chunk
under its final name has its line; a kill in between leaves a line for a chunk that
is not there, or half a line, both harmless: a run rewrites the manifest, one line per
chunk it keeps, when it starts (``rewrite``). Of two lines for one chunk, the last
counts. A run written before checksums were kept has no manifest (``read`` returns None).
"""

import hashlib
from pathlib import Path

from tessera.selfplay.files import write_atomically, writing

MANIFEST = "chunks.sha256"
HEX_DIGITS = 64


def digest(data):
    """The SHA-256 of ``data`` (bytes), in hex."""
    return hashlib.sha256(data).hexdigest()


def read(out_dir):
    """{file name relative to ``out_dir``: hex digest} of the manifest, or None when there is
    none. Lines that are not a digest and a name (one cut short by a kill) are skipped."""
    path = Path(out_dir) / MANIFEST
    if not path.exists():
        return None
    sums = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split(maxsplit=1)
        if len(parts) == 2 and len(parts[0]) == HEX_DIGITS and all(c in "0123456789abcdef" for c in parts[0]):
            sums[parts[1]] = parts[0]
    return sums


def append(out_dir, name, hex_digest):
    """Add the line of ``name`` (relative to ``out_dir``)."""
    path = Path(out_dir) / MANIFEST
    with writing(path), open(path, "a", encoding="utf-8") as manifest:
        manifest.write(_line(name, hex_digest))


def rewrite(out_dir, sums):
    """Make the manifest exactly ``sums`` ({name: hex digest}), atomically."""
    text = "".join(_line(name, sums[name]) for name in sorted(sums))
    write_atomically(Path(out_dir) / MANIFEST, text.encode("utf-8"))


def _line(name, hex_digest):
    return f"{hex_digest}  {name}\n"
