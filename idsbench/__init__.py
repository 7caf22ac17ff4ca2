"""Ishigaki-IDS-Bench: score IDS files written by language models against gold IDS files.

    from idsbench import load_references, score
    run = score(outputs, load_references())     # outputs: raw model outputs (None = failed), in id order
    print(run.table())

    from idsbench.audit import audit            # Stage 1 alone (idsbench.audit is the subpackage; the
    audit(text).status                          # function is not re-exported here, it would shadow it)

The stages, one subpackage or module each: extract (think spans, fences) -> xmlparse (hardened
parse) -> audit (Stage 1, the IDS-Audit-tool's checks) and facets (Stage 2, the paper's facet scorer)
-> report (aggregates, signature, tables); pipeline runs them for one example or a whole run,
isolation in worker processes. records reads data and predictions; vocabulary and regex serve the
audit. The harness, the leaderboard, the dataset tooling and the command line (cli) sit above.
"""
__version__ = "0.1.0"

import importlib

# The public names, imported when first used: `import idsbench.audit` for an audit loads the audit
# alone, not the run machinery (the time from `import` to a first audit is part of the product).
_EXPORTS = {
    "DEFAULT_PROFILE": "idsbench.audit.profiles", "PROFILES": "idsbench.audit.profiles",
    "AuditSummary": "idsbench.example", "ExampleResult": "idsbench.example", "Reference": "idsbench.example",
    "FacetScore": "idsbench.facets.counts", "score_documents": "idsbench.facets.counts",
    "ScoreRun": "idsbench.pipeline", "evaluate_one": "idsbench.pipeline", "evaluate_stream": "idsbench.pipeline",
    "make_auditor": "idsbench.pipeline", "score": "idsbench.pipeline",
    "InputError": "idsbench.records", "load_predictions": "idsbench.records", "load_references": "idsbench.records",
}
__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'idsbench' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
