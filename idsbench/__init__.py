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

from idsbench.audit.profiles import DEFAULT_PROFILE, PROFILES
from idsbench.example import AuditSummary, ExampleResult, Reference
from idsbench.facets.counts import FacetScore, score_documents
from idsbench.pipeline import ScoreRun, evaluate_one, evaluate_stream, make_auditor, score
from idsbench.records import InputError, load_predictions, load_references

__all__ = ["AuditSummary", "DEFAULT_PROFILE", "ExampleResult", "FacetScore", "InputError", "PROFILES", "Reference",
           "ScoreRun", "__version__", "evaluate_one", "evaluate_stream", "load_predictions",
           "load_references", "make_auditor", "score", "score_documents"]
