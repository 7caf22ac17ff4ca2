"""Stage 2 throughput: time to score gold-vs-gold and perturbed pairs, and the ratio to a bare parse.

Usage: python benchmarks/stage2_throughput.py [--data data/] [--repeat 5]
Prints figures, asserts nothing (performance is measured here, not in tests).
"""
from __future__ import annotations

import argparse
import re
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ids_metric.records import DEFAULT_DATA, InputError, load_references  # noqa: E402
from ids_metric.scorer import score_documents  # noqa: E402


def perturb(gold: str) -> str:
    """A near miss: the first simpleValue changed, the last specification dropped."""
    text = re.sub(r"<simpleValue>([^<]*)</simpleValue>", r"<simpleValue>\1X</simpleValue>", gold, count=1)
    cut = text.rfind("<specification ")
    end = text.rfind("</specification>")
    return text[:cut] + text[end + len("</specification>"):] if 0 < cut < end and text.count("<specification ") > 1 else text


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        golds = [r.gold for r in load_references(args.data)]
    except InputError:
        golds = [(ROOT / "tests" / "fixtures" / "wall.ids").read_text(encoding="utf-8")] * 166
        print("no data files found: using 166 copies of tests/fixtures/wall.ids")
    pairs = [(g, g) for g in golds] + [(perturb(g), g) for g in golds]
    n = len(golds)
    gold_time = best_of(args.repeat, lambda: [score_documents(p, g) for p, g in pairs[:n]])
    near_time = best_of(args.repeat, lambda: [score_documents(p, g) for p, g in pairs[n:]])
    parse_time = best_of(args.repeat, lambda: [ET.fromstring(d.encode()) for p, g in pairs[:n] for d in (p, g)])
    print(f"documents: {n} gold IDS files, {sum(map(len, golds)) / n / 1024:.1f} KiB on average")
    print(f"Stage 2, gold vs gold   : {gold_time * 1000:8.1f} ms for {n} pairs  ({n / gold_time:8.0f} pairs/s)")
    print(f"Stage 2, near misses    : {near_time * 1000:8.1f} ms for {n} pairs  ({n / near_time:8.0f} pairs/s)")
    print(f"bare ElementTree parse  : {parse_time * 1000:8.1f} ms for {2 * n} documents")
    print(f"ratio Stage 2 / bare parse: {gold_time / parse_time:.2f}x")


if __name__ == "__main__":
    main()
