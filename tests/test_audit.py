"""Stage 1 audit: one minimal document per code and per status, each with a near-identical
document that does not trigger it; hostile input; the fast XSD path against xmlschema."""
from __future__ import annotations

import copy
import random
import re
import time
from pathlib import Path

import pytest
from lxml import etree

from ids_metric.audit import PROFILES, audit
from ids_metric.audit_codes import RULES, Status, parse_status, status_text
from ids_metric import xsd

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
IDS_OPEN = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://standards.buildingsmart.org'
    '/IDS http://standards.buildingsmart.org/IDS/1.0/ids.xsd">\n<info><title>t</title></info>\n<specifications>\n'
)


def ids(*specs: str, root_open: str = IDS_OPEN) -> str:
    return root_open + "\n".join(specs) + "\n</specifications>\n</ids>\n"


def spec(applicability: str, requirements: str | None = None, version: str = "IFC4",
         occurs: str = 'maxOccurs="unbounded"') -> str:
    req = "" if requirements is None else f"\n<requirements>{requirements}</requirements>"
    return (f'<specification name="s" ifcVersion="{version}">\n<applicability {occurs}>{applicability}'
            f"</applicability>{req}\n</specification>")


def sv(value: str) -> str:
    return f"<simpleValue>{value}</simpleValue>"


def restriction(base: str, *children: str) -> str:
    return f'<xs:restriction base="{base}">{"".join(children)}</xs:restriction>'


def enum(value: str) -> str:
    return f'<xs:enumeration value="{value}"/>'


def entity(name: str = sv("IFCWALL"), predefined: str | None = None) -> str:
    pdt = "" if predefined is None else f"<predefinedType>{predefined}</predefinedType>"
    return f"<entity><name>{name}</name>{pdt}</entity>"


def prop(pset: str, name: str, data_type: str | None = None, value: str | None = None, card: str | None = None) -> str:
    attrs = (f' dataType="{data_type}"' if data_type else "") + (f' cardinality="{card}"' if card else "")
    val = "" if value is None else f"<value>{value}</value>"
    return f"<property{attrs}><propertySet>{sv(pset)}</propertySet><baseName>{sv(name)}</baseName>{val}</property>"


def attribute(name: str, value: str | None = None, card: str | None = None) -> str:
    c = f' cardinality="{card}"' if card else ""
    val = "" if value is None else f"<value>{value}</value>"
    return f"<attribute{c}><name>{sv(name)}</name>{val}</attribute>"


WALL = entity()
FOREIGN_ROOT = IDS_OPEN.replace('xmlns="http://standards.buildingsmart.org/IDS"', 'xmlns="urn:not-ids"')

