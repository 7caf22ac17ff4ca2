"""Documents cut short (a generation stopped at max_tokens) or broken part-way, audited as the validator's
reader reads them.

The expected verdicts follow from how IDS-Audit-tool 1.0.96 reads (Audit.cs, the reader loop): the version
probe reads up to the root start tag, so a cut before its end is no IDS at all (NotImplementedError); each
element is checked when its end tag is read; the first XmlException ends the pass with 502
(IdsStructureError), so an element still open there is never checked, while the findings of elements
closed before it stand. None of the expectations comes from earlier output of this code, and they must
hold whatever the parser library does after the error (lxml 6.2 reports end events for every element
left open when the data ends early)."""
from __future__ import annotations

import re

import pytest

from idsbench.audit import audit
from idsbench.example import Reference
from idsbench.pipeline import evaluate_one, make_auditor
from idsbench.records import load_references
from idsbench.synthetic.documents import attribute, entity, ids, prop, spec

STRUCTURE, CONTENT, NOT_IDS = 8, 16, 1
# Where generations stop: inside a value, after a closed facet, inside or after a restriction, between
# specifications, inside a start tag, an attribute value or an end tag.
ANCHORS = {
    "inside a value": (r"<(?:\w+:)?simpleValue>[^<]{2,}", -1),
    "after a closed facet": (r"</(?:\w+:)?(?:entity|property|attribute)>", 0),
    "inside a restriction": (r"<xs:restriction [^>]*>", 0),
    "after an enumeration": (r"<xs:enumeration [^>]*/>", 0),
    "between specifications": (r"</(?:\w+:)?specification>", 0),
    "inside a start tag": (r"<(?:\w+:)?property ", -1),
    "inside an attribute value": (r'cardinality="re', 0),
    "inside an end tag": (r"</(?:\w+:)?requirements", 0),
}


def _golds(count: int = 6) -> list[str]:
    """A spread of golds with restrictions (every sixth of those, in id order)."""
    golds = [r.gold for r in load_references() if "xs:restriction" in r.gold]
    return golds[::max(1, len(golds) // count)][:count]


def _cuts(gold: str) -> list[tuple[str, int]]:
    """At least 20 cut points: two of each anchor kind the gold has, then evenly spaced ones."""
    cuts = []
    for kind, (pattern, back) in ANCHORS.items():
        for match in list(re.finditer(pattern, gold))[:2]:
            cuts.append((kind, match.end() + back))
    step = max(1, len(gold) // 12)
    cuts += [("evenly spaced", offset) for offset in range(step, len(gold), step)]
    return cuts


def _expected(gold: str, cut: int) -> tuple[int, tuple]:
    """The validator's verdict on a valid IDS cut after `cut` characters."""
    root_start_end = gold.index(">", gold.index("<ids")) + 1
    if cut < root_start_end:
        return NOT_IDS, ()
    if gold[cut:].strip() == "":
        return 0, ()
    return STRUCTURE, (502,)


@pytest.mark.parametrize("index", range(6))
def test_a_valid_ids_cut_anywhere_has_only_its_break(index):
    gold = _golds()[index]
    cuts = _cuts(gold)
    assert len(cuts) >= 20
    for kind, cut in cuts:
        for profile in ("ids-tool-1.0.96", "ids-tool-latest"):
            result = audit(gold[:cut], profile)
            assert (result.status, result.codes) == _expected(gold, cut), (kind, cut, gold[cut - 40:cut])


def test_the_findings_of_elements_closed_before_the_break_stand():
    bad = spec(entity("IFCWALLX"), name="bad entity")  # 103, raised at the entity's end tag
    document = ids(bad, spec(entity("IFCDOOR"), [prop("Pset_DoorCommon", "FireRating")], name="next"))
    entity_end = document.index("</entity>")
    before, after = document[:entity_end], document[:entity_end + len("</entity>")]
    assert audit(before).codes == (502,) and audit(before).status == STRUCTURE
    assert audit(after).codes == (103, 502) and audit(after).status == STRUCTURE | CONTENT
    whole_first = document[:document.index("</specification>") + len("</specification>") + 20]
    assert audit(whole_first).codes == (103, 502)


def test_an_element_left_open_by_a_mismatched_end_tag_is_not_checked():
    document = ids(spec(entity("IFCWALLX")))  # 103 once the entity closes
    broken = document.replace("</entity>", "</entityx>", 1)
    result = audit(broken)
    assert (result.status, result.codes) == (STRUCTURE, (502,))
    assert "does not match the end tag of 'entityx'" in result.findings[0].message


def test_an_undeclared_prefix_stops_the_reader_there():
    """.NET's reader throws at a start tag whose prefix is not declared; libxml2 reads on (a namespace
    error), so without care the elements after it would be checked."""
    bad_first = spec(entity("IFCWALLX"), name="closed before the break")
    open_at_break = spec(entity("IFCDOOR"), attribute("Name"), name="the break").replace(
        "<entity>", "<z:entity>").replace("</entity>", "</z:entity>")
    result = audit(ids(bad_first, open_at_break))
    assert (result.status, result.codes) == (STRUCTURE | CONTENT, (103, 502))  # no 101: its applicability never ended


def test_the_break_is_described_in_the_readers_words_not_the_librarys():
    gold = _golds()[0]
    cut = gold.index("</specification>")
    finding = audit(gold[:cut]).findings[-1]
    assert finding.code == 502
    assert finding.message.startswith("XML structure error: Unexpected end of file has occurred. The following "
                                      "elements are not closed: specification, specifications, ids")
    assert finding.line == gold[:cut].rstrip().count("\n") + 1


def test_a_truncated_output_scores_as_processable_but_broken():
    reference = Reference("r", _golds()[1])
    cut = reference.gold[:len(reference.gold) // 2]
    result = evaluate_one(cut, reference, make_auditor())
    assert result.audit.codes == (502,) and result.verdict == (1, 0, 0)
    # a fence that never closes is no fence: the whole text, fence line included, is the candidate
    assert evaluate_one("```ids\n" + cut, reference, make_auditor()).verdict == (0, 0, 0)
