"""report.html: one self-contained page per run (inline CSS, SVG and script; nothing fetched).

From the top: banners (failed generations, a subset), what failed (outputs, audit verdicts, the most
frequent codes with their meanings), the paper table with 95% intervals (all examples and each metadata
group), under a repair protocol the scores per round (a table and a chart of Content and FacetF1), bar
charts per metadata group, the audit codes seen, the examples (filter by text, status or group; sort by any
column; scrolled inside their box, so the page stays short) and the provenance.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from idsbench.audit.rules import meaning
from idsbench.example import ExampleResult
from idsbench.leaderboard.results import group_json
from idsbench.leaderboard.stats import PASS_RATE_INTERVAL, Bootstrap, describe_intervals, groups_of
from idsbench.pipeline import ScoreRun
from idsbench.report.aggregate import LABELS, PAPER_METRICS
from idsbench.report.html import (BREAKDOWN_LABELS, CELL_CSS, SIGNATURE_CSS, Series, breakdown_chart, charts, legend,
                                  metric_cell, pct, signature_html)
from idsbench.report.table import NOT_COMPUTED, columns, subset_note

from .failures import Failures
from .rounds import RoundScore

MAX_OUTPUT_CHARS = 20_000  # keeps the page small when a model rambles
CHART_METRICS = ("facet_f1", "content")
TOP_CODES = 5
OUTCOMES = {"generation failed": "failed generations", "empty output": "empty outputs (nothing to extract)",
            "not an IDS document": "not an IDS document", "structure error": "with a structure error",
            "content error": "with a content error", "no facet matched": "valid, but no facet matched the gold",
            "ok": "ok"}
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.25rem;color:#1d1d1f;max-width:1400px}
h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}h3{font-size:.95rem;margin:1rem 0 .2rem}
table{border-collapse:collapse;margin:.4rem 0}th,td{border-bottom:1px solid #dcdce2;padding:.25rem .45rem;vertical-align:top}
th{background:#f2f2f5;text-align:left;font-size:.85rem}td.n{text-align:right;font-variant-numeric:tabular-nums}
th[data-key]{cursor:pointer;user-select:none;position:sticky;top:0}th.sorted-asc::after{content:" ▲"}th.sorted-desc::after{content:" ▼"}
code,pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}.meta{color:#555;font-size:.85rem}
pre{white-space:pre-wrap;max-height:24rem;overflow:auto;background:#f7f7f9;padding:.5rem;max-width:60rem}
.banner{padding:.6rem .8rem;border-radius:4px;margin:.6rem 0;max-width:70rem}.banner.fail{background:#fdecea;color:#8a1c12;border:1px solid #f3b8b0}
.banner.note{background:#fff8e1;color:#6d5200;border:1px solid #f0dc9a}
ul.summary{margin:.3rem 0;padding-left:1.2rem}ul.summary li{margin:.1rem 0}
abbr{text-decoration:underline dotted;cursor:help}
.charts{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0}figcaption{font-size:.85rem;font-weight:600}
.legend{color:#555;font-size:.8rem}.legend .key{margin-right:1rem}
#scores tr.by th{background:#fafafc;color:#555;font-weight:600;font-size:.8rem;padding-top:.5rem}
#examples td:first-child,#examples td.outcome{white-space:nowrap}#examples td.err{min-width:14rem;overflow-wrap:anywhere}#examples .meta{font-size:.75rem}
.controls{margin:.4rem 0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.controls input{width:16rem}
.scroll{max-height:70vh;overflow:auto;border:1px solid #dcdce2}.scroll table{margin:0;width:100%}
#examples tr.fail td:first-child{box-shadow:inset 3px 0 #d93025}#examples tr.ok td:first-child{box-shadow:inset 3px 0 #1e8e3e}
""" + CELL_CSS + SIGNATURE_CSS
SCRIPT = r"""
(function () {
  const table = document.getElementById('examples');
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const text = document.getElementById('filter'), status = document.getElementById('status'),
        group = document.getElementById('group');
  const state = {column: -1, desc: false};
  function apply() {
    const q = text.value.trim().toLowerCase(), s = status.value, g = group.value;
    let shown = 0;
    rows.forEach(tr => {
      const ok = (!q || tr.dataset.search.includes(q)) && (!s || tr.dataset.status === s) &&
                 (!g || tr.dataset.groups.split(' ').includes(g));
      tr.hidden = !ok;
      shown += ok ? 1 : 0;
    });
    document.getElementById('shown').textContent = shown + ' of ' + rows.length;
  }
  function key(tr, column) {
    const td = tr.cells[column];
    return td.dataset.sort !== undefined ? Number(td.dataset.sort) : td.textContent.trim().toLowerCase();
  }
  function sort(column) {
    state.desc = state.column === column ? !state.desc : table.tHead.rows[0].cells[column].dataset.numeric === 'true';
    state.column = column;
    const sign = state.desc ? -1 : 1;
    rows.sort((a, b) => {
      const x = key(a, column), y = key(b, column);
      return x < y ? -sign : x > y ? sign : a.dataset.id.localeCompare(b.dataset.id);
    });
    rows.forEach(tr => body.appendChild(tr));
    [...table.tHead.rows[0].cells].forEach((th, i) => {
      th.classList.toggle('sorted-asc', i === column && !state.desc);
      th.classList.toggle('sorted-desc', i === column && state.desc);
    });
  }
  [...table.tHead.rows[0].cells].forEach((th, i) => th.addEventListener('click', () => sort(i)));
  [text, status, group].forEach(el => el.addEventListener('input', apply));
  apply();
  document.body.dataset.ready = 'true';
})();
"""


