"""The leaderboard as one self-contained HTML page: no external assets, inline CSS/JS/SVG.

The board JSON is embedded in the page; a small script renders the table, sorts it on a header click and
switches every row to one metadata group (language, input format, turn type, domain, IFC version).
Charts are inline SVG drawn here, one per metadata breakdown, with the interval as a whisker.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape

from idsbench.report.aggregate import LABELS

from .stats import describe_intervals

BREAKDOWN_LABELS = {"language": "language", "input_format": "input format", "turn_type": "turn type",
                    "domain": "domain", "ifc_versions": "IFC version", "skills": "skill"}
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")
CHART_WIDTH, LABEL_WIDTH, BAR_HEIGHT, GAP = 640, 150, 12, 10

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem;color:#222;max-width:1400px}
h1{font-size:1.4rem;margin:0 0 .3rem} h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
.sig,code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.72rem;color:#555;word-break:break-all}
table{border-collapse:collapse;width:100%;font-size:.85rem} th,td{padding:.3rem .45rem;border-bottom:1px solid #ddd;text-align:right}
th{background:#f4f4f4;cursor:pointer;user-select:none;position:sticky;top:0} th.sorted-asc::after{content:" ▲"} th.sorted-desc::after{content:" ▼"}
td.name,th.name,td.sig{text-align:left} .ci{color:#777;font-size:.72rem;display:block}
tbody.refs td{background:#fffbea;color:#555} tbody.refs td.name::after{content:" (reported, not ranked)";font-size:.7rem;color:#a07d00}
.controls{margin:.8rem 0} select{font-size:.9rem;padding:.15rem} .note{color:#666;font-size:.8rem}
.charts{display:flex;flex-wrap:wrap;gap:1rem} figure{margin:0} figcaption{font-size:.85rem;font-weight:600}
ul.rejected li{font-size:.82rem;white-space:pre-line}
"""

SCRIPT = r"""
(function () {
  const data = JSON.parse(document.getElementById('board-data').textContent);
  const metrics = data.metrics;
  const state = {group: '', key: data.sort, desc: true};
  const pct = v => (v === null || v === undefined) ? '' : Array.isArray(v)
    ? (100 * v[0]).toFixed(1) + '–' + (100 * v[1]).toFixed(1) : (100 * v).toFixed(1);
  function groupOf(row) {
    if (!state.group) return row.overall;
    const [k, v] = state.group.split('=');
    return (row.breakdowns[k] || {})[v] || null;
  }
  function refGroup(ref) {
    if (!state.group) return ref.metrics;
    const [k, v] = state.group.split('=');
    return (ref.breakdowns[k] || {})[v] || null;
  }
  function sortValue(row) {
    if (state.key === 'name') return row.name.toLowerCase();
    if (state.key === 'rank') return row.rank === null ? Infinity : row.rank;
    const g = groupOf(row);
    if (!g) return null;
    if (state.key === 'n') return g.n;
    return (g.metrics[state.key] || {value: null}).value;
  }
  function compare(a, b) {
    const x = sortValue(a), y = sortValue(b);
    if (x === null && y === null) return a.name.localeCompare(b.name);
    if (x === null) return 1;
    if (y === null) return -1;
    if (x < y) return state.desc ? 1 : -1;
    if (x > y) return state.desc ? -1 : 1;
    return a.name.localeCompare(b.name);
  }
  function cell(text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    td.textContent = text;
    return td;
  }
  function metricCell(m) {
    const td = document.createElement('td');
    if (!m || m.value === null) { td.textContent = m ? 'n/c' : ''; return td; }
    td.textContent = pct(m.value);
    td.dataset.value = m.value;
    if (m.ci) {
      const span = document.createElement('span');
      span.className = 'ci';
      span.textContent = '[' + pct(m.ci[0]) + ', ' + pct(m.ci[1]) + ']';
      td.appendChild(span);
    }
    return td;
  }
  function render() {
    const body = document.getElementById('rows');
    body.replaceChildren();
    [...data.rows].sort(compare).forEach(row => {
      const g = groupOf(row);
      const tr = document.createElement('tr');
      tr.dataset.name = row.name;
      tr.appendChild(cell(row.rank === null ? '–' : String(row.rank)));
      tr.appendChild(cell(row.name, 'name'));
      tr.appendChild(cell(g ? String(g.n) : '0'));
      metrics.forEach(m => tr.appendChild(metricCell(g ? (g.metrics[m] || {value: null}) : null)));
      tr.appendChild(cell(row.signature, 'sig'));
      body.appendChild(tr);
    });
    const refs = document.getElementById('refs');
    refs.replaceChildren();
    data.references.forEach(ref => {
      const g = refGroup(ref);
      const tr = document.createElement('tr');
      tr.dataset.name = ref.name;
      tr.dataset.reference = 'true';
      tr.appendChild(cell('ref.'));
      tr.appendChild(cell(ref.name, 'name'));
      tr.appendChild(cell(''));
      metrics.forEach(m => tr.appendChild(cell(g ? pct(g[m]) : '')));
      tr.appendChild(cell(ref.notes || '', 'sig'));
      refs.appendChild(tr);
    });
    document.querySelectorAll('th[data-key]').forEach(th => {
      th.classList.toggle('sorted-desc', th.dataset.key === state.key && state.desc);
      th.classList.toggle('sorted-asc', th.dataset.key === state.key && !state.desc);
    });
    document.getElementById('shown').textContent = state.group ? state.group.replace('=', ' = ') : 'all examples';
  }
  document.querySelectorAll('th[data-key]').forEach(th => th.addEventListener('click', () => {
    const key = th.dataset.key;
    state.desc = state.key === key ? !state.desc : !(key === 'name' || key === 'rank');
    state.key = key;
    render();
  }));
  document.getElementById('group').addEventListener('change', e => { state.group = e.target.value; render(); });
  render();
  document.body.dataset.ready = 'true';
})();
"""


