"""Natural-language requirements (en/ja) -> requirements, by surface patterns only.

Each property or attribute mention becomes a requirement on the nearest element mentioned before it;
its value comes from the words that follow it (limits with units, code lists, example-derived patterns).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..idsxml import Attribute, Entity, Property, Restriction
from ..vocabulary import applicable_sets, attribute_names, set_entity, set_properties
from .csvrules import Requirement
from .entities import Mention, element_words, ifc_names, valid_predefined
from .values import Constraint, bounds_of, cardinality_of, make_property, normalize

A = r"(?<![A-Za-z0-9_])"  # ASCII word edges: Python's \b sees no edge between "は" and "P"
Z = r"(?![A-Za-z0-9_])"
STANDARD_SET = re.compile(rf"{A}((?:Pset|Qto)_[A-Za-z0-9]+)")
# a custom set has a lower-case or Japanese letter: SITE_INVESTIGATION is an enumeration value
CUSTOM_SET = re.compile(r"(?<![A-Za-z0-9_])((?!Pset_|Qto_)[A-Z][A-Za-z0-9]*_\w*[a-z\u3040-\u9fff]\w*)")
CAMEL = re.compile(rf"{A}([A-Z][a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+){Z}")
SINGLE = re.compile(rf"{A}([A-Z][a-z]{{3,}}){Z}")
PARENS_WORD = re.compile(r"[(（]\s*(?:the\s+)?([A-Z][a-z]+)\s*(?:attribute|属性)?\s*[,、。)）]")
ATTRIBUTE_WORD = re.compile(r"\b(?:its|the|an?)\s+(Name|LongName|Description|Tag|ObjectType)\b|"
                            r"(?<![A-Za-z])(Name|LongName|Description|Tag|ObjectType)\s*(?:attribute|属性|に|を|欄)")
NAME_PHRASES = re.compile(r"\btype name\b|\belement name\b|タイプ名", re.I)
JA_ALIAS = re.compile(r"(?:^|[のはにをがでと、\s])([\u30a0-\u30ff\u4e00-\u9fff][\u3040-\u30ff\u4e00-\u9fff]{1,11})\s*[（(]\s*"
                      r"([A-Z][A-Za-z0-9]+)\s*[)）]")
EXCLUDED = re.compile(r"not (part of|covered|included|in scope)|out of scope|excluded|対象外|含まない", re.I)
OPTIONAL_APPLICABILITY = re.compile(r"no \w+ at all|if (the model|a model|there) (contains|has|are) any|where present|"
                                    r"must not fail|if any\b|1台もない|存在しない|ない場合|ある場合", re.I)
QUOTED = re.compile(r"「([^」\s]{1,20})」")
BASE_QUANTITIES = re.compile(r"base quantit|基本数量")
CODE = r"[A-Z0-9][A-Za-z0-9\-.]*(?:,[a-z][A-Za-z0-9\-.]*)*"  # "A2-s1,d0" is one code
SEPARATOR = r"\s*(?:,(?![a-z])|、|/|／|・|\bor\b|または|又は|か)\s*"
CODE_LIST = re.compile(rf"(?<![A-Za-z0-9_-])({CODE}(?:{SEPARATOR}{CODE})+)(?![A-Za-z0-9_-])")
FORMAT_WORDS = re.compile(r"\bform(at)?\b|\bcode is\b|\bpattern\b|形式|記号は|書式", re.I)
EXAMPLE = re.compile(r"(?:e\.g\.|for example|例[:：]?)\s*[\"“「]?([A-Z]{1,4}-[A-Z0-9][A-Z0-9-]*)")


@dataclass(frozen=True)
class Clause:
    start: int
    text: str
    paragraph: int


def clauses(body: str) -> list[Clause]:
    """Lines (list items, sentences of an email) with their offsets and paragraph numbers."""
    found, offset, paragraph = [], 0, 0
    for line in body.split("\n"):
        if not line.strip():
            paragraph += 1
        else:
            found.append(Clause(offset, line, paragraph))
        offset += len(line) + 1
    return found


def name_pattern(name: str) -> re.Pattern:
    """"LoadBearing" also as "load-bearing" / "load bearing"; other names (Japanese) as written."""
    words = re.findall(r"[A-Z][a-z0-9]*", name)
    if "".join(words) != name:
        return re.compile(re.escape(name))
    return re.compile(r"(?<![A-Za-z])" + r"[\s-]?".join(words) + r"(?![A-Za-z])", re.I)


def example_pattern(text: str) -> str | None:
    """"CL-B07" -> "CL-[A-Z][0-9]{2}": the prefix before the first hyphen stays literal."""
    match = EXAMPLE.search(normalize(text))
    if not match or not FORMAT_WORDS.search(text):
        return None
    prefix, _, rest = match[1].partition("-")
    runs = re.findall(r"[A-Z]+|[0-9]+|-", rest)
    parts = ["-" if r == "-" else ("[0-9]" if r.isdigit() else "[A-Z]") + (f"{{{len(r)}}}" if len(r) > 1 else "")
             for r in runs]
    return f"{prefix}-{''.join(parts)}"


def phrase_constraint(segment: str) -> Constraint:
    bounds, unit = bounds_of(normalize(segment))
    if bounds:
        return Constraint("bounds", bounds=bounds, unit=unit)
    if (pattern := example_pattern(segment)):
        return Constraint("pattern", (pattern,))
    if (match := CODE_LIST.search(normalize(segment))):
        codes = [c.rstrip(".") for c in re.split(SEPARATOR, match[1]) if c]
        if len(codes) > 1 and all(re.search(r"\d|^[A-Z]{2,}$", c) for c in codes):
            return Constraint("enum", tuple(codes))
    return Constraint("none")


def boolean_value(context: str) -> str | None:
    if re.search(r"yes/no|yes or no|either|有[/／]無|どちらでも", context, re.I):
        return None
    if re.search(r"\bnot\b|\bnon-|でない|ではない|しない|不燃", context, re.I):
        return "false"
    if re.search(r"flagged|marked|= ?true|\btrue\b|であること|とすること", context, re.I):
        return "true"
    return None


def targets(body: str, schemas: list[str]) -> list[Mention]:
    """Element mentions outside excluded clauses, with predefined types found in the same clause."""
    found = []
    for clause in clauses(body):
        if EXCLUDED.search(clause.text):
            continue
        for m in sorted(ifc_names(clause.text, schemas) + element_words(clause.text, schemas), key=lambda m: m.start):
            entity = m.entity
            if entity.predefined_type is None:
                words = re.findall(rf"{A}[A-Z]{{3,}}{Z}", clause.text) + re.findall(r"([A-Za-z]+)\s+$", clause.text[:m.start])
                entity = Entity(entity.name, next((p for w in words if (p := valid_predefined(entity.name, w, schemas))),
                                                  None))
            found.append(Mention(clause.start + m.start, entity, m.label))
    return found


QUANTIFIED_BEFORE = re.compile(r"(?:\b(?:every|each|all|any)\s+(?:[\w-]+\s+){0,2}|各|全ての|すべての|全)$", re.I)
QUANTIFIED_AFTER = re.compile(r"^\S{0,6}?(?:はすべて|はいずれも|すべて|全て)")


def inherit(mentions: list[Mention], body: str) -> list[Mention]:
    """A bare later mention ("turning space", "室番号") stands for the last one of the same class, with its
    predefined type and conditions; a quantified one ("every space …") starts a new subject."""
    last: dict[str, Mention] = {}
    out = []
    for m in mentions:
        bare = m.entity.predefined_type is None and not m.conditions
        quantified = QUANTIFIED_BEFORE.search(body[max(0, m.start - 30):m.start]) or \
            QUANTIFIED_AFTER.match(body[m.start + len(m.label):m.start + len(m.label) + 12])
        previous = last.get(m.entity.name)
        if bare and not quantified and previous is not None:
            m = Mention(m.start, previous.entity, m.label, previous.conditions)
        last[m.entity.name] = m
        out.append(m)
    return out


CONDITIONS = (
    re.compile(r"\bwhose\s+(?P<name>[A-Z][A-Za-z]+)\s+(?:is|=|equals)\s+(?:set to\s+)?[\"“'「]?"
               r"(?P<value>[^\"”'」,;.)]+?)[\"”'」]?(?=[\s,;.:)]|$)"),
    re.compile(r"\b(?:marked|flagged|with|where|having)\s+(?:as\s+)?(?P<name>[A-Z][a-z][A-Za-z]+)\s*(?:=|is|set to)\s*"
               r"[\"“'「]?(?P<value>[\w.-]+)"),
    re.compile(r"(?P<name>[A-Z][a-z][A-Za-z]+)\s*(?:が|=|＝)\s*[「\"“]?(?P<value>[^」\"”\s、。]+?)[」\"”]?\s*(?:の|である)"),
)


def _condition_facet(name: str, value: str, entity: Entity, clause: str, schemas: list[str]):
    if all(name in attribute_names(s, entity.name) for s in schemas) and name not in NEVER_ATTRIBUTES:
        return Attribute(name, value)
    property_set = _set_for(name, Clause(0, clause, 0), STANDARD_SET.findall(clause), schemas, entity, [])
    if property_set is None and not _in_applicable(name, entity, schemas):
        return None
    prop = make_property(schemas, property_set, name, Constraint("simple", (value,)))
    return Property(prop.property_set, prop.base_name, prop.value, prop.data_type)  # applicability: no cardinality


def attach_conditions(body: str, mentions: list[Mention], schemas: list[str]) -> tuple[list[Mention], list[tuple]]:
    """Mentions with their applicability conditions, and the text spans those conditions use up."""
    mentions, spans = list(mentions), []
    for clause in clauses(body):
        for pattern in CONDITIONS:
            for m in pattern.finditer(clause.text):
                start, end = clause.start + m.start(), clause.start + m.end()
                here = [i for i, x in enumerate(mentions) if clause.start <= x.start < clause.start + len(clause.text)]
                after = [i for i in here if mentions[i].start >= end]
                before = [i for i in here if mentions[i].start < start]
                index = (before[-1:] or after[:1] or [None])[0]
                if index is None or any(a <= start < b for a, b in spans):
                    continue
                target = mentions[index]
                facet = _condition_facet(m["name"], m["value"].strip(), target.entity, clause.text, schemas)
                if facet is not None:
                    mentions[index] = Mention(target.start, target.entity, target.label, (*target.conditions, facet))
                    spans.append((start, end))
    return mentions, spans


@dataclass(frozen=True)
class NameMention:
    start: int
    end: int
    name: str
    kind: str  # "attribute" | "property"


NEVER_ATTRIBUTES = {"PredefinedType", "GlobalId", "OwnerHistory"}  # entity/predefinedType says these


def _sentence_start(text: str, index: int) -> bool:
    before = text[:index].rstrip()
    marker = r"\s*(?:[-•・*–]|[(（]?[a-z0-9]{1,3}[.)）]|[0-9.]+)\s*"  # "- ", "(a) ", "2. ", "4.3 "
    return not before or before[-1] in ".!?:;。！？" or re.fullmatch(marker, before) is not None


def _names_in(clause: Clause, known: set[str], sets_here: list[str], schemas: list[str], target: Entity | None):
    """Property and attribute names mentioned in a clause, left to right, without overlaps."""
    text = clause.text
    hits: dict[int, NameMention] = {}

    def add(start: int, end: int, name: str, kind: str) -> None:
        if not any(h.start <= start < h.end or start <= h.start < end for h in hits.values()):
            hits[start] = NameMention(start, end, name, kind)

    attributes = set().union(*(attribute_names(s, target.name) for s in schemas)) - NEVER_ATTRIBUTES if target else set()
    for m in ATTRIBUTE_WORD.finditer(text):
        name = m[1] or m[2]
        if name in attributes:
            add(m.start(1) if m[1] else m.start(2), m.end(), name, "attribute")
    for m in NAME_PHRASES.finditer(text):
        if "Name" in attributes:
            add(m.start(), m.end(), "Name", "attribute")
    for m in CAMEL.finditer(text):
        if not STANDARD_SET.match(text, m.start()) and not m[1].startswith("Ifc") and m[1] not in NEVER_ATTRIBUTES:
            add(m.start(), m.end(), m[1], "attribute" if m[1] in attributes and m[1] not in known else "property")
    candidates = set(known)
    for name in sets_here:
        candidates |= {p for s in schemas for p in set_properties(s, name)}
    if CUSTOM_SET.search(text) or re.search(r"プロパティ|Pset_", text):
        # 「鋼種」 in a clause that names a set; codes such as 「BV-DN50」 are examples, not names
        candidates |= {q for q in QUOTED.findall(text) if re.search(r"[\u3040-\u9fff]", q)}
    if target and BASE_QUANTITIES.search(text):
        candidates |= {p for s in schemas for q in applicable_sets(s, target.name) if "BaseQuantities" in q
                       for p in set_properties(s, q)}
    for m in PARENS_WORD.finditer(text):
        if m[1] in attributes and m[1] not in candidates:
            add(m.start(1), m.end(1), m[1], "attribute")
        elif m[1] in candidates or (target and _in_applicable(m[1], target, schemas)):
            add(m.start(1), m.end(1), m[1], "property")
    for m in SINGLE.finditer(text):
        if m[1] not in attributes and not _sentence_start(text, m.start()) and target \
                and (m[1] in candidates or _in_applicable(m[1], target, schemas)):
            add(m.start(), m.end(), m[1], "property")
    for name in candidates:
        for m in name_pattern(name).finditer(text):
            add(m.start(), m.end(), name, "property")
    return sorted(hits.values(), key=lambda h: h.start)


def _in_applicable(name: str, target: Entity, schemas: list[str]) -> bool:
    return any(name in set_properties(s, q) for s in schemas for q in applicable_sets(s, target.name))


def _set_for(name: str, clause: Clause, doc_sets: list[str], schemas: list[str], target: Entity | None,
             custom_here: list[str]) -> str | None:
    """Which property set the text names for `name`; None means "no set named" (the any-set convention)."""
    here = STANDARD_SET.findall(clause.text)
    for candidate in here + doc_sets[::-1]:
        if any(name in set_properties(s, candidate) for s in schemas):
            return candidate
    if target and BASE_QUANTITIES.search(clause.text):
        for s in schemas:
            for q in applicable_sets(s, target.name):
                if "BaseQuantities" in q and name in set_properties(s, q):
                    return q
    return custom_here[-1] if custom_here else None


def _target_at(position: int, mentions: list[Mention], fits=lambda entity: True) -> Mention | None:
    """The nearest mention before `position` that fits (e.g. the set applies to it), else the nearest."""
    before = [m for m in mentions if m.start <= position] or mentions[:1]
    return next((m for m in reversed(before) if fits(m.entity)), before[-1] if before else None)


def _fits(hit: NameMention, property_set: str | None, schemas: list[str]):
    if hit.kind == "attribute":
        return lambda e: all(hit.name in attribute_names(s, e.name) for s in schemas)
    if property_set and property_set.startswith(("Pset_", "Qto_")):
        return lambda e: any(property_set in applicable_sets(s, e.name) for s in schemas)
    return lambda e: True


def _set_target(property_set: str | None, schemas: list[str], start: int) -> Mention | None:
    """No element mentioned fits the set (the audit would flag 201): the class the set itself applies to."""
    applicable = set_entity(schemas, property_set) if property_set else None
    return Mention(start, Entity(*applicable), applicable[0].title()) if applicable else None


def _localize(text: str, aliases: dict[str, str], known: set[str]) -> str:
    """Japanese labels introduced as "使用圧力（WorkingPressure）" stand for the property later on."""
    for alias, name in aliases.items():
        if name in known and alias in text and name not in text:
            text = text.replace(alias, f" {name} ")
    return text


def text_requirements(body: str, schemas: list[str], known_names: frozenset[str] = frozenset(),
                      mentions: list[Mention] | None = None) -> tuple[list[Requirement], bool]:
    """(requirements, applicability optional?) from a natural-language body. `known_names` are property
    names already in play (an earlier IDS); `mentions` overrides the element mentions found in `body`."""
    mentions, used = attach_conditions(body, targets(body, schemas) if mentions is None else mentions, schemas)
    mentions = inherit(mentions, body)
    aliases = {m[1]: m[2] for m in JA_ALIAS.finditer(body)}
    known: set[str] = set(known_names)  # property names seen so far (their plain-words forms count later)
    doc_sets: list[str] = []
    custom: dict[int, list[str]] = {}
    found: list[Requirement] = []
    for clause in clauses(body):
        if EXCLUDED.search(clause.text):
            continue
        custom.setdefault(clause.paragraph, []).extend(CUSTOM_SET.findall(clause.text))
        clause = Clause(clause.start, _localize(clause.text, aliases, known), clause.paragraph)
        sets_here = STANDARD_SET.findall(clause.text)
        head = _target_at(clause.start + len(clause.text), mentions)
        names = _names_in(clause, known, sets_here, schemas, head.entity if head else None)
        names = [h for h in names if not any(a <= clause.start + h.start < b for a, b in used)]
        for i, hit in enumerate(names):
            end = names[i + 1].start if i + 1 < len(names) else len(clause.text)
            segment, context = clause.text[hit.end:end], clause.text[(names[i - 1].end if i else 0):end]
            property_set = None if hit.kind == "attribute" else \
                _set_for(hit.name, clause, doc_sets, schemas, head.entity if head else None, custom[clause.paragraph])
            mention = _target_at(clause.start + hit.start, mentions, _fits(hit, property_set, schemas))
            if mention is not None and not _fits(hit, property_set, schemas)(mention.entity):
                mention = _set_target(property_set, schemas, clause.start + hit.start) or mention
            if mention is None:
                continue
            facet = _facet(hit, segment, context, clause.text, property_set, schemas)
            found.append(Requirement(mention.entity, facet, mention.label, mention.conditions))
            known |= {hit.name} if hit.kind == "property" else set()
        doc_sets += sets_here
    return _dedupe(found), bool(OPTIONAL_APPLICABILITY.search(body))


def _facet(hit: NameMention, segment: str, context: str, clause: str, property_set: str | None, schemas: list[str]):
    cardinality = cardinality_of(context)
    if hit.kind == "attribute":
        pattern = example_pattern(clause)
        value = Restriction("xs:string", (("pattern", pattern),)) if pattern else None
        return Attribute(hit.name, value, "required" if cardinality == "optional" and value is None else cardinality)
    prop = make_property(schemas, property_set, hit.name, phrase_constraint(segment), None, cardinality)
    if prop.data_type == "IFCBOOLEAN" and prop.value is None and (value := boolean_value(context)):
        prop = make_property(schemas, property_set, hit.name, Constraint("simple", (value,)), None, cardinality)
    return prop


def _dedupe(requirements: list[Requirement]) -> list[Requirement]:
    """One facet per (applicability, name): the first mention with a value wins, else the first."""
    chosen: dict[tuple, Requirement] = {}
    for r in requirements:
        name = getattr(r.facet, "base_name", None) or getattr(r.facet, "name", None)
        key = (r.entity, r.conditions, type(r.facet).__name__, name)
        if key not in chosen or (chosen[key].facet.value is None and r.facet.value is not None):
            chosen[key] = r
    order = {id(r): i for i, r in enumerate(requirements)}
    return sorted(chosen.values(), key=lambda r: order[id(r)])
