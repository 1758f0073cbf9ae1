"""Building tens of thousands of small objects at once, without the cyclic collector walking them meanwhile.

Reading ten thousand sessions' digests, or replaying every review when the
drill store is rebuilt, makes hundreds of thousands of lists, tuples and
dicts in one go, none of which can be part of a reference cycle.  Each batch
of allocations would set the collector walking the whole growing heap again:
a fifth to a third of the work.  Reference counting still frees everything
as usual; only the cycle search waits until the batch is built.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block; it resumes afterwards (if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
