"""`evaluate` module for Ishigaki-IDS-Bench: `evaluate.load("ids_metric")` in a checkout, or
`evaluate.load("<path>/ids_metric")` from anywhere.

The scorer is the installed `idsbench` package (distribution `ishigaki-ids-bench`), as evaluate's
bleurt and comet metrics import their libraries: evaluate checks the import before loading and, when
the package is missing, names the distribution to install (the `From:` note below).
"""
import datasets
import evaluate

from idsbench.metric import DEFAULT_PROFILE, compute  # From: ishigaki-ids-bench

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
    ids (list of str, optional): example ids for the per-example rows (default: "0", "1", ...).
    audit_profile (str, optional): "ids-tool-1.0.96" (default, the paper's validator),
        "ids-tool-latest", or None to skip Stage 1 (its metrics are then None, never 0).
    return_breakdowns (bool): add "breakdowns" {key: {value: metrics}} (needs metadata).
    return_per_example (bool): add "per_example" (status, codes, matched/pred/gold counts, P/R/F1).
    workers (int), time_limit (float, seconds): score in worker processes, each example within the
        limit (a timeout scores 0 with the reason); default: in this process, no limit.
    behaviour (bool): also score behavioural agreement on the gold's witness IFC models (beyond the
        paper; adds "behaviour" overall and per example, and behaviour:witness-v1 to the signature).
Returns:
    processability, structure, content (= ids_audit_pass), facet_f1, facet_precision, facet_recall,
    ag_facet_f1, n, signature (and behaviour when asked for).
Examples:
    >>> import evaluate
    >>> from idsbench import load_references
    >>> ids_metric = evaluate.load("ids_metric")
    >>> gold = load_references()[0].gold
    >>> results = ids_metric.compute(predictions=["```ids\\n" + gold + "\\n```", "no idea"],
    ...                              references=[gold, gold])
    >>> results["facet_f1"], results["content"], results["n"]
    (0.5, 0.5, 2)
    >>> results["signature"].split("|")[:3]
    ['ids_metric:0.1.0', 'audit:ids-tool-1.0.96', 'facets:paper']
"""


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

    def _compute(self, predictions, references, metadata=None, ids=None, audit_profile=DEFAULT_PROFILE,
                 return_breakdowns=False, return_per_example=False, workers=1, time_limit=None, behaviour=False):
        return compute(predictions, references, metadata=metadata, ids=ids, audit_profile=audit_profile,
                       return_breakdowns=return_breakdowns, return_per_example=return_per_example,
                       workers=workers, time_limit=time_limit, behaviour=behaviour)
