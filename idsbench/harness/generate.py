"""Run a System over Examples, appending each result to the predictions JSONL the moment it arrives.

Workers (threads) only call the system; the calling thread is the one writer, so lines never interleave.
Interrupted runs resume: ids already in the file are skipped (a line cut short by a crash is redone), and
under a repair protocol an unfinished example resumes at the round it reached (journal.py).
The first example goes out alone, the others once it has answered or has been on its way for
FIRST_ALONE_S seconds: a system that cannot be reached (SystemUnreachable) stops the run after one attempt.
"""
from __future__ import annotations

import queue
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

from idsbench.progress import progress_bar

from .conversation import Conversation, Plan
from .examples import Example
from .failures import one_line
from .journal import Journal, close_journal, journal_path, read_journal
from .predictions import Generation, PredictionWriter, prepare, read_existing
from .repair import Round
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


def step(system: System, conversation: Conversation) -> Round:
    """The conversation's next round (run in a worker)."""
    return conversation.answered(call_system(system, conversation.next_example()))


class Rows:
    """The one writer of finished conversations; the bar and the first failure's line follow it."""

    def __init__(self, writer: PredictionWriter, bar, tags: dict) -> None:
        self.writer, self.bar, self.tags = writer, bar, tags
        self.written = self.failed = 0

    def finish(self, conversation: Conversation) -> None:
        row = conversation.row(self.tags)
        self.writer.write(row)
        self.written += 1
        if row["prediction"] is None:
            self.failed += 1
            if self.failed == 1:  # said when it happens: an endpoint problem shows in the first minutes
                say(self.bar, f"first failed generation: {row['id']}: {one_line(row['error'])}")
            self.bar.set_postfix(failed=self.failed, refresh=False)
        self.bar.update(1)


class Calls:
    """Rounds in flight, handed back in the order they finish (so that an interrupt loses none that did)."""

    def __init__(self, pool: ThreadPoolExecutor, system: System) -> None:
        self.pool, self.system = pool, system
        self.pending: dict[Future, Conversation] = {}
        self.finished: queue.SimpleQueue[Future] = queue.SimpleQueue()

    def submit(self, conversation: Conversation) -> Future:
        future = self.pool.submit(step, self.system, conversation)
        self.pending[future] = conversation
        future.add_done_callback(self.finished.put)
        return future

    def start(self, waiting: Sequence[Conversation]) -> None:
        """Every first round, the first one alone until it answers or FIRST_ALONE_S pass."""
        if not waiting:
            return
        first = self.submit(waiting[0])
        done, _ = wait([first], timeout=FIRST_ALONE_S)
        if done and isinstance(first.exception(), SystemUnreachable):
            return  # handed back first: the caller re-raises it and nothing else is tried
        for conversation in waiting[1:]:
            self.submit(conversation)

    def next(self) -> tuple[Conversation, Round]:
        future = self.finished.get()
        return self.pending.pop(future), future.result()


def converse(calls: Calls, conversations: Sequence[Conversation], rows: Rows, journal: Journal | None) -> None:
    """Every conversation to its end: each answered round is journaled, then sent on or finished."""
    for finished in (c for c in conversations if c.done):  # its last round was journaled, its row not written
        rows.finish(finished)
    calls.start([c for c in conversations if not c.done])
    while calls.pending:
        conversation, answered = calls.next()
        conversation.rounds.append(answered)
        if journal is not None and answered.generation.prediction is not None:
            journal.write(conversation.example.id, answered)
        if conversation.done:
            rows.finish(conversation)
        else:
            calls.submit(conversation)


def resumed(plan: Plan, todo: Sequence[Example], journal: Path, run_config: str) -> list[Conversation]:
    started = read_journal(journal, run_config) if plan.repair is not None else {}
    conversations = [plan.open(e, started.get(e.id, ())) for e in todo]
    unfinished = sum(1 for c in conversations if c.rounds)
    if unfinished:
        print(f"resuming {unfinished} unfinished conversation(s) at the round they reached ({journal})",
              file=sys.stderr)
    return conversations


def generate(
    examples: Sequence[Example],
    system: System,
    path: Path,
    *,
    concurrency: int = 1,
    overwrite: bool = False,
    retry_failed: bool = False,
    progress: bool = True,
    plan: Plan = Plan(),
) -> GenerateReport:
    """Generate every example not yet in `path`, under `plan` (few-shot turns, repair rounds). Re-raises
    KeyboardInterrupt after saving what arrived, and SystemUnreachable (nothing written for its example)."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    path, journal = Path(path), journal_path(Path(path))
    if overwrite:
        journal.unlink(missing_ok=True)
    kept = prepare(path, system.run_config, overwrite=overwrite, retry_failed=retry_failed)
    todo = [e for e in examples if e.id not in kept]
    if len(todo) < len(examples):
        print(f"resuming: {len(examples) - len(todo)} of {len(examples)} already in {path}", file=sys.stderr)
    conversations = resumed(plan, todo, journal, system.run_config)
    bar = progress_bar(progress, len(todo), f"generating ({system.model})")()
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="generate")
    try:
        with PredictionWriter(path) as writer, \
                (Journal(journal, system.run_config) if plan.repair else nullcontext()) as journaling:
            rows = Rows(writer, bar, system.tags())
            converse(Calls(pool, system), conversations, rows, journaling)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)  # requests in flight are abandoned, redone on resume
        bar.close()
        finished = read_existing(path).rows
        saved = sum(1 for e in examples if e.id in finished)
        print(f"\ninterrupted: {saved} of {len(examples)} examples saved in {path}; "
              "run the same command again to resume", file=sys.stderr)
        raise
    finally:  # also after SystemUnreachable: nothing more is sent (on success nothing is left to send)
        pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
    if plan.repair is not None:  # a failed example keeps its rounds there for --retry-failed
        close_journal(journal, {i for i, row in read_existing(path).rows.items() if row.get("prediction") is not None})
    return GenerateReport(path, len(examples), len(examples) - len(todo), rows.written, rows.failed)
