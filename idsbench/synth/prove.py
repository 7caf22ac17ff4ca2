"""Every gold against its own witness models (the dataset's gate l), in worker processes.

A proof builds IFC models from the gold with ifcopenshell and checks them with ifctester (0.1 s to a few
seconds a gold): the golds of a batch are proven in a pool of forked workers, each result kept in the
output folder's proof ledger under the gold's hash, so an interrupted run resumes where it stopped. A task
whose gold cannot be proven is dropped and counted.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MAX_REASON = 300


@dataclass(frozen=True)
class Proof:
    proven: bool
    reason: str = ""
    witnesses: int = 0


def gold_hash(gold: str) -> str:
    return hashlib.sha256(gold.encode("utf-8")).hexdigest()


def prove_one(gold: str) -> Proof:
    """The proof of one gold, in memory (no witness files are written)."""
    from idsbench.behaviour.cache import witnesses_for  # noqa: PLC0415 - IFC libraries load in the workers
    from idsbench.behaviour.check import Unchecked  # noqa: PLC0415

    try:
        found = witnesses_for(gold, cache_dir=None)
    except Exception as exc:  # noqa: BLE001 - a gold the witness builder cannot handle is a dropped task
        return Proof(False, f"{type(exc).__name__}: {exc}"[:MAX_REASON])
    if isinstance(found, Unchecked):
        return Proof(False, found.reason[:MAX_REASON])
    if found.proven:
        return Proof(True, "", len(found.verdicts))
    details = (found.unsupported + found.failures)[:3] or ["no witnesses"]
    return Proof(False, "; ".join(details)[:MAX_REASON], len(found.verdicts))


class Ledger:
    """Proof results by gold hash, read from and appended to a JSON Lines file."""

    def __init__(self, path: Path | None):
        self.path, self.known = path, {}
        if path is not None and path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                self.known[row["gold"]] = Proof(row["proven"], row["reason"], row["witnesses"])

    def record(self, key: str, proof: Proof) -> None:
        self.known[key] = proof
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"gold": key, "proven": proof.proven, "reason": proof.reason,
                                         "witnesses": proof.witnesses}) + "\n")


def prove_all(golds: Iterable[str], ledger: Ledger, workers: int) -> dict[str, Proof]:
    """{gold hash: proof} for the golds, from the ledger or proven now (in `workers` processes)."""
    wanted = {gold_hash(g): g for g in golds}
    todo = [(k, g) for k, g in wanted.items() if k not in ledger.known]
    if todo:  # always in workers: ifcopenshell is C++, and a crash there must not take the run down
        with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
            for (key, _), proof in zip(todo, pool.imap(prove_one, [g for _, g in todo])):
                ledger.record(key, proof)
    return {k: ledger.known[k] for k in wanted}
