"""Per-document audit state: the profile, the issues found so far, and facet results.

Checks never write onto nodes; what one check tells another (a facet's validity and its
type filter per schema) lives in `FacetState` records keyed by node.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from idsbench.vocabulary.schema import SCHEMA_LABELS

from .profiles import Profile
from .result import Status
from .rules import rule as rule_for
from .tree import Node

TypeFilter = frozenset  # UPPER class names; a missing entry means "no constraint"


@dataclass(frozen=True)
class Issue:
    rule: int | str  # a code of rules.RULES, or the name of an uncoded log line
    message: str
    node: Node | None
    line: int | None
    order: tuple[int, int]  # (event index, sequence) to sort like the tool's log
    status: Status


@dataclass
class FacetState:
    valid: bool = True
    filters: dict[str, TypeFilter] = field(default_factory=dict)

    def invalidate(self) -> None:
        self.valid = False
        self.filters.clear()


@dataclass
class AuditContext:
    profile: Profile
    ids_version: str = "1.0"
    issues: list[Issue] = field(default_factory=list)
    facets: dict[int, FacetState] = field(default_factory=dict)
    schemas: dict[int, tuple[str, ...]] = field(default_factory=dict)  # id(spec) -> IFC schemas
    event: int = 0  # index of the element event being processed
    shared: dict[tuple, frozenset] = field(default_factory=dict)

    def report(self, rule: int | str, node: Node | None, status: Status | None = None, line: int | None = None,
               **fields: object) -> Status:
        """Record an issue; returns the status it contributes (the rule's unless overridden)."""
        spec = rule_for(rule)
        message = spec.template.format(**fields)
        effective = spec.status if status is None else status
        where = line if line is not None else (node.line if node is not None else None)
        self.issues.append(Issue(rule, message, node, where, (self.event, len(self.issues)), effective))
        return effective

    def shared_set(self, key: tuple, build: Callable[[], Iterable[str]]) -> frozenset:
        """One frozenset per key for the whole audit. Facets repeating a matcher share it:
        a fresh copy per facet (16-40 KB) let 40 000 facets take most of a gigabyte."""
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = frozenset(build())
        return found

    def facet(self, node: Node) -> FacetState:
        return self.facets.setdefault(id(node), FacetState())

    @property
    def status(self) -> int:
        value = 0
        for issue in self.issues:
            value |= issue.status
        return value


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
