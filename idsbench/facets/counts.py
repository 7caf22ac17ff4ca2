"""Stage 2, part 3: per-example facet counts and precision/recall/F1 (docs/facet-scorer.md §4).

`score_documents(candidate, gold)` is the entry point; `score_parsed` scores a candidate already
parsed (the pipeline's one parse, shared with the audit). The gold's blocks are computed once per
gold document (`gold_blocks`, see idsbench/goldside.py) and reused by every prediction scored
against it."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from idsbench.goldside import per_gold
from idsbench.xmlparse import Candidate, Parsed, large_document

from .blocks import SpecBlocks, document_blocks
from .pairing import Rows, pair_rows


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


@dataclass(frozen=True)
class GoldBlocks:
    """A gold document's blocks, or why it could not be parsed."""

    blocks: list[SpecBlocks]
    error: str | None = None


def failed(error: str) -> FacetScore:
    return FacetScore(0, 0, 0, 0.0, 0.0, 0.0, error=error)


def overlap(a: Counter, b: Counter) -> int:
    """Size of the multiset intersection."""
    if len(b) < len(a):
        a, b = b, a
    return sum(min(count, b[block]) for block, count in a.items() if block in b)


def ratios(matched: int, pred_total: int, gold_total: int) -> tuple[float, float, float]:
    precision = matched / pred_total if pred_total else 0.0
    recall = matched / gold_total if gold_total else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def weight_rows(gold: list[SpecBlocks], pred: list[SpecBlocks]) -> Rows:
    """w(g, p) = |core(g) ∩ core(p)| for the pairs that share a block (through an index from each
    block to the predicted specifications holding it: near linear, where a full matrix of
    thousands of specifications is quadratic)."""
    holders: dict[tuple, list[int]] = {}  # block -> predicted specs holding it (once each)
    repeated: dict[tuple, list[tuple[int, int]]] = {}  # block -> (spec, count) where a spec holds it twice or more
    for j, p in enumerate(pred):
        for block, count in p.core.items():
            holders.setdefault(block, []).append(j)
            if count > 1:
                repeated.setdefault(block, []).append((j, count))
    rows: Rows = []
    for g in gold:
        row: Counter = Counter()
        for block, count in g.core.items():
            found = holders.get(block)
            if found is None:
                continue
            row.update(found)  # min(count, theirs) is 1 for each holder...
            if count > 1:  # ...unless both hold the block more than once
                for j, theirs in repeated.get(block, ()):
                    row[j] += min(count, theirs) - 1
        rows.append(row)
    return rows


def score_blocks(pred: list[SpecBlocks], gold: list[SpecBlocks]) -> FacetScore:
    """Pair specifications and count matched / predicted / gold full blocks."""
    pairs = pair_rows(weight_rows(gold, pred), len(pred))
    matched = pred_total = gold_total = 0
    for i, g in enumerate(gold):
        gold_total += g.size
        if i in pairs:
            p = pred[pairs[i]]
            matched += overlap(g.full, p.full)
            pred_total += p.size
    paired = set(pairs.values())
    pred_total += sum(p.size for j, p in enumerate(pred) if j not in paired)
    return FacetScore(matched, pred_total, gold_total, *ratios(matched, pred_total, gold_total),
                      pred_specs=len(pred), gold_specs=len(gold))


@per_gold
def gold_blocks(gold: str) -> GoldBlocks:
    """The gold's blocks, parsed as the published scorer parses it (once per gold document)."""
    parsed = Candidate(gold).stage2()
    return GoldBlocks(document_blocks(parsed.root)) if parsed.ok else GoldBlocks([], parsed.error)


def score_parsed(candidate: Parsed, gold: str) -> FacetScore:
    """Stage 2 on a parsed candidate (xmlparse.Candidate.stage2) and a gold IDS document."""
    if not candidate.ok:
        return failed(f"prediction: {candidate.error}")
    with large_document(len(gold)):
        reference = gold_blocks(gold)
    if reference.error is not None:
        return failed(f"gold: {reference.error}")
    with large_document(candidate.size):
        return score_blocks(document_blocks(candidate.root), reference.blocks)


def score_documents(candidate: str, gold: str) -> FacetScore:
    """Stage 2 on an extracted candidate document and a gold IDS document."""
    if not candidate:
        return failed("empty output")
    return score_parsed(Candidate(candidate).stage2(), gold)
