"""Fuzzing (hypothesis) over extraction, parsing, audit and scoring on the real gold files, and the
checks that every fast path gives what the straightforward path gives (gold + synthetic corpus).

tests/facets/test_properties.py covers Stage 2 invariants on generated documents; this file works from
the real golds and their mutations. `python -m benchmarks.fuzz` runs the same properties for longer.
"""
import json
import random
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from idsbench.audit import xsd
from idsbench.audit import audit
from idsbench.xmlparse import attribute_items
from idsbench.audit.values import VALUE_SYNTAX
from idsbench.extract import extract_candidate, extract_candidate_reference
from idsbench.facets.blocks import _keyed_form, canonical, element_form
from idsbench.facets.counts import score_documents
from idsbench.pipeline import evaluate_one
from idsbench.pipeline import make_auditor
from idsbench.records import load_references
from idsbench.synthetic.mutations import OPERATIONS, mutate_many
from idsbench.xmlparse import Candidate, parse_xml
from idsbench.facets.counts import score_parsed
from idsbench.synthetic.documents import entity, ids, spec
from tests.support.corpus import small_corpus

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REFERENCES = load_references()
GOLDS = [r.gold for r in REFERENCES]
AUDITOR = make_auditor("ids-tool-1.0.96")
# 503s that are verdicts by design (limits), not internal errors masked by audit()'s safety net
DESIGNED_503 = ("document larger than", "more than 200000", "RegexBudgetExceeded")


@lru_cache(maxsize=1)
def corpus() -> list[str]:
    """Every gold, and every synthetic variant of one gold in seven (raw, before extraction)."""
    return [raw for raw, _ in small_corpus(GOLDS, every=7)]


def internal_errors(result) -> list[str]:
    return [f.message for f in result.findings if f.code == 503 and not any(d in f.message for d in DESIGNED_503)]


def _gold_index():
    return st.integers(0, len(GOLDS) - 1)


steps = st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 10**6), st.integers(0, 10**6)),
                 min_size=1, max_size=4)


# -- the real golds ----------------------------------------------------------------------------
def test_every_gold_scores_one_against_itself():
    for gold in GOLDS:
        result = score_documents(extract_candidate(gold), gold)
        assert result.f1 == 1.0 and result.error is None


@FUZZ
@given(_gold_index(), steps)
def test_mutated_golds_never_raise_and_stay_bounded(index, mutations):
    raw = mutate_many(GOLDS[index], mutations)
    result = evaluate_one(raw, REFERENCES[index], AUDITOR)
    assert 0.0 <= result.facets.precision <= 1.0 and 0.0 <= result.facets.recall <= 1.0
    assert 0.0 <= result.facets.f1 <= 1.0 and result.verdict in {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)}
    assert not internal_errors(audit(raw, "ids-tool-latest")) and not internal_errors(audit(raw))


def _shuffled_facets(gold: str, seed: int) -> str:
    root = etree.fromstring(gold.encode())
    rng = random.Random(seed)
    for section in root.iter("{*}applicability", "{*}requirements"):
        facets = list(section)
        rng.shuffle(facets)
        section[:] = facets
    return etree.tostring(root, encoding="unicode")


@FUZZ
@given(_gold_index(), st.integers(0, 10**6))
def test_scores_invariant_under_facet_reordering(index, seed):
    gold = GOLDS[index]
    assert score_documents(_shuffled_facets(gold, seed), gold).f1 == 1.0


@FUZZ
@given(_gold_index(), st.sampled_from(["minified", "reindented", "crlf", "spaced"]))
def test_scores_invariant_under_whitespace(index, style):
    gold = GOLDS[index]
    variants = {
        "minified": re.sub(r">\s+<", "><", gold),
        "reindented": re.sub(r">\s*<", ">\n\t\t  <", gold),
        "crlf": gold.replace("\n", "\r\n"),
        "spaced": re.sub(r"<simpleValue>([^<]*)</simpleValue>", r"<simpleValue>  \1\n</simpleValue>", gold),
    }
    result = score_documents(variants[style], gold)
    assert (result.matched, result.pred_total, result.gold_total) == (result.gold_total,) * 3


@FUZZ
@given(_gold_index(), st.lists(st.integers(0, 10**6), min_size=1, max_size=5))
def test_audit_status_and_scores_stable_under_comments_between_elements(index, picks):
    gold = GOLDS[index]
    gaps = [m.start() + 1 for m in re.finditer(r">\s*<", gold)][1:]  # after the XML declaration
    text = gold
    for at in sorted({gaps[p % len(gaps)] for p in picks}, reverse=True):
        text = text[:at] + "<!-- note -->" + text[at:]
    assert audit(text).status == audit(gold).status
    assert score_documents(text, gold).f1 == 1.0


