"""Stage 2, part 1: IDS specifications -> multisets of normalized facet blocks (docs/facet-scorer.md §1–2).

Documents come as ElementTree trees (the published scorer's parser) or as the libxml2 tree the audit
read (xmlparse.Candidate), which keeps comments and processing instructions as nodes: here they are
never children, and an element's text runs on across them, as ElementTree gives it.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from json.encoder import encode_basestring
from typing import Any

from lxml import etree

from idsbench.goldside import forgotten_with_golds
from idsbench.xmlparse import attribute_items

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

    @cached_property
    def size(self) -> int:
        """The number of full blocks."""
        return sum(self.full.values())


def canonical(value: Any) -> str:
    """Canonical JSON text: keys sorted, compact, unicode kept (what `json.dumps(value,
    sort_keys=True, ensure_ascii=False, separators=(",", ":"))` writes, without building an encoder
    for each of the ~80 values of a pair)."""
    kind = value.__class__
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if kind is Form:
        return value.json
    if kind is dict:
        return "{" + ",".join([encode_basestring(k) + ":" + canonical(value[k]) for k in sorted(value)]) + "}"
    if kind is list:
        return "[" + ",".join([canonical(item) for item in value]) + "]"
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


_KEYS = {key: encode_basestring(key) + ":" for key in (
    "name", "predefinedType", "value", "system", "uri", "entity", "relation", "propertySet", "baseName",
    "dataType", "cardinality")}


def _content_texts(content: dict, facet_type: str) -> tuple[str, str]:
    """Canonical texts of a facet's full content and of its core content (the property facet's without
    dataType and cardinality), each value serialized once."""
    pieces = [(key, (_KEYS.get(key) or encode_basestring(key) + ":") + canonical(content[key])) for key in sorted(content)]
    full = "{" + ",".join([piece for _, piece in pieces]) + "}"
    if facet_type != "property" or not (content.keys() & FULL_ONLY):
        return full, full
    return full, "{" + ",".join([piece for key, piece in pieces if key not in FULL_ONLY]) + "}"


def local_name(tag: Any) -> str:
    return tag[tag.rfind("}") + 1:] if tag.__class__ is str else ""


class Form(dict):
    """A value's C(e), with its canonical JSON text (`json`) assembled once. Only the forms a value
    holds carry it, not the forms nested in them: a deep chain would keep one text per level."""

    __slots__ = ("json",)

    @classmethod
    def of(cls, keyed: tuple[dict, str]) -> Form:
        form = cls(keyed[0])
        form.json = keyed[1]
        return form


Element = ET.Element | etree._Element


def children(element: Element) -> list[Element]:
    """Child elements (a libxml2 tree also holds comments and PIs)."""
    found = list(element)
    if any(sub.tag.__class__ is not str for sub in found):
        return [sub for sub in found if sub.tag.__class__ is str]
    return found


def text_of(element: Element) -> str | None:
    """The element's text as ElementTree has it: up to the first child element, across comments."""
    text = element.text
    if len(element) and element[0].tag.__class__ is not str:  # a comment or PI first (libxml2 only)
        parts = [text or ""]
        for sub in element:
            if sub.tag.__class__ is str:
                break
            parts.append(sub.tail or "")
        text = "".join(parts)
    return text


def _attributes(element: Element):
    if element.__class__ is ET.Element or len(element.attrib) <= 64:
        return element.attrib.items()
    return attribute_items(element)  # lxml: items() is quadratic in the number of attributes


def child(element: Element | None, name: str) -> Element | None:
    """The first direct child element whose local name is `name`, whatever its namespace."""
    if element is None:
        return None
    for sub in element:
        if local_name(sub.tag) == name:
            return sub
    return None


def _first_children(element: Element) -> dict[str, Element]:
    """The first child element of each local name."""
    found: dict[str, Element] = {}
    for sub in element:
        tag = sub.tag
        if tag.__class__ is str:
            found.setdefault(tag[tag.rfind("}") + 1:], sub)
    return found


