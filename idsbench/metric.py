"""What the evaluate module (ids_metric/) computes, as a plain function: inputs checked, metadata
rows, the flat metric dict, and on request the breakdowns and the per-example rows."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from idsbench.audit.profiles import DEFAULT_PROFILE
from idsbench.example import METADATA_KEYS, Reference
from idsbench.pipeline import ScoreRun, score


def metadata_rows(metadata, n: int) -> list[dict]:
    """Rows of per-example metadata from a list of dicts or a dict of columns."""
    if metadata is None:
        return [{} for _ in range(n)]
    if isinstance(metadata, Mapping):
        unknown = sorted(set(metadata) - set(METADATA_KEYS))
        if unknown:
            raise ValueError(f"unknown metadata keys {unknown}; expected some of {list(METADATA_KEYS)}")
        columns = {key: list(values) for key, values in metadata.items()}
        if any(len(values) != n for values in columns.values()):
            raise ValueError(f"every metadata column must have {n} values (one per prediction)")
        return [{key: values[i] for key, values in columns.items()} for i in range(n)]
    rows = list(metadata)
    if len(rows) != n or not all(isinstance(row, Mapping) for row in rows):
        raise ValueError(f"metadata must be {n} dicts (one per prediction) or a dict of columns")
    return [{key: row[key] for key in METADATA_KEYS if key in row} for row in rows]


def check_inputs(predictions: Sequence, references: Sequence) -> None:
    if len(predictions) != len(references):
        raise ValueError(f"got {len(predictions)} predictions but {len(references)} references")
    bad = [i for i, p in enumerate(predictions) if p is not None and not isinstance(p, str)]
    bad += [i for i, r in enumerate(references) if not isinstance(r, str)]
    if bad:
        raise ValueError(f"predictions must be strings (or None) and references strings; bad items at {sorted(set(bad))[:10]}")


def flat(run: ScoreRun) -> dict:
    o = run.overall
    return {
        "processability": o.processability, "structure": o.structure, "content": o.content,
        "ids_audit_pass": o.content, "facet_f1": o.facet_f1, "facet_precision": o.precision,
        "facet_recall": o.recall, "ag_facet_f1": o.ag_facet_f1, "n": o.n, "signature": run.signature,
        **({"behaviour": o.behaviour} if o.behaviour_n else {}),
    }


def compute(predictions: Sequence[str | None], references: Sequence[str], *, metadata=None, ids=None,
            audit_profile: str | None = DEFAULT_PROFILE, return_breakdowns: bool = False,
            return_per_example: bool = False, workers: int = 1, time_limit: float | None = None,
            behaviour: bool = False) -> dict:
    """The metric: Stage 1 pass rates and Stage 2 facet scores of raw outputs against gold IDS texts."""
    check_inputs(predictions, references)
    rows = metadata_rows(metadata, len(predictions))
    ids = ids or [str(i) for i in range(len(predictions))]
    refs = [Reference(str(i), gold, row) for i, gold, row in zip(ids, references, rows)]
    run = score(list(predictions), refs, audit_profile=audit_profile, workers=workers, time_limit=time_limit,
                behaviour=behaviour)
    result = flat(run)
    if return_breakdowns:
        result["breakdowns"] = {key: {value: s.to_json() for value, s in groups.items()}
                                for key, groups in run.breakdowns.items()}
    if return_per_example:
        result["per_example"] = [r.to_json() for r in run.results]
    return result
