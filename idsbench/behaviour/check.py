"""Running an IDS against witness models with ifctester, the field's IDS checker.

The document is untrusted (a model's output): it must pass the project's hardened, bounded XML
parser before ifctester reads it. Loading never raises: an IDS that cannot be read or checked is
an `Unchecked` with its reason. Two adaptations sit at this boundary (see patterns.py): every
`xs:pattern` is matched with bounded regular expressions (XSD semantics, or the audit's .NET
semantics for patterns that are not XSD, such as the any-set pattern), and several patterns on
one value are alternatives, as IDS defines them.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import ifcopenshell
from ifctester import ids as ifctester_ids
from ifctester.facet import Restriction

from .patterns import matcher, matches_any, python_pattern
from .project import parse_xml

MAX_REASON = 200
# The IDS checker's reader (xmlschema) takes about 1 ms per kilobyte; no real IDS comes near this.
MAX_CHECKED_BYTES = 2 * 1024 * 1024


class BoundedRestriction(Restriction):
    """An ifctester restriction whose patterns are matched with bounded regexes, ORed."""

    def __eq__(self, other):
        patterns = self.options.get("pattern")
        if patterns is not None:
            if not isinstance(other, str) or not matches_any(_as_list(patterns), other):
                return False
        others = {k: v for k, v in self.options.items() if k != "pattern"}
        return Restriction(others, self.base).__eq__(other)

    __hash__ = None


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]


@dataclass(frozen=True)
class Unchecked:
    """Why a document cannot be checked (it then scores 0)."""

    reason: str


def _short(exc: BaseException) -> str:
    detail = getattr(getattr(exc, "xml_error", None), "reason", None) or exc  # ifctester wraps xmlschema's
    text = f"{type(exc).__name__}: {detail}".replace("\n", " ")
    return text if len(text) <= MAX_REASON else text[:MAX_REASON] + "…"


def facets(document: ifctester_ids.Ids) -> Iterable:
    for spec in document.specifications:
        yield from spec.applicability
        yield from spec.requirements


def _bound_patterns(document: ifctester_ids.Ids) -> str | None:
    """Swap every restriction for a bounded one; the reason if a pattern is no regex at all."""
    for facet in facets(document):
        for name in facet.parameters:
            name = name.lstrip("@")
            value = getattr(facet, name, None)
            if not isinstance(value, Restriction):
                continue
            for pattern in _as_list(value.options.get("pattern", [])):
                if not isinstance(pattern, str) or matcher(pattern) is None:
                    return f"xs:pattern {str(pattern)[:60]!r} is not a regular expression ({python_pattern(str(pattern))[1]})"
            setattr(facet, name, BoundedRestriction(dict(value.options), value.base))
    return None


def load_ids(text: str) -> ifctester_ids.Ids | Unchecked:
    """An ifctester document ready to check models, or why not."""
    parsed = parse_xml(text)
    if not parsed.ok:
        return Unchecked(f"unparsable: {parsed.error}")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CHECKED_BYTES:
        return Unchecked(f"larger than {MAX_CHECKED_BYTES} bytes, the limit of the behavioural check")
    try:
        document = ifctester_ids.from_string(text)
    except Exception as exc:  # noqa: BLE001 - the checker's reader raises many kinds on bad input
        return Unchecked(f"the IDS checker cannot read it: {_short(exc)}")
    if not document.specifications:
        return Unchecked("no specification")
    problem = _bound_patterns(document)
    return Unchecked(problem) if problem else document


@dataclass(frozen=True)
class Outcome:
    """What one document says about one model."""

    rejected: frozenset[int]  # step ids of the elements some specification rejects
    model_rejected: bool  # some specification fails on the model as a whole
    failures: frozenset[tuple[int, int, int]]  # (specification, requirement facet, element step id)
    applicable: frozenset[tuple[int, int]]  # (specification, element step id)


def check(document: ifctester_ids.Ids, model: ifcopenshell.file) -> Outcome | Unchecked:
    """Check one model; specifications whose ifcVersion excludes the model's schema are skipped."""
    try:
        document.validate(model, should_filter_version=True)
    except Exception as exc:  # noqa: BLE001 - a checker failure on this document is its verdict
        return Unchecked(f"the IDS checker failed on it: {_short(exc)}")
    rejected, failures, applicable, model_rejected = set(), set(), set(), False
    for s, spec in enumerate(document.specifications):
        if not spec.is_ifc_version:
            continue
        model_rejected = model_rejected or spec.status is False
        rejected.update(e.id() for e in spec.failed_entities)
        applicable.update((s, e.id()) for e in spec.applicable_entities)
        if spec.maxOccurs == 0:
            rejected.update(e.id() for e in spec.applicable_entities)
        for f, facet in enumerate(spec.requirements):
            failures.update((s, f, failure["element"].id()) for failure in facet.failures)
    return Outcome(frozenset(rejected), model_rejected, frozenset(failures), frozenset(applicable))
