"""Scoring examples in worker processes, each under a deadline.

Why processes: a pathological document can keep C code busy (libxml2, expat, the regex engine)
where no Python-level timeout can interrupt it. Each worker scores one example at a time with the
function it is given, `pipeline.evaluate_one` (the very function of the in-process path), so verdicts
and scores are the same.
A worker that overruns its example's deadline is killed and replaced, and the example is scored
as failed with its reason ("timeout after 60s": Stage 1 verdict 0/0/0, as the spec says for
timeouts, and facet scores 0). A worker that dies (a crash, the OOM killer) is handled the same
way. Results come back in input order, whatever the order in which workers finish.

Each worker holds up to PIPELINE tasks, so that it starts the next example as soon as it sends a
result, without waiting a round trip for the parent (0.2-0.8 ms an example). A task carries the
output and its reference's index: a worker is sent each reference (its gold document and metadata)
once, and keeps it, with whatever it computed once for that gold (idsbench/goldside.py). The deadline runs
from the moment the parent knows the example started: when it was sent to an idle worker, or when
the result of the one before it arrived (so an example gets at least its time limit).

Workers are forked on Linux: they start in milliseconds and inherit the caches the parent warmed
(vocabularies, compiled XSD), which matters when a killed worker is replaced. Elsewhere they are
spawned and warm up on their own.
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait

from idsbench.example import AuditSummary, Auditor, ExampleResult, Reference
from idsbench.facets.counts import failed

DEFAULT_TIME_LIMIT = 60.0
PIPELINE = 2  # tasks in flight per worker
Task = tuple[int, "str | None", Reference]
_REFERENCE = "reference"  # a message that gives a worker a reference: (_REFERENCE, index, reference)
Evaluate = Callable[["str | None", Reference, "Auditor | None"], ExampleResult]
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


def _serve(conn: Connection, make_auditor: Callable[[], Auditor] | None, evaluate: Evaluate) -> None:
    """Worker loop: score each task received, until None (or until the parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    auditor = make_auditor() if make_auditor else None
    references: dict[int, Reference] = {}
    while (message := _receive(conn)) is not None:
        if message[0] == _REFERENCE:
            references[message[1]] = message[2]
            continue
        index, raw, number = message
        reference = references[number]
        try:
            result = evaluate(raw, reference, auditor)
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
    tasks: deque = field(default_factory=deque)  # in flight, in order; the first is being scored
    deadline: float = 0.0  # of the first
    known: set = field(default_factory=set)  # indexes of the references it was sent

    def give(self, task: Task, number: int, time_limit: float) -> None:
        """Send a task; its reference is sent first if this worker has not had it (`number`: its index)."""
        index, raw, reference = task
        if not self.tasks:
            self.deadline = time.monotonic() + time_limit
        self.tasks.append(task)  # before sending: if the worker is gone, its replacement gets it
        if number not in self.known:
            self.known.add(number)
            self.conn.send((_REFERENCE, number, reference))
        self.conn.send((index, raw, number))

    def done(self, time_limit: float) -> None:
        """The first task's result arrived: the next one has started."""
        self.tasks.popleft()
        self.deadline = time.monotonic() + time_limit

    def stop(self, force: bool = False) -> None:
        if not force:
            try:
                self.conn.send(None)
            except OSError:
                force = True
        self.process.join(timeout=0 if force else 5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class WorkerPool:
    """`workers` processes scoring (raw, reference) pairs under a per-example `time_limit`."""

    def __init__(self, workers: int, time_limit: float, make_auditor: Callable[[], Auditor] | None,
                 evaluate: Evaluate, method: str | None = None):
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if not time_limit > 0:
            raise ValueError(f"time_limit must be positive, got {time_limit}")
        self.time_limit, self.make_auditor, self.evaluate = time_limit, make_auditor, evaluate
        self.context = multiprocessing.get_context(method or start_method())
        if self.context.get_start_method() == "fork" and make_auditor is not None:
            make_auditor()(WARM_UP_DOCUMENT)  # forked workers inherit the warmed caches
        self.numbers: dict[int, int] = {}  # id(reference) -> its index, for the references seen
        self.seen: list[Reference] = []  # keeps them alive (their ids stay theirs)
        self.workers = [self._start() for _ in range(workers)]

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(child, self.make_auditor, self.evaluate), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _replace(self, worker: _Worker, tasks: Iterable[Task] = ()) -> _Worker:
        """A fresh worker in place of `worker`, given `tasks` (those queued behind a failure)."""
        worker.stop(force=True)
        fresh = self.workers[self.workers.index(worker)] = self._start()
        for task in tasks:
            fresh.give(task, self._number(task[2]), self.time_limit)
        return fresh

    def _number(self, reference: Reference) -> int:
        number = self.numbers.get(id(reference))
        if number is None:
            number = self.numbers[id(reference)] = len(self.seen)
            self.seen.append(reference)
        return number

    def _give(self, worker: _Worker, task: Task) -> None:
        try:
            worker.give(task, self._number(task[2]), self.time_limit)
        except OSError:  # it died while idle (the OOM killer, say): a fresh one takes its tasks
            self._replace(worker, worker.tasks)

    def _fill(self, tasks: Iterator[Task]) -> bool:
        """Give every worker tasks up to PIPELINE; False once `tasks` is exhausted."""
        for slot in range(len(self.workers)):
            while len(self.workers[slot].tasks) < PIPELINE:  # re-read: _give may replace the worker
                task = next(tasks, None)
                if task is None:
                    return False
                self._give(self.workers[slot], task)
        return True

    def _failure(self, worker: _Worker, reason: str, status_text: str) -> tuple[int, ExampleResult]:
        index, _, reference = worker.tasks.popleft()
        self._replace(worker, worker.tasks)
        return index, unscored(reference, reason, status_text, self.make_auditor is not None)

    def _collect(self) -> list[tuple[int, ExampleResult]]:
        """Wait for a result or the earliest deadline; return what finished (or failed)."""
        busy = [w for w in self.workers if w.tasks]
        timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
        ready = set(wait([w.conn for w in busy], timeout))
        finished = []
        for worker in busy:
            if worker.conn in ready:
                try:
                    finished.append(worker.conn.recv())
                    worker.done(self.time_limit)
                except (EOFError, OSError):
                    worker.process.join(timeout=1)
                    reason = f"worker died (exit code {worker.process.exitcode})"
                    finished.append(self._failure(worker, reason, "WorkerDied"))
            elif time.monotonic() >= worker.deadline:
                limit = f"{self.time_limit:g}s"
                finished.append(self._failure(worker, f"timeout after {limit}", "Timeout"))
        return finished

    def imap(self, pairs: Iterable[tuple[str | None, Reference]]) -> Iterator[ExampleResult]:
        """Results in input order; at most PIPELINE tasks per worker are in flight."""
        tasks = ((i, raw, ref) for i, (raw, ref) in enumerate(pairs))
        done: dict[int, ExampleResult] = {}
        next_index, more = 0, True
        while True:
            more = more and self._fill(tasks)
            if not any(w.tasks for w in self.workers):
                break
            done.update(self._collect())
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(force=bool(worker.tasks))

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def evaluate_isolated(pairs: Iterable[tuple[str | None, Reference]], make_auditor: Callable[[], Auditor] | None,
                      evaluate: Evaluate, workers: int = 1,
                      time_limit: float = DEFAULT_TIME_LIMIT) -> Iterator[ExampleResult]:
    """`evaluate` (pipeline.evaluate_one) over `pairs` in `workers` processes, each example within
    `time_limit` seconds."""
    with WorkerPool(workers, time_limit, make_auditor, evaluate) as pool:
        yield from pool.imap(pairs)
