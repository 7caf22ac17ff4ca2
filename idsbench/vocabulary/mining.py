"""How the facts of facts.py are mined from ifcopenshell (run once, then read from the cache).

Sources: the property-set templates ifcopenshell ships (psets.py, variant "latest": every template, not
the audit tool's subset), the EXPRESS schemas (schema.py), the documentation database of
ifcopenshell.util.doc (definitions) and ifcopenshell.util.unit (SI unit names of named units, prefixes and
conversion factors). What ifcopenshell does not know is in datatype_rules.py and units.py, each table with
its reason.

- home: a standard set (Pset_/Qto_), a property or quantity of a set present in a version that lacks it,
  an entity class, or a predefined type of a class present in a version that lacks it; USERDEFINED and
  NOTDEFINED apart. IFC2X3 has no quantity-set templates: Qto_ sets are IFC4 and IFC4X3_ADD2 facts.
- moved: property P in set A in some versions and in set B (never holding P in those versions) in
  others, A and B applying to a common class.
- datatype: datatype_rules.py's rules over every single, bounded, list and table property of a version.
- enum: every enumerated property of a version; its versions are those with the same values.
- qto: every quantity set of a version, each quantity with the dataType its kind gives.
- ptype: every predefined type of an occurrence class (types apart), with the definition of the class
  that declares the PredefinedType attribute when a subclass inherits it.
- unit: units.py, for every measure type a template uses.
"""
from __future__ import annotations

from collections.abc import Iterator

from .datatype_rules import matching_rules
from .fact_types import DOC_VERSIONS, VERSIONS, Fact, normalized
from .psets import PsetTemplate, property_sets
from .schema import schema_vocabulary
from .units import unit_facts

_GENERIC_TYPES = frozenset({"USERDEFINED", "NOTDEFINED"})
_TYPED_KINDS = frozenset({"single", "bounded", "list", "table"})


def mine() -> tuple[Fact, ...]:
    facts = [*_set_homes(), *_member_homes(), *_class_homes(), *_ptype_homes(), *_moved(), *_datatypes(),
             *_enums(), *_qtos(), *_ptypes(), *unit_facts(_template_measures())]
    return tuple(sorted(facts, key=lambda f: f.id))


# ------------------------------------------------------------------------------------------- documentation

def _db():
    import ifcopenshell.util.doc

    return ifcopenshell.util.doc


def _text(entry) -> str:
    if isinstance(entry, dict):
        entry = entry.get("description")
    return normalized(entry) if isinstance(entry, str) else ""


def definition(doc_version: str, name: str) -> str:
    """Documentation text of "IFCCLASS.PTYPE", "Set.Property", "Set" or "IFCCLASS" ("" when none)."""
    head, _, tail = name.partition(".")
    if head[:4].lower() in ("pset", "qto_"):
        if tail:
            return _text(_db().get_property_doc(doc_version, head, tail))
        return _text(_db().get_property_set_doc(doc_version, head))
    cls = _class_name(doc_version, head)
    if not cls:
        return ""
    return _ptype_definition(doc_version, cls, tail.upper()) if tail else _text(_db().get_entity_doc(doc_version, cls, False))


def _class_name(doc_version: str, upper: str) -> str:
    version = next(v for v, d in DOC_VERSIONS.items() if d == doc_version)
    cls = schema_vocabulary(version).classes.get(upper.upper())
    return cls.name if cls is not None and cls.entity else ""


def _ptype_definition(doc_version: str, cls: str, ptype: str) -> str:
    """The predefined type's text on the class, else on the supertype that declares the attribute."""
    version = next(v for v, d in DOC_VERSIONS.items() if d == doc_version)
    classes = schema_vocabulary(version).classes
    upper = cls.upper()
    while upper:
        text = _text(_db().get_predefined_type_doc(doc_version, classes[upper].name, ptype))
        if text or ptype not in classes[upper].predefined:
            return text
        upper = classes[upper].parent
    return ""


def _doc(version: str, name: str) -> str:
    return definition(DOC_VERSIONS[version], name)


# ------------------------------------------------------------------------------------------- homes

def _templates() -> dict[str, dict[str, PsetTemplate]]:
    return {v: dict(property_sets(v, "latest")) for v in VERSIONS}


def _where(found) -> tuple[str, ...]:
    return tuple(v for v in VERSIONS if found(v))


def _missing_note(what: str, versions: tuple[str, ...], absent: tuple[str, ...]) -> str:
    return f"{what} exists in {' and '.join(versions)} only; not in {' or '.join(absent)}"


def _absent(versions: tuple[str, ...], among: tuple[str, ...] = VERSIONS) -> tuple[str, ...]:
    return tuple(v for v in among if v not in versions)


