"""The review record of a version-3 scenario (docs/dataset-authoring.md, "The review record"), checked.

A scenario is version 3 when its `review.version` is 3. Its review then carries, beside author, reviewer,
date, notes and facets (as in version 2):
- `definitions`: for every predefined type and standard property or quantity its gold uses, in every IFC
  version the gold declares, the definition quoted from ifcopenshell's documentation;
- `traps`: the hard facts the request relies on, by catalogue id, with the facet they decide;
- `revision` (multi-turn): what the last change request changes, by kind;
- `adversarial`: rounds of blind solving, each tied to the request and gold texts by `data` (content_hash).

Each `*_problems` function is pure and returns messages without the file name (the gate adds it).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from idsbench.vocabulary.facts import Fact, catalogue, definition, normalized

from .golds import Facet, Gold, parse_gold
from .scenarios import Scenario
from .schema import LANGUAGES

VERSION = 3
MIN_TRAPS = 2
JUDGEMENTS = ("model_error", "data_problem")
# What a revision may change; a revision that only adds a requirement is not enough on its own.
REVISION_KINDS = {
    "version-upgrade": "the IFC version changes, and with it homes, types or values",
    "unit-change": "a value is restated in another unit or tightened with a conversion",
    "group-split": "one group of objects becomes several specifications",
    "group-merge": "several groups become one",
    "applicability-change": "the objects addressed change (a predefined type, a property value, occurrence)",
    "value-change": "an allowed value, bound, pattern or enumeration changes",
    "cardinality-change": "an item becomes optional, prohibited or required",
    "set-change": "a property moves to another set (standard or the client's)",
    "removed-requirement": "a requirement is withdrawn",
    "added-requirement": "a requirement is added (never alone)",
}
ROLE_ID = re.compile(r"^[a-z]+-[A-Za-z0-9]+$")


def is_version3(sc: Scenario) -> bool:
    review = sc.meta.get("review")
    return isinstance(review, dict) and review.get("version") == VERSION


def final_gold(sc: Scenario, lang: str) -> Gold:
    return parse_gold(sc.examples[lang][-1].content)


def content_hash(sc: Scenario) -> str:
    """What blind solvers saw and were scored against: every message file of both languages (the review
    record itself apart, so that recording a round does not change it)."""
    digest = hashlib.sha256()
    for lang in LANGUAGES:
        for m in sc.examples[lang]:
            digest.update(f"{lang}/{m.path.rsplit('/', 1)[-1]}\0{m.content}\0".encode("utf-8"))
    return digest.hexdigest()[:12]


# ------------------------------------------------------------------------------------------- definitions

def defined_names(gold: Gold) -> list[tuple[str, str]]:
    """(name, version) of every predefined type and standard property or quantity the gold uses, in each
    version its specification declares: ("IFCCOLUMN.PILASTER", "IFC4X3_ADD2"), ("Pset_X.Prop", "IFC4")."""
    out: dict[tuple[str, str], None] = {}
    for spec in gold.specs:
        versions = (spec.attrib.get("ifcVersion") or "").split()
        for name in _standard_names(spec.facets):
            out.update({(name, v): None for v in versions})
    return list(out)


def _standard_names(facets) -> Iterator[str]:
    for f in facets:
        if f.kind == "entity":
            for cls in f.value("name").names:
                yield from (f"{cls.upper()}.{t.upper()}" for t in f.value("predefinedType").names)
        elif f.kind == "property":
            sets = [s for s in f.value("propertySet").names if s[:4].lower() in ("pset", "qto_")]
            yield from (f"{s}.{p}" for s in sets for p in f.value("baseName").names)


def expected_definitions(sc: Scenario) -> dict[tuple[str, str], str]:
    """(name, version) -> the catalogue's definition, for the final golds of both languages ("" if none)."""
    out = {}
    for lang in LANGUAGES:
        for name, version in defined_names(final_gold(sc, lang)):
            out[(name, version)] = definition(version, name) or ""
    return out


