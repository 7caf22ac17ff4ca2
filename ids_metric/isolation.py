"""Scoring examples in worker processes, each under a deadline.

Why processes: a pathological document can keep C code busy (libxml2, expat, the regex engine)
where no Python-level timeout can interrupt it. Each worker scores one example at a time with
`evaluate_one`, the very function of the in-process path, so verdicts and scores are the same.
A worker that overruns its example's deadline is killed and replaced, and the example is scored
as failed with its reason ("timeout after 60s": Stage 1 verdict 0/0/0, as the spec says for
timeouts, and facet scores 0). A worker that dies (a crash, the OOM killer) is handled the same
way. Results come back in input order, whatever the order in which workers finish.

Workers are forked on Linux: they start in milliseconds and inherit the caches the parent warmed
(vocabularies, compiled XSD), which matters when a killed worker is replaced. Elsewhere they are
spawned and warm up on their own.
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from .evaluation import AuditSummary, Auditor, ExampleResult, Reference, evaluate_one
from .scorer import failed

DEFAULT_TIME_LIMIT = 60.0
Task = tuple[int, "str | None", Reference]
# A minimal IDS naming all three IFC schemas: auditing it loads what the workers will need.
WARM_UP_DOCUMENT = (
    '<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://standards.buildingsmart.org/IDS '
    'http://standards.buildingsmart.org/IDS/1.0/ids.xsd"><info><title>w</title></info><specifications>'
    '<specification name="w" ifcVersion="IFC2X3 IFC4 IFC4X3_ADD2"><applicability><entity><name>'
    '<simpleValue>IFCWALL</simpleValue></name></entity></applicability><requirements><attribute><name>'
    '<simpleValue>Name</simpleValue></name></attribute><property><propertySet><simpleValue>Pset_WallCommon'
    '</simpleValue></propertySet><baseName><simpleValue>FireRating</simpleValue></baseName></property>'
    '</requirements></specification></specifications></ids>'
)


def unscored(reference: Reference, reason: str, status_text: str, audited: bool) -> ExampleResult:
    """A failed example: verdict 0/0/0 (when audited), facet scores 0, and the reason."""
    audit = AuditSummary(None, status_text) if audited else None
    return ExampleResult(reference.id, reference.metadata, failed(reason), audit, reason)


def _serve(conn: Connection, make_auditor: Callable[[], Auditor] | None) -> None:
    """Worker loop: score each task received, until None (or until the parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    auditor = make_auditor() if make_auditor else None
    while (task := _receive(conn)) is not None:
        index, raw, reference = task
        try:
            result = evaluate_one(raw, reference, auditor)
        except Exception as exc:  # noqa: BLE001 - a scorer bug must not take the batch down
            result = unscored(reference, f"scorer error: {type(exc).__name__}: {exc}", "ScorerError",
                              auditor is not None)
        conn.send((index, result))


def _receive(conn: Connection) -> Task | None:
    try:
        return conn.recv()
    except (EOFError, OSError):
        return None


def start_method() -> str:
    return "fork" if sys.platform.startswith("linux") else "spawn"


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    task: Task | None = None
    deadline: float = 0.0

    def give(self, task: Task, time_limit: float) -> None:
        self.task, self.deadline = task, time.monotonic() + time_limit
        self.conn.send(task)

    def stop(self, force: bool = False) -> None:
        if not force:
            try:
                self.conn.send(None)
            except OSError:
                force = True
        self.process.join(timeout=None if not force else 0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class WorkerPool:
    """`workers` processes scoring (raw, reference) pairs under a per-example `time_limit`."""

    def __init__(self, workers: int, time_limit: float, make_auditor: Callable[[], Auditor] | None,
                 method: str | None = None):
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if not time_limit > 0:
            raise ValueError(f"time_limit must be positive, got {time_limit}")
        self.time_limit, self.make_auditor = time_limit, make_auditor
        self.context = multiprocessing.get_context(method or start_method())
        if self.context.get_start_method() == "fork" and make_auditor is not None:
            make_auditor()(WARM_UP_DOCUMENT)  # forked workers inherit the warmed caches
        self.workers = [self._start() for _ in range(workers)]

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(child, self.make_auditor), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _replace(self, worker: _Worker) -> None:
        worker.stop(force=True)
        self.workers[self.workers.index(worker)] = self._start()

    def _failure(self, worker: _Worker, reason: str, status_text: str) -> tuple[int, ExampleResult]:
        index, _, reference = worker.task
        self._replace(worker)
        return index, unscored(reference, reason, status_text, self.make_auditor is not None)

    def _collect(self) -> list[tuple[int, ExampleResult]]:
        """Wait for a result or the earliest deadline; return what finished (or failed)."""
        busy = [w for w in self.workers if w.task is not None]
        timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
        ready = set(wait([w.conn for w in busy], timeout))
        finished = []
        for worker in busy:
            if worker.conn in ready:
                try:
                    finished.append(worker.conn.recv())
                    worker.task = None
                except (EOFError, OSError):
                    worker.process.join(timeout=1)
                    reason = f"worker died (exit code {worker.process.exitcode})"
                    finished.append(self._failure(worker, reason, "WorkerDied"))
            elif time.monotonic() >= worker.deadline:
                limit = f"{self.time_limit:g}s"
                finished.append(self._failure(worker, f"timeout after {limit}", "Timeout"))
        return finished

    def imap(self, pairs: Iterable[tuple[str | None, Reference]]) -> Iterator[ExampleResult]:
        """Results in input order; at most one task per worker is in flight."""
        tasks = ((i, raw, ref) for i, (raw, ref) in enumerate(pairs))
        done: dict[int, ExampleResult] = {}
        next_index, exhausted = 0, False
        while True:
            for worker in self.workers:
                if worker.task is None and not exhausted:
                    task = next(tasks, None)
                    exhausted = task is None
                    if task is not None:
                        worker.give(task, self.time_limit)
            if all(w.task is None for w in self.workers):
                break
            done.update(self._collect())
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
        while next_index in done:
            yield done.pop(next_index)
            next_index += 1

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(force=worker.task is not None)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def evaluate_isolated(pairs: Iterable[tuple[str | None, Reference]], make_auditor: Callable[[], Auditor] | None,
                      workers: int = 1, time_limit: float = DEFAULT_TIME_LIMIT) -> Iterator[ExampleResult]:
    """`evaluate_one` over `pairs` in `workers` processes, each example within `time_limit` seconds."""
    with WorkerPool(workers, time_limit, make_auditor) as pool:
        yield from pool.imap(pairs)
