"""Stage 1 audit: one document per status, the probe's quirks, profiles, positions, hostile input
(a verdict, never an exception, with bounded work), the fast XSD path against xmlschema, the CLI."""
from __future__ import annotations

import copy
import json
import random
import re
import sys

import pytest
from lxml import etree

from idsbench import xmlparse
from idsbench.audit import PROFILES, audit, xsd
from idsbench.audit.cli import configure_parser, run
from idsbench.audit.result import Status, parse_status, status_text
from idsbench.audit.rules import RULES, WALL
from idsbench.extract import extract_candidate
from idsbench.records import load_references
from idsbench.synthetic.documents import HEADER, entity, enumeration, facet, ids, prop, restriction, spec
from tests.paths import SHARED
from tests.support.corpus import small_corpus
from tests.work import calls

FOREIGN_HEADER = HEADER.replace('xmlns="http://standards.buildingsmart.org/IDS"', 'xmlns="urn:not-ids"')
OK = ids(spec(WALL))
HOSTILE_STEPS = 1_000_000  # Python calls: auditing a gold takes 1,300-6,400; a pattern matched against the
# whole vocabulary (catastrophic_regex) about 270,000


def failing(code: int) -> str:
    return RULES[code].failing()


STATUS_CASES = [
    (Status.OK, OK),
    (Status.NOT_IMPLEMENTED_ERROR, "this is not xml"),
    (Status.IDS_STRUCTURE_ERROR, failing(306)),
    (Status.IDS_CONTENT_ERROR, failing(103)),
    (Status.IDS_STRUCTURE_ERROR | Status.IDS_CONTENT_ERROR, failing(306).replace("IFCWALL", "IfcWall")),
    (Status.UNHANDLED_ERROR, failing(503)),
]


@pytest.mark.parametrize("expected,document", STATUS_CASES, ids=[status_text(s) for s, _ in STATUS_CASES])
def test_one_document_per_status(expected, document):
    assert audit(document).status == expected


@pytest.mark.parametrize("value,text", [(0, "Ok"), (16, "IdsContentError"), (24, "IdsStructureError, IdsContentError"),
                                        (1, "NotImplementedError"), (136, "IdsStructureError, UnhandledError")])
def test_status_text_uses_dotnet_flags_formatting(value, text):
    assert status_text(value) == text
    assert parse_status(text) == value


def test_probe_quirks():
    no_location = re.sub(r' xsi:schemaLocation="[^"]*"', "", OK)
    assert audit(no_location).status == Status.IDS_STRUCTURE_ERROR  # "Unrecognised version"
    assert audit(no_location, custom_xsd=True).status == 0  # -x skips the probe
    v097 = ids(spec(WALL, version="IFC4X3")).replace("IDS/1.0/ids.xsd", "IDS/0.9.7/ids.xsd")
    result = audit(v097)
    assert result.status == 0 and result.findings[0].level == "warning"
    assert audit("").status == Status.NOT_IMPLEMENTED_ERROR
    assert audit("", "ids-tool-latest").status == Status.IDS_STRUCTURE_ERROR
    assert audit("<!DOCTYPE ids><ids/>", custom_xsd=True).codes == (502,)


def test_profile_validation():
    assert PROFILES == ("ids-tool-1.0.96", "ids-tool-latest")
    with pytest.raises(ValueError, match="ids-tool-1.0.96, ids-tool-latest"):
        audit(OK, "ids-tool-2")


def test_profiles_differ_where_the_tool_changed():
    any_uri = ids(spec(WALL, prop("Custom", "P", enumeration("http://x/", base="xs:anyURI"), "IFCLABEL", None)))
    assert 303 in audit(any_uri).codes
    void_fill = ids(spec(WALL, '<partOf relation="IFCRELVOIDSELEMENT IFCRELFILLSELEMENT">'
                               f'{entity("IFCOPENINGELEMENT")}</partOf>'))
    assert audit(void_fill).codes == (103,)
    assert 103 not in audit(void_fill, "ids-tool-latest").codes


def test_str_input_is_read_as_its_utf8_file_so_its_declared_encoding_counts():
    """The published harness writes each output to a UTF-8 file for the validator: a text declaring
    UTF-16 (or an unknown encoding) is then no IDS for it, exactly as those bytes are here."""
    for declared in ("UTF-16", "no-such-encoding"):
        doc = OK.replace('encoding="UTF-8"', f'encoding="{declared}"')
        assert audit(doc).status == audit(doc.encode("utf-8")).status == 1, declared
    doc = OK.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    assert audit(doc.encode("utf-16")).status == 0
    latin = OK.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
    assert audit(latin).status == audit(latin.encode("utf-8")).status == 0


def test_findings_carry_positions():
    finding = next(f for f in audit(failing(103)).findings if f.code == 103)
    assert finding.path == "/ids1/specifications1/specification1/applicability1/entity1/name1/simpleValue1"
    assert finding.line == 6 and finding.column == 67 and finding.level == "error"


# -- hostile input: a verdict with bounded work, never an exception -------------------------
LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol;" if i == 1 else f"&lol{i - 1};") * 10}">' for i in range(1, 10))
          + ']><ids a="&lol9;">&lol9;</ids>')
