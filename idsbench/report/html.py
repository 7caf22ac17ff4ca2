"""Pieces shared by the two HTML pages (a run's report.html and the leaderboard): percent cells with
their interval on one line, and inline-SVG bar charts per metadata group with interval whiskers.

Metric values come as results-file JSON, `{"value": 0.65, "ci": [0.6, 0.7]}`, `value` None when the
metric was not computed; any metric name works, so a new column needs no change here.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .table import NOT_COMPUTED

BREAKDOWN_LABELS = {"language": "language", "input_format": "input format", "turn_type": "turn type",
                    "domain": "domain", "ifc_versions": "IFC version", "skills": "skill"}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")
CHART_WIDTH, LABEL_WIDTH, BAR_HEIGHT, GAP = 460, 130, 12, 10
PLOT_WIDTH = CHART_WIDTH - LABEL_WIDTH - 20
# A value and its interval stay on one line: `64.5` then a smaller, grey `60.1–68.9`.
CELL_CSS = (".v{white-space:nowrap;font-variant-numeric:tabular-nums}"
            ".ci{color:#777;font-size:.72em;margin-left:.3em;white-space:nowrap}")
# A signature wraps only after a `|`: each part (with its `|`) is one inline block, so that
# `audit:ids-tool-1.0.96` never splits at a hyphen; only a part wider than the whole line breaks inside.
SIGNATURE_CSS = ".sig{overflow-wrap:normal}.sig .part{display:inline-block;max-width:100%;overflow-wrap:anywhere}"


def pct(value: float | None) -> str:
    return NOT_COMPUTED if value is None else f"{100 * value:.1f}"


def interval_text(ci: Sequence[float] | None) -> str:
    return "" if not ci else f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}"


def metric_cell(metric: Mapping | None) -> str:
    """`<td>` of one metric: the value, then its interval on the same line; n/c when not computed."""
    if not metric or metric.get("value") is None:
        return f'<td class="n" title="not computed">{NOT_COMPUTED}</td>'
    ci = interval_text(metric.get("ci"))
    interval = f'<span class="ci">{ci}</span>' if ci else ""
    return f'<td class="n" data-sort="{metric["value"]:.6f}"><span class="v">{pct(metric["value"])}</span>{interval}</td>'


def signature_html(signature: str, element_id: str | None = None) -> str:
    """The signature as the pages show it (SIGNATURE_CSS): its text is unchanged for copying."""
    parts = signature.split("|")
    spans = "<wbr>".join(f'<span class="part">{escape(part)}{"|" if i < len(parts) - 1 else ""}</span>'
                         for i, part in enumerate(parts))
    ident = f' id="{escape(element_id)}"' if element_id else ""
    return f'<code class="sig"{ident}>{spans}</code>'


def json_for_script(document: Mapping) -> str:
    """JSON to embed in a <script> element: `</` would end it early; U+2028/9 break old JS parsers."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@dataclass(frozen=True)
class Series:
    """One bar per metadata value: `groups` maps a value to its group JSON ({"n", "metrics"})."""

    name: str
    groups: Mapping[str, Mapping]
    metric: str


def _bar(y: float, metric: Mapping, color: str, label: str) -> str:
    value, ci = metric["value"], metric.get("ci")
    title = escape(f"{label}: {pct(value)}" + (f" [{interval_text(ci)}]" if ci else ""))
    parts = [f'<rect x="{LABEL_WIDTH}" y="{y:.1f}" width="{max(PLOT_WIDTH * value, 0.5):.1f}" '
             f'height="{BAR_HEIGHT}" fill="{color}"><title>{title}</title></rect>']
    if ci:
        lo, hi = (LABEL_WIDTH + PLOT_WIDTH * c for c in ci)
        mid = y + BAR_HEIGHT / 2
        parts.append(f'<path d="M{lo:.1f} {mid:.1f}H{hi:.1f}M{lo:.1f} {mid - 4:.1f}v8M{hi:.1f} {mid - 4:.1f}v8" '
                     'stroke="#222" stroke-width="1" fill="none"/>')
    return "".join(parts)


def breakdown_chart(key: str, series: Sequence[Series], label: str) -> str:
    """Grouped horizontal bars: one group per metadata value, one bar per series, interval whiskers."""
    values = sorted({v for s in series for v in s.groups})
    height = 30 + len(values) * (len(series) * BAR_HEIGHT + GAP) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-breakdown="{escape(key)}" '
             f'width="{CHART_WIDTH}" height="{height}" viewBox="0 0 {CHART_WIDTH} {height}" role="img" '
             f'aria-label="{escape(label)}">']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = LABEL_WIDTH + PLOT_WIDTH * tick
        parts.append(f'<line x1="{x:.1f}" y1="14" x2="{x:.1f}" y2="{height - 24}" stroke="#e4e4e4"/>'
                     f'<text x="{x:.1f}" y="{height - 10}" font-size="10" text-anchor="middle">{round(100 * tick)}</text>')
    y = 20
    for value in values:
        parts.append(f'<text x="{LABEL_WIDTH - 6}" y="{y + len(series) * BAR_HEIGHT / 2 + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{escape(value)}</text>')
        for i, s in enumerate(series):
            group = s.groups.get(value)
            metric = (group or {}).get("metrics", {}).get(s.metric)
            if metric and metric.get("value") is not None:
                parts.append(_bar(y, metric, PALETTE[i % len(PALETTE)], f"{s.name}, {value} (n={group['n']})"))
            y += BAR_HEIGHT
        y += GAP
    parts.append("</svg>")
    return "".join(parts)


def legend(names: Sequence[str]) -> str:
    items = "".join(f'<span class="key"><svg width="10" height="10"><rect width="10" height="10" '
                    f'fill="{PALETTE[i % len(PALETTE)]}"/></svg> {escape(name)}</span>' for i, name in enumerate(names))
    return f'<p class="legend">{items}</p>'


def charts(keys: Sequence[str], series_for: Callable[[str], Sequence[Series]], names: Sequence[str],
           label: str) -> str:
    """A legend (`names`, in series order) and one chart per metadata key, in BREAKDOWN_LABELS order;
    `series_for(key)` gives the bars of a key, e.g. one series per leaderboard row or per metric of a run."""
    shown = [k for k in BREAKDOWN_LABELS if k in keys]
    if not shown:
        return '<p class="note">no groups to chart</p>'
    figures = "".join(f"<figure><figcaption>{escape(f'{label} by {BREAKDOWN_LABELS[k]}')}</figcaption>"
                      f"{breakdown_chart(k, series_for(k), f'{label} by {BREAKDOWN_LABELS[k]}')}</figure>"
                      for k in shown)
    return legend(names) + f'<div class="charts">{figures}</div>'
