"""Pinned evaluation sets: fixed generator version, seed and options, regenerated bit for bit by one command.

`ids-bench synth --eval-set synth-eval-v1 --out DIR` makes the set and checks its data hash (the `data:`
part of the signature every score on it carries, over the gold documents) against the pinned one: a
different hash means the generator, its lexicon or the IFC vocabulary changed, and the scores would not
be comparable. The set is not committed; tests/synth/test_evalset.py regenerates a slice and checks its
hash.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from .config import Options
from .version import GENERATOR


@dataclass(frozen=True)
class EvalSet:
    name: str
    options: Options
    generator: str
    data_hash: str  # signature data hash of all its golds; "" until measured
    slice_hash: str  # sha256 prefix of the records of its first SLICE tasks (tests)


SLICE = 6
EVAL_SETS = {
    "synth-eval-v1": EvalSet(
        "synth-eval-v1",
        Options(n=2000, seed=20250, difficulty="mixed", languages=("en", "ja"), split="test", prove=True,
                name="synth-eval-v1"),
        GENERATOR, data_hash="71d09592dc07", slice_hash="64baa186d738c3f3"),
}


def slice_hash(records: list[dict]) -> str:
    """sha256 prefix over records (in id order, as written): any change of a request or a gold shows."""
    digest = hashlib.sha256()
    for rec in sorted(records, key=lambda r: r["id"]):
        digest.update(json.dumps(rec, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()[:16]


def eval_set(name: str) -> EvalSet:
    if name not in EVAL_SETS:
        raise KeyError(f"unknown evaluation set {name!r}; known: {', '.join(EVAL_SETS)}")
    return EVAL_SETS[name]
