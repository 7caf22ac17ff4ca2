"""Hostile model outputs through the public scoring path: each gets a verdict (never an exception)
with bounded work and memory, and nothing reads a file or opens a socket while scoring.

Every case goes through `evaluate_one` with the real auditor (extraction, Stage 1, Stage 2), through
`audit()` with the newest profile, and through `score_documents` directly when extraction changed the
text (otherwise evaluate_one made that very call). Work is counted, not timed (tests/work.py): the Python
calls of `evaluate_one`, under a bound far above what any real IDS needs and far below what a
superlinear path would take on these inputs. Two cases are pure xs:pattern matching, whose work the
document's regex budget counts and caps: for them the test checks that the budget ended the audit, under a
budget a 50th of the default (still twice what a real document needs), so that exhausting it is quick.
Sizes are just past what each case needs (a cap, a width a quadratic path could not stay under the
bound with); a document of many specifications is held to linear work by counting at two sizes.
"""
import resource
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from idsbench.audit import Status, audit
from idsbench.example import Reference
from idsbench.extract import extract_candidate
from idsbench.facets.counts import score_documents
from idsbench.isolation import WARM_UP_DOCUMENT
from idsbench.pipeline import evaluate_one, make_auditor
from idsbench.regex import safe
from idsbench.synthetic.documents import ROOT_OPEN, WALLS, entity, ids, prop, spec
from tests.work import calls

STEPS = 5_000_000  # Python calls per scoring: a real gold takes 1,000-7,000, the largest case here about 1 million
ENDED_BY_THE_REGEX_BUDGET = {"huge_nfa_pattern", "many_distinct_patterns"}
# Memory a hostile document may add while it is scored. The process's own size depends on the tests that ran
# before (the whole suite peaks near 1.5 GB), so the bound is on the growth during this test, not the total.
GROWTH_BYTES = 2**30
MB = 2**20
GOLD = ids(WALLS, spec([entity("IFCDOOR")], [prop("Pset_DoorCommon", "FireRating")], name="doors"))
REFERENCE = Reference("hostile", GOLD)

# -- no file, no socket: an audit hook, installed once per session ---------------------------
WATCHED = ("open", "socket.connect", "socket.getaddrinfo", "urllib.Request", "subprocess.Popen", "os.system")
_events: list[tuple[str, str]] = []
_recording = [False]


def _hook(event, args):
    if _recording[0] and event in WATCHED:
        _events.append((event, repr(args)[:200]))


sys.addaudithook(_hook)  # hooks cannot be removed; this one records only inside `scoring()`
_MODULE_ROOTS = tuple(str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir())


def _is_module_import(event: str, args: str) -> bool:
    """A lazily imported module (stdlib or site-packages), not data: allowed."""
    return (event == "open" and any(root in args for root in _MODULE_ROOTS)
            and any(ext in args for ext in (".py'", ".pyc'", ".so'")))


@contextmanager
def scoring():
    start = len(_events)
    _recording[0] = True
    try:
        yield
    finally:
        _recording[0] = False
    bad = [e for e in _events[start:] if not _is_module_import(*e)]
    assert not bad, f"file or network access while scoring: {bad[:5]}"


# -- the hostile documents ---------------------------------------------------------------------
def _restriction_spec(facets: str, base: str = "xs:string") -> str:
    name = f'<name><xs:restriction base="{base}">{facets}</xs:restriction></name>'
    return spec([f"<entity>{name}</entity>"])


def _value_spec(value_xml: str, data_type: str = "IFCREAL") -> str:
    pset = "<propertySet><simpleValue>Pset_WallCommon</simpleValue></propertySet>"
    name = "<baseName><simpleValue>ThermalTransmittance</simpleValue></baseName>"
    return spec([entity("IFCWALL")], [f'<property dataType="{data_type}" cardinality="required">{pset}{name}'
                                      f"<value>{value_xml}</value></property>"])


def _laughs() -> str:
    entities = "".join(f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 12))
    return f'<?xml version="1.0"?><!DOCTYPE ids [<!ENTITY l0 "lol">{entities}]><ids>&l11;</ids>'


def _quadratic() -> str:
    return f'<!DOCTYPE ids [<!ENTITY a "{"x" * 100_000}">]><ids>{"&a;" * 100_000}</ids>'


def _attributes(count: int) -> str:
    return " ".join(f'a{i}="1"' for i in range(count))


def _utf16(bom: bool) -> bytes:
    text = GOLD.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    return text.encode("utf-16") if bom else text.encode("utf-16-le")


