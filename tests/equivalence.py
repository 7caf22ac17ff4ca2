"""A fixed corpus and a digest of every result on it: the scoring core must give, on every document of it,
exactly the results recorded in tests/equivalence-digest.json (full audit results with their findings,
both profiles; per-example results of both stages).

The digest was first written by the scorer before its rewrite for speed (the version that parsed each
document twice and built a node tree for the audit), so that tests/test_equivalence.py proved the
rewrite changed no result. Intended changes since, each rewriting it: one 306 per invalid ifcVersion
value; 502 described in the validator reader's words and positions instead of the parser library's
(statuses and codes unchanged), so that the digest is the same under every allowed lxml version. The golds
are those of dataset version 2, frozen in tests/support/golds-v2.jsonl.gz, so that the corpus stays put
when the dataset is rewritten. Entries are grouped: one group per gold (the gold, its synthetic outputs,
a few seeded mutations and a cross pair), one per conformance suite, one for the rules' examples and
one for a handful of odd documents. Each group is stored as the hash of its results' JSON.

    python -m tests.equivalence --write     # rewrite the digest from the current code (after a change
                                            # of results that is intended and explained)
"""
from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

from idsbench.audit import audit
from idsbench.audit.rules import RULES, UNCODED
from idsbench.example import Reference
from idsbench.extract import extract_candidate
from idsbench.pipeline import evaluate_one, make_auditor
from idsbench.synthetic.corpus import synthetic_corpus
from idsbench.synthetic.mutations import mutate_many
from idsbench.synthetic.documents import HEADER, IDS_NS, entity, ids, spec
from tests.paths import SHARED
from tests.support.frozen import frozen_references

DIGEST = Path(__file__).with_name("equivalence-digest.json")
PROFILES = ("ids-tool-1.0.96", "ids-tool-latest")
CONFORMANCE = SHARED / "conformance"
SUITES = {  # suite -> audit options, as the conformance tests run them
    "ids-audit-tool-1.0.96": {},
    "buildingsmart-ids": {"custom_xsd": True},
    "ids-audit-tool-head": {},
}
ODD = [  # documents outside the corpora's usual shapes
    "", "not xml", "<ids/>", "<!DOCTYPE ids><ids/>",
    '<?xml version="1.0"?><!DOCTYPE ids [<!ENTITY e SYSTEM "file:///etc/passwd">]><ids>&e;</ids>',
    ids(spec(entity("IFCWALL"))).replace(f'xmlns="{IDS_NS}"', 'xmlns="urn:not-ids"'),
    ids(spec(entity("IFCWALL"))).replace("IFCWALL", "IFC\udcffWALL"),
    ids(spec(entity("IFCWALL"))).replace("<entity>", '<entity xmlns:q="urn:q" q:x="1">'),
    ids(spec(entity("IFCWALL"))).replace("IFCWALL</simpleValue>", "IFC<!-- c -->WALL</simpleValue> tail"),
    ids(spec(entity("IFCWALL"), version="IFC5 IFC4")),
    ids(spec(entity("IFCWALL"))).replace(HEADER.split("\n")[0], '<?xml version="1.0" encoding="ISO-8859-1"?>'),
    ids(*[spec(entity(name), name=f"s{i}") for i, name in enumerate(["IFCWALL", "IFCDOOR", "IFCSLAB"] * 8)]),
]
Item = Callable[[], object]


def _hash(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _audits(document: str | bytes, **options) -> list[dict]:
    return [audit(document, profile, **options).to_dict() for profile in PROFILES]


def _gold_group(index: int, references: list[Reference], outputs: list, auditor) -> list[Item]:
    ref = references[index]
    items: list[Item] = [lambda: _audits(ref.gold)]
    raws = [o.text for o in outputs if o.gold_index == index]
    raws += [mutate_many(ref.gold, [(op, index * 7919 + k, index * 104729 + k)])
             for k, op in enumerate(("truncate", "inject", "delete", "retag", "attribute", "comment"))]
    for raw in raws:
        items.append(lambda raw=raw: evaluate_one(raw, ref, auditor).to_json())
        items.append(lambda raw=raw: _audits(extract_candidate(raw)))
    other = references[(index + 1) % len(references)]
    items.append(lambda: evaluate_one(other.gold, ref, auditor).to_json())
    return items


def groups() -> Iterator[tuple[str, list[Item]]]:
    """(group key, the computations of its results), deterministic."""
    references = list(frozen_references())
    outputs = synthetic_corpus([r.gold for r in references])
    auditor = make_auditor("ids-tool-1.0.96")
    for index, ref in enumerate(references):
        yield "gold:" + _hash(ref.gold), _gold_group(index, references, outputs, auditor)
    examples = [d for rule in {**RULES, **UNCODED}.values() if rule.failing
                for d in (rule.failing(), rule.passing()) if len(d) < 100_000]
    yield "rules", [lambda d=d: _audits(d) for d in examples]
    yield "odd", [lambda d=d: (_audits(d), evaluate_one(d, references[0], auditor).to_json()) for d in ODD]
    for suite, options in SUITES.items():
        paths = sorted((CONFORMANCE / suite).rglob("*.ids")) if CONFORMANCE.is_dir() else []
        if paths:
            yield f"suite:{suite}", [lambda p=p: [str(p.relative_to(CONFORMANCE)), _audits(p.read_bytes(), **options)]
                                     for p in paths]


def digest() -> dict[str, str]:
    return {key: _hash([item() for item in items]) for key, items in groups()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {DIGEST.name}")
    args = parser.parse_args(argv)
    found = digest()
    if args.write:
        DIGEST.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(found)} groups" + (f" written to {DIGEST}" if args.write else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
