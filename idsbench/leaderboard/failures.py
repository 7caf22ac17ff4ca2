"""Failure-mode analysis of one run (the paper's analysis, automated).

From the per-example rows: Stage 1 statuses and audit codes by frequency, overall and per metadata value,
and the Stage 2 error kinds. From the predictions and the gold documents (when the run folder has them):
which facet blocks (section × facet type) were most often missed or spurious, recomputed with the
scorer's own extraction, parsing, blocks and pairing, so the counts add up to gold_total − matched and
pred_total − matched exactly.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from idsbench.audit.rules import labelled, meaning
from idsbench.extract import extract_candidate
from idsbench.facets.blocks import SpecBlocks, document_blocks
from idsbench.facets.counts import overlap
from idsbench.facets.pairing import pair_specifications
from idsbench.records import load_predictions, load_references
from idsbench.xmlparse import parse_xml

from .stats import groups_of

FacetKey = tuple[str, str]  # (section, facet type): ("requirements", "property"), ("spec", "ifcVersion")


@dataclass(frozen=True)
class FacetDiff:
    """Blocks of one example the prediction missed (gold, unmatched) or added (predicted, unmatched)."""

    missed: Counter = field(default_factory=Counter)
    spurious: Counter = field(default_factory=Counter)
    scored: bool = True  # False when either side could not be parsed (the scorer gives 0 there)


def _by_facet(blocks: Counter) -> Counter:
    tally: Counter = Counter()
    for (section, facet_type, _content), count in blocks.items():
        tally[(section, facet_type)] += count
    return tally


def diff_blocks(pred: Sequence[SpecBlocks], gold: Sequence[SpecBlocks]) -> FacetDiff:
    """The scorer's pairing (same weights, same solver), then the unmatched blocks on each side."""
    pairs = pair_specifications([[overlap(g.core, p.core) for p in pred] for g in gold], len(pred))
    missed: Counter = Counter()
    spurious: Counter = Counter()
    for i, g in enumerate(gold):
        p = pred[pairs[i]].full if i in pairs else Counter()
        missed += g.full - p
        spurious += p - g.full
    paired = set(pairs.values())
    for j, p in enumerate(pred):
        if j not in paired:
            spurious += p.full
    return FacetDiff(_by_facet(missed), _by_facet(spurious))


def diff_example(raw: str | None, gold: str) -> FacetDiff:
    """Missed/spurious facet blocks of one raw output; an unparsable output misses every gold block."""
    parsed_gold = parse_xml(gold)
    gold_blocks = document_blocks(parsed_gold.root) if parsed_gold.ok else []
    everything_missed = FacetDiff(_by_facet(sum((g.full for g in gold_blocks), Counter())), Counter(), False)
    candidate = extract_candidate(raw) if raw else ""
    parsed = parse_xml(candidate) if candidate else None
    if parsed is None or not parsed.ok or not parsed_gold.ok:
        return everything_missed
    return diff_blocks(document_blocks(parsed.root), gold_blocks)


def error_kind(error: str | None) -> str | None:
    """`prediction: not well-formed XML: mismatched tag: line 3, column 2` -> `prediction: not well-formed XML`."""
    if not error:
        return None
    return ": ".join(re.split(r":\s", error, maxsplit=2)[:2])


# ------------------------------------------------------------------------------------------ tallies

@dataclass(frozen=True)
class GroupFailures:
    n: int
    statuses: list[tuple[str, int]]
    codes: list[tuple[int, int]]  # (audit code, number of examples with it)
    errors: list[tuple[str, int]]
    missed: list[tuple[FacetKey, int]] | None = None
    spurious: list[tuple[FacetKey, int]] | None = None

    def to_json(self) -> dict:
        facets = None if self.missed is None else {
            "missed": [{"section": s, "facet": f, "count": c} for (s, f), c in self.missed],
            "spurious": [{"section": s, "facet": f, "count": c} for (s, f), c in self.spurious],
        }
        return {"n": self.n,
                "statuses": [{"status": s, "count": c} for s, c in self.statuses],
                "codes": [{"code": k, "meaning": meaning(k), "count": c} for k, c in self.codes],
                "errors": [{"error": e, "count": c} for e, c in self.errors],
                "facets": facets}


