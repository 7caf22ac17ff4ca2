"""The generation run: plan, write, verify and keep each task, in index order, into an output folder.

Per task: a plan (drawn again while its scored choices equal a benchmark gold's, or an earlier task's of the
run: no two tasks of a folder ask the same standard items of the same classes), its records in the
requested languages, the audit of every gold of the conversation under both audit profiles (a task with a
finding is dropped and counted: none is expected), and with `prove`, the proof of its final golds on their
witness models (an unproven task is dropped and counted). Tasks are made in worker processes when asked;
results are written in index order, so the output does not depend on the number of workers.
"""
from __future__ import annotations

import json
import multiprocessing
import shlex
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from idsbench.audit import run_audit
from idsbench.audit.profiles import PROFILES
from idsbench.report.signature import data_hash
from idsbench.xmlparse import IdsReader

from .config import Options
from .lexicon import lexicon
from .folder import PROOFS, Writer, claim
from .overlap import Choice, benchmark_choices, plan_choices, shares_choices, signature
from .plan import TaskPlan
from .prove import Ledger, gold_hash, prove_all
from .records import data_file, problems, record
from .sample import sample_task
from .traps import home_traps
from .version import GENERATOR
from .vocab import home

BATCH = 256  # tasks per batch: made, proven, then written
MAX_ATTEMPTS = 50  # draws of a task whose plans keep matching a benchmark gold
DUPLICATE_DRAWS = 8  # draws of a task that keep repeating earlier tasks before the last one is kept


@dataclass(frozen=True)
class Row:
    """A record as the parent writes it: encoded in the worker (strings cross processes cheaply)."""

    id: str
    difficulty: str
    file: str  # the data file name within the split
    line: str  # the record as a JSON line
    gold: str


@dataclass(frozen=True)
class TaskOutcome:
    index: int
    records: tuple[Row, ...]
    resampled: int  # draws rejected for sharing a benchmark gold's choices
    problems: tuple[str, ...]  # audit findings or schema problems (the task is dropped)
    signature: frozenset[Choice] = frozenset()  # overlap.signature of the plan: no later task of the run repeats it


@dataclass
class Tally:
    written: int = 0
    records: int = 0
    resampled: int = 0
    duplicates: int = 0  # tasks drawn again because an earlier task of the run made the same choices
    dropped_audit: list[str] = field(default_factory=list)
    dropped_proof: list[str] = field(default_factory=list)
    difficulties: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def _plan(seed: int, index: int, difficulty: str, languages, benchmark,
          avoid: frozenset = frozenset()) -> tuple[TaskPlan, int]:
    """The first draw that shares no benchmark gold's choices and, where it can, no signature of `avoid` (the
    earlier tasks'); the count of draws rejected for the benchmark."""
    rejected, repeated = 0, 0
    for attempt in range(MAX_ATTEMPTS):
        plan = sample_task(seed, index, difficulty, attempt)
        if shares_choices(plan, languages, benchmark):
            rejected += 1
        elif signature(plan_choices(plan, languages[0])) not in avoid or repeated == DUPLICATE_DRAWS:
            return plan, rejected  # where the setting has few tasks left to ask, a repeat is kept at last
        else:
            repeated += 1
    raise RuntimeError(f"task {index}: every draw matched a benchmark gold")  # never seen; a generator bug


def _audit_problems(recs: list[dict]) -> list[str]:
    found = []
    for rec in recs:
        golds = [m["content"] for m in rec["messages"] if m["role"] == "assistant"]
        for turn, gold in enumerate(golds, 1):
            reader = IdsReader(gold.encode("utf-8"))  # one parse for both profiles
            for profile in PROFILES:
                result = run_audit(gold, profile, reader=reader).result()
                if result.status != 0:
                    codes = sorted({f.code for f in result.findings})
                    found.append(f"{rec['id']} turn {turn}: {profile} status {result.status} (codes {codes})")
    return found


_JOB: dict = {}  # what the workers need, set before they fork
WARM_FROM = 1000  # tasks from which every home is looked up before the workers fork (about a second)


def _warm_tables() -> None:
    """Every concept's home and traps for every group and version, looked up once here rather than once in
    each worker (forked workers share what the parent computed)."""
    lex = lexicon()
    for group in lex.groups:
        for version in group.versions:
            for concept in (*lex.properties.values(), *lex.quantities.values()):
                found = home(version, group, concept)
                if found is not None:
                    home_traps(version, found, concept.quantity)


def make_task(index: int, avoid: frozenset = frozenset()) -> TaskOutcome:
    plan, resampled = _plan(_JOB["seed"], index, _JOB["difficulty"], _JOB["languages"], _JOB["benchmark"], avoid)
    recs = [record(plan, language) for language in _JOB["languages"]]
    found = [f"{r['id']}: {p}" for r in recs for p in problems(r)] + _audit_problems(recs)
    rows = tuple(Row(r["id"], r["difficulty"], data_file(_JOB["split"], r), json.dumps(r, ensure_ascii=False),
                     r["gold_ids"]) for r in recs)
    return TaskOutcome(index, rows, resampled, tuple(found), signature(plan_choices(plan, _JOB["languages"][0])))


