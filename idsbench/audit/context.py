"""Per-document audit state: the profile, the issues found so far, and facet results.

Checks never write onto elements; what one check tells another (a facet's validity and its type
filter per schema) lives in `FacetState` records keyed by element. Facets repeating a matcher share
one frozenset filter (a fresh copy per facet let 40 000 facets take most of a gigabyte). An issue
keeps what its finding needs, and nothing more is computed until findings are asked for
(locate.py): the scorer keeps only codes and the status.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from idsbench.vocabulary.schema import SCHEMA_LABELS

from .nodes import first_children
from .profiles import Profile
from .result import Status
from .rules import rule as rule_for

TypeFilter = frozenset  # UPPER class names; a missing entry means "no constraint"
Where = tuple
"""Where the validator logs an issue in its single pass: ("end", element) at an end tag, ("start",
element) at a start tag, ("xsd", line) for a schema error, ("after",) after the last element, ("final",)
for the closing 502, ("first",) before any element (the probe)."""


@dataclass(slots=True)
class Issue:
    rule: int | str  # a code of rules.RULES, or the name of an uncoded log line
    fields: dict  # message fields; a callable is called when the message is written
    node: etree._Element | None
    line: int | None  # None: the node's line
    where: Where
    seq: int
    status: int
    column: int | None = None  # where the finding has no node (an XML syntax error)

    @property
    def code(self) -> int | None:
        return self.rule if isinstance(self.rule, int) else None

    def message(self) -> str:
        fields = {k: (v() if callable(v) else v) for k, v in self.fields.items()}
        return rule_for(self.rule).template.format(**fields)

    def source_line(self) -> int | None:
        if self.line is not None:
            return self.line
        return self.node.sourceline if self.node is not None else None


class FacetState:
    """A facet's validity and its type filter per schema (a plain class: one per facet)."""

    __slots__ = ("valid", "filters")

    def __init__(self):
        self.valid: bool = True
        self.filters: dict[str, TypeFilter] = {}

    def invalidate(self) -> None:
        self.valid = False
        self.filters.clear()


class AuditContext:
    """One audit's state (a plain class with slots: one is made per document)."""

    __slots__ = ("profile", "ids_version", "issues", "facets", "schemas", "ended", "where", "status",
                 "collections", "filters", "owners", "kids")

    def __init__(self, profile: Profile):
        self.profile = profile
        self.ids_version = "1.0"
        self.issues: list[Issue] = []
        self.facets: dict[etree._Element, FacetState] = {}
        self.schemas: dict[etree._Element, tuple[str, ...]] = {}  # specification -> IFC schemas
        self.ended: set | None = None  # elements whose end tag was read, when the document broke
        self.where: Where = ("first",)  # the place in the pass being worked on
        self.status = 0
        self.collections: dict[etree._Element, list] = {}  # facet children of a collection
        self.filters: dict[tuple, frozenset | None] = {}  # (collection, schema) -> type filter
        self.owners: dict[etree._Element, etree._Element | None] = {}  # parent -> its specification
        self.kids: dict[etree._Element, dict] = {}  # element -> first child by local name

    def report(self, rule: int | str, node: etree._Element | None, status: Status | None = None,
               line: int | None = None, column: int | None = None, **fields: object) -> int:
        """Record an issue; returns the status it contributes (the rule's unless overridden)."""
        effective = rule_for(rule).status if status is None else status
        self.issues.append(Issue(rule, fields, node, line, self.where, len(self.issues), effective, column))
        self.status |= effective
        return effective

    def facet(self, node: etree._Element) -> FacetState:
        found = self.facets.get(node)
        if found is None:
            found = self.facets[node] = FacetState()
        return found

    def child(self, node: etree._Element | None, name: str) -> etree._Element | None:
        """The first child element with that local name (each element's children are read once)."""
        if node is None:
            return None
        found = self.kids.get(node)
        if found is None:
            found = self.kids[node] = first_children(node)
        return found.get(name)


def schema_label(schema: str) -> str:
    return SCHEMA_LABELS.get(schema, schema)


def describe_candidates(candidates: list[str] | tuple[str, ...]) -> str:
    """The tool's summary of the accepted values in a 103 message."""
    if not candidates:
        return "no valid values exist"
    if len(candidates) == 1:
        return f"the only accepted value is `{candidates[0]}`"
    if len(candidates) < 6:
        return f"accepted values are {','.join(candidates)}"
    return f"{len(candidates)} accepted values exist, starting with {','.join(candidates[:5])}..."
