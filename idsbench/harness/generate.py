"""Run a System over Examples, appending each result to the predictions JSONL the moment it arrives.

Workers (threads) only call the system; the calling thread is the one writer, so lines never interleave.
Interrupted runs resume: ids already in the file are skipped (a line cut short by a crash is redone).
The first example goes out alone, the others once it has answered or has been on its way for
FIRST_ALONE_S seconds: a system that cannot be reached (SystemUnreachable) stops the run after one attempt.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, replace
from pathlib import Path

from idsbench.progress import progress_bar

from .examples import Example
from .failures import one_line
from .predictions import Generation, PredictionWriter, prediction_row, prepare
from .systems import System, SystemUnreachable

FIRST_ALONE_S = 5.0


@dataclass(frozen=True)
class GenerateReport:
    path: Path
    total: int  # examples selected
    skipped: int  # already in the file from an earlier run
    written: int
    failed: int  # written with prediction null


def call_system(system: System, example: Example) -> Generation:
    """The system's answer; a crash of the system is recorded as a failed example, not raised."""
    visible = example if system.needs_gold else example.without_gold()
    start = time.perf_counter()
    try:
        generation = system.call(visible)
    except SystemUnreachable:
        raise
    except Exception as exc:  # noqa: BLE001  (KeyboardInterrupt and SystemExit still stop the run)
        generation = Generation(None, None, None, f"{system.name} failed: {type(exc).__name__}: {exc}")
    return replace(generation, latency_s=generation.latency_s or time.perf_counter() - start)


def say(bar, text: str) -> None:
    """A line on stderr above the progress bar (tqdm's write keeps the bar intact)."""
    write = getattr(bar, "write", None)
    if write is not None:
        write(text, file=sys.stderr)
    else:
        print(text, file=sys.stderr)


def submit_all(pool: ThreadPoolExecutor, system: System, todo: Sequence[Example]) -> dict[Future, Example]:
    """Every call, the first one alone until it answers or FIRST_ALONE_S pass."""
    futures = {pool.submit(call_system, system, e): e for e in todo[:1]}
    done, _ = wait(futures, timeout=FIRST_ALONE_S)
    if any(isinstance(f.exception(), SystemUnreachable) for f in done):
        return futures  # the caller re-raises it; nothing else is tried
    futures.update({pool.submit(call_system, system, e): e for e in todo[1:]})
    return futures


def generate(
    examples: Sequence[Example],
    system: System,
    path: Path,
    *,
    concurrency: int = 1,
    overwrite: bool = False,
    retry_failed: bool = False,
    progress: bool = True,
) -> GenerateReport:
    """Generate every example not yet in `path`. Re-raises KeyboardInterrupt after saving what arrived,
    and SystemUnreachable (nothing written for the example that met it)."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    path = Path(path)
    kept = prepare(path, system.run_config, overwrite=overwrite, retry_failed=retry_failed)
    todo = [e for e in examples if e.id not in kept]
    if len(todo) < len(examples):
        print(f"resuming: {len(examples) - len(todo)} of {len(examples)} already in {path}", file=sys.stderr)
    tags = system.tags()
    written = failed = 0
    bar = progress_bar(progress, len(todo), f"generating ({system.model})")()
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="generate")
    try:
        with PredictionWriter(path) as writer:
            futures = submit_all(pool, system, todo)
            for future in as_completed(futures):
                generation = future.result()
                writer.write(prediction_row(futures[future].id, generation, tags))
                written += 1
                failed += generation.prediction is None
                bar.update(1)
                if generation.prediction is None and failed == 1:
                    say(bar, f"first failed generation: {futures[future].id}: {one_line(generation.error)}")
                if failed:
                    bar.set_postfix(failed=failed, refresh=False)
    except SystemUnreachable:
        pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
        raise
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)  # requests in flight are abandoned, redone on resume
        bar.close()
        print(f"\ninterrupted: {len(kept) + written} of {len(examples)} examples saved in {path}; "
              "run the same command again to resume", file=sys.stderr)
        raise
    pool.shutdown(wait=True)
    bar.close()
    return GenerateReport(path, len(examples), len(examples) - len(todo), written, failed)
