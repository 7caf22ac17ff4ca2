"""Stage 2 (paper facet scorer), table-driven: (prediction, gold) -> (matched, pred_total, gold_total)."""
import itertools
import random

import pytest

from idsbench.extract import extract_candidate
from idsbench.facets.blocks import document_blocks
from idsbench.facets.counts import score_documents
from idsbench.facets.pairing import EXACT_LIMIT, exact_pairs, greedy_pairs
from idsbench.synthetic.documents import DOORS, WALLS, entity, enumeration, facet, ids, prop, restriction, spec
from idsbench.xmlparse import parse_xml

GOLD = ids(WALLS, DOORS)


def prop_with(value_xml):
    return prop("Pset_WallCommon", "FireRating", value_xml)


ENUM_GOLD = ids(spec([entity("IFCWALL")], [prop_with(enumeration("EI30", "EI60", "EI90"))]))
FILLER = spec([entity("IFCSLAB")], [prop("Pset_SlabCommon", "LoadBearing", "true", "IFCBOOLEAN")], name="filler")
WALL_OTHER_TYPE = spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60", "IFCTEXT"),
                                             prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")])
NO_NS = GOLD.replace('xmlns="http://standards.buildingsmart.org/IDS" ', "")

CASES = [
    # name, raw prediction, gold, (matched, pred_total, gold_total)
    ("gold vs gold", GOLD, GOLD, (8, 8, 8)),
    ("empty output", "", GOLD, (0, 0, 0)),
    ("whitespace only", "  \n\t", GOLD, (0, 0, 0)),
    ("not XML", "I cannot help with that.", GOLD, (0, 0, 0)),
    ("truncated XML", GOLD[:-40], GOLD, (0, 0, 0)),
    ("fenced ids", f"Here you go:\n```ids\n{GOLD}\n```\nAnything else?", GOLD, (8, 8, 8)),
    ("fenced XML upper tag", f"```XML\n{GOLD}```", GOLD, (8, 8, 8)),
    ("only first fence counts", f"```xml\n{ids(WALLS)}\n```\n```xml\n{GOLD}\n```", GOLD, (4, 4, 8)),
    ("fence tagged text keeps the word", f"```text\n{GOLD}\n```", GOLD, (0, 0, 0)),
    ("think removed", f"<think>draft ```xml\n<ids/>``` </think>\n```xml\n{GOLD}\n```", GOLD, (8, 8, 8)),
    ("think any case, multi-line", f"<THINK>a\nb</Think>{GOLD}", GOLD, (8, 8, 8)),
    ("reordered specs", ids(DOORS, WALLS), GOLD, (8, 8, 8)),
    ("reordered facets", ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN"),
                                                        prop("Pset_WallCommon", "FireRating", "EI60")], name="x"), DOORS),
     GOLD, (8, 8, 8)),
    ("reordered enumeration", ids(spec([entity("IFCWALL")], [prop_with(enumeration("EI90", "EI30", "EI60"))])),
     ENUM_GOLD, (3, 3, 3)),
    ("different enumeration", ids(spec([entity("IFCWALL")], [prop_with(enumeration("EI30", "EI60"))])),
     ENUM_GOLD, (2, 3, 3)),
    ("restriction attribute whitespace", ids(spec([entity("IFCWALL")], [prop_with(
        enumeration("EI30", "EI60", "EI90", base=" xs:string "))])), ENUM_GOLD, (3, 3, 3)),
    ("pattern vs enumeration", ids(spec([entity("IFCWALL")], [prop_with(restriction("xs:string", facet("pattern", "EI[0-9]+")))])),
     ENUM_GOLD, (2, 3, 3)),
    ("duplicated block", ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60"),
                                                        prop("Pset_WallCommon", "FireRating", "EI60"),
                                                        prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")]),
                             DOORS), GOLD, (8, 9, 8)),
    ("extra spec", ids(WALLS, DOORS, FILLER), GOLD, (8, 11, 8)),
    ("missing spec", ids(WALLS), GOLD, (4, 4, 8)),
    ("case and whitespace", ids(spec([entity(" ifcwall ")], [
        prop(" Pset_WallCommon ", "FireRating ", " EI60", " ifclabel ", " REQUIRED "),
        prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")], version=" ifc4 "), DOORS), GOLD, (8, 8, 8)),
    ("values are case-sensitive", ids(spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "ei60"),
                                                                  prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")]),
                                      DOORS), GOLD, (7, 8, 8)),
    ("ifcVersion block differs", ids(WALLS.replace('"IFC4"', '"IFC2X3"'), DOORS), GOLD, (7, 8, 8)),
    ("ifcVersion missing", ids(WALLS.replace(' ifcVersion="IFC4"', ""), DOORS), GOLD, (7, 7, 8)),
    ("dataType changes full, not core", ids(WALL_OTHER_TYPE, DOORS), GOLD, (7, 8, 8)),
    ("cardinality changes full, not core", ids(WALLS.replace('cardinality="required"', 'cardinality="optional"', 1), DOORS),
     GOLD, (7, 8, 8)),
    ("zero gold specs, some predicted", ids(WALLS), ids(), (0, 4, 0)),
    ("zero gold specs, none predicted", ids(), ids(), (0, 0, 0)),
    ("no namespace falls back to local names", NO_NS, GOLD, (8, 8, 8)),
    ("comment inside a value", GOLD.replace(">EI60<", ">EI<!-- split -->60<"), GOLD, (8, 8, 8)),
    ("CDATA is text", GOLD.replace(">EI60<", "><![CDATA[EI60]]><"), GOLD, (8, 8, 8)),
    ("internal entity expanded", GOLD.replace("<ids ", '<!DOCTYPE ids [<!ENTITY fr "FireRating">]><ids ', 1)
     .replace(">FireRating<", ">&fr;<"), GOLD, (8, 8, 8)),
    ("external entity never fetched", GOLD.replace("<ids ", '<!DOCTYPE ids [<!ENTITY x SYSTEM "file:///etc/passwd">]><ids ', 1)
     .replace(">EI60<", ">&x;<"), GOLD, (0, 0, 0)),
    ("broken gold", GOLD, GOLD[:50], (0, 0, 0)),
]


@pytest.mark.parametrize("name,raw,gold,expected", CASES, ids=[c[0] for c in CASES])
def test_counts(name, raw, gold, expected):
    result = score_documents(extract_candidate(raw), gold)
    assert (result.matched, result.pred_total, result.gold_total) == expected


@pytest.mark.parametrize("matched,pred,gold,p,r,f1", [
    (8, 8, 8, 1.0, 1.0, 1.0),
    (0, 0, 0, 0.0, 1.0, 0.0),   # recall is 1 when there is no gold block
    (0, 4, 0, 0.0, 1.0, 0.0),
    (4, 4, 8, 1.0, 0.5, 2 * 0.5 / 1.5),
    (0, 3, 3, 0.0, 0.0, 0.0),
])
def test_ratios(matched, pred, gold, p, r, f1):
    from idsbench.facets.counts import ratios
    assert ratios(matched, pred, gold) == (p, r, f1)


def test_failed_generation_scores_zero_and_records_the_reason():
    result = score_documents(extract_candidate("no xml here"), GOLD)
    assert (result.precision, result.recall, result.f1) == (0.0, 0.0, 0.0)
    assert result.error.startswith("prediction: not well-formed XML")


def _many(n, first, last):
    return ids(first, *[FILLER] * (n - 2), last)


def test_more_than_18_predicted_specs_is_greedy_and_prefers_the_later_spec():
    gold = ids(WALLS)
    exact = score_documents(_many(EXACT_LIMIT, WALLS, WALL_OTHER_TYPE), gold)
    greedy = score_documents(_many(EXACT_LIMIT + 1, WALLS, WALL_OTHER_TYPE), gold)
    assert exact.matched == 4   # exact: ties go to the earlier predicted spec
    assert greedy.matched == 3  # greedy: (w, i, j) descending takes the later one
    assert greedy.pred_total == 4 * (EXACT_LIMIT + 1) - (EXACT_LIMIT - 1)  # fillers have 3 full blocks


def _exhaustive(weights, n_pred):
    """The published scorer's search: gold specs in order, unpaired first, strict improvement."""
    best = (-1, None)
    options = [[None] + [j for j in range(n_pred) if row[j] > 0] for row in weights]
    for choice in itertools.product(*options):
        used = [j for j in choice if j is not None]
        if len(used) != len(set(used)):
            continue
        total = sum(weights[i][j] for i, j in enumerate(choice) if j is not None)
        if total > best[0]:
            best = (total, choice)
    return {i: j for i, j in enumerate(best[1]) if j is not None}


@pytest.mark.parametrize("seed", range(5))
def test_exact_pairing_equals_exhaustive_search(seed):
    rng = random.Random(seed)
    for _ in range(200):
        n_gold, n_pred = rng.randint(1, 5), rng.randint(1, 6)
        weights = [[rng.choice([0, 0, 1, 1, 2, 3]) for _ in range(n_pred)] for _ in range(n_gold)]
        assert exact_pairs(weights, n_pred) == _exhaustive(weights, n_pred)


def test_greedy_pairing_order():
    assert greedy_pairs([[2, 2], [2, 1]], 2) == {1: 0, 0: 1}


def test_blocks_of_gold():
    specs = document_blocks(parse_xml(GOLD).root)
    assert [sum(s.full.values()) for s in specs] == [4, 4]
    assert [sum(s.core.values()) for s in specs] == [3, 3]
