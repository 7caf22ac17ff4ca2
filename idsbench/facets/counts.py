"""Stage 2, part 3: per-example facet counts and precision/recall/F1 (docs/facet-scorer.md §4)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from idsbench.xmlparse import parse_xml

from .blocks import SpecBlocks, document_blocks
from .pairing import pair_specifications


@dataclass(frozen=True, slots=True)
class FacetScore:
    """Per-example Stage 2 result. `error` is set when either side could not be parsed."""

    matched: int
    pred_total: int
    gold_total: int
    precision: float
    recall: float
    f1: float
    pred_specs: int = 0
    gold_specs: int = 0
    error: str | None = None


def failed(error: str) -> FacetScore:
    return FacetScore(0, 0, 0, 0.0, 0.0, 0.0, error=error)


def overlap(a: Counter, b: Counter) -> int:
    """Size of the multiset intersection."""
    return sum((a & b).values())


def ratios(matched: int, pred_total: int, gold_total: int) -> tuple[float, float, float]:
    precision = matched / pred_total if pred_total else 0.0
    recall = matched / gold_total if gold_total else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score_blocks(pred: list[SpecBlocks], gold: list[SpecBlocks]) -> FacetScore:
    """Pair specifications and count matched / predicted / gold full blocks."""
    weights = [[overlap(g.core, p.core) for p in pred] for g in gold]
    pairs = pair_specifications(weights, len(pred))
    matched = pred_total = gold_total = 0
    for i, g in enumerate(gold):
        gold_total += sum(g.full.values())
        if i in pairs:
            p = pred[pairs[i]].full
            matched += overlap(g.full, p)
            pred_total += sum(p.values())
    paired = set(pairs.values())
    pred_total += sum(sum(p.full.values()) for j, p in enumerate(pred) if j not in paired)
    return FacetScore(matched, pred_total, gold_total, *ratios(matched, pred_total, gold_total),
                      pred_specs=len(pred), gold_specs=len(gold))


def score_documents(candidate: str, gold: str) -> FacetScore:
    """Stage 2 on an extracted candidate document and a gold IDS document."""
    if not candidate:
        return failed("empty output")
    parsed_pred = parse_xml(candidate)
    if not parsed_pred.ok:
        return failed(f"prediction: {parsed_pred.error}")
    parsed_gold = parse_xml(gold)
    if not parsed_gold.ok:
        return failed(f"gold: {parsed_gold.error}")
    return score_blocks(document_blocks(parsed_pred.root), document_blocks(parsed_gold.root))
