"""The golds of dataset version 2, frozen (golds-v2.jsonl.gz): the tests that need particular documents
(the equivalence digest, the behavioural score's variants of named golds) read these, so rewriting the
dataset changes none of them. Tests about the data itself read the live data/ instead."""
from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

from idsbench.example import Reference

FROZEN = Path(__file__).with_name("golds-v2.jsonl.gz")


@lru_cache(maxsize=1)
def frozen_references() -> tuple[Reference, ...]:
    """The 166 references of version 2, sorted by id, as load_references() gave them."""
    with gzip.open(FROZEN, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return tuple(Reference(r["id"], r["gold"], r["metadata"]) for r in rows)


def frozen_gold(example: str) -> str:
    """The gold IDS of an example id such as 's012-en'."""
    return next(r.gold for r in frozen_references() if r.id == example)