XXE_FILE = f'<?xml version="1.0"?><!DOCTYPE ids [<!ENTITY x SYSTEM "file:///etc/passwd">]>{ROOT_OPEN}<info><title>&x;</title></info></ids>'
HOSTILE = {  # name -> document builder (building them all up front would hold ~200 MB)
    # external resources: entities, DTDs, XInclude, schema hints
    "xxe_file": lambda: XXE_FILE,
    "xxe_network": lambda: XXE_FILE.replace("file:///etc/passwd", "http://127.0.0.1:9/x"),
    "xxe_parameter_entity": lambda: '<!DOCTYPE ids [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><ids/>',
    "external_dtd_subset": lambda: '<!DOCTYPE ids SYSTEM "http://127.0.0.1:9/ids.dtd"><ids/>',
    "external_dtd_public": lambda: '<!DOCTYPE ids PUBLIC "-//X//DTD//EN" "file:///etc/passwd"><ids/>',
    "xinclude": lambda: GOLD.replace(
        "<info>", '<info><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd"/>'),
    "remote_schema_hint": lambda: GOLD.replace("http://standards.buildingsmart.org/IDS/1.0/ids.xsd",
                                               "http://127.0.0.1:9/evil.xsd"),
    "no_namespace_schema_hint": lambda: GOLD.replace(
        "xsi:schemaLocation=", 'xsi:noNamespaceSchemaLocation="file:///etc/passwd" xsi:schemaLocation='),
    # entity expansion
    "billion_laughs": _laughs,
    "quadratic_blowup": _quadratic,
    # size, depth, breadth
    "fifty_megabytes_text": lambda: GOLD.replace("<title>t</title>", f"<title>{'x' * 50 * MB}</title>"),
    "attributes_over_the_size_caps": lambda: f"<ids {_attributes(2_000_000)}/>",  # 22 MB
    "attributes_under_the_caps": lambda: ids(
        f'<specification name="x" ifcVersion="IFC4" {_attributes(20_000)}><applicability/></specification>'),
    "depth_100000": lambda: "<a>" * 100_000 + "</a>" * 100_000,
    "depth_under_the_cap": lambda: ids(_value_spec("<a>" * 240 + "x" * 5 * MB + "</a>" * 240)),
    "elements_over_the_cap": lambda: ids(_value_spec("<b/>" * 250_000)),
    "wide_element_under_the_caps": lambda: ids(_value_spec("<b/>" * 5_000)),
    # encodings and bytes
    "invalid_utf8": lambda: GOLD.encode().replace(b"IFCWALL", b"IFC\xff\xfeWALL"),
    "lone_surrogate": lambda: GOLD.replace("IFCWALL", "IFC\udcffWALL"),
    "utf16_with_bom": lambda: _utf16(bom=True),
    "utf16_without_bom": lambda: _utf16(bom=False),
    "nul_bytes": lambda: GOLD.replace("<info>", "<info>\x00"),
    "binary": lambda: bytes(range(256)) * 256,
    # namespaces
    "mixed_namespaces": lambda: GOLD.replace(
        'xmlns="http://standards.buildingsmart.org/IDS"',
        'xmlns="urn:other" xmlns:i="http://standards.buildingsmart.org/IDS"',
    ).replace("<specification ", "<i:specification ").replace("</specification>", "</i:specification>"),
    "unknown_namespace_attributes": lambda: GOLD.replace("<entity>", '<entity xmlns:q="urn:q" q:x="1" q:y="2">'),
    # regular expressions in xs:pattern, and numbers
    "nested_quantifier_pattern": lambda: ids(_restriction_spec('<xs:pattern value="(I+)+$"/>')),
    "many_star_pattern": lambda: ids(_restriction_spec(f'<xs:pattern value="{".*" * 40}Q"/>')),
    "huge_nfa_pattern": lambda: ids(_restriction_spec('<xs:pattern value="(.{0,20}){0,900}Q"/>')),
    "many_distinct_patterns": lambda: ids(
        *[_restriction_spec(f'<xs:pattern value="IFC{"(A|B)" * 800}{i}"/>') for i in range(300)]),
    "huge_numbers_in_pattern": lambda: ids(
        _restriction_spec(f'<xs:pattern value="A{{{"9" * 5000}}}\\k&lt;{"9" * 5000}&gt;"/>')),
    "near_miss_double_values": lambda: ids(_value_spec(
        f'<xs:restriction base="xs:double"><xs:enumeration value="{"1" * 2_000_000}x"/></xs:restriction>')),
    "huge_numbers_in_bounds": lambda: ids(_value_spec(
        f'<xs:restriction base="xs:double"><xs:minInclusive value="1{"0" * 1_000_000}"/>'
        '<xs:maxInclusive value="1e99999999"/></xs:restriction>')),
    "huge_occurs_and_lengths": lambda: ids(_restriction_spec(f'<xs:length value="{"9" * 20_000}"/>')).replace(
        'minOccurs="1" maxOccurs="unbounded"', f'minOccurs="1{"0" * 20_000}" maxOccurs="{"9" * 20_000}"'),
    # extraction
    "fence_then_whitespace": lambda: "```" + " " * 5_000_000 + "x",
    "unclosed_think_repeated": lambda: "<think>" * 1_000_000,
}


