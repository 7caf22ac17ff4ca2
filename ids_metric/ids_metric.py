"""`evaluate` module for Ishigaki-IDS-Bench: `evaluate.load("ids_metric")`.

evaluate copies only the sibling modules imported at the top level of this file (it does not follow
imports transitively), so every module of the scorer is imported here, one `from .x import y` line
each, with no trailing comments.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import datasets
import evaluate

from .aggregate import PAPER_METRICS
from .audit import audit
from .audit_codes import Status
from .audit_context import AuditContext
from .audit_facets import FACET_AUDITS
from .audit_profiles import PROFILES
from .audit_spec import run_content_audit
from .audit_tree import build_tree
from .audit_values import value_is_valid
from .audit_vocab import entity_vocabulary
from .audit_xml import parse_document
from .audit_xs import XS_AUDITS
from .dotnet_regex import compile_dotnet
from .safe_regex import compile_search
from .evaluation import METADATA_KEYS, Reference
from .extract import extract_candidate
from .facets import document_blocks
from .isolation import evaluate_isolated
from .pairing import pair_specifications
from .report import format_table
from .scorer import score_documents
from .scoring import DEFAULT_PROFILE, score
from .signature import signature
from .stage1 import verdict
from .vocabulary import schema_vocabulary
from .vocabulary_psets import property_sets
from .xmlparse import parse_xml
from .xsd import xsd_issues

_CITATION = """\
@misc{onestruction_ishigaki_ids_bench,
  title  = {Ishigaki-IDS-Bench},
  author = {{ONESTRUCTION}},
  note   = {Benchmark for generating buildingSMART IDS files from requirements; dataset ONESTRUCTION/Ishigaki-IDS-Bench on the Hugging Face Hub},
  url    = {https://huggingface.co/datasets/ONESTRUCTION/Ishigaki-IDS-Bench}
}
"""

_DESCRIPTION = """\
Scores generated IDS (Information Delivery Specification) documents against gold IDS files, as in
Ishigaki-IDS-Bench. Stage 1 audits each prediction like buildingSMART's IDS-Audit-tool 1.0.96
(Processability, Structure, Content pass rates); Stage 2 matches normalized facet blocks of paired
specifications against the gold (macro precision / recall / F1). AG-FacetF1 gates F1 by the audit.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str or None): raw model outputs. <think> spans are removed and the first
        ```ids / ```xml fenced block is taken when present. None or "" is a failed generation (scores 0).
    references (list of str): gold IDS documents.
    metadata (list of dict, or dict of lists, optional): per-example language, input_format,
        turn_type, domain, ifc_versions (e.g. rows or columns of the dataset); enables breakdowns.
    audit_profile (str, optional): "ids-tool-1.0.96" (default, the paper's validator),
        "ids-tool-latest", or None to skip Stage 1 (its metrics are then None, never 0).
    return_breakdowns (bool): add "breakdowns" {key: {value: metrics}} (needs metadata).
    return_per_example (bool): add "per_example" (status, codes, matched/pred/gold counts, P/R/F1).
    workers (int), time_limit (float, seconds): score in worker processes, each example within the
        limit (a timeout scores 0 with the reason); default: in this process, no limit.
Returns:
    processability, structure, content (= ids_audit_pass), facet_f1, facet_precision, facet_recall,
    ag_facet_f1, n, signature.
Examples:
    >>> import evaluate
    >>> ids_metric = evaluate.load("ids_metric")
    >>> gold = open("tests/fixtures/wall.ids", encoding="utf-8").read()
    >>> results = ids_metric.compute(predictions=["```ids\\n" + gold + "\\n```", "no idea"],
    ...                              references=[gold, gold])
    >>> results["facet_f1"], results["content"], results["n"]
    (0.5, 0.5, 2)
    >>> results["signature"].split("|")[:3]
    ['ids_metric:0.1.0', 'audit:ids-tool-1.0.96', 'facets:paper']
"""

OPTIONS = ("metadata", "audit_profile", "return_breakdowns", "return_per_example", "ids", "workers", "time_limit")
# evaluate copies only the modules this file imports (not transitively), so each module of both
# stages is named here once; the tuples keep the names referenced.
STAGE1 = (audit, Status, AuditContext, FACET_AUDITS, PROFILES, run_content_audit, build_tree, value_is_valid,
          entity_vocabulary, parse_document, XS_AUDITS, compile_dotnet, compile_search, schema_vocabulary,
          property_sets, xsd_issues)
STAGE2 = (extract_candidate, parse_xml, document_blocks, pair_specifications, score_documents, verdict,
          evaluate_isolated)
__all__ = ["IdsMetric", "METADATA_KEYS", "PAPER_METRICS", "format_table", "signature"]


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


def _check_inputs(predictions: Sequence, references: Sequence) -> None:
    if len(predictions) != len(references):
        raise ValueError(f"got {len(predictions)} predictions but {len(references)} references")
    bad = [i for i, p in enumerate(predictions) if p is not None and not isinstance(p, str)]
    bad += [i for i, r in enumerate(references) if not isinstance(r, str)]
    if bad:
        raise ValueError(f"predictions must be strings (or None) and references strings; bad items at {sorted(set(bad))[:10]}")


def _flat(run) -> dict:
    o = run.overall
    return {
        "processability": o.processability, "structure": o.structure, "content": o.content,
        "ids_audit_pass": o.content, "facet_f1": o.facet_f1, "facet_precision": o.precision,
        "facet_recall": o.recall, "ag_facet_f1": o.ag_facet_f1, "n": o.n, "signature": run.signature,
    }


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class IdsMetric(evaluate.Metric):
    """Ishigaki-IDS-Bench: Stage 1 IDS audit pass rates and Stage 2 facet precision/recall/F1."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Value("string")}),
            codebase_urls=[],
            reference_urls=["https://www.buildingsmart.org/standards/bsi-standards/information-delivery-specification-ids/"],
        )

    def _compute(self, predictions, references, **options):
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown options {unknown}; valid options: {list(OPTIONS)}")
        _check_inputs(predictions, references)
        rows = metadata_rows(options.get("metadata"), len(predictions))
        ids = options.get("ids") or [str(i) for i in range(len(predictions))]
        refs = [Reference(str(i), gold, row) for i, gold, row in zip(ids, references, rows)]
        run = score(list(predictions), refs, audit_profile=options.get("audit_profile", DEFAULT_PROFILE),
                    workers=options.get("workers", 1), time_limit=options.get("time_limit"))
        result = _flat(run)
        if options.get("return_breakdowns"):
            result["breakdowns"] = {key: {value: s.to_json() for value, s in groups.items()}
                                    for key, groups in run.breakdowns.items()}
        if options.get("return_per_example"):
            result["per_example"] = [r.to_json() for r in run.results]
        return result