def _json_for_script(document: Mapping) -> str:
    # `</` would end the <script> element early; \u2028/9 are fine in JSON but not in old JS parsers.
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def group_options(rows: Sequence[Mapping]) -> list[tuple[str, str]]:
    """(value, label) of every metadata group present in some row, in breakdown order."""
    seen: dict[str, set[str]] = {}
    for row in rows:
        for key, groups in row["breakdowns"].items():
            seen.setdefault(key, set()).update(groups)
    options = [("", "all examples")]
    for key in BREAKDOWN_LABELS:
        options += [(f"{key}={value}", f"{BREAKDOWN_LABELS[key]} = {value}") for value in sorted(seen.get(key, ()))]
    return options


def _bar(x0: float, y: float, metric: Mapping, color: str, label: str) -> str:
    value, ci = metric["value"], metric.get("ci")
    width = (CHART_WIDTH - LABEL_WIDTH - 20) * value
    title = escape(f"{label}: {100 * value:.1f}" + (f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""))
    parts = [f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(width, 0.5):.1f}" height="{BAR_HEIGHT}" '
             f'fill="{color}"><title>{title}</title></rect>']
    if ci:
        lo, hi = (x0 + (CHART_WIDTH - LABEL_WIDTH - 20) * c for c in ci)
        mid = y + BAR_HEIGHT / 2
        parts.append(f'<path d="M{lo:.1f} {mid:.1f}H{hi:.1f}M{lo:.1f} {mid - 4:.1f}v8M{hi:.1f} {mid - 4:.1f}v8" '
                     'stroke="#222" stroke-width="1" fill="none"/>')
    return "".join(parts)