@FUZZ
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_arbitrary_text_gets_a_verdict(raw):
    result = evaluate_one(raw, REFERENCES[0], AUDITOR)
    assert 0.0 <= result.facets.f1 <= 1.0
    assert not internal_errors(audit(raw.encode("utf-8", "surrogatepass")))


# -- fast paths equal the straightforward ones --------------------------------------------------
FRAGMENTS = ["`", "```", "ids", "IDS", "xMl", " ", "\n", "\t", "\u2028", "\x1c", "x", "<think>", "</THINK>",
             "<thinK>", "</think", "\u212a", "\u0130", "<", ">", "s", "<a/>"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=16).map("".join))
def test_linear_extraction_equals_the_spec_regexes(text):
    assert extract_candidate(text) == extract_candidate_reference(text)


_TOOL_DOUBLE = re.compile(r"^([-+]?[0-9]*\.?[0-9]*([eE][-+]?[0-9]+)?|NaN|\+INF|-INF)$")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789.eE+-NaINF x", max_size=12))
def test_linear_double_syntax_equals_the_tools_pattern(value):
    assert (VALUE_SYNTAX["xs:double"].search(value) is None) == (_TOOL_DOUBLE.search(value) is None)


def _candidates() -> list[str]:
    return [extract_candidate(text) for text in corpus()]


def test_bounded_parser_builds_elementtrees_tree_on_the_corpus():
    for text in _candidates():
        try:
            expected = ET.tostring(ET.fromstring(text.encode()))
        except ET.ParseError:
            expected = None
        parsed = parse_xml(text)
        assert (ET.tostring(parsed.root) if parsed.ok else None) == expected