def run_groups(results: Sequence[ExampleResult], settings: Bootstrap = Bootstrap()) -> dict:
    """Overall and per-metadata-value metrics with intervals, as in a results file (same settings)."""
    rows = [r.to_json() for r in results]
    return {"overall": group_json(rows, settings, "all"),
            "breakdowns": {key: {value: group_json(members, settings, f"{key}={value}")
                                 for value, members in groups.items()}
                           for key, groups in groups_of(rows).items()}}


def score_table(overall: Mapping, breakdowns: Mapping[str, Mapping[str, Mapping]],
                metrics: Sequence[str] = PAPER_METRICS) -> str:
    """The paper table: all examples, then every metadata group under a `by <key>` heading row."""
    def row(name: str, group: Mapping) -> str:
        return (f"<tr><td>{escape(name)}</td><td class=n>{group['n']}</td>"
                + "".join(metric_cell(group["metrics"].get(m)) for m in metrics) + "</tr>")

    head = "<tr><th>group</th><th>N</th>" + "".join(f"<th>{escape(LABELS.get(m, m))}</th>" for m in metrics) + "</tr>"
    body = [row("all", overall)]
    for key, groups in breakdowns.items():
        body.append(f'<tr class="by"><th colspan="{2 + len(metrics)}">by {escape(key)}</th></tr>')
        body += [row(value, group) for value, group in groups.items()]
    return f'<table id="scores">{head}{"".join(body)}</table>'


def behaviour_cell(result: ExampleResult) -> str:
    """The example's Behaviour in percent, its reason (or the witnesses judged differently) as a tooltip;
    n/c (sorted below every value) when this example has none."""
    found = result.behaviour
    if found is None or found.value is None:
        reason = found.reason if found is not None and found.reason else "not computed"
        return f'<td class=n data-sort=-1 title="{escape(reason)}">{NOT_COMPUTED}</td>'
    note = found.reason or (f"judged differently: {' '.join(found.disagreements)}" if found.disagreements else "")
    return f'<td class=n data-sort={found.value:.6f} title="{escape(note)}">{pct(found.value)}</td>'


def code_label(code: int) -> str:
    return f'<abbr title="{escape(meaning(code))}">{code}</abbr>'


def rounds_section(rounds: Sequence[RoundScore], settings: Bootstrap) -> str:
    """Repair protocols: each round's paper metrics with intervals, and Content and FacetF1 per round."""
    if not rounds:
        return ""
    groups = {f"round {r.index}": group_json([x.to_json() for x in r.scores.results], settings, f"round {r.index}")
              for r in rounds}
    head = "<tr><th>round</th><th>answered</th>" + "".join(f"<th>{escape(LABELS[m])}</th>" for m in PAPER_METRICS)
    body = "".join(f"<tr><td>{r.index}</td><td class=n>{r.answered}</td>"
                   + "".join(metric_cell(groups[f"round {r.index}"]["metrics"][m]) for m in PAPER_METRICS) + "</tr>"
                   for r in rounds)
    names = [LABELS[m] for m in CHART_METRICS]
    chart = breakdown_chart("round", [Series(LABELS[m], groups, m) for m in CHART_METRICS],
                            f"{' and '.join(names)} per repair round")
    return ("<h2>Repair rounds</h2><p class=meta>round 0: the first answers; an example whose answer passes the "
            "audit keeps it in later rounds; the last round is the run's score (the table above)</p>"
            f'<table id="rounds">{head}{body}</table>{legend(names)}<figure id="rounds-chart">{chart}</figure>')


