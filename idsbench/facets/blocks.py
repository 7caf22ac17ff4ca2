"""Stage 2, part 1: IDS specifications -> multisets of normalized facet blocks (docs/facet-scorer.md §1–2)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from typing import Any

IDS_NS = "http://standards.buildingsmart.org/IDS"
SECTIONS = ("applicability", "requirements")
FACET_TYPES = ("entity", "attribute", "classification", "material", "partOf", "property")
FULL_ONLY = ("dataType", "cardinality")

Block = tuple[str, str, str]
"""(section, facet_type, canonical JSON of the content)."""


@dataclass(frozen=True)
class SpecBlocks:
    """The blocks of one specification: `full` is scored, `core` drives the pairing."""

    full: Counter
    core: Counter


def canonical(value: Any) -> str:
    """Canonical JSON text: keys sorted, compact, unicode kept."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def local_name(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def child(element: ET.Element | None, name: str) -> ET.Element | None:
    """The first direct child element whose local name is `name`, whatever its namespace."""
    if element is None:
        return None
    for sub in element:
        if local_name(sub.tag) == name:
            return sub
    return None


def _stripped(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


def _keyed_form(element: ET.Element) -> tuple[dict, str]:
    """C(e) together with its canonical JSON text, assembled from the children's texts.

    Sorting the children by `canonical(child)` at every level re-serializes each subtree once per
    ancestor: quadratic in depth (seconds for a deep chain over a large text). Building each text
    from the children's keeps it to one serialization per element. The assembled text equals
    `canonical(form)` ("attrib" < "children" < "tag" < "text" is the sorted key order).
    """
    keyed = sorted((_keyed_form(sub) for sub in element), key=lambda pair: pair[1])
    attrib = {key: value.strip() for key, value in element.attrib.items()}
    tag, text = local_name(element.tag), _stripped(element.text)
    form = {"tag": tag, "attrib": attrib, "text": text, "children": [f for f, _ in keyed]}
    key = (f'{{"attrib":{canonical(attrib)},"children":[{",".join(k for _, k in keyed)}],'
           f'"tag":{canonical(tag)},"text":{canonical(text)}}}')
    return form, key


def element_form(element: ET.Element) -> dict:
    """C(e): tag, stripped attributes, stripped text (never upper-cased) and sorted children."""
    return _keyed_form(element)[0]


def _sorted_forms(elements: list[ET.Element]) -> list[dict]:
    return [form for form, _ in sorted((_keyed_form(e) for e in elements), key=lambda pair: pair[1])]


def _simple_values(children: list[ET.Element], upper: bool) -> str | list[str] | None:
    texts = [t for t in (_stripped(sub.text) for sub in children) if t is not None]
    if upper:
        texts = [t.upper() for t in texts]
    if not texts:
        return None
    return texts[0] if len(texts) == 1 else sorted(texts)


def value_of(element: ET.Element | None, upper: bool = False) -> Any:
    """V(e, upper): the value of a parameter element (name, value, propertySet, …)."""
    if element is None:
        return None
    children = list(element)
    if not children:
        text = _stripped(element.text)
        return text.upper() if text and upper else text
    if all(local_name(sub.tag) == "simpleValue" for sub in children):
        return _simple_values(children, upper)
    if len(children) == 1:
        return element_form(children[0])
    return _sorted_forms(children)


def _attribute(element: ET.Element, name: str) -> str | None:
    return _stripped(element.get(name))


def _uri(facet: ET.Element) -> Any:
    return _attribute(facet, "uri") or value_of(child(facet, "uri"))


def _upper(text: str | None) -> str | None:
    return text.upper() if text else None


def _lower(text: str | None) -> str | None:
    return text.lower() if text else None


def _part_of_entity(facet: ET.Element) -> dict | None:
    entity = child(facet, "entity")
    if entity is None:
        return None
    content = _drop_nulls({
        "name": value_of(child(entity, "name"), upper=True),
        "predefinedType": value_of(child(entity, "predefinedType"), upper=True),
    })
    return content or None


def _drop_nulls(content: dict) -> dict:
    return {key: value for key, value in content.items() if value is not None}


def facet_content(facet: ET.Element, facet_type: str) -> dict:
    """The full content of one facet block (docs/facet-scorer.md §2.2), null keys dropped."""
    def get(name: str, upper: bool = False) -> Any:
        return value_of(child(facet, name), upper)

    if facet_type == "entity":
        content = {"name": get("name", True), "predefinedType": get("predefinedType", True)}
    elif facet_type == "attribute":
        content = {"name": get("name"), "value": get("value")}
    elif facet_type == "classification":
        content = {"system": get("system"), "value": get("value"), "uri": _uri(facet)}
    elif facet_type == "material":
        content = {"value": get("value"), "uri": _uri(facet)}
    elif facet_type == "partOf":
        relation = _upper(_attribute(facet, "relation")) or get("relation", True)
        content = {"entity": _part_of_entity(facet), "relation": relation}
    else:
        content = {"propertySet": get("propertySet"), "baseName": get("baseName"), "value": get("value"),
                   "dataType": _upper(_attribute(facet, "dataType")),
                   "cardinality": _lower(_attribute(facet, "cardinality"))}
    return _drop_nulls(content)


def core_content(content: dict) -> dict:
    """Core content: only the property facet's dataType and cardinality are left out."""
    return {key: value for key, value in content.items() if key not in FULL_ONLY}


def spec_blocks(spec: ET.Element) -> SpecBlocks:
    """Full blocks (with the ifcVersion spec block) and core blocks of one specification."""
    full: list[Block] = []
    core: list[Block] = []
    for section in SECTIONS:
        holder = child(spec, section)
        for facet in () if holder is None else holder:
            facet_type = local_name(facet.tag)
            if facet_type in FACET_TYPES:
                content = facet_content(facet, facet_type)
                full.append((section, facet_type, canonical(content)))
                core.append((section, facet_type, canonical(core_content(content))) if facet_type == "property"
                            else full[-1])
    version = _upper(_attribute(spec, "ifcVersion"))
    if version:
        full.append(("spec", "ifcVersion", canonical({"value": version})))
    return SpecBlocks(full=Counter(full), core=Counter(core))


def specifications(root: ET.Element) -> list[ET.Element]:
    """IDS-namespace specifications in document order, else any element named `specification`."""
    found = list(root.iter(f"{{{IDS_NS}}}specification"))
    if found:
        return found
    return [element for element in root.iter() if local_name(element.tag) == "specification"]


def document_blocks(root: ET.Element) -> list[SpecBlocks]:
    return [spec_blocks(spec) for spec in specifications(root)]
