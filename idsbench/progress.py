"""Progress of every long command, on stderr: a tqdm bar on a terminal; elsewhere (a pipe, a CI log) one
plain line every INTERVAL seconds (count, rate, time left) and a last one when done, so long work is
never silent and short work prints nothing. IDS_BENCH_PROGRESS_SECONDS sets the interval.

`progress_bar(...)(items)` wraps an iterable; `progress_bar(...)()` is a bar to `update`.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TextIO

INTERVAL = 30.0  # seconds between two lines on a non-terminal


def progress_bar(enabled: bool, total: int | None = None, desc: str = "scoring", *, stream: TextIO | None = None):
    from tqdm import tqdm  # noqa: PLC0415  (only commands show bars)

    stream = stream or sys.stderr
    if enabled and not _is_terminal(stream):
        return partial(LineProgress, total=total, desc=desc, stream=stream, interval=interval())
    tqdm.monitor_interval = 0  # no monitor thread: scoring may fork worker processes
    return partial(tqdm, total=total, desc=desc, unit="ex", file=stream, disable=not enabled, dynamic_ncols=True)


def interval() -> float:
    try:
        return max(0.0, float(os.environ.get("IDS_BENCH_PROGRESS_SECONDS", INTERVAL)))
    except ValueError:
        return INTERVAL


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _clock_text(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class LineProgress:
    """The part of tqdm's interface the commands use (wrap an iterable, update, set_postfix, close),
    written as one line per `interval` seconds."""

    def __init__(self, iterable: Iterable | None = None, *, total: int | None = None, desc: str = "",
                 stream: TextIO | None = None, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.iterable, self.total, self.desc = iterable, total, desc
        self.stream, self.interval, self.clock = stream or sys.stderr, interval, clock
        self.n, self.postfix, self.lines = 0, "", 0
        self.start = self.last = clock()

    def __iter__(self) -> Iterator:
        try:
            for item in self.iterable or ():
                yield item
                self.update(1)
        finally:
            self.close()

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            self._write(self.line(now))

    def set_postfix(self, refresh: bool = False, **values) -> None:
        self.postfix = ", ".join(f"{k}={v}" for k, v in values.items())

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.n / elapsed
        count = f"{self.n}/{self.total} ({100 * self.n / self.total:.0f}%)" if self.total else str(self.n)
        left = f", about {_clock_text((self.total - self.n) / rate)} left" if self.total and rate > 0 else ""
        extra = f" [{self.postfix}]" if self.postfix else ""
        return f"{self.desc}: {count}, {rate:.1f} ex/s{left}{extra}"

    def close(self) -> None:
        if self.lines:  # long work: say it ended (short work stays silent)
            elapsed = self.clock() - self.start
            extra = f" [{self.postfix}]" if self.postfix else ""
            self._write(f"{self.desc}: {self.n} done in {_clock_text(elapsed)}{extra}")
            self.lines = 0

    def _write(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()
        self.lines += 1
