"""Multi-turn: apply a change request to the earlier IDS (version switch, removals, additions, new values)."""
from __future__ import annotations

import re

from lxml import etree

from idsbench.extract import extract_candidate

from ..baselines import Request
from ..idsxml import Entity, IdsDocument, Specification, fenced, render
from ..vocabulary import versions_of
from .csvrules import Requirement, csv_requirements
from .entities import Mention
from .textrules import name_pattern, targets, text_requirements

NS = "http://standards.buildingsmart.org/IDS"
Q = f"{{{NS}}}"
REMOVE = re.compile(r"\b(drop|remove|delete|omit|no longer|take out)\b|削除|不要|外して|外す|除外|やめ", re.I)
FACET_TAGS = (f"{Q}property", f"{Q}attribute")


def _text(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    value = element.find(f"{Q}simpleValue")
    return (value.text or "").strip() if value is not None else None


def facet_name(facet: etree._Element) -> str | None:
    return _text(facet.find(f"{Q}baseName" if facet.tag == f"{Q}property" else f"{Q}name"))


def spec_entity(spec: etree._Element) -> Entity | None:
    entity = spec.find(f"{Q}applicability/{Q}entity")
    name = _text(entity.find(f"{Q}name")) if entity is not None else None
    return Entity(name.upper(), _text(entity.find(f"{Q}predefinedType"))) if name else None


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?。！？])\s+|\n", text) if s.strip()]


def remove_facets(root: etree._Element, body: str) -> None:
    """Facets whose name a removal sentence mentions ("drop the Status row", "Statusは削除")."""
    for sentence in filter(REMOVE.search, _sentences(body)):
        for facet in [f for tag in FACET_TAGS for f in root.iter(tag)]:
            name = facet_name(facet)
            if name and name_pattern(name).search(sentence):
                facet.getparent().remove(facet)


def _facet_element(requirement: Requirement, version: str) -> etree._Element:
    """The facet as an lxml element, rendered by the same code as new documents."""
    spec = Specification("x", version, (requirement.entity,), (requirement.facet,))
    root = etree.fromstring(render(IdsDocument("x", (spec,))).encode("utf-8"))
    return root.find(f".//{Q}requirements")[0]


def _find_spec(root: etree._Element, requirement: Requirement) -> etree._Element | None:
    specs = list(root.iter(f"{Q}specification"))
    exact = [s for s in specs if spec_entity(s) == requirement.entity]
    same_class = [s for s in specs if (e := spec_entity(s)) and e.name == requirement.entity.name]
    return (exact or same_class or [None])[0]


def apply_requirement(root: etree._Element, requirement: Requirement, version: str) -> None:
    """Replace the same-named facet when the request gives a value, add it when it is new, or add a spec."""
    spec = _find_spec(root, requirement)
    element = _facet_element(requirement, version)
    if spec is None:
        new = Specification(requirement.label, version, (requirement.entity, *requirement.conditions),
                            (requirement.facet,))
        rendered = etree.fromstring(render(IdsDocument("x", (new,))).encode("utf-8"))
        root.find(f"{Q}specifications").append(rendered.find(f".//{Q}specification"))
        return
    requirements = spec.find(f"{Q}requirements")
    if requirements is None:
        requirements = etree.SubElement(spec, f"{Q}requirements")
    name = facet_name(element)
    same = [f for f in requirements if f.tag == element.tag and facet_name(f) == name]
    if not same:
        requirements.append(element)
    elif element.find(f"{Q}value") is not None:
        requirements.replace(same[0], element)


def revise(earlier_raw: str, request: Request, version: str) -> str:
    """The earlier IDS with the change request applied as far as the rules understand it."""
    try:
        root = etree.fromstring(extract_candidate(earlier_raw).encode("utf-8"))
    except (etree.XMLSyntaxError, ValueError):
        return earlier_raw  # an earlier answer we cannot parse is kept as it is
    specs = list(root.iter(f"{Q}specification"))
    if request.ifc_version:
        for spec in specs:
            spec.set("ifcVersion", version)
    remove_facets(root, request.body)
    schemas = versions_of(version) or ["IFC4"]
    known = frozenset(n for tag in FACET_TAGS for f in root.iter(tag) if (n := facet_name(f)))
    mentions = targets(request.body, schemas)
    if not mentions and specs and (first := spec_entity(specs[-1])):
        mentions = [Mention(0, first, specs[-1].get("name", first.name))]
    additions = csv_requirements(request.body, schemas) or \
        text_requirements(request.body, schemas, known, mentions)[0]
    for requirement in additions:
        if not REMOVE.search(_sentence_of(request.body, requirement)):
            apply_requirement(root, requirement, version)
    etree.indent(root, space="  ")
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(root, encoding="unicode") + "\n"
    return fenced(xml)


def _sentence_of(body: str, requirement: Requirement) -> str:
    name = getattr(requirement.facet, "base_name", None) or getattr(requirement.facet, "name", "")
    return next((s for s in _sentences(body) if name in s), "")