def _stripped(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


def _keyed_form(element: Element) -> tuple[dict, str]:
    """C(e) together with its canonical JSON text, assembled from the children's texts.

    Sorting the children by `canonical(child)` at every level re-serializes each subtree once per
    ancestor: quadratic in depth (seconds for a deep chain over a large text). Building each text
    from the children's keeps it to one serialization per element. The assembled text equals
    `canonical(form)` ("attrib" < "children" < "tag" < "text" is the sorted key order).
    """
    keyed = sorted((_keyed_form(sub) for sub in children(element)), key=lambda pair: pair[1])
    attrib = {key: value.strip() for key, value in _attributes(element)}
    tag, text = local_name(element.tag), _stripped(text_of(element))
    form = {"tag": tag, "attrib": attrib, "text": text, "children": [f for f, _ in keyed]}
    key = (f'{{"attrib":{canonical(attrib)},"children":[{",".join(k for _, k in keyed)}],'
           f'"tag":{canonical(tag)},"text":{canonical(text)}}}')
    return form, key


def element_form(element: Element) -> dict:
    """C(e): tag, stripped attributes, stripped text (never upper-cased) and sorted children."""
    return _keyed_form(element)[0]


def _sorted_forms(elements: list[Element]) -> list[dict]:
    return [Form.of(pair) for pair in sorted((_keyed_form(e) for e in elements), key=lambda pair: pair[1])]


def _simple_values(elements: list[Element], upper: bool) -> str | list[str] | None:
    if len(elements) == 1:  # the common case
        text = _stripped(text_of(elements[0]))
        return text.upper() if text and upper else text
    texts = [t for t in (_stripped(text_of(sub)) for sub in elements) if t is not None]
    if upper:
        texts = [t.upper() for t in texts]
    if not texts:
        return None
    return texts[0] if len(texts) == 1 else sorted(texts)


def value_of(element: Element | None, upper: bool = False) -> Any:
    """V(e, upper): the value of a parameter element (name, value, propertySet, …)."""
    if element is None:
        return None
    found, simple = [], True
    for sub in element:
        tag = sub.tag
        if tag.__class__ is str:
            found.append(sub)
            simple = simple and tag[tag.rfind("}") + 1:] == "simpleValue"
    if not found:
        text = _stripped(text_of(element))
        return text.upper() if text and upper else text
    if simple:
        return _simple_values(found, upper)
    if len(found) == 1:
        return Form.of(_keyed_form(found[0]))
    return _sorted_forms(found)


def _attribute(element: Element, name: str) -> str | None:
    return _stripped(element.get(name))


def _uri(facet: Element, kids: dict) -> Any:
    return _attribute(facet, "uri") or value_of(kids.get("uri"))


def _upper(text: str | None) -> str | None:
    return text.upper() if text else None


def _lower(text: str | None) -> str | None:
    return text.lower() if text else None


def _part_of_entity(kids: dict) -> dict | None:
    entity = kids.get("entity")
    if entity is None:
        return None
    own = _first_children(entity)
    content = _drop_nulls({
        "name": value_of(own.get("name"), upper=True),
        "predefinedType": value_of(own.get("predefinedType"), upper=True),
    })
    return content or None


def _drop_nulls(content: dict) -> dict:
    return {key: value for key, value in content.items() if value is not None}


def facet_content(facet: Element, facet_type: str) -> dict:
    """The full content of one facet block (docs/facet-scorer.md §2.2), null keys dropped."""
    kids = _first_children(facet)

    def get(name: str, upper: bool = False) -> Any:
        return value_of(kids.get(name), upper)

    if facet_type == "entity":
        content = {"name": get("name", True), "predefinedType": get("predefinedType", True)}
    elif facet_type == "attribute":
        content = {"name": get("name"), "value": get("value")}
    elif facet_type == "classification":
        content = {"system": get("system"), "value": get("value"), "uri": _uri(facet, kids)}
    elif facet_type == "material":
        content = {"value": get("value"), "uri": _uri(facet, kids)}
    elif facet_type == "partOf":
        relation = _upper(_attribute(facet, "relation")) or get("relation", True)
        content = {"entity": _part_of_entity(kids), "relation": relation}
    else:
        content = {"propertySet": get("propertySet"), "baseName": get("baseName"), "value": get("value"),
                   "dataType": _upper(_attribute(facet, "dataType")),
                   "cardinality": _lower(_attribute(facet, "cardinality"))}
    return _drop_nulls(content)


def core_content(content: dict) -> dict:
    """Core content: only the property facet's dataType and cardinality are left out."""
    return {key: value for key, value in content.items() if key not in FULL_ONLY}


_SEEN: dict[bytes, tuple[str, str]] = {}  # a facet's serialization -> its full and core texts
SEEN_KEPT = 16_384  # facets remembered, then forgotten all at once (at most 16 MB of keys and as much text)
SEEN_LONGEST = 1024  # bytes of the longest serialization remembered (the golds': 946)
_BETWEEN_TAGS = re.compile(rb">[ \t\r\n]+<")
forgotten_with_golds(_SEEN.clear)


def facet_texts(facet: Element, facet_type: str) -> tuple[str, str]:
    """The canonical texts of a facet's full and core content, remembered by the facet's serialization:
    facets repeat, within a document, between a prediction and its gold, and across the outputs scored
    against one gold. Whitespace-only text between two tags is never part of a block (blocks strip the
    text they read, and read no element's tail), so it is left out of the key, except next to a comment
    or processing instruction, where it can join two texts (those keys keep it)."""
    if facet.__class__ is ET.Element:
        return _content_texts(facet_content(facet, facet_type), facet_type)
    key = etree.tostring(facet, with_tail=False)
    if len(key) > SEEN_LONGEST:
        return _content_texts(facet_content(facet, facet_type), facet_type)
    if b"<!" not in key and b"<?" not in key and b"&" not in key:
        key = _BETWEEN_TAGS.sub(b"><", key)
    found = _SEEN.get(key)
    if found is None:
        if len(_SEEN) >= SEEN_KEPT:
            _SEEN.clear()
        found = _SEEN[key] = _content_texts(facet_content(facet, facet_type), facet_type)
    return found


def spec_blocks(spec: Element) -> SpecBlocks:
    """Full blocks (with the ifcVersion spec block) and core blocks of one specification."""
    full: list[Block] = []
    core: list[Block] = []
    sections = _first_children(spec)
    for section in SECTIONS:
        holder = sections.get(section)
        for facet in () if holder is None else holder:
            facet_type = local_name(facet.tag)
            if facet_type in FACET_TYPES:
                full_text, core_text = facet_texts(facet, facet_type)
                full.append((section, facet_type, full_text))
                core.append(full[-1] if core_text is full_text else (section, facet_type, core_text))
    version = _upper(_attribute(spec, "ifcVersion"))
    if version:
        full.append(("spec", "ifcVersion", canonical({"value": version})))
    return SpecBlocks(full=Counter(full), core=Counter(core))


def specifications(root: Element) -> list[Element]:
    """IDS-namespace specifications in document order, else any element named `specification`."""
    found = list(root.iter(f"{{{IDS_NS}}}specification"))
    if found:
        return found
    return [element for element in root.iter() if local_name(element.tag) == "specification"]


def document_blocks(root: Element) -> list[SpecBlocks]:
    return [spec_blocks(spec) for spec in specifications(root)]