# ------------------------------------------------------------------------------------------ what failed

def outcome(result: ExampleResult, raw: str | None) -> str:
    """The first thing that went wrong with an example, or "ok" (a perfect F1 need not be reached)."""
    if raw is None:
        return "generation failed"
    if result.error == "empty output":
        return "empty output"
    verdict = result.verdict
    if verdict is not None and verdict[0] == 0:
        return "not an IDS document"
    if verdict is not None and verdict[1] == 0:
        return "structure error"
    if verdict is not None and verdict[2] == 0:
        return "content error"
    return "no facet matched" if result.facets.f1 == 0.0 else "ok"


def failure_banner(summary: Mapping[str, Any]) -> str:
    generation = summary.get("generation") or {}
    failures = Failures(len(generation.get("failed_ids") or ()), (summary.get("data") or {}).get("n") or 0,
                        generation.get("first_error"))
    if not failures.failed:
        return ""
    tail = (" Most of this run measures the endpoint, not the model." if failures.mostly else "")
    return (f'<div class="banner fail" id="failure-banner"><b>{escape(failures.line())}.</b> Failed generations '
            f"score 0.{tail} Rerun with <code>--retry-failed</code> to redo them.</div>")


def failure_summary(scores: ScoreRun, predictions: Sequence[str | None]) -> str:
    kinds = Counter(outcome(r, raw) for r, raw in zip(scores.results, predictions))
    items = "".join(f"<li><b>{kinds[k]}</b> {escape(label)}</li>" for k, label in OUTCOMES.items() if kinds[k])
    codes = Counter(c for r in scores.results if r.audit for c in r.audit.codes)
    top = "; ".join(f"{code_label(c)} {escape(meaning(c))} ({n})" for c, n in codes.most_common(TOP_CODES))
    coded = f"<p>Most frequent audit codes: {top}</p>" if top else ""
    return f'<ul class="summary" id="outcomes">{items}</ul>{coded}'


def codes_table(scores: ScoreRun) -> str:
    codes = Counter(c for r in scores.results if r.audit for c in r.audit.codes)
    if not codes:
        return '<p class="meta">No audit codes in this run (or Stage 1 was not computed).</p>'
    body = "".join(f"<tr><td class=n>{code}</td><td>{escape(meaning(code))}</td><td class=n>{n}</td></tr>"
                   for code, n in sorted(codes.items()))
    return f"<table id=codes><tr><th>code</th><th>meaning</th><th>examples</th></tr>{body}</table>"


# ------------------------------------------------------------------------------------------ examples

def _groups_attr(result: ExampleResult) -> str:
    values = []
    for key in BREAKDOWN_LABELS:
        value = result.metadata.get(key)
        values += [f"{key}={v}" for v in (value if isinstance(value, list) else [value]) if v is not None]
    return " ".join(values)


def example_row(result: ExampleResult, raw: str | None, row: Mapping[str, Any], behaviour: bool = False) -> str:
    facets, audit = result.facets, result.audit
    kind = outcome(result, raw)
    error = row.get("error") or result.error or facets.error or ""
    codes = " ".join(code_label(c) for c in audit.codes) if audit else ""
    meta = " · ".join(str(result.metadata.get(k)) for k in ("language", "input_format", "turn_type", "domain"))
    output = "<em>no output</em>" if raw is None else \
        f"<details><summary>output</summary><pre>{escape(raw[:MAX_OUTPUT_CHARS])}</pre></details>"
    search = " ".join([result.id, meta, kind, audit.status_text if audit else "", error,
                       *(f"{c} {meaning(c)}" for c in (audit.codes if audit else ()))]).lower()
    return (f'<tr class={"ok" if kind == "ok" else "fail"} data-id="{escape(result.id)}" '
            f'data-status="{"ok" if kind == "ok" else "fail"}" data-groups="{escape(_groups_attr(result))}" '
            f'data-search="{escape(search)}"><td><code>{escape(result.id)}</code><div class=meta>{escape(meta)}'
            f'</div></td><td class=outcome title="audit status: {escape(audit.status_text) if audit else "not audited"}">'
            f"{escape(kind)}</td><td>{codes}</td><td class=n data-sort={facets.matched}>{facets.matched}/{facets.pred_total}/"
            f"{facets.gold_total}</td><td class=n data-sort={facets.precision:.6f}>{100 * facets.precision:.1f}</td>"
            f"<td class=n data-sort={facets.recall:.6f}>{100 * facets.recall:.1f}</td>"
            f"<td class=n data-sort={facets.f1:.6f}>{100 * facets.f1:.1f}</td>{behaviour_cell(result) if behaviour else ''}"
            f"<td>{escape(str(row.get('finish_reason') or ''))}</td><td class=err>{escape(error)}</td><td>{output}</td></tr>")


