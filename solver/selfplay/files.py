"""Files of a run folder written whole or not at all, and what a failed write says.

A file is written under a temporary name (``PARTIAL`` added) and renamed: readers see
the old file or the new one, and a kill leaves at most a temporary file, which the
next start removes. Data and rename are synced to disk, so a power cut cannot leave
a named file that is empty. A write that fails (a full disk, a read-only folder) removes its
temporary file and raises ``WriteError``, one line naming the file.
"""

import os
from contextlib import contextmanager, suppress
from pathlib import Path

from tessera.errors import TesseraError

PARTIAL = ".partial"


class WriteError(TesseraError):
    """A file of the run folder that could not be written."""


@contextmanager
def writing(path):
    """Turn an OSError in the block into a ``WriteError`` naming ``path``."""
    try:
        yield
    except OSError as err:
        raise WriteError(f"cannot write {path}: {err.strerror or err}") from None


def write_atomically(path, data, before_rename=None):
    """Write ``data`` (bytes) to ``path`` atomically; ``before_rename()`` runs once the data
    is written, before the file takes its name."""
    path = Path(path)
    partial = path.with_name(path.name + PARTIAL)
    with writing(path):
        try:
            with open(partial, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())  # the data is on disk before the name says so
            if before_rename:
                before_rename()
            os.replace(partial, path)
            _sync_folder(path.parent)  # and the rename survives a power cut
        except BaseException:
            with suppress(OSError):
                partial.unlink()
            raise


def _sync_folder(folder):
    """Flush ``folder``'s entries (a rename) to disk where the platform allows it."""
    with suppress(OSError):  # Windows, or a file system that refuses
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
