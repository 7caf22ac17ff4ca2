"""IDS parameter values: string matchers (simpleValue / xs:restriction), value syntax (305)
and the checks of the `xs:` nodes themselves (303, 304, 305, 308, 109).

The matcher semantics follow the audit tool 1.0.96 (docs/audit.md §4): a name is matched case-sensitively; inside a restriction the enumerations
are OR-ed, the patterns are OR-ed, `length` filters, and these groups are AND-ed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from idsbench.regex.dotnet import compile_dotnet
from idsbench.regex.safe import charge, charge_compile, compile_search, metered

from .tree import Node

MATCHER_NAMES = ("simpleValue", "restriction", "enumeration", "pattern", "length", "totalDigits")

# XsRestriction.GetBaseFrom: the only spellings the tool maps (note `xs:anyUri`).
BASE_TYPES = {
    "xs:string": "XsString", "xs:boolean": "XsBoolean", "xs:integer": "XsInteger",
    "xs:double": "XsDouble", "xs:float": "XsFloat", "xs:decimal": "XsDecimal",
    "xs:duration": "XsDuration", "xs:dateTime": "XsDateTime", "xs:date": "XsDate",
    "xs:anyUri": "XsAnyUri",
}
_NUMERIC_CHILDREN = ("annotation", "pattern", "enumeration", "whiteSpace",
                     "minInclusive", "maxInclusive", "minExclusive", "maxExclusive")
ALLOWED_CHILDREN = {
    "XsString": ("annotation", "pattern", "enumeration", "whiteSpace", "minLength", "maxLength", "length"),
    "XsBoolean": ("annotation", "pattern", "whiteSpace"),
    "XsInteger": _NUMERIC_CHILDREN + ("totalDigits", "fractionDigits"),
    "XsDecimal": _NUMERIC_CHILDREN + ("totalDigits", "fractionDigits"),
    "XsDouble": _NUMERIC_CHILDREN, "XsFloat": _NUMERIC_CHILDREN, "XsDuration": _NUMERIC_CHILDREN,
    "XsDateTime": _NUMERIC_CHILDREN, "XsDate": _NUMERIC_CHILDREN, "XsTime": _NUMERIC_CHILDREN,
}
# The tool's `[0-9]*\.?[0-9]*` written as `[0-9]*(\.[0-9]*)?`: the same language, but a long
# near-miss ("111…1x") no longer backtracks quadratically between the two digit runs.
_DOUBLE = r"^([-+]?[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?|NaN|\+INF|-INF)$"
_ZONE = r"(Z|([+-]\d{2}:\d{2}))?"
# XsTypes.g.cs: lexical checks of values per XSD base type ("" = unchecked).
VALUE_SYNTAX = {
    "xs:boolean": re.compile(r"^(true|false|0|1)$"),
    "xs:integer": re.compile(r"^[+-]?(\d+)$"),
    "xs:double": re.compile(_DOUBLE), "xs:float": re.compile(_DOUBLE), "xs:decimal": re.compile(_DOUBLE),
    "xs:date": re.compile(r"^\d{4}-\d{2}-\d{2}" + _ZONE + "$"),
    "xs:dateTime": re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?" + _ZONE + "$"),
    "xs:time": re.compile(r"^\d{2}:\d{2}:\d{2}(\.\d+)?" + _ZONE + "$"),
    "xs:duration": re.compile(r"^[-+]?P(\d+Y)?(\d+M)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$"),
    "xs:anyUri": re.compile(r"^\S+$"), "xs:anyURI": re.compile(r"^\S+$"),
}


@dataclass(frozen=True)
class MatchProblem:
    """Why a matcher failed: reported by the caller with code `code` at `node`."""

    code: int  # 103, 302 or 303
    node: Node
    value: str


def list_matcher(param: Node | None) -> Node | None:
    """GetListMatcher: the first child that can match strings."""
    if param is None:
        return None
    for child in param.children:
        if child.name in MATCHER_NAMES:
            return child
    return None


def value_is_valid(value: str, xsd_type: str) -> bool:
    syntax = VALUE_SYNTAX.get(xsd_type)
    return syntax is None or syntax.search(value) is not None


def pattern_matcher(pattern: str):
    """A bounded-time predicate for an xs:pattern with the tool's .NET semantics, or None
    when .NET rejects the pattern (an untranslatable valid pattern matches nothing)."""
    compiled = compile_dotnet(pattern)
    if compiled.error is not None:
        return None
    search = compile_search(compiled.python) if compiled.python is not None else None
    return search if search is not None else (lambda _text: False)


def _restriction_groups(restriction: Node) -> tuple[list[str], list[str], list[str], bool]:
    enums = [c.attrs.get("value", "") for c in restriction.children if c.name == "enumeration"]
    patterns = [c.attrs.get("value", "") for c in restriction.children if c.name == "pattern"]
    lengths = [c.attrs.get("value", "") for c in restriction.children if c.name == "length"]
    digits = any(c.name == "totalDigits" for c in restriction.children)
    return enums, patterns, lengths, digits


_CANDIDATE_SETS: dict[int, tuple[Sequence[str], frozenset[str]]] = {}
_PATTERN_HITS: dict[tuple[str, int], tuple[Sequence[str], list[str], int]] = {}
_CACHE_LIMIT = 4096


def _candidate_set(candidates: Sequence[str]) -> frozenset[str]:
    """Set view of a candidate list; cached for the long-lived vocabulary tuples."""
    if not isinstance(candidates, tuple) or len(candidates) < 32:
        return frozenset(candidates)
    hit = _CANDIDATE_SETS.get(id(candidates))
    if hit is None or hit[0] is not candidates:
        hit = (candidates, frozenset(candidates))
        if len(_CANDIDATE_SETS) >= _CACHE_LIMIT:
            _CANDIDATE_SETS.clear()
        _CANDIDATE_SETS[id(candidates)] = hit
    return hit[1]


def _pattern_hits(pattern: str, candidates: Sequence[str]) -> list[str]:
    """Candidates a pattern matches; cached per (pattern, vocabulary tuple), with its matching
    work, which is charged to the document's budget whether cached or not (regex/safe.py)."""
    cached = isinstance(candidates, tuple)
    key = (pattern, id(candidates)) if cached else (pattern, tuple(candidates))
    hit = _PATTERN_HITS.get(key) if cached else None
    charge_compile(pattern)
    if hit is not None and hit[0] is candidates:
        charge(key, hit[2])
        return hit[1]
    with metered(key) as meter:
        predicate = pattern_matcher(pattern)
        found = [c for c in candidates if predicate(c)] if predicate is not None else []
    if cached:
        if len(_PATTERN_HITS) >= _CACHE_LIMIT:
            _PATTERN_HITS.clear()
        _PATTERN_HITS[key] = (candidates, found, meter.used)
    return found


