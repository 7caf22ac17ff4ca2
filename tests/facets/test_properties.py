"""Property-based tests (hypothesis): invariants of extraction, parsing and the facet scorer."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from idsbench.extract import extract_candidate
from idsbench.facets.counts import score_documents
from idsbench.synthetic.documents import attribute, entity, ids, prop, spec
from idsbench.xmlparse import parse_xml

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.sampled_from(["IFCWALL", "IFCDOOR", "IFCSLAB", "IFCBEAM", "IFCSPACE"])
words = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh0123456789_ 防火", min_size=1, max_size=12).map(str.strip).filter(bool)
facets = st.one_of(
    st.builds(prop, st.sampled_from(["Pset_WallCommon", "Pset_DoorCommon", "ACME_Custom"]), words,
              st.none() | words, st.sampled_from(["IFCLABEL", "IFCBOOLEAN", None]),
              st.sampled_from(["required", "optional", "prohibited"])),
    st.builds(attribute, st.sampled_from(["Name", "Description", "Tag"]), st.none() | words),
)
specs = st.builds(lambda e, reqs, v: (e, reqs, v), names, st.lists(facets, max_size=5),
                  st.sampled_from(["IFC4", "IFC2X3", "IFC4X3_ADD2", "IFC2X3 IFC4"]))
documents = st.lists(specs, max_size=6)


# Specs told apart by their entity: with equal core blocks the pairing tie-break (document order)
# legitimately depends on the order of the specifications.
distinct_documents = st.lists(specs, max_size=5, unique_by=lambda s: s[0])


def render(doc, facet_seed=None, spec_seed=None):
    parts = []
    for name, reqs, version in doc:
        reqs = list(reqs)
        if facet_seed is not None:
            random.Random(facet_seed).shuffle(reqs)
        parts.append(spec([entity(name)], reqs, version=version))
    if spec_seed is not None:
        random.Random(spec_seed).shuffle(parts)
    return ids(*parts)


@FAST
@given(st.text(max_size=400))
def test_extraction_and_scoring_never_raise_on_any_text(raw):
    result = score_documents(extract_candidate(raw), ids())
    assert 0.0 <= result.f1 <= 1.0


@FAST
@given(st.binary(max_size=300))
def test_parsing_never_raises_on_any_bytes(data):
    parsed = parse_xml(data)
    assert parsed.ok != (parsed.error is not None)


@FAST
@given(documents)
def test_gold_against_itself_is_perfect(doc):
    gold = render(doc)
    result = score_documents(gold, gold)
    assert result.matched == result.pred_total == result.gold_total
    assert result.f1 == (1.0 if result.gold_total else 0.0)


@FAST
@given(documents, st.integers(0, 10_000))
def test_reordering_facets_changes_nothing(doc, seed):
    gold = render(doc)
    plain, shuffled = score_documents(gold, gold), score_documents(render(doc, facet_seed=seed), gold)
    assert (shuffled.matched, shuffled.pred_total, shuffled.gold_total) == (plain.matched, plain.pred_total, plain.gold_total)


@FAST
@given(distinct_documents, st.integers(0, 10_000))
def test_reordering_distinct_specs_changes_nothing(doc, seed):
    gold = render(doc)
    plain, shuffled = score_documents(gold, gold), score_documents(render(doc, seed, seed), gold)
    assert (shuffled.matched, shuffled.pred_total, shuffled.gold_total) == (plain.matched, plain.pred_total, plain.gold_total)


@FAST
@given(documents, documents)
def test_scores_are_bounded_and_whitespace_insensitive(pred_doc, gold_doc):
    pred, gold = render(pred_doc), render(gold_doc)
    spaced = pred.replace("<simpleValue>", "<simpleValue>\n  ").replace("</simpleValue>", " \t</simpleValue>")
    a, b = score_documents(pred, gold), score_documents(spaced, gold)
    assert 0.0 <= a.precision <= 1.0 and 0.0 <= a.recall <= 1.0 and 0.0 <= a.f1 <= 1.0
    assert (a.matched, a.pred_total, a.gold_total) == (b.matched, b.pred_total, b.gold_total)
    assert a.matched <= min(a.pred_total, a.gold_total)
