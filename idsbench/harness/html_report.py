"""report.html: one self-contained page (inline CSS, no scripts, no external assets) per run."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from idsbench.audit.rules import meaning
from idsbench.example import ExampleResult
from idsbench.pipeline import ScoreRun
from idsbench.report.aggregate import LABELS, PAPER_METRICS, GroupScore
from idsbench.report.table import NOT_COMPUTED, columns

MAX_OUTPUT_CHARS = 20_000  # keeps the page small when a model rambles
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem;color:#1d1d1f}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d0d5;padding:.25rem .5rem;vertical-align:top}
th{background:#f2f2f5;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.fail td{background:#fff3f3}tr.ok td.status{color:#176c2e}code,pre{font:12px/1.4 ui-monospace,monospace}
pre{white-space:pre-wrap;max-height:30rem;overflow:auto;background:#f7f7f9;padding:.5rem}
.meta{color:#555}details summary{cursor:pointer;color:#0645ad}
"""


def _pct(value: float | None) -> str:
    return NOT_COMPUTED if value is None else f"{100 * value:.1f}"


def score_table(rows: Sequence[tuple[str, GroupScore]], metrics: Sequence[str] = PAPER_METRICS) -> str:
    head = "<tr><th>group</th><th>N</th>" + "".join(f"<th>{LABELS[m]}</th>" for m in metrics) + "</tr>"
    body = "".join(
        f"<tr><td>{escape(name)}</td><td class=n>{score.n}</td>"
        + "".join(f"<td class=n>{_pct(getattr(score, m))}</td>" for m in metrics) + "</tr>"
        for name, score in rows)
    return f"<table>{head}{body}</table>"


def breakdown_tables(breakdowns: Mapping[str, Mapping[str, GroupScore]], metrics: Sequence[str] = PAPER_METRICS) -> str:
    return "".join(f"<h3>by {escape(key)}</h3>" + score_table(list(groups.items()), metrics)
                   for key, groups in breakdowns.items())


def _status(result: ExampleResult) -> tuple[str, str]:
    if result.audit is None:
        return "not audited", ""
    return result.audit.status_text, " ".join(str(c) for c in result.audit.codes)


def codes_legend(results: Sequence[ExampleResult]) -> str:
    """Every audit code of the run with its meaning (the example rows give the codes alone)."""
    codes = sorted({c for r in results if r.audit is not None for c in r.audit.codes})
    if not codes:
        return "<p class=meta>no audit codes in this run</p>"
    rows = "".join(f"<tr><td class=n>{c}</td><td>{escape(meaning(c))}</td></tr>" for c in codes)
    return f"<table><tr><th>code</th><th>meaning</th></tr>{rows}</table>"


def behaviour_cell(result: ExampleResult) -> str:
    """The example's Behaviour in percent, its reason (or the witnesses judged differently) as a tooltip."""
    found = result.behaviour
    if found is None:
        return ""
    note = found.reason or (f"judged differently: {' '.join(found.disagreements)}" if found.disagreements else "")
    return f"<td class=n title=\"{escape(note)}\">{_pct(found.value)}</td>"


def example_row(result: ExampleResult, raw: str | None, row: Mapping[str, Any]) -> str:
    status, codes = _status(result)
    facets = result.facets
    error = row.get("error") or result.error or facets.error or ""
    failed = raw is None or bool(error) or facets.f1 == 0.0 or (result.verdict is not None and result.verdict[2] == 0)
    meta = " · ".join(str(result.metadata.get(k)) for k in ("language", "input_format", "turn_type", "domain"))
    output = "<em>no output</em>" if raw is None else \
        f"<details><summary>output</summary><pre>{escape(raw[:MAX_OUTPUT_CHARS])}</pre></details>"
    return (f"<tr class={'fail' if failed else 'ok'}><td><code>{escape(result.id)}</code><div class=meta>"
            f"{escape(meta)}</div></td><td class=status>{escape(status)}</td><td>{escape(codes)}</td>"
            f"<td class=n>{facets.matched}/{facets.pred_total}/{facets.gold_total}</td>"
            f"<td class=n>{100 * facets.precision:.1f}</td><td class=n>{100 * facets.recall:.1f}</td>"
            f"<td class=n>{100 * facets.f1:.1f}</td>{behaviour_cell(result)}"
            f"<td>{escape(str(row.get('finish_reason') or ''))}</td>"
            f"<td>{escape(error)}</td><td>{output}</td></tr>")


def examples_table(scores: ScoreRun, predictions: Sequence[str | None], rows: Mapping[str, Mapping]) -> str:
    behaviour = "<th>Behaviour</th>" if scores.overall.behaviour_n else ""
    head = ("<tr><th>example</th><th>audit status</th><th>codes</th><th>matched/pred/gold</th><th>P</th>"
            f"<th>R</th><th>F1</th>{behaviour}<th>finish</th><th>error</th><th>output</th></tr>")
    body = "".join(example_row(r, raw, rows.get(r.id, {})) for r, raw in zip(scores.results, predictions))
    return f"<table>{head}{body}</table>"


def provenance_list(summary: Mapping[str, Any]) -> str:
    keys = ("system", "model", "endpoint", "sampling", "prompt", "data", "generation", "audit_profile",
            "packages", "git", "date")
    items = "".join(f"<tr><th>{escape(k)}</th><td><code>{escape(_short(summary.get(k)))}</code></td></tr>"
                    for k in keys if k in summary)
    return f"<table>{items}</table>"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) < 2000 else text[:2000] + " …"


def render_report(scores: ScoreRun, summary: Mapping[str, Any], predictions: Sequence[str | None],
                  rows: Mapping[str, Mapping]) -> str:
    title = f"Ishigaki-IDS-Bench: {summary.get('model', summary.get('system', 'run'))}"
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f"<p class=meta>signature: <code>{escape(scores.signature)}</code> · percent · "
        f"{NOT_COMPUTED} = not computed</p>"
        f"<h2>Paper metrics</h2>{score_table([('all', scores.overall)], columns(scores.overall))}"
        f"<h2>Breakdowns</h2>{breakdown_tables(scores.breakdowns, columns(scores.overall))}"
        f"<h2>Examples</h2>{examples_table(scores, predictions, rows)}"
        f"<h2>Audit codes</h2>{codes_legend(scores.results)}"
        f"<h2>Provenance</h2>{provenance_list(summary)}</body></html>\n"
    )


def write_report(path: Path, scores: ScoreRun, summary: Mapping[str, Any], predictions: Sequence[str | None],
                 rows: Mapping[str, Mapping]) -> None:
    path.write_text(render_report(scores, summary, predictions, rows), encoding="utf-8")
