"""The Stage 1 rules registry: for every code, its meaning in one line, its level and status, the
validator's message template, the checks that raise it, and a document that raises it with a
near-identical one that does not.

Codes, levels, statuses and templates are those of buildingSMART's IDS-Audit-tool 1.0.96; the
meanings are ours (docs/audit.md). Three log lines of the tool carry no code (`UNCODED`). A test runs
every example, and checks that each check named here reports its code and that no other does.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from idsbench.synthetic.documents import (HEADER, IDS_NS, attribute, entity, enumeration, facet, ids, param, prop,
                                          restriction, spec)

from .result import Status, status_line

Document = Callable[[], str]  # built on demand: one example is an 11 MB document
C, S = Status.IDS_CONTENT_ERROR, Status.IDS_STRUCTURE_ERROR
WALL = entity("IFCWALL")
FOREIGN_HEADER = HEADER.replace(f'xmlns="{IDS_NS}"', 'xmlns="urn:not-ids"')


def _ok() -> str:
    return ids(spec(WALL))


def _prop_value(text: str, data_type: str = "IFCLABEL") -> Document:
    return lambda: ids(spec(WALL, prop("Custom", "P", text, data_type, None)))


def _entity_name(name: str, predefined: str | None = None) -> Document:
    return lambda: ids(spec(entity(name, predefined)))


def _requirement(facet_xml: str, occurs: str | None = None) -> Document:
    return lambda: ids(spec(WALL, facet_xml, **({} if occurs is None else {"occurs": occurs})))


@dataclass(frozen=True)
class Rule:
    key: int | str  # the code, or the name of an uncoded log line
    level: str  # critical | error | warning | info
    status: Status  # what the finding adds to the document's status
    template: str  # the validator's message
    meaning: str  # one line, shown wherever the code is
    checks: tuple[str, ...]  # the functions that report it
    failing: Document | None = None
    passing: Document | None = None
    note: str = ""  # why there is no example

    @property
    def code(self) -> int | None:
        return self.key if isinstance(self.key, int) else None


def _rule(key, level, status, template, meaning, checks, failing=None, passing=None, note=""):
    modules = tuple(f"idsbench.audit.{check}" for check in checks.split())
    return Rule(key, level, status, template, meaning, modules, failing, passing, note)


_RULES = (
    _rule(101, "error", C, "Invalid applicability. {message}",
          "a specification without applicability, or an applicability without any facet",
          "spec.audit_specification", lambda: ids(spec("")), _ok),
    _rule(102, "error", C, "Empty string matcher for `{field}`",
          "a facet parameter with nothing to match (name, predefinedType, propertySet or baseName)",
          "facets.audit_entity facets._audit_entity_predefined facets.audit_attribute facets.audit_property",
          lambda: ids(spec("<entity><name/></entity>")), _ok),
    _rule(103, "error", C, "Invalid {variable} `{value}` ({candidates}) in the context of {schema}",
          "a value outside the IFC vocabulary of the specification's schemas (class, predefined type, "
          "attribute, property, dataType, relation)",
          "facets._check_enumeration_values facets._audit_data_type facets._check_enumerated_value "
          "facets.audit_part_of xs.report_problems", _entity_name("IfcWall"), _ok),
    _rule(104, "error", C, "Invalid number of matches for `{value}` in the context of {schema}",
          "a value that matches more candidates than allowed", "", note="unreachable: only one relation matches"),
    _rule(105, "error", C, "{message}",
          "a predefinedType on an entity whose name selects no class",
          "facets._audit_predefined", _entity_name(restriction("xs:string", facet("minLength", "3")), "SOLIDWALL"),
          _entity_name(enumeration("IFCWALL"), "SOLIDWALL")),
    _rule(106, "error", C, "Invalid empty attribute {field}",
          "a required part left empty: a partOf without entity, a classification without system",
          "facets.audit_part_of facets.audit_classification",
          _requirement(f"<classification>{param('system', '')}</classification>"),
          _requirement(f"<classification>{param('system', 'Uniclass')}</classification>")),
    _rule(107, "error", C, "Invalid schema version '{version}'",
          "an ifcVersion token the validator does not know, or no known IFC version at all",
          "spec.read_schemas spec.audit_specification", lambda: ids(spec(WALL, version="")), _ok),
    _rule(108, "error", Status.OK, "Unsupported schema version '{version}'",
          "a schema version the validator knows but does not support", "", note="never raised by the tool"),
    _rule(109, "error", C, "{typo} pattern string '{pattern}'",
          "an xs:pattern that .NET's regular expressions reject",
          "xs.audit_pattern", _entity_name(restriction("xs:string", facet("pattern", "IFC[WALL"))),
          _entity_name(restriction("xs:string", facet("pattern", "IFC[W]ALL")))),
    _rule(201, "error", C, "Inconsistent clauses for {schema} : {message}",
          "facets that no IFC class can satisfy together (within a set, or applicability against requirements)",
          "spec.audit_collection spec._audit_coherence facets.audit_part_of",
          _requirement(entity("IFCSLAB")), _requirement(entity("IFCWALL"))),
    _rule(202, "error", C, "Invalid cardinality `{cardinality}`, {message}",
          "a cardinality the facet cannot have as given (optional without value or dataType, prohibited "
          "with a dataType)", "facets.audit_cardinality",
          _requirement(attribute("Name", cardinality="optional")),
          _requirement(attribute("Name", "W1", cardinality="optional"))),
    _rule(203, "error", C, "Incompatible constraints: {message}",
          "a property value without a dataType", "facets.audit_property",
          _prop_value("1", None), _prop_value("1")),
    _rule(204, "error", C, "Incompatible requirements: {message}",
          "requirements that cannot apply: under a prohibited applicability (latest profile: an optional "
          "specification without requirements)", "spec.audit_specification",
          _requirement(attribute("Name", cardinality=None), 'minOccurs="0" maxOccurs="0"'),
          _requirement(attribute("Name", cardinality=None))),
    _rule(301, "error", C, "Invalid cardinality. {message}",
          "an occurrence range or cardinality outside what IDS allows",
          "spec.audit_collection facets.audit_cardinality", lambda: ids(spec(WALL, occurs="")), _ok),
    _rule(302, "error", C, "Invalid context; {message}",
          "a restriction facet a name matcher cannot use (totalDigits: use length)",
          "xs.report_problems", _entity_name(restriction("xs:string", facet("totalDigits", "7"))),
          _entity_name(restriction("xs:string", facet("length", "7")))),
    _rule(303, "error", C, "Invalid type `{base}`{detail}",
          "a restriction base that is not a valid type, or not the one the value needs",
          "xs.audit_restriction xs.report_problems facets._audit_attribute_value facets._audit_data_type",
          _prop_value(enumeration("x", base="xs:time")), _prop_value(enumeration("x"))),
    _rule(304, "error", C, "No details",
          "an xs:restriction without any facet", "xs.audit_restriction",
          _prop_value(restriction("xs:string")), _prop_value(enumeration("x"))),
    _rule(305, "error", C, "Invalid value '{value}' for base type '{base}'",
          "a value that is not valid for its type (say 'abc' for a real number)",
          "xs.audit_enumeration xs.audit_bound facets._audit_attribute_value facets._audit_data_type",
          _prop_value("abc", "IFCREAL"), _prop_value("1.5", "IFCREAL")),
    _rule(306, "error", S, "Schema compliance error; {message}",
          "the document is not valid against the IDS XML schema", "_audit_read",
          lambda: ids(spec('<entity foo="1"><name><simpleValue>IFCWALL</simpleValue></name></entity>')), _ok),
    _rule(307, "info", Status.OK, "Schema compliance warning; {message}",
          "an XML schema warning (for instance a root outside the IDS namespace)", "_audit_read",
          lambda: ids(spec(WALL), header=FOREIGN_HEADER), _ok),
    _rule(308, "error", C, "Invalid facet `{facet}` for base type `{base}`",
          "a restriction facet its base type does not allow (an enumeration of xs:boolean, say)",
          "xs.audit_restriction", _prop_value(enumeration("true", base="xs:boolean"), "IFCBOOLEAN"),
          _prop_value(restriction("xs:boolean", facet("pattern", "true")), "IFCBOOLEAN")),
    _rule(401, "error", C, "Reserved prefix '{prefix}' for {field} ({value}) in the context of {schema}",
          "a property set named with the reserved Pset_ prefix that is not a standard set",
          "facets._audit_property_schema", lambda: ids(spec(WALL, prop("Pset_Custom", "P", None, "IFCLABEL", None))),
          lambda: ids(spec(WALL, prop("Custom_Pset", "P", None, "IFCLABEL", None)))),
    _rule(501, "critical", Status.NOT_IMPLEMENTED_ERROR, "Unhandled scenario: {message}",
          "a facet or facet set outside any specification", "spec._within_specification",
          lambda: ids(WALL, header=FOREIGN_HEADER), lambda: ids(spec(WALL), header=FOREIGN_HEADER)),
    _rule(502, "error", S, "XML structure error: {message}",
          "the XML is not well-formed, or declares a DTD", "_probe _audit_read",
          lambda: _ok()[:-30], _ok),
    _rule(503, "error", Status.UNHANDLED_ERROR, "Unhandled error: {message}",
          "the audit could not finish: the document is too large, or needs too much regex work",
          "run_audit _audit_read",
          lambda: _ok().replace("<title>t</title>", "<title>" + "x" * (11 * 1024 * 1024) + "</title>"), _ok),
    _rule(504, "critical", Status.NOT_IMPLEMENTED_ERROR, "No embedded schema for {version}",
          "no XML schema for the document's IDS version", "", note="unreachable: every version's XSD is available"),
)
RULES: dict[int, Rule] = {rule.key: rule for rule in _RULES}
UNCODED: dict[str, Rule] = {rule.key: rule for rule in (
    _rule("not_ids", "critical", Status.NOT_IMPLEMENTED_ERROR, "Unhandled scenario: {message}",
          "not an IDS document (not XML, a DTD, or a root other than ids)", "_probe",
          lambda: "this is not xml", _ok),
    _rule("bad_version", "critical", S, "Unrecognised version from location value ({location})",
          "an xsi:schemaLocation other than the two the validator recognises", "_probe",
          lambda: _ok().replace(f' xsi:schemaLocation="{IDS_NS} ', ' xsi:schemaLocation="urn:x '), _ok),
    _rule("transitional", "warning", Status.OK, "Version {version} is transitional, update to 1.0 before circulating.",
          "an IDS 0.9.7 document", "_probe", lambda: _ok().replace("IDS/1.0/ids.xsd", "IDS/0.9.7/ids.xsd"), _ok),
)}


# The checks in words, for `--explain` (the registry names them by function, which a user cannot read).
CHECK_WORDS = {
    "_probe": "the first look at the document: XML with an `ids` root, and its IDS version (xsi:schemaLocation)",
    "_audit_read": "reading the document: well-formed XML, its size, validation against the IDS XML schema",
    "run_audit": "the audit as a whole: the limit on regular-expression work",
    "spec.read_schemas": "a specification's ifcVersion, when its start tag is read",
    "spec.audit_specification": "each specification, when it ends: an IFC version, an applicability with a facet, "
                                "requirements that can apply",
    "spec.audit_collection": "each applicability and requirements: occurrences, cardinalities, and whether one IFC "
                             "class can meet all its facets",
    "spec._audit_coherence": "applicability against requirements: whether both can select the same IFC class",
    "spec._within_specification": "each facet and facet set: whether a specification holds it",
    "facets.audit_entity": "the entity facet's name",
    "facets._audit_entity_predefined": "the entity facet's predefinedType",
    "facets._audit_predefined": "a predefinedType against the classes the entity's name selects",
    "facets.audit_attribute": "the attribute facet's name",
    "facets._audit_attribute_value": "an attribute facet's value against the attribute's type",
    "facets.audit_property": "the property facet: propertySet, baseName, and a value only with a dataType",
    "facets._audit_property_schema": "a propertySet name: standard sets, and the Pset_ prefix they reserve",
    "facets._audit_data_type": "a property's dataType, and its value against that type",
    "facets._check_enumerated_value": "a property value against the values its standard property allows",
    "facets._check_enumeration_values": "each xs:enumeration of a name or predefinedType against the IFC vocabulary",
    "facets.audit_part_of": "the partOf facet: its entity and its relation",
    "facets.audit_classification": "the classification facet's system",
    "facets.audit_cardinality": "each requirement facet's cardinality",
    "xs.report_problems": "a name, predefinedType or baseName matcher against the IFC vocabulary",
    "xs.audit_restriction": "each xs:restriction: its base type and the facets that base allows",
    "xs.audit_enumeration": "each xs:enumeration value against its restriction's base type",
    "xs.audit_bound": "each bound (minInclusive, maxExclusive, …) against its restriction's base type",
    "xs.audit_pattern": "each xs:pattern, as .NET's regular expressions read it",
}


def check_words(check: str) -> str:
    """A check (`idsbench.audit.facets.audit_entity`) in words."""
    return CHECK_WORDS[check.removeprefix("idsbench.audit.")]


def rule(key: int | str) -> Rule:
    return RULES[key] if isinstance(key, int) else UNCODED[key]


def meaning(code: int | None) -> str:
    """The one-line meaning of a code, as every report shows it."""
    found = RULES.get(code) if code is not None else None
    return found.meaning if found else "unknown code"


def labelled(code: int) -> str:
    """e.g. "103 (a value outside the IFC vocabulary …)": a code as reports show it."""
    return f"{code} ({meaning(code)})"


def _shown(document: Document, limit: int = 2000) -> str:
    text = document().rstrip("\n")
    return text if len(text) <= limit else f"{text[:limit]}\n… ({len(text):,} characters in all)"


def explain(code: int) -> str:
    """What `ids-bench audit --explain CODE` prints."""
    found = RULES[code]
    adds = status_line(found.status) if found.status else "none"
    lines = [f"{code}: {found.meaning}", f"level: {found.level}; adds status: {adds}",
             f"message: {found.template}", "checked in:" if found.checks else "checked in: nowhere",
             *(f"  - {check_words(check)}" for check in found.checks)]
    if found.failing is None:
        return "\n".join([*lines, f"no example: {found.note}"])
    return "\n".join([*lines, "", "raises it:", _shown(found.failing), "", "does not:", _shown(found.passing)])
