"""The adversarial record of a version-3 scenario (`review.adversarial`), checked.

    "adversarial": {"rounds": [{"round": 1, "data": "<content hash>", "changes": "…",
        "results": [{"solver": "solver-1", "model": "…", "example": "s012-en", "protocol": "paper-0shot",
                     "facet_f1": 0.86, "content": 1,
                     "misses": [{"facet": "S1.r.property:…", "what": "…", "judgement": "model_error",
                                 "judge": "judge-1", "reason": "…"}]}]}]}

A round's `data` is review3.content_hash of the scenario when it was solved: the rounds whose hash is the
current one are the final version's. The final version needs at least two solvers, no miss judged a data
problem, and at least one miss (a scenario every solver gets fully right is made harder or replaced). A
round that found a data problem says what was changed. Roles are ids (`solver-1`, `judge-2`): no solver or
judge is the scenario's author, and nobody judges their own answer.
"""
from __future__ import annotations

from .review3 import JUDGEMENTS, ROLE_ID, content_hash
from .scenarios import Scenario
from .schema import LANGUAGES

MIN_SOLVERS = 2


def adversarial_problems(sc: Scenario, review: dict) -> list[str]:
    record = review.get("adversarial")
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list) or not rounds:
        return ["review.adversarial.rounds missing: record the blind solvers' rounds"]
    author = str(review.get("author") or "")
    problems = []
    for n, rnd in enumerate(rounds, 1):
        problems += [f"review.adversarial.rounds[{n}]: {p}" for p in _round_problems(sc, rnd, author)]
    return problems + _final_problems(sc, [r for r in rounds if isinstance(r, dict)])


def _round_problems(sc: Scenario, rnd, author: str) -> list[str]:
    if not isinstance(rnd, dict):
        return ["must be an object {round, data, results, changes}"]
    problems = [] if str(rnd.get("data") or "") else ["data (the scenario's content hash when solved) missing"]
    results = rnd.get("results")
    if not isinstance(results, list) or not results:
        return problems + ["results missing"]
    for n, result in enumerate(results, 1):
        problems += [f"results[{n}]: {p}" for p in _result_problems(sc, result, author)]
    found_data_problem = any(m.get("judgement") == "data_problem" for m in _misses(rnd))
    if found_data_problem and not str(rnd.get("changes") or "").strip():
        problems.append("a data problem was found: say in `changes` what was changed")
    return problems


def _result_problems(sc: Scenario, result, author: str) -> list[str]:
    if not isinstance(result, dict):
        return ["must be an object {solver, model, example, protocol, facet_f1, content, misses}"]
    problems = _role_problems("solver", result.get("solver"), author)
    problems += [f"{k} missing" for k in ("model", "protocol") if not str(result.get(k) or "").strip()]
    examples = {f"{sc.scenario_id}-{lang}" for lang in LANGUAGES}
    if result.get("example") not in examples:
        problems.append(f"example {result.get('example')!r} is not one of {sorted(examples)}")
    scores = [result.get(k) for k in ("facet_f1", "content")]
    if not all(isinstance(s, (int, float)) and 0 <= s <= 1 for s in scores):
        return problems + ["facet_f1 and content must be numbers from 0 to 1"]
    misses = result.get("misses") or []
    if min(scores) < 1 and not misses:
        problems.append("scored below 1 but lists no miss: judge every miss")
    for n, miss in enumerate(misses, 1):
        problems += [f"misses[{n}]: {p}" for p in _miss_problems(miss, str(result.get("solver") or ""), author)]
    return problems


def _miss_problems(miss, solver: str, author: str) -> list[str]:
    if not isinstance(miss, dict):
        return ["must be an object {facet, what, judgement, judge, reason}"]
    problems = [f"{k} missing" for k in ("what", "reason") if not str(miss.get(k) or "").strip()]
    if miss.get("judgement") not in JUDGEMENTS:
        problems.append(f"judgement {miss.get('judgement')!r} must be one of {', '.join(JUDGEMENTS)}")
    problems += _role_problems("judge", miss.get("judge"), author)
    if miss.get("judge") and miss.get("judge") == solver:
        problems.append("judged by its own solver")
    return problems


def _role_problems(role: str, value, author: str) -> list[str]:
    if not isinstance(value, str) or not ROLE_ID.match(value):
        return [f"{role} {value!r} must be a role id such as {role}-1"]
    return [f"{role} {value} is the scenario's author"] if value == author else []


def _misses(rnd: dict) -> list[dict]:
    return [m for r in rnd.get("results") or [] if isinstance(r, dict)
            for m in r.get("misses") or [] if isinstance(m, dict)]


def _final_problems(sc: Scenario, rounds: list[dict]) -> list[str]:
    current = content_hash(sc)
    final = [r for r in rounds if r.get("data") == current]
    results = [x for r in final for x in r.get("results") or [] if isinstance(x, dict)]
    solvers = {x.get("solver") for x in results}
    if len(solvers) < MIN_SOLVERS:
        return [f"review.adversarial: {len(solvers)} solver(s) on the final version (data {current}); "
                f"at least {MIN_SOLVERS} are needed"]
    problems = []
    if any(m.get("judgement") == "data_problem" for r in final for m in _misses(r)):
        problems.append("review.adversarial: a data problem is unresolved on the final version")
    if all(x.get("facet_f1") == 1 and x.get("content") == 1 for x in results):
        problems.append("review.adversarial: every solver got the final version fully right: add a trap or "
                        "replace the scenario")
    return problems


def solver_summary(sc: Scenario) -> list[dict]:
    """The final version's results (for the card's aggregate), [] when the record is incomplete."""
    current = content_hash(sc)
    return [x for r in _rounds(sc) if isinstance(r, dict) and r.get("data") == current
            for x in r.get("results") or [] if isinstance(x, dict)]


def card_figures(scenarios: list[Scenario]) -> dict[str, str]:
    """The version-3 figures the dataset card quotes: the blind solvers' results on the final versions."""
    results = [x for sc in scenarios for x in solver_summary(sc)]
    misses = [m for x in results for m in x.get("misses") or [] if isinstance(m, dict)]
    judged = {j: sum(m.get("judgement") == j for m in misses) for j in JUDGEMENTS}
    n = len(results) or 1
    return {
        "adv_answers": str(len(results)),
        "adv_examples": str(len({x.get("example") for x in results})),
        "adv_facet_score": f"{100 * sum(float(x.get('facet_f1') or 0) for x in results) / n:.1f}",
        "adv_content": f"{100 * sum(float(x.get('content') or 0) for x in results) / n:.1f}",
        "adv_misses": str(len(misses)),
        "adv_model_error": f"{judged.get('model_error', 0) / (len(misses) or 1):.0%}",
        "adv_fixed_form": f"{judged.get('fixed_form', 0) / (len(misses) or 1):.0%}",
        "adv_data_problem": str(judged.get("data_problem", 0)),
        "adv_rounds": str(sum(len(_rounds(sc)) for sc in scenarios)),
    }


def _rounds(sc: Scenario) -> list:
    """The recorded rounds, [] when there are none (or the record is malformed: the gate reports that)."""
    record = sc.meta.get("review", {}).get("adversarial")
    rounds = record.get("rounds") if isinstance(record, dict) else None
    return rounds if isinstance(rounds, list) else []
