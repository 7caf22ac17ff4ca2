"""The gates of version-3 scenarios (review.version 3; docs/dataset-authoring.md). Version-2 scenarios are
not touched by them and keep their own gates (h-k).

m  traps: every single-turn scenario cites at least two hard facts of the catalogue, each on a facet of
   its gold that it is about; a multi-turn scenario says what its revision changes
n  no steering: no phrase of the steering list and no IFC spelling in the requests (steering.py)
o  review records: role ids, definitions quoted from ifcopenshell, adversarial rounds on the final version
p  leakage: at most 5% of the gold's standard names spelled out in the requests (pooled)
q  EIR sizes: at most 20 specifications in any scenario; once every scenario is version 3, at least 20
   with 8 or more specifications and 5 with 15 or more (before that, progress)

Each gate is a pure function of (scenarios, complete) returning (problems, note, details, status).
"""
from __future__ import annotations

from .adversarial import adversarial_problems, solver_summary
from .authoring import leakage_of, user_turns
from .leakage import Leakage, pooled
from .review3 import ROLE_ID, definition_problems, final_gold, is_version3, revision_problems, trap_problems
from .scenarios import Scenario
from .schema import LANGUAGES
from .steering import steering_in

LEAKAGE_LIMIT = 0.05
MAX_SPECS = 20
SIZE_MINIMUMS = ((8, 20), (15, 5))  # (specifications, scenarios with at least that many)


def _v3(scenarios: list[Scenario]) -> list[Scenario]:
    return [sc for sc in scenarios if is_version3(sc)]


def _where(sc: Scenario) -> str:
    return f"{sc.folder}/scenario.json"


def _status(problems: list[str]) -> str:
    return "failed" if problems else "ok"


def _progress(scenarios: list[Scenario]) -> str:
    return f"{len(_v3(scenarios))} of {len(scenarios)} scenarios are version 3"


def traps_gate(scenarios: list[Scenario], complete: bool):
    problems = []
    for sc in _v3(scenarios):
        review = sc.meta["review"]
        problems += [f"{_where(sc)}: {p}" for p in _readable(sc, trap_problems, review)]
        problems += [f"{_where(sc)}: {p}" for p in revision_problems(sc, review)]
    return problems, _progress(scenarios), [], _status(problems)


def _readable(sc: Scenario, check, review: dict) -> list[str]:
    """A check that parses the golds; a gold that is not XML is gate a's to report."""
    try:
        return check(sc, review)
    except ValueError:
        return []


def steering_gate(scenarios: list[Scenario], complete: bool):
    problems = []
    for sc in _v3(scenarios):
        for lang in LANGUAGES:
            for m in sc.examples[lang]:
                if m.role == "user":
                    problems += [f"{m.path}: {found}" for found in steering_in(m.content)]
    return problems, _progress(scenarios), [], _status(problems)


def review_gate(scenarios: list[Scenario], complete: bool):
    problems, details = [], []
    for sc in _v3(scenarios):
        review = sc.meta["review"]
        found = _role_problems(review) + _readable(sc, definition_problems, review)
        found += adversarial_problems(sc, review)
        problems += [f"{_where(sc)}: {p}" for p in found]
        details += _solver_lines(sc)
    return problems, _progress(scenarios), details, _status(problems)


def _role_problems(review: dict) -> list[str]:
    return [f"review.{role} {review.get(role)!r} must be a role id such as {role}-1"
            for role in ("author", "reviewer") if not ROLE_ID.match(str(review.get(role) or ""))]


def _solver_lines(sc: Scenario) -> list[str]:
    results = solver_summary(sc)
    if not results:
        return []
    f1 = sum(float(r.get("facet_f1") or 0) for r in results) / len(results)
    content = sum(float(r.get("content") or 0) for r in results) / len(results)
    return [f"{sc.scenario_id} final version: {len(results)} results, FacetF1 {f1:.1%}, Content {content:.1%}"]


def leakage_gate(scenarios: list[Scenario], complete: bool):
    items: list[Leakage] = []
    details = []
    for sc in _v3(scenarios):
        for lang in LANGUAGES:
            try:
                item = leakage_of(sc, lang)
            except ValueError:
                continue
            items.append(item)
            if item.spelled:
                details.append(f"{sc.scenario_id}-{lang} {len(item.spelled)}/{len(item.counted)}  "
                               + " ".join(item.spelled))
    share = pooled(items)
    problems = [] if share <= LEAKAGE_LIMIT else [f"leakage {share:.1%} (limit {LEAKAGE_LIMIT:.0%})"]
    return problems, f"{share:.1%} of the standard names of {len(items)} version-3 golds", details, _status(problems)


def size_gate(scenarios: list[Scenario], complete: bool):
    sizes = {}
    for sc in _v3(scenarios):
        try:
            sizes[sc.scenario_id] = len(final_gold(sc, "en").specs)
        except ValueError:
            continue
    problems = [f"{sid}: {n} specifications (at most {MAX_SPECS}: the scorer pairs exhaustively up to 18)"
                for sid, n in sorted(sizes.items()) if n > MAX_SPECS]
    counts = [(specs, need, sum(n >= specs for n in sizes.values())) for specs, need in SIZE_MINIMUMS]
    note = "; ".join(f"{have} with {specs}+ specifications (need {need})" for specs, need, have in counts)
    behind = [f"only {have} scenarios with {specs}+ specifications (at least {need})"
              for specs, need, have in counts if have < need]
    every = complete and len(sizes) == len(scenarios)
    if every:
        problems += behind
    status = _status(problems) if problems or every else ("info" if behind else "ok")
    return problems, note + ("" if every else f"; counts apply once all are version 3 ({_progress(scenarios)})"), \
        behind if not every else [], status


GATES = {
    "m": ("version 3: two or more hard facts per single-turn scenario, from the catalogue; revisions named",
          traps_gate),
    "n": ("version 3: no steering phrase or IFC spelling in the requests", steering_gate),
    "o": ("version 3: review records with roles, definitions from ifcopenshell and adversarial rounds", review_gate),
    "p": (f"version 3: leakage of standard names at most {LEAKAGE_LIMIT:.0%}", leakage_gate),
    "q": (f"version 3: EIR sizes (at most {MAX_SPECS} specifications; 20 with 8+, 5 with 15+)", size_gate),
}