def _json_dumps(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def test_assembled_canonical_text_equals_json_dumps_on_the_corpus():
    for text in _candidates():  # the root's text is assembled from every subtree's
        parsed = parse_xml(text)
        if parsed.ok:
            form, key = _keyed_form(parsed.root)
            assert key == _json_dumps(form) and form == element_form(parsed.root)


@FUZZ
@given(st.recursive(st.builds(lambda t, a: (t, a, []), st.sampled_from(["a", "b", "q:c"]),
                              st.dictionaries(st.sampled_from(["x", "y", "q:z"]), st.text(max_size=4), max_size=2)),
                    lambda kids: st.builds(lambda t, k: (t, {}, k), st.sampled_from(["a", "b"]), st.lists(kids, max_size=3)),
                    max_leaves=12),
       st.text(alphabet='ab "\\\n\u00e9<>&', max_size=6))
def test_assembled_canonical_text_equals_json_dumps_on_generated_trees(tree, text):
    def build(node, parent=None):
        tag, attrs, kids = node
        tag, attrs = tag.replace("q:", "{urn:q}"), {k.replace("q:", "{urn:q}"): v for k, v in attrs.items()}
        el = ET.Element(tag, attrs) if parent is None else ET.SubElement(parent, tag, attrs)
        el.text = text
        for kid in kids:
            build(kid, el)
        return el

    form, key = _keyed_form(build(tree))
    assert key == _json_dumps(form) == canonical(json.loads(key))


def _xml_roots() -> list[etree._Element]:
    roots = []
    for text in _candidates():
        try:
            roots.append(etree.fromstring(text.encode()))
        except etree.XMLSyntaxError:
            pass
    return [r for r in roots if etree.QName(r).namespace == xsd.IDS_NS]


# The fast XSD path against xmlschema: tests/audit/test_audit.py::test_fast_xsd_verdicts_equal_xmlschema, on
# the rules' examples, this corpus and their mutations.


def test_stdlib_copy_for_wide_trees_gives_the_same_issues():
    roots = _xml_roots()[::3]  # xmlschema is ~3 ms a document
    assert all(xsd.reference_issues(r, copy=True) == xsd.reference_issues(r, copy=False) for r in roots)


@pytest.mark.parametrize("count", [1, 64, 65, 2000])
def test_attribute_items_of_long_lists_equal_lxml_items(count):
    attrs = " ".join(f'a{i}="v&amp;{i}"' for i in range(count))
    el = etree.fromstring(f'<e xmlns:q="urn:q" q:z="1" {attrs}/>'.encode())
    assert attribute_items(el) == el.items()


# -- Stage 2 on the audit's libxml2 tree equals Stage 2 on ElementTree's ------------------------------
def _both_ways(text: str, gold: str):
    return score_parsed(Candidate(text).stage2(), gold), score_parsed(parse_xml(text), gold)


def test_shared_parse_gives_elementtrees_scores_on_the_corpus():
    for index, text in enumerate(_candidates()):
        shared, reference = _both_ways(text, GOLDS[index % len(GOLDS)])
        assert shared == reference, text[:200]


@FUZZ
@given(_gold_index(), steps)
def test_shared_parse_gives_elementtrees_scores_on_mutated_golds(index, mutations):
    text = extract_candidate(mutate_many(GOLDS[index], mutations))
    if text:
        shared, reference = _both_ways(text, GOLDS[index])
        assert shared == reference


SIMPLE = '<simpleValue>IFCWALL</simpleValue>'
EDGE_CASES = {  # where libxml2's tree and ElementTree's differ, or the two parsers might
    "comment in a value": SIMPLE.replace("IFC", "IF<!-- c -->C"),
    "comments around a value": SIMPLE.replace("IFCWALL", "<!--a-->IFC<!--b-->WALL<!--c-->"),
    "PI in a value": SIMPLE.replace("IFC", "IFC<?pi x?>"),
    "CDATA": SIMPLE.replace("IFCWALL", "<![CDATA[IFCWALL]]>"),
    "comment before the first child": '<!-- a -->' + SIMPLE,
    "comment in a restriction": '<xs:restriction base="xs:string"><!-- x --><xs:enumeration value="A"/>'
                                 '<!-- y --></xs:restriction>',
    "entity": SIMPLE.replace("IFCWALL", "&amp;IFC&#x57;ALL"),
    "non-ASCII text": SIMPLE.replace("IFCWALL", "壁"),
    "name outside XML 1.0 4th edition": SIMPLE.replace("simpleValue", "simpleValue\u0e00"),
    "spaces between two comments": SIMPLE.replace("IFCWALL", "IFC<!--a-->  <!--b-->WALL"),
    "spaces around a value": SIMPLE.replace("IFCWALL", "\n  IFCWALL \t"),
    "spaces between tags": "\n   " + SIMPLE + "\n  ",
}


def test_remembered_facets_give_elementtrees_scores():
    """Stage 2 remembers each facet's texts by its serialization: facets that differ only in whitespace
    (the same blocks) or in whitespace beside comments (other blocks) are scored as ElementTree's tree."""
    variants = [SIMPLE, "\n " + SIMPLE + "\n", SIMPLE.replace("IFCWALL", " IFCWALL "),
                SIMPLE.replace("IFCWALL", "IFC<!--a--> <!--b-->WALL"), SIMPLE.replace("IFCWALL", "IFC<!--a--><!--b-->WALL"),
                SIMPLE.replace("IFCWALL", "IFC <!--a-->WALL"), SIMPLE.replace("IFCWALL", "IFC&#32;&#32;WALL")]
    base = ids(spec(entity("IFCWALL")))
    facets = [base.split("<applicability", 1)[1].split("</applicability>")[0].split(">", 1)[1].replace(SIMPLE, v, 1)
              for v in variants]
    text = base.replace(facets[0], "".join(facets * 2), 1) if facets[0] in base else None
    assert text is not None and text.count("<entity") == 2 * len(variants)
    for gold in (base, text):
        assert _both_ways(text, gold)[0] == _both_ways(text, gold)[1]
        for variant in facets:
            single = base.replace(facets[0], variant, 1)
            assert _both_ways(single, gold)[0] == _both_ways(single, gold)[1]


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_shared_parse_gives_elementtrees_scores_on_edge_cases(name):
    gold = ids(spec(entity("IFCWALL")))
    text = gold.replace(SIMPLE, EDGE_CASES[name], 1)
    for document in (text, '<?xml version="1.0" encoding="ISO-8859-1"?>' + text.split("?>", 1)[1],
                     text.replace("<ids ", '<!DOCTYPE ids [<!ENTITY w "WALL">]><ids ', 1)):
        shared, reference = _both_ways(document, gold)
        assert shared == reference


def test_every_damaged_declaration_gets_the_verdict_of_its_written_file():
    """Each version and encoding the declaration mutation knows (standalone values cycling), on one gold:
    a verdict, never an exception, and the status the validator gives the UTF-8 file of the output."""
    from idsbench.synthetic.mutations import ENCODINGS, VERSIONS, mutate
    from idsbench.xmlparse import as_written

    reference = REFERENCES[3]
    for a in range(len(VERSIONS) * len(ENCODINGS)):
        raw = mutate(reference.gold, "declaration", a, a)
        result = evaluate_one(raw, reference, AUDITOR)
        written = audit(as_written(extract_candidate(raw)).encode("utf-8"))
        assert result.audit.status == written.status, (a, raw[:120])
        assert 0.0 <= result.facets.f1 <= 1.0