def _set_homes() -> Iterator[Fact]:
    sets = _templates()
    for name in sorted(set().union(*sets.values())):
        versions = _where(lambda v: name in sets[v])
        if len(versions) == len(VERSIONS):
            continue
        latest = sets[versions[-1]][name]
        what = "qto" if name.startswith("Qto_") else "pset"
        note = _missing_note(f"{'quantity' if what == 'qto' else 'property'} set {name}", versions, _absent(versions))
        yield Fact(f"home:{what}:{name}", "home", name, versions, note, definition=_doc(versions[-1], name),
                   applies_to=latest.applicable)


def _member_homes() -> Iterator[Fact]:
    sets = _templates()
    members = {(s, p) for v in VERSIONS for s, t in sets[v].items() for p in t.properties}
    for set_name, prop in sorted(members):
        with_set = _where(lambda v: set_name in sets[v])
        versions = _where(lambda v: set_name in sets[v] and prop in sets[v][set_name].properties)
        if versions == with_set:
            continue
        what = "quantity" if set_name.startswith("Qto_") else "property"
        template = sets[versions[-1]][set_name].properties[prop]
        note = _missing_note(f"{what} {prop} of {set_name}", versions, _absent(versions, with_set))
        yield Fact(f"home:{what}:{set_name}.{prop}", "home", f"{set_name}.{prop}", versions, note,
                   data_type=template.data_types[0] if template.data_types else "",
                   definition=_doc(versions[-1], f"{set_name}.{prop}"))


def _occurrence_classes(version: str) -> dict[str, tuple[str, ...]]:
    """UPPER entity class -> its predefined types, for concrete classes that are not type objects."""
    classes = schema_vocabulary(version).classes
    out = {}
    for upper, cls in classes.items():
        if cls.entity and not cls.abstract and not _is_type_object(classes, upper):
            out[upper] = tuple(p for p in cls.predefined if p not in _GENERIC_TYPES)
    return out


def _is_type_object(classes, upper: str) -> bool:
    while upper:
        if upper == "IFCTYPEOBJECT":
            return True
        upper = classes[upper].parent
    return False


def _class_homes() -> Iterator[Fact]:
    present = {v: _occurrence_classes(v) for v in VERSIONS}
    for upper in sorted(set().union(*present.values())):
        versions = _where(lambda v: upper in present[v])
        if len(versions) < len(VERSIONS):
            yield Fact(f"home:class:{upper}", "home", upper, versions,
                       _missing_note(f"class {upper}", versions, _absent(versions)),
                       definition=_doc(versions[-1], upper))


def _ptype_homes() -> Iterator[Fact]:
    present = {v: _occurrence_classes(v) for v in VERSIONS}
    pairs = {(c, p) for v in VERSIONS for c, types in present[v].items() for p in types}
    for upper, ptype in sorted(pairs):
        with_class = _where(lambda v: upper in present[v])
        versions = _where(lambda v: ptype in present[v].get(upper, ()))
        if versions != with_class:
            yield Fact(f"home:ptype:{upper}.{ptype}", "home", f"{upper}.{ptype}", versions,
                       _missing_note(f"predefined type {ptype} of {upper}", versions, _absent(versions, with_class)),
                       definition=_doc(versions[-1], f"{upper}.{ptype}"))


def _moved() -> Iterator[Fact]:
    sets = _templates()
    homes: dict[str, dict[str, tuple[str, ...]]] = {}  # property -> set -> versions holding it there
    for v in VERSIONS:
        for s, t in sets[v].items():
            for p in t.properties:
                homes.setdefault(p, {}).setdefault(s, ())
                homes[p][s] += (v,)
    for prop, where in sorted(homes.items()):
        for old, new in _moves(where, sets):
            versions = tuple(v for v in VERSIONS if v in where[old] + where[new])
            note = (f"{prop} is in {old} in {' and '.join(where[old])}, in {new} in {' and '.join(where[new])}")
            yield Fact(f"moved:{old}.{prop}>{new}", "moved", f"{old}.{prop}", versions, note,
                       values=(old, new), definition=_doc(where[new][-1], f"{new}.{prop}"))


def _moves(where: dict[str, tuple[str, ...]], sets) -> Iterator[tuple[str, str]]:
    """(old set, new set) pairs: disjoint versions, the old ones first, a common applicable class."""
    for old, old_versions in sorted(where.items()):
        for new, new_versions in sorted(where.items()):
            if old == new or set(old_versions) & set(new_versions):
                continue
            if VERSIONS.index(old_versions[-1]) > VERSIONS.index(new_versions[0]):
                continue
            old_classes = set(sets[old_versions[-1]][old].applicable)
            if old_classes & set(sets[new_versions[0]][new].applicable):
                yield old, new


# ------------------------------------------------------------------------------------------- per version

def _same_in(sets, set_name: str, prop: str, same) -> tuple[str, ...]:
    return _where(lambda v: set_name in sets[v] and prop in sets[v][set_name].properties
                  and same(sets[v][set_name].properties[prop]))


# The default audit profile reproduces IDS-Audit-tool 1.0.96, whose tables lack a few template properties
# (psets.py); a gold that uses one fails the audit gate, so the fact says so.
_UNAUDITED = " (unknown to the default audit profile: a gold using it does not audit Ok)"