def definition_problems(sc: Scenario, review: dict) -> list[str]:
    given = {}
    for entry in review.get("definitions") or []:
        if isinstance(entry, dict):
            given[(str(entry.get("name")), str(entry.get("version")))] = str(entry.get("text") or "")
    problems = []
    for (name, version), text in sorted(expected_definitions(sc).items()):
        if (name, version) not in given:
            problems.append(f"review.definitions lacks {name} in {version}"
                            + ("" if text else " (ifcopenshell has no definition: give text \"\")"))
        elif normalized(given[(name, version)]) != text:
            problems.append(f"review.definitions {name} in {version}: the text is not ifcopenshell's "
                            f"({text[:60]!r}…)" if text else f"review.definitions {name} in {version}: "
                            "ifcopenshell has no definition, the text must be empty")
    return problems


# ------------------------------------------------------------------------------------------- traps

def facet_keys(sc: Scenario) -> dict[str, dict[str, Facet]]:
    """Facets of the final gold by key, per language."""
    return {lang: {f.key: f for f in final_gold(sc, lang).facets} for lang in LANGUAGES}


def _bears_on(fact: Fact, facet: Facet) -> bool:
    """Whether a fact is about what the facet says. Home and moved facts are about what the gold does not
    use (a set of another version, a property's old set), so any facet will do."""
    if fact.kind == "ptype":
        return facet.key.endswith(fact.subject.replace(".", "/", 1))
    if fact.kind in ("datatype", "enum"):
        return facet.key.endswith("." + fact.subject.split(".", 1)[1]) and fact.subject.split(".")[0] in facet.key
    if fact.kind == "qto":
        return f":{fact.subject}." in facet.key
    if fact.kind == "unit":
        return (facet.attrib.get("dataType") or "").upper() == fact.subject
    return True


def trap_problems(sc: Scenario, review: dict) -> list[str]:
    traps = review.get("traps") or []
    if not isinstance(traps, list):
        return ["review.traps must be a list"]
    facts, keys = catalogue(), facet_keys(sc)
    problems = []
    for n, trap in enumerate(traps, 1):
        problems += [f"review.traps[{n}]: {p}" for p in _trap_entry_problems(trap, facts, keys)]
    if sc.meta.get("turn_type") == "single_turn" and len(traps) < MIN_TRAPS:
        problems.append(f"review.traps: {len(traps)} trap(s); a single-turn example needs at least {MIN_TRAPS}")
    return problems


def _trap_entry_problems(trap, facts, keys: dict[str, set[str]]) -> list[str]:
    if not isinstance(trap, dict):
        return ["must be an object {fact, facet, obvious, why}"]
    problems = [f"{k} missing" for k in ("fact", "facet", "obvious", "why") if not str(trap.get(k) or "").strip()]
    fact = facts.by_id(str(trap.get("fact") or ""))
    if trap.get("fact") and fact is None:
        problems.append(f"fact {trap['fact']!r} is not in the catalogue (python ishigaki_ids_bench.py facts --grep …)")
    key = str(trap.get("facet") or "")
    # Either language's key: a trap on the client's property carries its localized name in the other gold.
    facet = next((keys[lang][key] for lang in LANGUAGES if key in keys[lang]), None)
    if key and facet is None:
        problems.append(f"facet {key!r} is not a facet of the gold (python ishigaki_ids_bench.py facets SNNN)")
    elif fact is not None and facet is not None and not _bears_on(fact, facet):
        problems.append(f"fact {fact.id} is not about facet {key} (its subject is {fact.subject})")
    return problems


def revision_problems(sc: Scenario, review: dict) -> list[str]:
    if sc.meta.get("turn_type") != "multi_turn":
        return []
    revision = review.get("revision")
    if not isinstance(revision, dict) or not str(revision.get("what") or "").strip():
        return ["review.revision {kinds, what} missing: say what the last change request changes"]
    kinds = revision.get("kinds") or []
    unknown = [k for k in kinds if k not in REVISION_KINDS]
    problems = [f"review.revision.kinds: unknown {k!r} (known: {', '.join(REVISION_KINDS)})" for k in unknown]
    if not set(kinds) - {"added-requirement"}:
        problems.append("review.revision.kinds: name a change beyond an added requirement")
    return problems