# code -> (document that triggers it, near-identical document that does not)
CODE_CASES = {
    101: (ids(spec("")), ids(spec(WALL))),
    102: (ids(spec(f"<entity><name/></entity>")), ids(spec(WALL))),
    103: (ids(spec(entity(sv("IfcWall")))), ids(spec(WALL))),
    105: (ids(spec(entity(restriction("xs:string", '<xs:minLength value="3"/>'), sv("SOLIDWALL")))),
          ids(spec(entity(restriction("xs:string", enum("IFCWALL")), sv("SOLIDWALL"))))),
    106: (ids(spec(WALL, f"<classification><system>{sv('')}</system></classification>")),
          ids(spec(WALL, f"<classification><system>{sv('Uniclass')}</system></classification>"))),
    107: (ids(spec(WALL, version="")), ids(spec(WALL))),
    109: (ids(spec(entity(restriction("xs:string", '<xs:pattern value="IFC[WALL"/>')))),
          ids(spec(entity(restriction("xs:string", '<xs:pattern value="IFC[W]ALL"/>'))))),
    201: (ids(spec(WALL, entity(sv("IFCSLAB")))), ids(spec(WALL, entity(sv("IFCWALL"))))),
    202: (ids(spec(WALL, attribute("Name", card="optional"))),
          ids(spec(WALL, attribute("Name", sv("W1"), card="optional")))),
    203: (ids(spec(WALL, prop("Custom", "P", value=sv("1")))),
          ids(spec(WALL, prop("Custom", "P", "IFCLABEL", sv("1"))))),
    204: (ids(spec(WALL, attribute("Name"), occurs='minOccurs="0" maxOccurs="0"')), ids(spec(WALL, attribute("Name")))),
    301: (ids(spec(WALL, occurs="")), ids(spec(WALL))),
    302: (ids(spec(entity(restriction("xs:string", '<xs:totalDigits value="7"/>')))),
          ids(spec(entity(restriction("xs:string", '<xs:length value="7"/>'))))),
    303: (ids(spec(WALL, prop("Custom", "P", "IFCLABEL", restriction("xs:time", enum("x"))))),
          ids(spec(WALL, prop("Custom", "P", "IFCLABEL", restriction("xs:string", enum("x")))))),
    304: (ids(spec(WALL, prop("Custom", "P", "IFCLABEL", restriction("xs:string")))),
          ids(spec(WALL, prop("Custom", "P", "IFCLABEL", restriction("xs:string", enum("x")))))),
    305: (ids(spec(WALL, prop("Custom", "P", "IFCREAL", sv("abc")))),
          ids(spec(WALL, prop("Custom", "P", "IFCREAL", sv("1.5"))))),
    306: (ids(spec('<entity foo="1"><name><simpleValue>IFCWALL</simpleValue></name></entity>')), ids(spec(WALL))),
    307: (ids(spec(WALL), root_open=FOREIGN_ROOT), ids(spec(WALL))),
    308: (ids(spec(WALL, prop("Custom", "P", "IFCBOOLEAN", restriction("xs:boolean", enum("true"))))),
          ids(spec(WALL, prop("Custom", "P", "IFCBOOLEAN", restriction("xs:boolean", '<xs:pattern value="true"/>'))))),
    401: (ids(spec(WALL, prop("Pset_Custom", "P", "IFCLABEL"))), ids(spec(WALL, prop("Custom_Pset", "P", "IFCLABEL")))),
    501: (ids(WALL, root_open=FOREIGN_ROOT), ids(spec(WALL), root_open=FOREIGN_ROOT)),
    502: (ids(spec(WALL))[:-30], ids(spec(WALL))),
    503: (ids(spec(WALL)).replace("<title>t</title>", "<title>" + "x" * (11 * 1024 * 1024) + "</title>"),
          ids(spec(WALL))),
}
UNREACHABLE = {104: "only one relation matches", 108: "unused", 504: "every version's XSD is available"}


def test_code_table_is_data():
    assert {r.code for r in RULES.values() if r.code} >= set(CODE_CASES) | set(UNREACHABLE)
    assert all(r.level in ("critical", "error", "warning", "info") for r in RULES.values())


@pytest.mark.parametrize("code", sorted(CODE_CASES))
def test_code_triggered_and_not(code):
    failing, passing = CODE_CASES[code]
    assert code in audit(failing).codes
    assert code not in audit(passing).codes


@pytest.mark.parametrize("code", sorted(c for c in CODE_CASES if c not in (307, 501, 503)))
def test_passing_twin_is_ok(code):
    assert audit(CODE_CASES[code][1]).status == 0, audit(CODE_CASES[code][1]).findings