def _length_value(text: str) -> int | None:
    """The number in a `length` value; None when there is none (int() refuses some
    isdigit() characters such as '²', and digit strings beyond 4300 characters)."""
    if not text.strip().isdigit():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _length_ok(candidate: str, lengths: Iterable[str]) -> bool:
    return all(len(candidate) == _length_value(text) for text in lengths)


def _filter_restriction(restriction: Node, candidates: Sequence[str]) -> tuple[list[str] | None, bool]:
    """(matches, has_groups); matches is None when the restriction has no matching group."""
    enums, patterns, lengths, _ = _restriction_groups(restriction)
    if not (enums or patterns or lengths):
        return None, False
    matched = list(candidates)
    if enums:
        allowed = set(enums)
        matched = [c for c in matched if c in allowed]
    if patterns:
        hits = set().union(*(_pattern_hits(p, candidates) for p in patterns))
        matched = [c for c in matched if c in hits]
    if lengths:
        matched = [c for c in matched if _length_ok(c, lengths)]
    return matched, True


def _restriction_matches(node: Node, candidates: Sequence[str]) -> tuple[list[str], list[MatchProblem]]:
    base = node.attrs.get("base", "")
    if base.strip() and base != "xs:string":
        return [], [MatchProblem(303, node, base)]
    problems = []
    if _restriction_groups(node)[3]:
        problems.append(MatchProblem(302, node, "use `length` instead"))
    matched, has_groups = _filter_restriction(node, candidates)
    if not has_groups:
        return [], problems
    if not matched:
        enums, patterns, _, _ = _restriction_groups(node)
        label = "Enumeration options" if enums else "Pattern options" if patterns else "Length options"
        problems.append(MatchProblem(103, node, label))
    return matched or [], problems


def _leaf_matches(node: Node, candidates: Sequence[str]) -> list[str]:
    if node.name in ("simpleValue", "enumeration"):
        value = node.content if node.name == "simpleValue" else node.attrs.get("value", "")
        return [value] if value in _candidate_set(candidates) else []
    value = node.attrs.get("value", "")
    if node.name == "pattern":
        return _pattern_hits(value, candidates)
    return [c for c in candidates if _length_ok(c, [value])]  # length


def matcher_text(node: Node) -> str:
    if node.name == "simpleValue":
        return node.content
    if node.name == "restriction":
        return ",".join(discrete_values(node))
    return node.attrs.get("value", "")


def does_match(node: Node, candidates: Sequence[str]) -> tuple[list[str], list[MatchProblem]]:
    """IStringListMatcher.DoesMatch: the matching candidates and the problems to report."""
    if node.name == "restriction":
        return _restriction_matches(node, candidates)
    if node.name == "totalDigits":
        return [], [MatchProblem(302, node, "use `length` instead")]
    matches = _leaf_matches(node, candidates)
    return matches, ([] if matches else [MatchProblem(103, node, matcher_text(node))])


def try_match(node: Node, candidates: Sequence[str]) -> list[str]:
    """IStringListMatcher.TryMatch: matching candidates, nothing reported."""
    matches, problems = does_match(node, candidates)
    return [] if any(p.code == 303 for p in problems) else matches


def discrete_values(node: Node) -> list[str]:
    """IFiniteStringMatcher values: simpleValue text and enumeration values."""
    if node.name == "simpleValue":
        return [node.content]
    if node.name == "enumeration":
        return [node.attrs.get("value", "")]
    if node.name == "restriction":
        return [c.attrs.get("value", "") for c in node.children if c.name == "enumeration"]
    return []


def matches_prefix(node: Node, prefix: str) -> bool:
    """IStringPrefixMatcher: literal values only, patterns are not inspected."""
    return any(v.startswith(prefix) for v in discrete_values(node))


def is_null_or_empty(value: Node | None) -> bool:
    """IdsSimpleValue.IsNullOrEmpty: no value, an empty simpleValue, or a string restriction
    that accepts the empty string."""
    if value is None or not value.children:
        return True
    first = value.children[0]
    if first.name == "simpleValue":
        return first.content == ""
    if first.name == "restriction" and first.attrs.get("base", "") in ("", "xs:string"):
        matched, has_groups = _filter_restriction(first, [""])
        return bool(has_groups and matched)
    return False