def _ranked(counter: Counter) -> list:
    """By frequency, then by key, so reports are stable."""
    return sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))


def group_failures(rows: Sequence[Mapping], diffs: Mapping[str, FacetDiff] | None) -> GroupFailures:
    statuses = Counter((r.get("audit") or {}).get("status_text", "not audited") for r in rows)
    codes = Counter(code for r in rows for code in set((r.get("audit") or {}).get("codes") or ()))
    errors = Counter(kind for r in rows if (kind := error_kind(r.get("error"))))
    if diffs is None:
        return GroupFailures(len(rows), _ranked(statuses), _ranked(codes), _ranked(errors))
    missed = sum((diffs[r["id"]].missed for r in rows if r["id"] in diffs), Counter())
    spurious = sum((diffs[r["id"]].spurious for r in rows if r["id"] in diffs), Counter())
    return GroupFailures(len(rows), _ranked(statuses), _ranked(codes), _ranked(errors),
                         _ranked(missed), _ranked(spurious))


@dataclass(frozen=True)
class FailureReport:
    name: str
    overall: GroupFailures
    groups: dict[str, dict[str, GroupFailures]]
    note: str | None = None

    def to_json(self) -> dict:
        return {"name": self.name, "note": self.note, "overall": self.overall.to_json(),
                "breakdowns": {key: {value: g.to_json() for value, g in values.items()}
                               for key, values in self.groups.items()}}


def failure_report(name: str, rows: Sequence[Mapping], diffs: Mapping[str, FacetDiff] | None,
                   note: str | None = None) -> FailureReport:
    groups = {key: {value: group_failures(members, diffs) for value, members in values.items()}
              for key, values in groups_of(rows).items()}
    return FailureReport(name, group_failures(rows, diffs), groups, note)


def run_diffs(predictions_path: Path, data: Path | None = None,
              ids: Iterable[str] | None = None) -> dict[str, FacetDiff]:
    """Facet diffs of every example of a predictions file (errors name the file and line)."""
    references = load_references(data)
    if ids is not None:
        wanted = set(ids)
        references = [r for r in references if r.id in wanted]
    raw = load_predictions(predictions_path, [r.id for r in references])
    return {r.id: diff_example(raw[r.id], r.gold) for r in references}


# ------------------------------------------------------------------------------------------ text

def _lines(title: str, items: list, label) -> list[str]:
    if not items:
        return [f"{title}: none"]
    return [f"{title}:"] + [f"  {count:5d}  {label(key)}" for key, count in items]


def format_report(report: FailureReport, top: int = 10) -> str:
    """A plain-text report: overall tallies, then each metadata value's top statuses and codes. Every code
    found is listed once with its meaning, overall; the per-group lines give the codes alone."""
    overall = report.overall
    out = [f"failure analysis: {report.name} (n={overall.n})"]
    if report.note:
        out.append(f"note: {report.note}")
    out += _lines("audit statuses", overall.statuses[:top], str)
    out += _lines("audit codes (examples with the code)", overall.codes, labelled)
    out += _lines("stage 2 errors", overall.errors[:top], str)
    if overall.missed is not None:
        out += _lines("facet blocks most often missed", overall.missed[:top], lambda k: f"{k[0]}/{k[1]}")
        out += _lines("facet blocks most often spurious", overall.spurious[:top], lambda k: f"{k[0]}/{k[1]}")
    for key, values in report.groups.items():
        out.append(f"by {key}:")
        for value, group in values.items():
            codes = ", ".join(f"{c}×{n}" for c, n in group.codes[:5]) or "-"
            statuses = ", ".join(f"{s}×{n}" for s, n in group.statuses[:3])
            missed = "" if group.missed is None else "; missed " + (
                ", ".join(f"{s}/{f}×{n}" for (s, f), n in group.missed[:3]) or "-")
            out.append(f"  {value} (n={group.n}): {statuses}; codes {codes}{missed}")
    return "\n".join(out)