STATUS_CASES = [
    (Status.OK, ids(spec(WALL))),
    (Status.NOT_IMPLEMENTED_ERROR, "this is not xml"),
    (Status.IDS_STRUCTURE_ERROR, CODE_CASES[306][0]),
    (Status.IDS_CONTENT_ERROR, CODE_CASES[103][0]),
    (Status.IDS_STRUCTURE_ERROR | Status.IDS_CONTENT_ERROR, CODE_CASES[306][0].replace("IFCWALL", "IfcWall")),
    (Status.UNHANDLED_ERROR, CODE_CASES[503][0]),
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
    no_location = re.sub(r' xsi:schemaLocation="[^"]*"', "", ids(spec(WALL)))
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
        audit(ids(spec(WALL)), "ids-tool-2")


def test_profiles_differ_where_the_tool_changed():
    any_uri = ids(spec(WALL, prop("Custom", "P", "IFCLABEL", restriction("xs:anyURI", enum("http://x/")))))
    assert 303 in audit(any_uri).codes
    void_fill = ids(spec(WALL, '<partOf relation="IFCRELVOIDSELEMENT IFCRELFILLSELEMENT">'
                               f'{entity(sv("IFCOPENINGELEMENT"))}</partOf>'))
    assert audit(void_fill).codes == (103,)
    assert 103 not in audit(void_fill, "ids-tool-latest").codes


def test_str_input_ignores_declared_encoding_and_bytes_honour_it():
    doc = ids(spec(WALL)).replace('encoding="UTF-8"', 'encoding="UTF-16"')
    assert audit(doc).status == 0
    assert audit(doc.encode("utf-16")).status == 0


def test_findings_carry_positions():
    finding = next(f for f in audit(CODE_CASES[103][0]).findings if f.code == 103)
    assert finding.path == "/ids1/specifications1/specification1/applicability1/entity1/name1/simpleValue1"
    assert finding.line == 6 and finding.column is not None and finding.level == "error"


# -- hostile input: a verdict, quickly, never an exception ---------------------------------
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
    "invalid_regex": ids(spec(entity(restriction("xs:string", '<xs:pattern value="(?&lt;x"/>')))),
    "catastrophic_regex": ids(spec(entity(restriction("xs:string", '<xs:pattern value="(I|I)*(.*)*(.*.*.*)*Q"/>')))),
    "unknown_namespace": ids(spec(WALL), root_open=FOREIGN_ROOT),
    "invalid_utf8": ids(spec(WALL)).encode().replace(b"IFCWALL", b"IFC\xff\xfeWALL"),
    "lone_surrogate": ids(spec(entity(sv("IFC\udcffWALL")))),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_gets_a_quick_verdict(name):
    start = time.perf_counter()
    result = audit(HOSTILE[name])
    assert time.perf_counter() - start < 5
    assert isinstance(result.status, int) and result.status_text
    assert "root:" not in repr(result)  # /etc/passwd content never appears


def test_xxe_and_doctype_verdicts():
    assert audit(XXE).status == Status.NOT_IMPLEMENTED_ERROR
    assert audit(LAUGHS).status == Status.NOT_IMPLEMENTED_ERROR
    assert audit(HOSTILE["depth_10000"]).status & Status.IDS_STRUCTURE_ERROR


def test_fifty_megabytes_in_memory():
    big = ids(spec(WALL)).replace("<title>t</title>", "<title>" + "x" * (50 * 1024 * 1024) + "</title>")
    start = time.perf_counter()
    result = audit(big)
    assert time.perf_counter() - start < 2 and result.status == Status.UNHANDLED_ERROR


# -- the libxml2 fast path gives xmlschema's verdicts --------------------------------------
def _corpus() -> list[etree._Element]:
    docs = [d for pair in CODE_CASES.values() for d in pair if len(d) < 100_000]
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
    documents = corpus + [_mutate(rng.choice(corpus), rng) for _ in range(1500)]
    differing = [etree.tostring(d)[:300] for d in documents
                 if (not xsd.xsd_issues(d)) != (not xsd.reference_issues(d))]
    assert not differing


# -- CLI pieces ----------------------------------------------------------------------------
def test_cli_folder_json_and_exit_codes(tmp_path):
    import argparse
    import io
    import json

    from ids_metric.audit_cli import configure_parser, run

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.ids").write_text(ids(spec(WALL)), encoding="utf-8")
    (tmp_path / "sub" / "b.IDS").write_text(CODE_CASES[103][0], encoding="utf-8")
    (tmp_path / "ignored.xml").write_text("not audited", encoding="utf-8")
    parser = configure_parser(argparse.ArgumentParser())
    out = io.StringIO()
    assert run(parser.parse_args([str(tmp_path)]), out) == 16
    text = out.getvalue()
    assert "fail: Error 103: Invalid entity name `IfcWall`" in text
    assert text.endswith("2 files processed.\nCompleted with status: IdsContentError.\n")
    out = io.StringIO()
    assert run(parser.parse_args([str(tmp_path / "a.ids"), "--json"]), out) == 0
    assert json.loads(out.getvalue())["status_text"] == "Ok"
    assert run(parser.parse_args([str(tmp_path / "missing.ids")]), io.StringIO()) == 4
