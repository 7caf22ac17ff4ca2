"""Throughput of the Stage 1 audit against xmlschema-only validation and a bare lxml parse.

Corpus: every .ids under ../shared/conformance (when present) plus data/scenarios/**/*.ids.
Prints documents/second for the whole corpus and for "typical gold" documents (well-formed,
under 8 KB, audited Ok), and the time ratios audit / xmlschema-only and audit / lxml parse.

    python -m benchmarks.audit_throughput [--repeat 3]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

from lxml import etree

from idsbench.audit import audit, xsd

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def corpus() -> list[bytes]:
    paths = sorted((SHARED / "conformance").rglob("*.ids")) if SHARED.is_dir() else []
    paths += sorted((ROOT / "data" / "scenarios").rglob("*.ids"))
    return [p.read_bytes() for p in paths]


def _parse(data: bytes):
    try:
        return etree.fromstring(data, etree.XMLParser(no_network=True, resolve_entities=False))
    except etree.XMLSyntaxError:
        return None


def xmlschema_only(data: bytes) -> None:
    root = _parse(data)
    if root is not None:
        list(xsd.reference_schema("1.0").iter_errors(root, use_location_hints=False))


def rate(func: Callable[[bytes], object], docs: list[bytes], repeat: int,
         before: Callable[[], object] = lambda: None) -> float:
    """Best-of-`repeat` documents per second (`before` runs before each pass, untimed)."""
    best = float("inf")
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        for data in docs:
            func(data)
        best = min(best, time.perf_counter() - start)
    return len(docs) / best if best > 0 else float("inf")


def report(label: str, docs: list[bytes], repeat: int) -> None:
    audit_rate = rate(audit, docs, repeat)
    schema_rate = rate(xmlschema_only, docs, repeat)
    lxml_rate = rate(_parse, docs, repeat)
    size = sum(map(len, docs)) / max(len(docs), 1)
    print(f"{label}: {len(docs)} documents, mean {size / 1024:.1f} KB")
    print(f"  audit()            {audit_rate:9.0f} docs/s")
    print(f"  xmlschema only     {schema_rate:9.0f} docs/s   "
          f"audit time / xmlschema time = {schema_rate / audit_rate:.2f}x")
    print(f"  bare lxml parse    {lxml_rate:9.0f} docs/s   audit time / lxml time      = {lxml_rate / audit_rate:.1f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (best is kept)")
    args = parser.parse_args(argv)
    docs = corpus()
    if not docs:
        print("no .ids documents found (shared/ absent and data/scenarios empty)")
        return 0
    start = time.perf_counter()
    typical = [d for d in docs if len(d) < 8192 and _parse(d) is not None and audit(d, custom_xsd=True).status == 0]
    print(f"warm-up (vocabularies, XSD, caches): {time.perf_counter() - start:.2f} s")
    report("all documents", docs, args.repeat)
    report("typical gold documents (Ok, < 8 KB)", typical, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
