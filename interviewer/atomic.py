"""One way to write a file so that a crash leaves the old version or the new one, never a torn one.

Used for transcripts (``transcripts.py``, the only writer of sessions) and for
the structured-output cache.  The data goes to a temp file in the same folder,
is flushed and fsynced, renamed over the target, and the folder is fsynced so
the rename itself survives a power cut.  If any step fails, the temp file is
removed before the error propagates, so failed writes leave no debris.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; creates the folder if needed.  Raises ``OSError``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (a rename) to disk; a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
