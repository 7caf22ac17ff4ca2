"""A longer fuzz run (hypothesis) of the properties tests/test_fuzz.py checks briefly.

Properties, each given an equal share of the time:
- mutated golds (delete/duplicate/swap/retag elements, flip case, truncate, inject junk, comments,
  odd attribute values, damaged XML declarations), golds under a damaged declaration alone, arbitrary
  text and bytes, and generated IDS-like documents (random facets, restrictions and xs:pattern values):
  `evaluate_one` with the real auditor, `audit()` with both profiles and `score_documents` never
  raise, stay within [0, 1], never hit an internal error (a 503 that is not a designed limit), give
  the same audit status as `audit()` of the file the published harness writes for the candidate, and
  take less than --slow seconds;
- xs:pattern values from a regex alphabet: the .NET emulation and the safe matcher never raise;
- extraction: the linear scans equal the spec's regular expressions.

    python -m benchmarks.fuzz --minutes 5
Prints examples run and failures (with a minimal failing example) per property.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable


from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from idsbench.audit import audit
from idsbench.audit.values import pattern_matcher
from idsbench.extract import extract_candidate, extract_candidate_reference
from idsbench.facets.counts import score_documents
from idsbench.pipeline import evaluate_one
from idsbench.pipeline import make_auditor
from idsbench.records import load_references
from idsbench.regex.dotnet import compile_dotnet
from idsbench.synthetic.mutations import OPERATIONS, mutate, mutate_many
from idsbench.xmlparse import as_written

REFERENCES = load_references()
PROFILES = ("ids-tool-1.0.96", "ids-tool-latest")
AUDITORS = tuple(make_auditor(profile) for profile in PROFILES)
DESIGNED_503 = ("document larger than", "more than 200000", "RegexBudgetExceeded")
HEADER = ('<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
          'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://standards.buildingsmart.org/IDS '
          'http://standards.buildingsmart.org/IDS/1.0/ids.xsd"><info><title>f</title></info><specifications>')


class Counter:
    examples = 0


def check_document(raw: str, index: int, slow: float) -> None:
    """The scoring contract on one raw output."""
    Counter.examples += 1
    start = time.perf_counter()
    reference = REFERENCES[index % len(REFERENCES)]
    candidate = extract_candidate(raw)
    for auditor, profile in zip(AUDITORS, PROFILES):
        result = evaluate_one(raw, reference, auditor)
        assert 0.0 <= result.facets.f1 <= 1.0 and result.verdict in {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)}
        if candidate:  # every entry point reads the output as the validator reads its file
            written = as_written(candidate).encode("utf-8", "surrogatepass")
            assert result.audit.status == audit(written, profile).status == audit(candidate, profile).status
    for profile in ("ids-tool-1.0.96", "ids-tool-latest"):
        findings = audit(raw.encode("utf-8", "surrogatepass"), profile).findings
        internal = [f.message for f in findings if f.code == 503 and not any(d in f.message for d in DESIGNED_503)]
        assert not internal, internal
    assert 0.0 <= score_documents(extract_candidate(raw), reference.gold).f1 <= 1.0
    assert time.perf_counter() - start < slow, f"slow: {time.perf_counter() - start:.1f} s"


# -- strategies ----------------------------------------------------------------------------------
steps = st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 10**9), st.integers(0, 10**9)),
                 min_size=1, max_size=8)
values = st.sampled_from(["IFCWALL", "IfcWall", "ifcwall", "Pset_WallCommon", "FireRating", "EI60", "", " ", "1.5",
                          "true", "-1", "IFCLABEL", "IFCREAL", "unbounded", "optional", "prohibited", "xs:string",
                          "xs:double", "é", "&amp;", "Name", "IFCDOOR", "NOTDEFINED", "IFCRELAGGREGATES", "9" * 30])
regex_text = st.lists(st.sampled_from(list("ab.*+?|()[]{}^$\\-,0123456789dDwWsSpPkL<>'=!:")
                                      + ["IFC", "WALL", "{1,3}", "\\p{L}", "(?<n>", "\\k<n>", "[a-z-[aeiou]]"]),
                      max_size=20).map("".join)


restriction = st.builds(
    lambda base, facets: f'<xs:restriction base="{base}">{"".join(facets)}</xs:restriction>',
    st.sampled_from(["xs:string", "xs:double", "xs:integer", "xs:boolean", "xs:anyUri", "xs:date", "bogus", ""]),
    st.lists(st.one_of(
        st.builds(lambda v: f'<xs:enumeration value="{v}"/>', values),
        st.builds(lambda p: f'<xs:pattern value="{p}"/>', regex_text.map(lambda t: t.replace("<", "&lt;")
                                                                            .replace('"', "&quot;"))),
        st.builds(lambda k, v: f'<xs:{k} value="{v}"/>', st.sampled_from(
            ["minInclusive", "maxExclusive", "length", "minLength", "totalDigits", "whiteSpace"]), values)),
        max_size=4))
parameter = st.one_of(values.map(lambda v: f"<simpleValue>{v}</simpleValue>"), restriction)
facet = st.one_of(
    st.builds(lambda n, p: f"<entity><name>{n}</name>{p}</entity>", parameter,
              st.one_of(st.just(""), parameter.map(lambda p: f"<predefinedType>{p}</predefinedType>"))),
    st.builds(lambda n, v, c: f'<attribute cardinality="{c}"><name>{n}</name>{v}</attribute>', parameter,
              st.one_of(st.just(""), parameter.map(lambda p: f"<value>{p}</value>")), values),
    st.builds(lambda s, n, v, d: f'<property dataType="{d}"><propertySet>{s}</propertySet><baseName>{n}</baseName>{v}</property>',
              parameter, parameter, st.one_of(st.just(""), parameter.map(lambda p: f"<value>{p}</value>")), values),
    st.builds(lambda e, r: f'<partOf relation="{r}"><entity><name>{e}</name></entity></partOf>', parameter, values),
    st.builds(lambda s, v: f"<classification><system>{s}</system><value>{v}</value></classification>", parameter, parameter),
    st.builds(lambda v: f"<material><value>{v}</value></material>", parameter),
)
specification = st.builds(
    lambda version, app, req, lo, hi: (f'<specification name="s" ifcVersion="{version}"><applicability minOccurs="{lo}" '
                                       f'maxOccurs="{hi}">{"".join(app)}</applicability>'
                                       f'<requirements>{"".join(req)}</requirements></specification>'),
    st.sampled_from(["IFC4", "IFC2X3", "IFC4X3_ADD2", "IFC2X3 IFC4", "IFC5", ""]),
    st.lists(facet, max_size=3), st.lists(facet, max_size=4), st.sampled_from(["0", "1", "2", ""]),
    st.sampled_from(["unbounded", "0", "1", "5"]))
documents = st.lists(specification, min_size=0, max_size=4).map(lambda s: HEADER + "".join(s) + "</specifications></ids>")
FRAGMENTS = ["`", "```", "ids", "XML", " ", "\n", "\u2028", "x", "<think>", "</THINK>", "</think", "\u212a", "<a/>"]


def properties(slow: float) -> dict[str, Callable]:
    @given(st.integers(0, len(REFERENCES) - 1), steps)
    def mutated_golds(index, mutations):
        check_document(mutate_many(REFERENCES[index].gold, mutations), index, slow)

    @given(st.integers(0, len(REFERENCES) - 1), st.integers(0, 10**9), st.integers(0, 10**9))
    def declarations(index, a, b):
        check_document(mutate(REFERENCES[index].gold, "declaration", a, b), index, slow)

    @given(st.one_of(st.text(max_size=500), st.binary(max_size=500).map(lambda b: b.decode("latin-1"))),
           st.integers(0, 165))
    def arbitrary_text(raw, index):
        check_document(raw, index, slow)

    @given(documents, st.integers(0, 165))
    def generated_ids(raw, index):
        check_document(raw, index, slow)

    @given(regex_text)
    def patterns(pattern):
        Counter.examples += 1
        compiled = compile_dotnet(pattern)
        assert compiled.error is None or isinstance(compiled.error, str)
        matcher = pattern_matcher(pattern)
        if matcher is not None:
            for candidate in ("IFCWALL", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "Pset_WallCommon"):
                assert matcher(candidate) in (True, False)

    @given(st.lists(st.sampled_from(FRAGMENTS), max_size=20).map("".join))
    def extraction(text):
        Counter.examples += 1
        assert extract_candidate(text) == extract_candidate_reference(text)

    return {"mutated_golds": mutated_golds, "declarations": declarations, "arbitrary_text": arbitrary_text, "generated_ids": generated_ids,
            "patterns": patterns, "extraction": extraction}


def run_for(test: Callable, seconds: float, batch: int) -> tuple[int, str | None]:
    """Batches of fresh random examples until the time is up or a failure is found."""
    configured = settings(max_examples=batch, deadline=None, database=None, derandomize=False,
                          suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink])(test)
    Counter.examples = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            configured()
        except Exception as exc:  # noqa: BLE001 - a failure is the finding to report
            return Counter.examples, f"{type(exc).__name__}: {str(exc)[:1500]}"
    return Counter.examples, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="total time (default: %(default)s)")
    parser.add_argument("--slow", type=float, default=10.0, help="seconds an example may take (default: %(default)s)")
    parser.add_argument("--batch", type=int, default=200, help="examples per hypothesis run")
    args = parser.parse_args(argv)
    props = properties(args.slow)
    share = args.minutes * 60 / len(props)
    total, failures = 0, 0
    print(f"fuzzing {len(props)} properties for {args.minutes:g} min ({share:.0f} s each)")
    for name, test in props.items():
        start = time.perf_counter()
        examples, failure = run_for(test, share, args.batch)
        total, failures = total + examples, failures + (failure is not None)
        rate = examples / (time.perf_counter() - start)
        print(f"  {name:<15} {examples:>8} examples ({rate:6.0f}/s)  {'FAILED: ' + failure if failure else 'ok'}")
    print(f"total: {total} examples, {failures} failing properties")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