def breakdown_chart(key: str, rows: Sequence[Mapping], metric: str) -> str:
    """Grouped horizontal bars: one group per metadata value, one bar per ranked row, interval whiskers."""
    values = sorted({v for row in rows for v in row["breakdowns"].get(key, {})})
    height = 30 + len(values) * (len(rows) * BAR_HEIGHT + GAP) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-breakdown="{escape(key)}" '
             f'width="{CHART_WIDTH}" height="{height}" viewBox="0 0 {CHART_WIDTH} {height}" role="img" '
             f'aria-label="{escape(LABELS[metric])} by {escape(BREAKDOWN_LABELS.get(key, key))}">']
    x0, y = LABEL_WIDTH, 20
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = x0 + (CHART_WIDTH - LABEL_WIDTH - 20) * tick
        parts.append(f'<line x1="{x:.1f}" y1="14" x2="{x:.1f}" y2="{height - 24}" stroke="#e4e4e4"/>'
                     f'<text x="{x:.1f}" y="{height - 10}" font-size="10" text-anchor="middle">{round(100 * tick)}</text>')
    for value in values:
        parts.append(f'<text x="{x0 - 6}" y="{y + len(rows) * BAR_HEIGHT / 2 + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{escape(value)}</text>')
        for i, row in enumerate(rows):
            group = row["breakdowns"].get(key, {}).get(value)
            if group and group["metrics"][metric]["value"] is not None:
                parts.append(_bar(x0, y, group["metrics"][metric], PALETTE[i % len(PALETTE)],
                                  f"{row['name']}, {value} (n={group['n']})"))
            y += BAR_HEIGHT
        y += GAP
    parts.append("</svg>")
    return "".join(parts)


def legend(rows: Sequence[Mapping]) -> str:
    items = "".join(f'<span style="margin-right:1rem"><svg width="10" height="10"><rect width="10" height="10" '
                    f'fill="{PALETTE[i % len(PALETTE)]}"/></svg> {escape(row["name"])}</span>'
                    for i, row in enumerate(rows))
    return f'<p class="note">{items}</p>'


def charts(board: Mapping) -> str:
    rows, metric = board["rows"], board["sort"]
    keys = [k for k in BREAKDOWN_LABELS if any(k in row["breakdowns"] for row in rows)]
    figures = "".join(f'<figure><figcaption>{escape(LABELS[metric])} by {escape(BREAKDOWN_LABELS[k])}'
                      f'</figcaption>{breakdown_chart(k, rows, metric)}</figure>' for k in keys)
    return legend(rows) + f'<div class="charts">{figures}</div>' if keys else '<p class="note">no rows to chart</p>'


def _header(board: Mapping) -> str:
    cells = ['<th data-key="rank">#</th>', '<th data-key="name" class="name">Model</th>', '<th data-key="n">N</th>']
    cells += [f'<th data-key="{m}">{escape(board["labels"][m])}</th>' for m in board["metrics"]]
    cells.append('<th class="name">Signature / notes</th>')
    return "<tr>" + "".join(cells) + "</tr>"


def _rejected(board: Mapping) -> str:
    if not board["rejected"]:
        return ""
    items = "".join(f"<li><code>{escape(r['file'])}</code>{' (' + escape(r['name']) + ')' if r['name'] else ''}: "
                    f"{escape(r['reason'])}</li>" for r in board["rejected"])
    return f'<h2>Rejected results</h2><ul class="rejected">{items}</ul>'


def render_page(board: Mapping, title: str = "Ishigaki-IDS-Bench leaderboard") -> str:
    """The whole page; `board` is Board.to_json()."""
    options = "".join(f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in group_options(board["rows"]))
    boot = board.get("bootstrap")
    ci = f"{describe_intervals(boot)}, in brackets" if boot else "no intervals"
    refs_note = ("Reference rows (yellow) are figures reported in the paper on the official data: not re-scored "
                 "here, never ranked; blank = not reported.")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p class="note">Scores in percent, sorted by {escape(board['labels'][board['sort']])}; {escape(ci)}. Click a column to sort.</p>
<p class="note">Board signature: <span class="sig" id="signature">{escape(board['signature'])}</span></p>
<div class="controls"><label for="group">Show metadata group: </label><select id="group">{options}</select>
 <span class="note">showing <b id="shown">all examples</b></span></div>
<table id="board"><thead>{_header(board)}</thead><tbody id="rows"></tbody><tbody id="refs" class="refs"></tbody></table>
<p class="note">{escape(refs_note)}</p>
{_rejected(board)}
<h2>By metadata breakdown</h2>
{charts(board)}
<script type="application/json" id="board-data">{_json_for_script(board)}</script>
<script>{SCRIPT}</script>
</body></html>
"""