@pytest.fixture(scope="module")
def auditor():
    """The real auditor, warmed so that lazily loaded vocabularies and schemas are not counted
    as file access (they are package data, read once per process)."""
    run = make_auditor("ids-tool-1.0.96")
    wide = ids(_value_spec("<b/>" * 1_500))  # the stdlib-copy path of xsd.py
    for document in (WARM_UP_DOCUMENT, GOLD, HOSTILE["unknown_namespace_attributes"](), wide,
                     GOLD.replace("1.0/ids.xsd", "0.9.7/ids.xsd")):
        run(document)
        audit(document, "ids-tool-latest")
        score_documents(document, GOLD)
    return run


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def _rss() -> int:
    """Resident memory now (the peak cannot be reset, so growth is measured from here)."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize()


def _counted(call):
    with scoring():
        return calls(call)


def _run(call):
    """Without counting: the pattern cases (the regex budget bounds them, checked below), and the calls
    whose work `evaluate_one` has already counted on the same document."""
    with scoring():
        return call(), 0


KNOWN = {  # verdicts (processability, structure, content) and Stage 2 errors known in advance
    "xxe_file": ((0, 0, 0), "not well-formed"),
    "billion_laughs": ((0, 0, 0), "not well-formed"),
    "fifty_megabytes_text": ((0, 0, 0), "too large"),
    "depth_100000": ((0, 0, 0), "nested deeper"),
    "elements_over_the_cap": ((0, 0, 0), "more than 200000 elements"),
    "huge_nfa_pattern": ((0, 0, 0), None),  # regex work over the document's budget: a timeout in effect
    "mixed_namespaces": ((1, 1, 1), None),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_output_gets_a_bounded_verdict_without_io(name, auditor, monkeypatch):
    if name in ENDED_BY_THE_REGEX_BUDGET:
        monkeypatch.setattr(safe, "DOCUMENT_BUDGET", safe.DOCUMENT_BUDGET // 50)
    start = _rss()
    document = HOSTILE[name]()  # built here: the whole table would hold ~100 MB
    text = document if isinstance(document, str) else document.decode("latin-1")
    count = _run if name in ENDED_BY_THE_REGEX_BUDGET else _counted
    example, steps = count(lambda: evaluate_one(text, REFERENCE, auditor))
    assert steps < STEPS and example.verdict is not None and 0.0 <= example.facets.f1 <= 1.0
    audited, _ = _run(lambda: audit(document, "ids-tool-latest"))
    assert isinstance(audited.status, int) and audited.status_text
    facets = example.facets
    if extract_candidate(text) != text:
        facets, _ = _run(lambda: score_documents(text, GOLD))
        assert 0.0 <= facets.f1 <= 1.0
    assert "root:" not in repr((example, audited, facets))  # /etc/passwd never leaks into a result
    if name in ENDED_BY_THE_REGEX_BUDGET:
        ended = [f for f in audited.findings if f.code == 503 and "RegexBudgetExceeded" in f.message]
        assert example.audit.status & Status.UNHANDLED_ERROR and ended and "units of matching work" in ended[0].message
    # an upper bound on this test's growth: its peak is at most the process's peak so far
    assert _peak_rss() - start < GROWTH_BYTES
    if name in KNOWN:
        verdict, error = KNOWN[name]
        assert example.verdict == verdict
        assert example.facets.error is None if error is None else error in example.facets.error


def test_many_specifications_cost_linear_work(auditor):
    """1,000 and 2,000 specifications: valid, and twice the specifications cost at most 2.3 times the work
    (a path quadratic in the specifications would cost four times)."""
    documents = {n: ids(*[spec([entity("IFCWALL")], name=f"s{i}") for i in range(n)]) for n in (1_000, 2_000)}
    work = {}
    for n, document in documents.items():
        example, work[n] = _counted(lambda: evaluate_one(document, REFERENCE, auditor))
        assert example.verdict == (1, 1, 1) and example.facets.error is None
    assert work[2_000] < 2.3 * work[1_000] and work[2_000] < STEPS
