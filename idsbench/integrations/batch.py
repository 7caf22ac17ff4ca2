"""Bulk scoring with datasets: `ds.map(score_batch, batched=True, num_proc=N)` adds the per-example metrics.

    from idsbench.integrations.batch import aggregate, score_batch
    scored = ds.map(score_batch, batched=True, num_proc=4,
                    fn_kwargs={"prediction_column": "prediction", "gold_column": "gold_ids"})
    print(aggregate(scored))                     # the paper's seven metrics, as `ids-bench score` reports them

Each worker process builds its scorer once; equal (output, gold) pairs within a batch are scored once
(k samples of one prompt are often identical). The added columns: the seven metrics, `audit_status`,
`audit_codes` (a string such as "103,201": one column type in every shard) and `scored` (False for a
row that reused an equal row's result in its batch).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from idsbench.audit.profiles import DEFAULT_PROFILE

from .scoring import METRICS, Scored, means, scorer_for


def score_batch(batch: Mapping[str, Sequence[Any]], *, prediction_column: str = "prediction",
                gold_column: str = "gold_ids", audit_profile: str = DEFAULT_PROFILE) -> dict[str, list]:
    """Columns to add to a batch of rows holding a raw output and its gold IDS."""
    for column in (prediction_column, gold_column):
        if column not in batch:
            raise KeyError(f"column {column!r} not in the dataset (columns: {', '.join(batch)})")
    scorer = scorer_for(audit_profile)
    done: dict[tuple[str | None, str], Scored] = {}
    out: dict[str, list] = {name: [] for name in (*METRICS, "audit_status", "audit_codes", "scored")}
    for raw, gold in zip(batch[prediction_column], batch[gold_column], strict=True):
        key = (raw, gold)
        fresh = key not in done
        if fresh:
            done[key] = scorer.score(raw, gold)
        scored = done[key]
        for name, value in scored.metrics().items():
            out[name].append(value)
        audit = scored.result.audit
        out["audit_status"].append(audit.status_text if audit else None)
        out["audit_codes"].append(",".join(map(str, audit.codes)) if audit else "")
        out["scored"].append(fresh)
    return out


def aggregate(scored: Any) -> dict[str, float]:
    """The seven means of a dataset (or dict of columns) that `score_batch` was mapped over."""
    columns = {name: list(scored[name]) for name in METRICS}
    n = len(columns[METRICS[0]])
    return means({name: columns[name][i] for name in METRICS} for i in range(n))
