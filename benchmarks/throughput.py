"""Stage 1 and Stage 2 throughput on the gold documents and on the synthetic corpus of LLM outputs
(idsbench/synthetic/corpus.py), with ratios against xmlschema-only validation and a bare parse.

    python -m benchmarks.throughput [--repeat 3]

Per corpus: documents/s of the audit (Stage 1), of the facet scorer (Stage 2, prediction vs gold),
of `evaluate_one` (extraction + both stages), of xmlschema-only validation and of a bare lxml
parse; then time ratios. Best of --repeat passes, after a warm-up pass; what is kept of golds and
facets is dropped before each pass, so that a pass costs what one real pass over the corpus does. Asserts
nothing.
"""
from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET


from benchmarks.audit_throughput import _parse, rate, xmlschema_only
from idsbench.audit import audit
from idsbench.example import Reference
from idsbench.extract import extract_candidate
from idsbench.facets.counts import score_documents
from idsbench.goldside import forget
from idsbench.pipeline import evaluate_one
from idsbench.pipeline import make_auditor
from idsbench.records import load_references
from idsbench.synthetic.corpus import synthetic_corpus


def corpora() -> dict[str, list[tuple[str, Reference]]]:
    """(raw output, reference) pairs: the golds themselves, and the synthetic outputs."""
    references = load_references()
    synthetic = synthetic_corpus([r.gold for r in references])
    return {"gold": [(r.gold, r) for r in references],
            "synthetic": [(o.text, references[o.gold_index]) for o in synthetic]}


def _bare_stage2_parse(pair: tuple[str, str]) -> None:
    for text in pair:
        try:
            ET.fromstring(text.encode())
        except ET.ParseError:
            pass


def measure(pairs: list[tuple[str, Reference]], repeat: int) -> dict[str, float]:
    """Documents (or pairs) per second for each way of processing the corpus."""
    auditor = make_auditor("ids-tool-1.0.96")
    candidates = [extract_candidate(raw).encode() for raw, _ in pairs]
    scored = [(extract_candidate(raw), ref.gold) for raw, ref in pairs]
    return {
        "audit": rate(audit, candidates, repeat),
        "stage2": rate(lambda p: score_documents(*p), scored, repeat, before=forget),
        "evaluate_one": rate(lambda p: evaluate_one(p[0], p[1], auditor), pairs, repeat, before=forget),
        "xmlschema": rate(xmlschema_only, candidates, repeat),
        "lxml": rate(_parse, candidates, repeat),
        "et_pair": rate(_bare_stage2_parse, scored, repeat),
    }


def report(name: str, pairs: list[tuple[str, Reference]], repeat: int) -> dict[str, float]:
    r = measure(pairs, repeat)
    size = sum(len(raw) for raw, _ in pairs) / len(pairs) / 1024
    print(f"{name}: {len(pairs)} outputs, mean {size:.1f} KiB")
    print(f"  Stage 1 audit()             {r['audit']:8.0f} docs/s")
    print(f"  Stage 2 score_documents()   {r['stage2']:8.0f} pairs/s")
    print(f"  evaluate_one (both stages)  {r['evaluate_one']:8.0f} examples/s")
    print(f"  xmlschema-only validation   {r['xmlschema']:8.0f} docs/s   audit time / xmlschema time = "
          f"{r['xmlschema'] / r['audit']:.2f}x")
    print(f"  bare lxml parse             {r['lxml']:8.0f} docs/s   audit time / lxml parse time = "
          f"{r['lxml'] / r['audit']:.1f}x")
    print(f"  bare ElementTree parse x2   {r['et_pair']:8.0f} pairs/s  Stage 2 time / parse time     = "
          f"{r['et_pair'] / r['stage2']:.1f}x")
    return r


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (best is kept)")
    args = parser.parse_args(argv)
    sets = corpora()
    for pairs in sets.values():  # warm-up: vocabularies, XSD, regex caches
        measure(pairs[:50], 1)
    for name, pairs in sets.items():
        report(name, pairs, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
