"""Paired comparison of two runs on the same examples: per metric, A − B with interval and p-value."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from idsbench.report.aggregate import LABELS, PAPER_METRICS

from .board import comparable, signature_difference
from .results import LoadedResults, ResultsError
from .stats import Bootstrap, PairedComparison, metric_values, paired_compare


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    n: int
    settings: Bootstrap
    metrics: list[PairedComparison]
    skipped: list[str]  # metrics one of the runs did not compute
    warning: str | None = None

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "n": self.n, "bootstrap": self.settings.to_json(),
                "signature_part": self.settings.signature_part(), "warning": self.warning,
                "metrics": [m.to_json() for m in self.metrics], "not_computed": self.skipped}


def aligned_rows(a: LoadedResults, b: LoadedResults) -> tuple[list[dict], list[dict]]:
    """Rows of both runs in the same id order; the id sets must be identical."""
    ids_a, ids_b = {r["id"] for r in a.rows}, {r["id"] for r in b.rows}
    if ids_a != ids_b:
        only_a, only_b = sorted(ids_a - ids_b), sorted(ids_b - ids_a)
        raise ResultsError(f"{a.path} and {b.path} do not cover the same examples: "
                           f"{len(only_a)} only in A {only_a[:5]}, {len(only_b)} only in B {only_b[:5]}")
    by_id = {r["id"]: r for r in b.rows}
    ordered_a = sorted(a.rows, key=lambda r: r["id"])
    return ordered_a, [by_id[r["id"]] for r in ordered_a]


# How a run gets a metric it lacks.
HOW_TO_GET = {"behaviour": "score it with --behaviour", "processability": "score it with an audit profile",
              "structure": "score it with an audit profile", "content": "score it with an audit profile",
              "ag_facet_f1": "score it with an audit profile"}


def missing_metrics(runs: Sequence[tuple[LoadedResults, dict]], metrics: Sequence[str]) -> list[str]:
    """A line per asked-for metric that a run did not compute, with how to get it."""
    return [f"{LABELS[m]} was not computed for {run.path}: {HOW_TO_GET.get(m, 'score it again')}"
            for m in metrics for run, values in runs if values[m] is None]


def compare_runs(a: LoadedResults, b: LoadedResults, settings: Bootstrap = Bootstrap(),
                 metrics: Sequence[str] | None = None, permutations: int = 10000) -> Comparison:
    """Paired comparison per metric. `metrics` asked for must be computed by both runs (ResultsError names
    what is missing); by default the paper metrics, and Behaviour when a run has it, are compared where both
    runs computed them and listed as not computed elsewhere."""
    rows_a, rows_b = aligned_rows(a, b)
    values_a, values_b = metric_values(rows_a), metric_values(rows_b)
    if metrics is not None:
        missing = missing_metrics(((a, values_a), (b, values_b)), metrics)
        if missing:
            raise ResultsError("\n".join(missing))
    else:
        behaviour = values_a["behaviour"] is not None or values_b["behaviour"] is not None
        metrics = PAPER_METRICS + (("behaviour",) if behaviour else ())
    done, skipped = [], []
    for metric in metrics:
        if values_a[metric] is None or values_b[metric] is None:
            skipped.append(metric)
            continue
        done.append(paired_compare(values_a[metric], values_b[metric], metric, settings, permutations))
    # Scored differently (e.g. another audit profile) is worth a warning, not a refusal: same examples.
    scoring_a = comparable(a.document["scoring_signature"])
    scoring_b = comparable(b.document["scoring_signature"])
    warning = None if scoring_a == scoring_b else (
        "the runs were scored differently: " + signature_difference(scoring_a, scoring_b))
    return Comparison(a.name, b.name, len(rows_a), settings, done, skipped, warning)


def format_comparison(comparison: Comparison) -> str:
    level = round(100 * comparison.settings.confidence)
    head = f"{'metric':<15} {'A':>7} {'B':>7} {'A−B':>7}  {str(level) + '% CI':>16}  {'p':>8}  A>B  B>A    ="
    lines = [f"A = {comparison.a}", f"B = {comparison.b}", f"n = {comparison.n} paired examples", "", head,
             "-" * len(head)]
    for m in comparison.metrics:
        lines.append(f"{LABELS[m.metric]:<15} {100 * m.mean_a:7.1f} {100 * m.mean_b:7.1f} {100 * m.difference:+7.1f}"
                     f"  [{100 * m.low:+6.1f}, {100 * m.high:+6.1f}]  {m.p_value:8.4f}"
                     f"  {m.a_better:3d}  {m.b_better:3d}  {m.ties:3d}")
    if comparison.skipped:
        lines.append("not computed by both runs: " + ", ".join(LABELS[m] for m in comparison.skipped))
    test = comparison.metrics[0].test if comparison.metrics else "sign-flip"
    lines.append(f"(percent points; CI: paired bootstrap; p: two-sided {test} test; "
                 f"{comparison.settings.signature_part()})")
    if comparison.warning:
        lines.append(f"warning: {comparison.warning}")
    return "\n".join(lines)
