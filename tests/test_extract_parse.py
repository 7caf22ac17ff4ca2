"""Output extraction (docs/facet-scorer.md §0) and hardened parsing: errors are values, never exceptions."""
import pytest

from idsbench.extract import extract_candidate
from idsbench.xmlparse import MAX_BYTES, MAX_DEPTH, parse_xml

EXTRACT = [
    ("plain", "  <a/>  ", "<a/>"),
    ("ids fence", "x\n```ids\n<a/>\n```\ny", "<a/>"),
    ("xml fence, no newline", "```xml<a/>```", "<a/>"),
    ("bare fence", "```\n<a/>\n```", "<a/>"),
    ("case-insensitive tag", "```IDS\n<a/>```", "<a/>"),
    ("other tag stays in body", "```text\n<a/>\n```", "text\n<a/>"),
    ("first fence wins", "```\n<a/>\n``` and ```\n<b/>\n```", "<a/>"),
    ("empty fence", "``````", ""),
    ("unclosed fence: whole text", "```xml\n<a/>", "```xml\n<a/>"),
    ("think removed", "<think>```\n<b/>\n```</think>```\n<a/>\n```", "<a/>"),
    ("think shortest match", "<think>1</think><a/><think>2</think>", "<a/>"),
    ("think spans lines, any case", "<Think>\nplan\n</THINK>\n<a/>", "<a/>"),
    ("unclosed think kept", "<think><a/>", "<think><a/>"),
]


@pytest.mark.parametrize("name,raw,expected", EXTRACT, ids=[c[0] for c in EXTRACT])
def test_extract(name, raw, expected):
    assert extract_candidate(raw) == expected


BAD = [
    ("empty", "", "empty document"),
    ("binary", b"\x00\x01\xff\xfe garbage", "not well-formed"),
    ("invalid utf-8", b"<a>\xff\xfe</a>", "not well-formed"),
    ("lone surrogate", "<a>\ud800</a>", "not encodable"),
    ("not xml", "hello", "not well-formed"),
    ("two roots", "<a/><b/>", "not well-formed"),
    ("undefined entity", "<a>&nope;</a>", "not well-formed"),
    ("xxe file", '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', "not well-formed"),
    ("xxe network", '<!DOCTYPE a [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]><a>&x;</a>', "not well-formed"),
    ("billion laughs", '<!DOCTYPE a [<!ENTITY l0 "ha">' + "".join(
        f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10)) + "]><a>&l9;</a>", "not well-formed"),
    ("too deep", "<a>" * (MAX_DEPTH + 1) + "</a>" * (MAX_DEPTH + 1), "nested deeper"),
    ("too large", b"<a>" + b" " * MAX_BYTES + b"</a>", "too large"),
]


@pytest.mark.parametrize("name,document,reason", BAD, ids=[c[0] for c in BAD])
def test_bad_documents_are_values(name, document, reason):
    parsed = parse_xml(document)
    assert parsed.root is None and reason in parsed.error


def test_deep_nesting_far_beyond_the_limit_is_rejected_quickly():
    depth = 100_000
    parsed = parse_xml("<a>" * depth + "</a>" * depth)
    assert not parsed.ok and "nested deeper" in parsed.error


def test_elementtree_semantics_kept():
    root = parse_xml('<!DOCTYPE a [<!ENTITY e "x">]><a>1<!-- c -->2<?pi z?><![CDATA[3]]>&e;</a>').root
    assert root.text == "123x" and len(root) == 0


def test_declared_encoding_is_honoured_for_bytes():
    root = parse_xml('<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9</a>'.encode("latin-1")).root
    assert root.text == "é"


def test_limit_boundary_depth_is_accepted():
    assert parse_xml("<a>" * MAX_DEPTH + "</a>" * MAX_DEPTH).ok
