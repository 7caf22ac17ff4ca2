"""The progress bar of every long command: tqdm on stderr, hidden when disabled or when stderr is not
a terminal. `progress_bar(...)(items)` wraps an iterable; `progress_bar(...)()` is a bar to update."""
from __future__ import annotations

import sys
from functools import partial


def progress_bar(enabled: bool, total: int | None = None, desc: str = "scoring"):
    from tqdm import tqdm  # noqa: PLC0415  (only commands show bars)

    tqdm.monitor_interval = 0  # no monitor thread: scoring may fork worker processes
    return partial(tqdm, total=total, desc=desc, unit="ex", file=sys.stderr, disable=None if enabled else True,
                   dynamic_ncols=True)