def _distinct(outcomes: list[TaskOutcome], seen: set, tally: Tally) -> list[TaskOutcome]:
    """The outcomes in index order, each task whose signature an earlier one has drawn again here (in the
    parent: the result does not depend on the number of workers, and task i on tasks before it only)."""
    found = []
    for outcome in outcomes:
        if outcome.signature in seen:
            outcome = make_task(outcome.index, frozenset(seen))
            tally.duplicates += 1
        seen.add(outcome.signature)
        found.append(outcome)
    return found


def _outcomes(indexes: range, workers: int, pool) -> Iterator[TaskOutcome]:
    if workers > 1:
        return pool.imap(make_task, indexes, chunksize=16)
    return map(make_task, indexes)


def _batches(n: int) -> Iterator[range]:
    for start in range(0, n, BATCH):
        yield range(start, min(n, start + BATCH))


def _keep(outcome: TaskOutcome, proofs: dict, tally: Tally) -> bool:
    tally.resampled += outcome.resampled
    if outcome.problems:
        tally.dropped_audit.append(f"task {outcome.index}: {outcome.problems[0]}")
        return False
    for row in outcome.records:
        proof = proofs.get(gold_hash(row.gold))
        if proof is not None and not proof.proven:
            tally.dropped_proof.append(f"{row.id}: {proof.reason}")
            return False
    return True


def command(options: Options) -> str:
    """The command that makes the same folder."""
    if options.name:
        return f"ids-bench synth --eval-set {options.name} --out DIR"
    words = ["ids-bench", "synth", "--n", str(options.n), "--seed", str(options.seed), "--difficulty",
             options.difficulty, "--language", "both" if len(options.languages) == 2 else options.languages[0],
             "--split", options.split] + (["--prove"] if options.prove else []) + ["--out", "DIR"]
    return shlex.join(words)


def manifest(options: Options, tally: Tally | None = None, benchmark: str = "") -> dict:
    found = {"name": options.name, "generator": GENERATOR, "seed": options.seed, "difficulty": options.difficulty,
             "languages": list(options.languages), "n": options.n, "split": options.split, "prove": options.prove,
             "command": command(options)}
    if tally is not None:
        found.update(tasks=tally.written, records=tally.records, by_difficulty=dict(sorted(tally.difficulties.items())),
                     dropped_audit=len(tally.dropped_audit), dropped_proof=len(tally.dropped_proof),
                     redrawn_for_benchmark_overlap=tally.resampled, redrawn_as_duplicates=tally.duplicates,
                     benchmark_data=benchmark)
    return found


def generate(options: Options, out: Path, *, overwrite: bool = False,
             progress: Callable[[int], None] | None = None) -> Tally:
    """Make the folder; the tally says what was written, dropped and drawn again."""
    claim(out, manifest(options), overwrite)
    started = time.perf_counter()
    benchmark = benchmark_choices()
    _JOB.update(seed=options.seed, difficulty=options.difficulty, languages=options.languages, benchmark=benchmark,
                split=options.split)
    make_task(0)  # warms the vocabulary, the lexicon and the audit here, so forked workers start warm
    if options.workers > 1 and options.n >= WARM_FROM:
        _warm_tables()
    ledger = Ledger(out / PROOFS if options.prove else None)
    tally, seen = Tally(), set()
    pool = multiprocessing.get_context("fork").Pool(options.workers) if options.workers > 1 else None
    try:
        with Writer(out, options.split) as writer:
            writer.start(manifest(options))
            for indexes in _batches(options.n):
                outcomes = _distinct(list(_outcomes(indexes, options.workers, pool)), seen, tally)
                golds = [r.gold for o in outcomes if not o.problems for r in o.records]
                proofs = prove_all(golds, ledger, options.workers) if options.prove else {}
                for outcome in outcomes:
                    if _keep(outcome, proofs, tally):
                        for row in outcome.records:
                            writer.write_line(row.file, row.line)
                        tally.written += 1
                        tally.records += len(outcome.records)
                        tally.difficulties[outcome.records[0].difficulty] += 1
                if progress:
                    progress(len(indexes))
            writer.finish(manifest(options, tally, data_hash(_benchmark_golds())))
    except BaseException:
        if pool is not None:
            pool.terminate()  # Ctrl-C or a failure: the workers stop now, not after their queue
        raise
    if pool is not None:
        pool.close()
        pool.join()
    tally.seconds = time.perf_counter() - started
    return tally


def _benchmark_golds() -> list[str]:
    from idsbench.records import iter_records  # noqa: PLC0415

    return [rec["gold_ids"] for _, _, rec in iter_records()]
