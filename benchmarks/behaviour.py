"""Cost of the behavioural score: witness generation per gold, and scoring next to Stage 1 + Stage 2.

    python -m benchmarks.behaviour [--limit 40] [--repeat 2]

1. Witness generation: every gold planned, built, settled and proven from scratch (no cache),
   then the same witness sets read back from the disk cache; the share of witnesses per kind.
2. Per-example cost, with the witness sets built once per gold and reused: the behavioural score
   of each output next to `evaluate_one` (extraction + Stage 1 + Stage 2), on the golds themselves
   and on the synthetic corpus of LLM outputs (idsbench/synthetic/corpus.py). Best of --repeat passes.
Prints figures and ratios; asserts nothing.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from idsbench.behaviour import cache
from idsbench.behaviour.check import load_ids
from idsbench.behaviour.prove import prove
from idsbench.behaviour.score import score_document
from idsbench.extract import extract_candidate
from idsbench.pipeline import evaluate_one, make_auditor
from idsbench.records import load_references
from idsbench.synthetic.corpus import synthetic_corpus


def generation(golds: list[str]) -> tuple[list[float], list, Counter]:
    seconds, sets, kinds = [], [], Counter()
    for gold in golds:
        start = time.perf_counter()
        witnesses = prove(load_ids(gold), cache.gold_key(gold))
        seconds.append(time.perf_counter() - start)
        sets.append(witnesses)
        kinds.update(w.kind for w in witnesses.witnesses)
        kinds.update(f"model:{m.kind}" for m in witnesses.model_witnesses)
    return seconds, sets, kinds


def reload(golds: list[str], sets: list) -> list[float]:
    seconds = []
    with tempfile.TemporaryDirectory() as folder:
        for gold, witnesses in zip(golds, sets):
            key = cache.gold_key(gold)
            cache.save(witnesses, Path(folder) / key[:2] / key)
        cache._MEMORY.clear()
        for gold in golds:
            start = time.perf_counter()
            cache.witnesses_for(gold, cache_dir=folder)
            seconds.append(time.perf_counter() - start)
    return seconds


def per_example(pairs, by_gold, repeat: int) -> tuple[float, float]:
    """(ms per example of the behavioural score, ms per example of evaluate_one)."""
    auditor = make_auditor("ids-tool-1.0.96")
    candidates = [(extract_candidate(raw) if raw else "", ref) for raw, ref in pairs]
    best_b = best_e = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for candidate, ref in candidates:
            score_document(candidate, by_gold[ref.gold])
        best_b = min(best_b, time.perf_counter() - start)
        start = time.perf_counter()
        for raw, ref in pairs:
            evaluate_one(raw, ref, auditor)
        best_e = min(best_e, time.perf_counter() - start)
    return 1000 * best_b / len(pairs), 1000 * best_e / len(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="use the first N examples only")
    parser.add_argument("--repeat", type=int, default=2, help="passes per timing (best is kept)")
    args = parser.parse_args(argv)
    references = load_references()[: args.limit]
    golds = list(dict.fromkeys(r.gold for r in references))

    seconds, sets, kinds = generation(golds)
    loads = reload(golds, sets)
    total = sum(kinds.values())
    print(f"witness generation: {len(golds)} golds, {sum(w.proven for w in sets)} proven, "
          f"{total} witnesses ({total / len(golds):.1f} per gold), "
          f"{sum(len(w.dropped) for w in sets)} dropped as not clean")
    print(f"  build per gold: median {1000 * statistics.median(seconds):.0f} ms, "
          f"max {1000 * max(seconds):.0f} ms, total {sum(seconds):.1f} s")
    print(f"  read back from the cache: median {1000 * statistics.median(loads):.1f} ms "
          f"(build / read = {statistics.median(seconds) / statistics.median(loads):.0f}x)")
    print("  witnesses per kind: " + ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in kinds.most_common()))

    by_gold = dict(zip(golds, sets))
    synthetic = synthetic_corpus([r.gold for r in references])
    corpora = {"gold": [(r.gold, r) for r in references],
               "synthetic": [(o.text, references[o.gold_index]) for o in synthetic]}
    for name, pairs in corpora.items():
        behaviour_ms, stages_ms = per_example(pairs, by_gold, args.repeat)
        print(f"per example ({name}, {len(pairs)}): behaviour {behaviour_ms:.1f} ms, "
              f"Stage 1 + Stage 2 (evaluate_one) {stages_ms:.2f} ms, "
              f"behaviour / stages = {behaviour_ms / stages_ms:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
