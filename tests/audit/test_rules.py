"""The rules registry: every code has a meaning, a level and the checks that raise it; every example
raises its code and its near-identical twin does not; the checks named are exactly the functions that
report each code."""
import ast
import inspect
import sys

import pytest

import idsbench.audit.facets
import idsbench.audit.spec
import idsbench.audit.xs
from idsbench.audit import audit
from idsbench.audit.cli import configure_parser, run
from idsbench.audit.result import LEVELS
from idsbench.audit.rules import CHECK_WORDS, RULES, UNCODED, check_words, explain, labelled, meaning

CHECK_MODULES = (sys.modules["idsbench.audit"], idsbench.audit.facets, idsbench.audit.spec, idsbench.audit.xs)
ALL_RULES = {**RULES, **UNCODED}
WITH_EXAMPLES = sorted((k for k, r in ALL_RULES.items() if r.failing), key=str)
# A twin that is not Ok: outside the IDS namespace the XSD only warns (307, 501), and the big document
# is not audited at all (503).
TWIN_NOT_OK = {307, 501, 503}


def _reported_keys(node: ast.AST):
    """Codes (or uncoded names) a function passes to `ctx.report(...)`, read from its source."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "report":
            first = call.args[0]
            values = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            yield from (v.value for v in values if isinstance(v, ast.Constant))


def reporters() -> dict:
    """{code or name: {dotted function names}} of every report call in the audit."""
    found: dict = {}
    for module in CHECK_MODULES:
        tree = ast.parse(inspect.getsource(module))
        for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            for key in _reported_keys(function):
                found.setdefault(key, set()).add(f"{module.__name__}.{function.name}")
    return found


def test_every_rule_is_complete_data():
    for key, rule in ALL_RULES.items():
        assert rule.level in LEVELS and rule.meaning and rule.template, key
        assert (rule.failing is None) == (rule.passing is None) and (rule.failing is not None or rule.note), key
    assert all(isinstance(code, int) and rule.code == code for code, rule in RULES.items())
    assert all(rule.code is None for rule in UNCODED.values())


def test_the_checks_named_are_exactly_the_reporters():
    found = reporters()
    assert set(found) == {k for k, r in ALL_RULES.items() if r.checks}
    for key, functions in found.items():
        assert set(ALL_RULES[key].checks) == functions, key


@pytest.mark.parametrize("key", WITH_EXAMPLES, ids=str)
def test_example_raises_its_rule_and_its_twin_does_not(key):
    rule = ALL_RULES[key]
    failing, passing = audit(rule.failing()), audit(rule.passing())
    template_start = rule.template.split("{")[0]
    assert any(f.code == rule.code and f.message.startswith(template_start) for f in failing.findings), failing
    assert not any(f.code == rule.code and f.message.startswith(template_start) for f in passing.findings)
    if key not in TWIN_NOT_OK:
        assert passing.status == 0, passing.findings


def test_meanings_are_shown_with_codes():
    assert meaning(103) == RULES[103].meaning and labelled(103).startswith("103 (a value outside")
    assert meaning(999) == "unknown code" and meaning(None) == "unknown code"


@pytest.mark.parametrize("code", sorted(RULES))
def test_explain_names_meaning_checks_and_example(code):
    text = explain(code)
    assert text.startswith(f"{code}: {RULES[code].meaning}")
    assert all(f"  - {check_words(check)}\n" in text for check in RULES[code].checks)
    assert "idsbench." not in text and "_audit" not in text and "IDS_CONTENT_ERROR" not in text  # words, not code
    assert ("raises it:" in text) == (RULES[code].failing is not None)


def test_every_check_has_words():
    named = {check for rule in ALL_RULES.values() for check in rule.checks}
    assert {f"idsbench.audit.{name}" for name in CHECK_WORDS} == named  # none missing, none left over


def test_audit_explain_command(capsys):
    import argparse

    parser = configure_parser(argparse.ArgumentParser())
    assert run(parser.parse_args(["--explain", "401"])) == 0
    assert capsys.readouterr().out.startswith("401: a property set named with the reserved Pset_ prefix")
    with pytest.raises(SystemExit):
        parser.parse_args(["--explain", "999"])
    assert "unknown code '999'" in capsys.readouterr().err
