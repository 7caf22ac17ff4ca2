"""The leaderboard as one self-contained HTML page: no external assets, inline CSS/JS/SVG.

The board JSON is embedded in the page; a small script renders the table, sorts it on a header click and
switches every row to one metadata group (language, input format, turn type, domain, IFC version).
The board's signature is shown once; a row flags only what differs from it. The paper's figures, measured on
other data, have a table of their own below the ranking. Intervals follow their
value on the same line, so a row stays one line tall at 1,000 px. Charts (idsbench.report.html) are
inline SVG, one per metadata breakdown, with the interval as a whisker.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from idsbench.report.html import (BREAKDOWN_LABELS, CELL_CSS, SIGNATURE_CSS, Series, charts, json_for_script,
                                  signature_html)

from .board import signature_flag
from .stats import describe_intervals

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1rem 1.25rem;color:#222;max-width:1400px}
h1{font-size:1.4rem;margin:0 0 .3rem} h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
.sig,code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.72rem;color:#555} code{overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:.85rem} th,td{padding:.3rem .3rem;border-bottom:1px solid #ddd;text-align:right} th{font-size:.8rem}
th{background:#f4f4f4;cursor:pointer;user-select:none;position:sticky;top:0;vertical-align:bottom}
th.sorted-asc::after{content:" ▲"} th.sorted-desc::after{content:" ▼"}
td.name,th.name{text-align:left} td.name{min-width:7rem}
.flag{display:inline-block;margin-left:.4rem;padding:0 .3rem;border-radius:3px;background:#fdecea;color:#a3261a;font-size:.7rem}
table.refs td{background:#fffbea;color:#555} table.refs th{cursor:default;position:static}
sup.ref{color:#a07d00;font-size:.65rem}
.controls{margin:.8rem 0} select{font-size:.9rem;padding:.15rem} .note,.legend{color:#666;font-size:.8rem}
.legend .key{margin-right:1rem;white-space:nowrap}
.charts{display:flex;flex-wrap:wrap;gap:1rem} figure{margin:0} figcaption{font-size:.85rem;font-weight:600}
ul.rejected li,ol.refnotes li{font-size:.82rem;white-space:pre-line}
""" + CELL_CSS + SIGNATURE_CSS

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
    if (!m || m.value === null || m.value === undefined) { td.textContent = m === null ? '' : 'n/c'; return td; }
    const v = document.createElement('span');
    v.className = 'v';
    v.textContent = pct(m.value);
    td.appendChild(v);
    td.dataset.value = m.value;
    if (m.ci) {
      const span = document.createElement('span');
      span.className = 'ci';
      span.textContent = pct(m.ci[0]) + '–' + pct(m.ci[1]);
      td.appendChild(span);
    }
    return td;
  }
  function nameCell(name, flag, title) {
    const td = cell(name, 'name');
    if (flag) {
      const span = document.createElement('span');
      span.className = 'flag';
      span.textContent = flag;
      span.title = title;
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
      tr.appendChild(nameCell(row.name, row.differs, 'signature: ' + row.signature));
      tr.appendChild(cell(g ? String(g.n) : '0'));
      metrics.forEach(m => tr.appendChild(metricCell(g ? (g.metrics[m] || {value: null}) : null)));
      body.appendChild(tr);
    });
    const refs = document.getElementById('refs');  // absent when the board has no reference figures
    if (refs) refs.replaceChildren();
    data.references.forEach(ref => {
      const g = refGroup(ref);
      const tr = document.createElement('tr');
      tr.dataset.name = ref.name;
      tr.dataset.reference = 'true';
      const name = cell(ref.name, 'name');
      if (ref.notes) {
        name.title = ref.notes;
        const sup = document.createElement('sup');
        sup.className = 'ref';
        sup.textContent = ' ' + ref.note_number;
        name.appendChild(sup);
      }
      tr.appendChild(name);
      metrics.forEach(m => tr.appendChild(cell(g ? pct(g[m]) : '')));
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


def page_data(board: Mapping) -> dict:
    """The board JSON as the page's script reads it: rows flag a signature difference, reference rows
    number their notes (shown under the table, not in a column)."""
    rows = [{**row, "differs": signature_flag(row["signature"], board["signature"])} for row in board["rows"]]
    refs, number = [], 0
    for ref in board["references"]:
        number += bool(ref.get("notes"))
        refs.append({**ref, "note_number": number if ref.get("notes") else None})
    return {**board, "rows": rows, "references": refs}


def _chart_section(board: Mapping) -> str:
    rows, metric = board["rows"], board["sort"]
    keys = {k for row in rows for k in row["breakdowns"]}
    return charts(keys, lambda key: [Series(row["name"], row["breakdowns"].get(key, {}), metric) for row in rows],
                  [row["name"] for row in rows], board["labels"][metric])


REFERENCE_NOTE = ("Figures the paper reports, measured on the official release of the data, not on the data "
                  "behind the ranking above: not re-scored here, not comparable row for row with it, never ranked. "
                  "Blank: not reported; a range: across model sizes.")


def _reference_section(data: Mapping) -> str:
    """The paper's figures in a table of their own, below the ranking (rows among ranked ones were misread)."""
    if not data["references"]:
        return ""
    head = '<th class="name">Model</th>' + "".join(f"<th>{escape(data['labels'].get(m, m))}</th>"
                                                    for m in data["metrics"])
    return (f'<h2 id="reported">Reported in the paper, on other data</h2><p class="note">{escape(REFERENCE_NOTE)}</p>'
            f'<table id="references" class="refs"><thead><tr>{head}</tr></thead><tbody id="refs"></tbody></table>'
            f'{_reference_notes(data["references"])}')


def _reference_notes(references: Sequence[Mapping]) -> str:
    items = "".join(f"<li value=\"{ref['note_number']}\"><b>{escape(ref['name'])}</b>: {escape(ref['notes'])}</li>"
                    for ref in references if ref.get("note_number"))
    return f'<ol class="refnotes">{items}</ol>' if items else ""


def _header(board: Mapping) -> str:
    cells = ['<th data-key="rank">#</th>', '<th data-key="name" class="name">Model</th>', '<th data-key="n">N</th>']
    cells += [f'<th data-key="{m}">{escape(board["labels"].get(m, m))}</th>' for m in board["metrics"]]
    return "<tr>" + "".join(cells) + "</tr>"


def _rejected(board: Mapping) -> str:
    if not board["rejected"]:
        return ""
    items = "".join(f"<li><code>{escape(r['file'])}</code>{' (' + escape(r['name']) + ')' if r['name'] else ''}: "
                    f"{escape(r['reason'])}</li>" for r in board["rejected"])
    return f'<h2>Rejected results</h2><ul class="rejected">{items}</ul>'


def render_page(board: Mapping, title: str = "Ishigaki-IDS-Bench leaderboard") -> str:
    """The whole page; `board` is Board.to_json()."""
    data = page_data(board)
    options = "".join(f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in group_options(board["rows"]))
    boot = board.get("bootstrap")
    ci = f"{describe_intervals(boot)}, after each value" if boot else "no intervals"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p class="note">Scores in percent, sorted by {escape(board['labels'][board['sort']])}; {escape(ci)}. Click a column to sort.</p>
<p class="note">Every ranked row is scored as this signature says (a row flags only a difference):
{signature_html(board['signature'], "signature")}</p>
<div class="controls"><label for="group">Show metadata group: </label><select id="group">{options}</select>
 <span class="note">showing <b id="shown">all examples</b></span></div>
<table id="board"><thead>{_header(board)}</thead><tbody id="rows"></tbody></table>
{_rejected(board)}
{_reference_section(data)}
<h2>By metadata breakdown</h2>
{_chart_section(board)}
<script type="application/json" id="board-data">{json_for_script(data)}</script>
<script>{SCRIPT}</script>
</body></html>
"""