XXE = '<?xml version="1.0"?><!DOCTYPE ids [<!ENTITY e SYSTEM "file:///etc/passwd">]><ids>&e;</ids>'
HOSTILE = {
    "empty": b"",
    "binary": bytes(range(256)) * 64,
    "doctype": b"<!DOCTYPE ids><ids/>",
    "billion_laughs": LAUGHS,
    "xxe": XXE,
    "depth_10000": ids(spec("<a>" * 10_000 + "</a>" * 10_000)),
    "invalid_regex": ids(spec(entity(restriction("xs:string", facet("pattern", "(?&lt;x"))))),
    "catastrophic_regex": ids(spec(entity(restriction("xs:string", facet("pattern", "(I|I)*(.*)*(.*.*.*)*Q"))))),
    "unknown_namespace": ids(spec(WALL), header=FOREIGN_HEADER),
    "invalid_utf8": OK.encode().replace(b"IFCWALL", b"IFC\xff\xfeWALL"),
    "lone_surrogate": ids(spec(entity("IFC\udcffWALL"))),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_gets_a_verdict_with_bounded_work(name):
    result, steps = calls(audit, HOSTILE[name])
    assert steps < HOSTILE_STEPS, steps
    assert isinstance(result.status, int) and result.status_text
    assert "root:" not in repr(result)  # /etc/passwd content never appears


def test_xxe_and_doctype_verdicts():
    assert audit(XXE).status == Status.NOT_IMPLEMENTED_ERROR
    assert audit(LAUGHS).status == Status.NOT_IMPLEMENTED_ERROR
    assert audit(HOSTILE["depth_10000"]).status & Status.IDS_STRUCTURE_ERROR


BIG = OK.replace("<title>t</title>", "<title>" + "x" * (50 * 1024 * 1024) + "</title>")


@pytest.mark.parametrize("document,status", [
    (BIG, Status.UNHANDLED_ERROR),  # over the size bound: not audited
    (BIG.replace("IDS/1.0/ids.xsd", "IDS/ids.xsd"), Status.IDS_STRUCTURE_ERROR),  # the tool's probe rejects it
    (BIG.replace("<ids ", "<idsx ", 1).replace("</ids>", "</idsx>"), Status.NOT_IMPLEMENTED_ERROR),
], ids=["too-large", "bad-schema-location", "not-ids"])
def test_big_documents_are_probed_up_to_their_root_tag_only(monkeypatch, document, status):
    """The version probe reads up to the root start tag, before the size bound or any full parse, so a
    50 MB file gets the tool's status from its first few kilobytes."""
    fed = []
    feed = xmlparse._Pull.feed
    monkeypatch.setattr(xmlparse._Pull, "feed", lambda self, size: fed.append(size) or feed(self, size))
    monkeypatch.setattr(xmlparse._Pull, "read_rest", lambda self: pytest.fail("the whole document was read"))
    result = audit(document)
    assert result.status == status and fed and all(size is not None and size <= 4096 for size in fed)


# -- the libxml2 fast path gives xmlschema's verdicts --------------------------------------
def _corpus() -> list[etree._Element]:
    """The rules' examples, one gold in fourteen with every synthetic variant of it (extracted), and
    buildingSMART's conformance files when they are beside the checkout."""
    docs = [d for rule in RULES.values() if rule.failing for d in (rule.failing(), rule.passing()) if len(d) < 100_000]
    golds = [r.gold for r in load_references()]
    docs += [extract_candidate(raw) for raw, _ in small_corpus(golds, every=14, all_golds=False)]
    roots = []
    for text in docs:
        try:
            roots.append(etree.fromstring(text.encode()))
        except etree.XMLSyntaxError:
            pass
    for path in sorted((SHARED / "conformance").rglob("*.ids"))[:400] if SHARED.is_dir() else []:
        try:
            roots.append(etree.parse(str(path)).getroot())
        except etree.XMLSyntaxError:
            pass
    return [r for r in roots if etree.QName(r).namespace == xsd.IDS_NS]


_VALUES = ["", " ", "x", "1", "-1", "0", "unbounded", "optional", "IFC4", "IFC4X3", " IFC4 ", "IfcLabel",
           "xs:string", "foo:bar", "1.5", "+3", "2024-13-01", "a@b.c", "http://x y", "A B"]
_NAMES = ["simpleValue", "restriction", "enumeration", "pattern", "name", "value", "entity", "annotation",
          "documentation", "simpleType", "length", "minInclusive", "totalDigits", "whiteSpace"]
_ATTRS = ["value", "base", "minOccurs", "maxOccurs", "cardinality", "dataType", "relation", "uri", "fixed", "id"]


def _mutate(root: etree._Element, rng: random.Random) -> etree._Element:
    root = copy.deepcopy(root)
    elements = list(root.iter(etree.Element))
    for _ in range(rng.randint(1, 3)):
        el, op = rng.choice(elements), rng.randrange(6)
        if op == 0 and el.getparent() is not None:
            el.getparent().remove(el)
        elif op == 1:
            el.set(rng.choice(_ATTRS), rng.choice(_VALUES))
        elif op == 2:
            el.text = rng.choice(_VALUES)
        elif op == 3 and el.getparent() is not None:
            el.addnext(copy.deepcopy(el))
        elif op == 4:
            etree.SubElement(el, f"{{{rng.choice([xsd.IDS_NS, xsd.XS_NS])}}}{rng.choice(_NAMES)}")
        elif op == 5 and el.getparent() is not None:
            el.tag = f"{{{etree.QName(el).namespace}}}{rng.choice(_NAMES)}"
    return etree.fromstring(etree.tostring(root))


def test_fast_xsd_verdicts_equal_xmlschema():
    rng = random.Random(1096)
    corpus = _corpus()
    documents = corpus + [_mutate(rng.choice(corpus), rng) for _ in range(600)]
    differing = [etree.tostring(d)[:300] for d in documents
                 if (not xsd.xsd_issues(d)) != (not xsd.reference_issues(d))]
    assert not differing


# -- CLI pieces ----------------------------------------------------------------------------
def test_cli_folder_json_and_exit_codes(tmp_path):
    import argparse
    import io

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.ids").write_text(OK, encoding="utf-8")
    (tmp_path / "sub" / "b.IDS").write_text(failing(103), encoding="utf-8")
    (tmp_path / "ignored.xml").write_text("not audited", encoding="utf-8")
    parser = configure_parser(argparse.ArgumentParser())
    out = io.StringIO()
    assert run(parser.parse_args([str(tmp_path)]), out) == 16
    text = out.getvalue()
    assert "fail: Error 103: Invalid entity name `IfcWall`" in text
    assert text.endswith("2 files processed.\nCompleted with status: IdsContentError (content errors: IFC names, "
                         "values or cardinalities).\n"
                         f"Codes: 103 {RULES[103].meaning}\n")
    out = io.StringIO()
    assert run(parser.parse_args([str(tmp_path / "a.ids"), "--json"]), out) == 0
    assert json.loads(out.getvalue())["status_text"] == "Ok"
    out = io.StringIO()
    run(parser.parse_args([str(tmp_path / "sub"), "--json"]), out)
    assert json.loads(out.getvalue())["findings"][0]["meaning"] == RULES[103].meaning
    assert run(parser.parse_args([str(tmp_path / "missing.ids")]), io.StringIO()) == 4


@pytest.mark.parametrize("version", ["IFC5", "IFC4 IFC5", "ifc4"])
def test_one_306_per_invalid_ifc_version_value(version):
    """libxml2 reports a bad list item twice (the item, then the list); the validator once."""
    codes = audit(ids(spec(WALL, version=version))).codes
    assert codes.count(306) == 1 and 107 in codes


# -- CDATA, as the validator's reader delivers it ---------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES)
def test_cdata_sets_no_content(profile):
    """Only text nodes set an element's content in the validator (Audit.cs, both versions); a CDATA
    section is a node of its own. The XSD still sees the section's text."""
    def named(text: str) -> str:
        return ids(spec(entity(f"<simpleValue>{text}</simpleValue>")))

    assert audit(named("<![CDATA[IFCWALL]]>"), profile).codes == (103,)
    assert audit(named("IFCWALL<![CDATA[ignored]]>"), profile).status == 0
    assert audit(named("<![CDATA[x\n\n]]>IFCWALL"), profile).status == 0
    assert audit(named("<!-- <![CDATA[ -->IFCWALL"), profile).status == 0


def test_cdata_keeps_lines_and_stage2_reads_it_as_text():
    gold = ids(spec(entity("IFCWALL")))
    text = gold.replace("<title>t</title>", "<title><![CDATA[a\nb\nc]]></title>").replace("IFCWALL", "IfcWall")
    line = next(f.line for f in audit(text).findings if f.code == 103)
    assert line == next(f.line for f in audit(gold.replace("<title>t</title>", "<title>a\nb\nc</title>")
                                               .replace("IFCWALL", "IfcWall")).findings if f.code == 103)
    from idsbench.facets.counts import score_documents
    assert score_documents(gold.replace(">IFCWALL<", "><![CDATA[IFCWALL]]><"), gold).f1 == 1.0


# -- the fast recognition of clean facets gives the full checks' results ----------------------------
def test_clean_facets_fast_path_equals_the_full_checks(monkeypatch):
    from idsbench.audit import clean
    from idsbench.extract import extract_candidate
    from idsbench.records import load_references
    from idsbench.synthetic.corpus import synthetic_corpus

    golds = [r.gold for r in load_references()]
    documents = golds + [extract_candidate(o.text) for o in synthetic_corpus(golds)][::4]
    documents += [d for rule in RULES.values() if rule.failing for d in (rule.failing(), rule.passing())
                  if len(d) < 100_000]
    for profile in PROFILES:
        fast = [audit(d, profile) for d in documents]
        monkeypatch.setattr(clean, "ENABLED", False)
        assert [audit(d, profile) for d in documents] == fast
        monkeypatch.setattr(clean, "ENABLED", True)
