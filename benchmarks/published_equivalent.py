"""A stand-in for the published scorer's Stage 2, for speed comparisons only: written here from the
method as published (docs/facet-scorer.md), the way the published scorer is described to work.

It is NOT the published scorer: its source is not part of this project. benchmarks/speed.py compares
with the real one when given a local copy (`--published`), and with this stand-in otherwise, always
labelled as such. It gives the same counts as idsbench.facets (tests/facets check the project's scorer
against an exhaustive search too) at the cost the published design implies: ElementTree parses of
both documents for every pair, blocks as `json.dumps` text, a full weight matrix, and an exhaustive
search of the pairings of at most 18 predicted specifications (branching only on pairs that share a
block, as a pair of weight 0 is never preferred to leaving a gold specification unpaired).

    python -m benchmarks.published_equivalent --help
"""
from __future__ import annotations

import argparse
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter

IDS = "{http://standards.buildingsmart.org/IDS}"
THINK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
FENCE = re.compile(r"```(?:ids|xml)?\s*(.*?)\s*```", re.IGNORECASE | re.DOTALL)
FACETS = ("entity", "attribute", "classification", "material", "partOf", "property")


def extract(raw: str) -> str:
    text = THINK.sub("", raw)
    fence = FENCE.search(text)
    return (text if fence is None else fence.group(1)).strip()


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element, name):
    if element is None:
        return None
    return next((sub for sub in element if _local(sub.tag) == name), None)


def _strip(text):
    return (text or "").strip() or None


def _form(element) -> dict:
    children = sorted((_form(sub) for sub in element), key=lambda f: json.dumps(f, sort_keys=True, ensure_ascii=False))
    return {"tag": _local(element.tag), "attrib": {k: v.strip() for k, v in element.attrib.items()},
            "text": _strip(element.text), "children": children}


def _value(element, upper: bool = False):
    if element is None:
        return None
    children = list(element)
    if not children:
        text = _strip(element.text)
        return text.upper() if text and upper else text
    if all(_local(sub.tag) == "simpleValue" for sub in children):
        texts = [t for t in (_strip(sub.text) for sub in children) if t]
        texts = [t.upper() for t in texts] if upper else texts
        return None if not texts else texts[0] if len(texts) == 1 else sorted(texts)
    if len(children) == 1:
        return _form(children[0])
    return sorted((_form(sub) for sub in children), key=lambda f: json.dumps(f, sort_keys=True, ensure_ascii=False))


def _content(facet, kind: str, full: bool) -> dict:
    def get(name, upper=False):
        return _value(_child(facet, name), upper)

    def attr(name):
        return _strip(facet.get(name))

    if kind == "entity":
        content = {"name": get("name", True), "predefinedType": get("predefinedType", True)}
    elif kind == "attribute":
        content = {"name": get("name"), "value": get("value")}
    elif kind == "classification":
        content = {"system": get("system"), "value": get("value"), "uri": attr("uri") or get("uri")}
    elif kind == "material":
        content = {"value": get("value"), "uri": attr("uri") or get("uri")}
    elif kind == "partOf":
        entity = _child(facet, "entity")
        inner = None if entity is None else {k: v for k, v in {
            "name": _value(_child(entity, "name"), True),
            "predefinedType": _value(_child(entity, "predefinedType"), True)}.items() if v is not None} or None
        relation = (attr("relation") or "").upper() or get("relation", True)
        content = {"entity": inner, "relation": relation}
    else:
        content = {"propertySet": get("propertySet"), "baseName": get("baseName"), "value": get("value")}
        if full:
            content.update(dataType=(attr("dataType") or "").upper() or None,
                           cardinality=(attr("cardinality") or "").lower() or None)
    return {k: v for k, v in content.items() if v is not None}


def _blocks(spec, full: bool) -> Counter:
    out = []
    for section in ("applicability", "requirements"):
        holder = _child(spec, section)
        for facet in () if holder is None else holder:
            kind = _local(facet.tag)
            if kind in FACETS:
                out.append((section, kind, json.dumps(_content(facet, kind, full), sort_keys=True, ensure_ascii=False)))
    version = (spec.get("ifcVersion") or "").strip().upper()
    if full and version:
        out.append(("spec", "ifcVersion", json.dumps({"value": version}, sort_keys=True, ensure_ascii=False)))
    return Counter(out)


def _specs(root) -> list:
    found = list(root.iter(IDS + "specification"))
    return found or [e for e in root.iter() if _local(e.tag) == "specification"]


def _search(weights: list[list[int]], n_pred: int) -> dict[int, int]:
    best = [-1, {}]

    def walk(i: int, used: set, total: int, chosen: dict) -> None:
        if i == len(weights):
            if total > best[0]:
                best[0], best[1] = total, dict(chosen)
            return
        walk(i + 1, used, total, chosen)  # unpaired first
        for j in range(n_pred):
            if j not in used and weights[i][j] > 0:
                used.add(j)
                chosen[i] = j
                walk(i + 1, used, total + weights[i][j], chosen)
                del chosen[i]
                used.discard(j)

    walk(0, set(), 0, {})
    return best[1]


def _greedy(weights: list[list[int]], n_pred: int) -> dict[int, int]:
    pairs, taken = {}, set()
    for w, i, j in sorted(((weights[i][j], i, j) for i in range(len(weights)) for j in range(n_pred)), reverse=True):
        if w > 0 and i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    return pairs


def score(raw: str, gold: str) -> tuple[int, int, int]:
    """(matched, pred_total, gold_total) of one raw output against a gold document."""
    candidate = extract(raw)
    if not candidate:
        return 0, 0, 0
    try:
        pred_specs, gold_specs = _specs(ET.fromstring(candidate.encode())), _specs(ET.fromstring(gold.encode()))
    except ET.ParseError:
        return 0, 0, 0
    pred_core = [_blocks(s, False) for s in pred_specs]
    gold_core = [_blocks(s, False) for s in gold_specs]
    weights = [[sum((g & p).values()) for p in pred_core] for g in gold_core]
    pairs = _search(weights, len(pred_specs)) if len(pred_specs) <= 18 else _greedy(weights, len(pred_specs))
    pred_full = [_blocks(s, True) for s in pred_specs]
    gold_full = [_blocks(s, True) for s in gold_specs]
    matched = sum(sum((gold_full[i] & pred_full[j]).values()) for i, j in pairs.items())
    pred_total = sum(sum(c.values()) for c in pred_full)
    return matched, pred_total, sum(sum(c.values()) for c in gold_full)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog="Imported by benchmarks.speed; run on its own it scores the golds against themselves.")
    parser.parse_args(argv)
    from idsbench.records import load_references  # noqa: PLC0415

    refs = load_references()
    perfect = sum(score(r.gold, r.gold)[0] == score(r.gold, r.gold)[2] for r in refs)
    print(f"{perfect} of {len(refs)} golds match themselves in full")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