def example_controls(groups: Mapping[str, Mapping]) -> str:
    options = "".join(f'<option value="{escape(f"{k}={v}")}">{escape(BREAKDOWN_LABELS.get(k, k))} = {escape(v)}'
                      "</option>" for k in BREAKDOWN_LABELS for v in groups.get(k, {}))
    return ('<div class="controls"><input id="filter" type="search" placeholder="filter: id, code, error, …" '
            'aria-label="filter examples"><select id="status" aria-label="status"><option value="">all</option>'
            '<option value="fail">with a problem</option><option value="ok">ok</option></select>'
            f'<select id="group" aria-label="group"><option value="">every group</option>{options}</select>'
            '<span class="meta">showing <b id="shown"></b>; click a column to sort</span></div>')


def examples_table(scores: ScoreRun, predictions: Sequence[str | None], rows: Mapping[str, Mapping]) -> str:
    behaviour = (("Behaviour", True),) if scores.overall.behaviour_n else ()
    shown = (("example", False), ("outcome", False), ("codes", False), ("matched/pred/gold", True), ("P", True),
             ("R", True), ("F1", True), *behaviour, ("finish", False), ("error", False), ("output", False))
    head = "".join(f'<th data-key="{i}" data-numeric="{str(numeric).lower()}">{escape(name)}</th>'
                   for i, (name, numeric) in enumerate(shown))
    body = "".join(example_row(r, raw, rows.get(r.id, {}), bool(behaviour))
                   for r, raw in zip(scores.results, predictions))
    return f'<div class="scroll"><table id="examples"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def provenance_list(summary: Mapping[str, Any]) -> str:
    keys = ("system", "model", "endpoint", "protocol", "sampling", "prompt", "data", "generation", "audit_profile",
            "packages", "git", "date")
    items = "".join(f"<tr><th>{escape(k)}</th><td><code>{escape(_short(summary.get(k)))}</code></td></tr>"
                    for k in keys if k in summary)
    return f"<table>{items}</table>"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) < 2000 else text[:2000] + " …"


def render_report(scores: ScoreRun, summary: Mapping[str, Any], predictions: Sequence[str | None],
                  rows: Mapping[str, Mapping], settings: Bootstrap = Bootstrap(),
                  rounds: Sequence[RoundScore] = ()) -> str:
    title = f"Ishigaki-IDS-Bench: {summary.get('model') or summary.get('system') or 'run'}"
    groups = run_groups(scores.results, settings)
    subset = summary.get("subset")
    subset_banner = f'<div class="banner note" id="subset-banner">{escape(subset_note(subset["n"], subset["of"]))}' \
                    "</div>" if subset else ""
    intervals = describe_intervals({**settings.to_json(), "pass_rates": PASS_RATE_INTERVAL})
    chart_keys = set(groups["breakdowns"])
    chart_section = charts(chart_keys, lambda key: [Series(LABELS[m], groups["breakdowns"].get(key, {}), m)
                                                    for m in CHART_METRICS],
                           [LABELS[m] for m in CHART_METRICS], " and ".join(LABELS[m] for m in CHART_METRICS))
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8>"
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f'<p class=meta>signature: {signature_html(scores.signature)}</p>'
        f"{failure_banner(summary)}{subset_banner}"
        f"<h2>What failed</h2>{failure_summary(scores, predictions)}"
        f"<h2>Paper metrics</h2><p class=meta>percent; {escape(intervals)}, after "
        f"each value; {NOT_COMPUTED} = not computed</p>"
        f"{score_table(groups['overall'], groups['breakdowns'], columns(scores.overall))}"
        f"{rounds_section(rounds, settings)}"
        f"<h2>By metadata group</h2>{chart_section}"
        f"<h2>Audit codes</h2>{codes_table(scores)}"
        f"<h2>Examples</h2>{example_controls(groups['breakdowns'])}{examples_table(scores, predictions, rows)}"
        f"<h2>Provenance</h2>{provenance_list(summary)}<script>{SCRIPT}</script></body></html>\n"
    )


def write_report(path: Path, scores: ScoreRun, summary: Mapping[str, Any], predictions: Sequence[str | None],
                 rows: Mapping[str, Mapping], rounds: Sequence[RoundScore] = ()) -> None:
    path.write_text(render_report(scores, summary, predictions, rows, rounds=rounds), encoding="utf-8")