def _audited(version: str, set_name: str, prop: str) -> bool:
    template = property_sets(version, "tool-1.0.96").get(set_name)
    return template is not None and prop in template.properties


def _datatypes() -> Iterator[Fact]:
    sets = _templates()
    for v in VERSIONS:
        for set_name, tmpl in sorted(sets[v].items()):
            for prop, template in sorted(tmpl.properties.items()):
                if template.kind not in _TYPED_KINDS or not template.data_types:
                    continue
                data_type = template.data_types[0]
                elsewhere = {other: sets[other][set_name].properties[prop].data_types[:1]
                             for other in VERSIONS if other != v and set_name in sets[other]
                             and prop in sets[other][set_name].properties}
                rules = matching_rules(prop, data_type, elsewhere)
                if not rules:
                    continue
                versions = _same_in(sets, set_name, prop, lambda t: t.data_types[:1] == (data_type,))
                note = f"{set_name}.{prop} is {data_type} in {v}: " + "; ".join(f"[{r.name}] {r.why}" for r in rules)
                note += "" if _audited(v, set_name, prop) else _UNAUDITED
                yield Fact(f"datatype:{v}:{set_name}.{prop}", "datatype", f"{set_name}.{prop}", versions, note,
                           data_type=data_type, obvious=rules[0].obvious,
                           definition=_doc(v, f"{set_name}.{prop}"))


def _enums() -> Iterator[Fact]:
    sets = _templates()
    for v in VERSIONS:
        for set_name, tmpl in sorted(sets[v].items()):
            for prop, template in sorted(tmpl.properties.items()):
                if template.kind != "enum":
                    continue
                values = _values(template)
                versions = _same_in(sets, set_name, prop, lambda t: set(_values(t)) == set(values))
                note = f"{set_name}.{prop} allows {len(values)} values in {v}" + _enum_changes(sets, v, set_name, prop)
                yield Fact(f"enum:{v}:{set_name}.{prop}", "enum", f"{set_name}.{prop}", versions, note,
                           data_type="IFCLABEL", values=values, definition=_doc(v, f"{set_name}.{prop}"))


def _values(template) -> tuple[str, ...]:
    # A few templates carry stray white space around a value ("UNSET\n"); authors write it without.
    return tuple(v.strip() for v in template.enum_values)


def _enum_changes(sets, version: str, set_name: str, prop: str) -> str:
    mine = set(_values(sets[version][set_name].properties[prop]))
    changes = []
    for other in VERSIONS:
        template = sets[other].get(set_name)
        theirs = template.properties.get(prop) if template is not None else None
        if other == version or theirs is None or set(_values(theirs)) == mine:
            continue
        only_here = sorted(mine - set(_values(theirs)))
        only_there = sorted(set(_values(theirs)) - mine)
        changes.append(f"; vs {other}: " + ", ".join(
            part for part in (f"only here {' '.join(only_here)}" if only_here else "",
                              f"only there {' '.join(only_there)}" if only_there else "") if part))
    return "".join(changes)


def _qtos() -> Iterator[Fact]:
    sets = _templates()
    for v in VERSIONS:
        for name, tmpl in sorted(sets[v].items()):
            if not name.startswith("Qto_"):
                continue
            quantities = tuple(f"{q}:{t.data_types[0] if t.data_types else ''}" for q, t in tmpl.properties.items())
            versions = _where(lambda w: name in sets[w] and set(sets[w][name].properties) == set(tmpl.properties))
            note = f"{name} in {v}: {len(quantities)} quantities for {', '.join(tmpl.applicable)}"
            yield Fact(f"qto:{v}:{name}", "qto", name, versions, note, values=quantities,
                       definition=_doc(v, name), applies_to=tmpl.applicable)


def _ptypes() -> Iterator[Fact]:
    present = {v: _occurrence_classes(v) for v in VERSIONS}
    for v in VERSIONS:
        for upper, types in sorted(present[v].items()):
            for ptype in types:
                text = _doc(v, f"{upper}.{ptype}")
                versions = _where(lambda w: ptype in present[w].get(upper, ()) and _doc(w, f"{upper}.{ptype}") == text)
                yield Fact(f"ptype:{v}:{upper}.{ptype}", "ptype", f"{upper}.{ptype}", versions,
                           f"{upper} {ptype} in {v}: " + (text or "(no definition in ifcopenshell)"),
                           definition=text)


def _template_measures() -> dict[str, tuple[str, ...]]:
    """UPPER measure type -> the versions whose templates use it."""
    out: dict[str, set[str]] = {}
    for v, sets in _templates().items():
        for tmpl in sets.values():
            for template in tmpl.properties.values():
                for data_type in template.data_types:
                    if data_type.endswith("MEASURE"):
                        out.setdefault(data_type, set()).add(v)
    return {m: tuple(v for v in VERSIONS if v in vs) for m, vs in sorted(out.items())}
