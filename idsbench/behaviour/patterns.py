"""`xs:pattern` values: bounded matching, and strings that match or miss a pattern.

ifctester translates each pattern with elementpath and runs Python's backtracking `re` on it; it
raises on patterns that are not XSD regular expressions (the published prompt's any-set pattern
`^(?!(Pset_|Qto_)).+` uses a lookahead, which XSD lacks) and ANDs several patterns (IDS ORs them).
At this boundary we match instead with:

- XSD semantics (elementpath's translation, whole-value match) for every XSD regular expression;
- the audit's .NET semantics (how the published validator compiles patterns) for the others;
- in both cases through the project's bounded matcher, since predictions are untrusted.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from re import _constants as C  # noqa: N812 - the stdlib's own names
from re import _parser

from elementpath.regex import translate_pattern

from .project import compile_dotnet, compile_search

Matcher = Callable[[str], bool]
_XSD_ANCHORS = ("^(?:", ")$(?!\\n\\Z)")


@lru_cache(maxsize=4096)
def python_pattern(pattern: str) -> tuple[str | None, str]:
    """(a Python pattern for a whole-value match, which semantics) or (None, why not)."""
    try:
        text = translate_pattern(pattern, back_references=False, lazy_quantifiers=False, anchors=False)
    except Exception:  # noqa: BLE001 - elementpath raises several kinds on a non-XSD pattern
        text = None
    if text is not None:
        if text.startswith(_XSD_ANCHORS[0]) and text.endswith(_XSD_ANCHORS[1]):
            text = text[len(_XSD_ANCHORS[0]):-len(_XSD_ANCHORS[1])]
        return "\\A(?:" + text + ")\\Z", "xsd"
    dotnet = compile_dotnet(pattern)
    if dotnet.error is None and dotnet.python is not None:
        return dotnet.python, "dotnet"
    return None, dotnet.error or "pattern cannot be translated"


@lru_cache(maxsize=4096)
def matcher(pattern: str) -> Matcher | None:
    """A bounded-time whole-value predicate for one `xs:pattern`, None if it is no regex at all."""
    python, _ = python_pattern(pattern)
    if python is None:
        return None
    return compile_search(python)


def matches_any(patterns: Sequence[str], text: str) -> bool:
    """IDS semantics: several patterns are alternatives. A pattern that is no regex matches nothing."""
    for pattern in patterns:
        match = matcher(pattern)
        if match is not None and match(text):
            return True
    return False


# -- strings that match --------------------------------------------------------------------------
_CLASS_PREFERENCE = "1aA0bB_-x"


def _class_char(items, negate: bool) -> str:
    """The first character a character class accepts, preferring digits and letters."""
    probe = re.compile("[" + ("^" if negate else "") + _items_source(items) + "]")
    for char in _CLASS_PREFERENCE + "".join(chr(c) for c in range(33, 127)):
        if probe.fullmatch(char):
            return char
    for op, av in items:
        if op is C.LITERAL:
            return chr(av)
        if op is C.RANGE:
            return chr(av[0])
    return "a"


def _items_source(items) -> str:
    parts = []
    for op, av in items:
        if op is C.LITERAL:
            parts.append(re.escape(chr(av)))
        elif op is C.RANGE:
            parts.append(re.escape(chr(av[0])) + "-" + re.escape(chr(av[1])))
        elif op is C.CATEGORY:
            parts.append({C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
                          C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w",
                          C.CATEGORY_NOT_WORD: r"\W"}.get(av, ""))
    return "".join(parts) or "a"


def _emit(seq, choose: dict[int, int], counter: list[int], groups: dict[int, str]) -> str:
    out = []
    for op, av in seq:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is C.ANY:
            out.append("a")
        elif op is C.IN:
            negate = bool(av) and av[0][0] is C.NEGATE
            out.append(_class_char(av[1:] if negate else av, negate))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, _, sub = av
            out.append(_emit(sub, choose, counter, groups) * low)
        elif op is C.SUBPATTERN:
            text = _emit(av[-1], choose, counter, groups)
            if av[0] is not None:
                groups[av[0]] = text
            out.append(text)
        elif op is C.BRANCH:
            index = counter[0]
            counter[0] += 1
            alternatives = av[1]
            out.append(_emit(alternatives[choose.get(index, 0) % len(alternatives)], choose, counter, groups))
        elif op is C.GROUPREF:
            out.append(groups.get(av, ""))
        # anchors and lookarounds emit nothing
    return "".join(out)


def _first_branch_width(seq) -> int:
    for op, av in seq:
        if op is C.BRANCH:
            return len(av[1])
        if op is C.SUBPATTERN:
            width = _first_branch_width(av[-1])
            if width:
                return width
    return 0


def matching_strings(pattern: str, preferred: Sequence[str] = (), limit: int = 4) -> list[str]:
    """Strings the pattern matches: a preferred one if any matches, then the shortest form, then
    one per alternative of its first alternation (each verified with the bounded matcher)."""
    match = matcher(pattern)
    if match is None:
        return []
    found = [p for p in preferred if match(p)][:1]
    python, _ = python_pattern(pattern)
    try:
        parsed = list(_parser.parse(python))
    except (re.error, RecursionError, OverflowError):
        parsed = None
    if parsed is not None:
        for branch in range(max(1, _first_branch_width(parsed))):
            text = _emit(parsed, {0: branch}, [0], {})
            if text and text not in found and match(text):
                found.append(text)
    return found[:limit]


def missing_string(pattern: str, near: str) -> str | None:
    """A non-empty string close to `near` that the pattern does not match."""
    match = matcher(pattern)
    if match is None:
        return None
    candidates = [near[:-1], near + "#", "#" + near, "Pset_" + near, "Qto_" + near, "#"]
    return next((c for c in candidates if c and not match(c)), None)
