"""xs:pattern handling: .NET validity (code 109), .NET matching semantics, work linear in the text."""
from __future__ import annotations

import random
import re
from re import _parser

import pytest

from idsbench.audit.values import pattern_matcher
from idsbench.regex import safe as safe_regex
from idsbench.regex.classes import preprocess
from idsbench.regex.dotnet import compile_dotnet

# pattern -> accepted by .NET's Regex after the tool's ^…$ wrapping
VALIDITY = {
    "IFC.*": True, "PIL-\\d{3}": True, "[Some": False, "(a": False, "a)": False,
    "^Ambienti|Servizi|Parti comuni${1}": True,  # Issue 08: a quantifier on `$` is accepted
    "*a": True,  # becomes `^*a$`: the quantifier applies to `^`
    "a**": False, "a{2}{3}": False, "a{3,2}": False, "a{,3}": True, "a*??": False,
    "\\p{L}+": True, "\\p{Lu}\\P{Nd}": True, "\\p{Foo}": False, "\\p{IsBasicLatin}+": True,
    "(?<n>a)\\k<n>": True, "(?'n'a)": True, "\\k<x>": False, "\\1": False, "(a)\\1": True,
    "[a-z-[aeiou]]": True, "[z-a]": False, "[]a]": True, "[^]": False, "\\q": False, "a\\": True,
    "(?i)abc": True, "(?z)": False, "\\x4": False, "\\x41": True, "\\u00e9": True, "\\cA": True,
    "[a-\\d]": False, "(?<=a)b": True, "(?#comment)a": True, "a|": True, "()": True,
}


@pytest.mark.parametrize("pattern,valid", VALIDITY.items())
def test_dotnet_validity(pattern, valid):
    assert (compile_dotnet(pattern).error is None) is valid


@pytest.mark.parametrize("pattern,text,matches", [
    ("IFC.*WALL", "IFCWALLSTANDARDCASE", False),
    ("IFC.*", "IFCWALLSTANDARDCASE", True),
    ("A|B", "AX", True), ("A|B", "XB", True), ("A|B", "XAX", False),  # ^A|B$: no group
    ("\\w+", "PsetWallCommon", True), ("\\w+", "Pset_WallCommon", False),  # XSD \w excludes `_`
    ("\\d{3}", "123", True), ("[a-z-[aeiou]]+", "bcd", True), ("[a-z-[aeiou]]+", "bad", False),
    ("\\p{Lu}+", "IFCWALL", True), ("\\i\\c*", "IFCWALL", True),
])
def test_dotnet_matching_semantics(pattern, text, matches):
    assert pattern_matcher(pattern)(text) is matches


def test_preprocess_wraps_without_group():
    assert preprocess("A|B") == "^A|B$"
    assert preprocess("\\d\\\\d") == "^\\p{_xmlD}\\\\d$"


def _units(predicate, text: str) -> int:
    """The matching work of one search, in the budget's units (the automaton's states visited)."""
    with safe_regex.metered(object()) as meter:
        predicate(text)
    return meter.used


@pytest.mark.parametrize("pattern", ["(a+)+$", "(.*)*X", ".*" * 40 + "X", "(a|a)*b", "(x?){30}x{30}"])
@pytest.mark.parametrize("letter", ["a", "x"])
def test_catastrophic_patterns_take_work_linear_in_the_text(pattern, letter):
    predicate = pattern_matcher(pattern)
    work = [_units(predicate, letter * n + "!") for n in (30, 60, 120)]
    assert work[0] > 0  # matched by the automaton, not by the backtracking engine
    assert work[1] <= 2.1 * work[0] and work[2] <= 2.1 * work[1], work  # doubling the text doubles the work


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(["a", "b", ".", "[ab]", "[^a]", "a?", "^", "$", "\\b"])
    if roll < 0.5:
        return _random_pattern(rng, depth + 1) + _random_pattern(rng, depth + 1)
    if roll < 0.65:
        return f"(?:{_random_pattern(rng, depth + 1)}|{_random_pattern(rng, depth + 1)})"
    if roll < 0.8:
        return f"(?:{_random_pattern(rng, depth + 1)}){rng.choice(['*', '+', '?', '{1,3}', '{2}', '*?'])}"
    return f"({_random_pattern(rng, depth + 1)})"


def test_nfa_agrees_with_re():
    rng = random.Random(7)
    for _ in range(800):
        pattern = _random_pattern(rng)
        try:
            compiled = re.compile(pattern, re.DOTALL)
        except re.error:
            continue
        nfa = safe_regex._nfa_matcher(list(_parser.parse(pattern, re.DOTALL)), re.DOTALL)
        for _ in range(4):
            text = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 6)))
            assert nfa(text) == (compiled.search(text) is not None), (pattern, text)
