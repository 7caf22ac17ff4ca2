"""A synthetic corpus of realistic LLM outputs, derived deterministically from the gold IDS files.

Each gold gives one output per variant: valid ones (plain, fenced, think-wrapped), near misses
(wrong schemaLocation, missing maxOccurs, lowercase entity, invented Pset, wrong dataType, a
dropped specification) and broken ones (truncated, unclosed fence, prose only, no namespace).
Used by the benchmarks and by the tests that check fast paths against straightforward ones.

    from idsbench.synthetic.corpus import synthetic_corpus
    for item in synthetic_corpus([r.gold for r in load_references()]): ...
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

SCHEMA_LOCATION = "http://standards.buildingsmart.org/IDS/1.0/ids.xsd"
THINKING = ("<think>\nThe user wants an IDS. I need <specification> elements with applicability and\n"
            "requirements; entity names in upper case, property sets as given. Let me write it.\n</think>\n")
PROSE = ("I'm sorry, but I cannot produce the IDS file directly. In summary, the requirements ask that "
         "every wall has a fire rating and a load-bearing flag, and that doors carry a name.")


@dataclass(frozen=True)
class Output:
    variant: str
    kind: str  # "valid" | "near-miss" | "broken"
    gold_index: int
    text: str


def _sub_first(pattern: str, replacement: str, text: str) -> str:
    return re.sub(pattern, replacement, text, count=1)


def _drop_last_spec(gold: str) -> str:
    start, end = gold.rfind("<specification "), gold.rfind("</specification>")
    if gold.count("<specification ") < 2 or not 0 < start < end:
        return gold
    return gold[:start] + gold[end + len("</specification>"):]


VARIANTS: dict[str, tuple[str, Callable[[str], str]]] = {
    "plain": ("valid", lambda g: g),
    "fenced": ("valid", lambda g: f"Here is the IDS file:\n\n```xml\n{g}\n```\n\nLet me know if you need changes."),
    "think": ("valid", lambda g: f"{THINKING}```ids\n{g}\n```"),
    "wrong_schema_location": ("near-miss", lambda g: g.replace(SCHEMA_LOCATION, "http://standards.buildingsmart.org/IDS/ids.xsd")),
    "missing_max_occurs": ("near-miss", lambda g: g.replace(' maxOccurs="unbounded"', "")),
    "lowercase_entity": ("near-miss", lambda g: _sub_first(r"(<entity>\s*<name>\s*<simpleValue>)([^<]+)",
                                                           lambda m: m.group(1) + m.group(2).lower(), g)),
    "invented_pset": ("near-miss", lambda g: _sub_first(r"<simpleValue>Pset_\w+</simpleValue>",
                                                        "<simpleValue>Pset_ProjectSpecificCommon</simpleValue>", g)),
    "wrong_data_type": ("near-miss", lambda g: _sub_first(r'dataType="[^"]*"', 'dataType="IFCTEXT"', g)),
    "dropped_spec": ("near-miss", _drop_last_spec),
    "truncated": ("broken", lambda g: g[: len(g) * 3 // 5]),
    "unclosed_fence": ("broken", lambda g: f"```xml\n{g[: len(g) * 4 // 5]}"),
    "prose_only": ("broken", lambda g: PROSE),
    "no_namespace": ("broken", lambda g: g.replace(' xmlns="http://standards.buildingsmart.org/IDS"', "")),
}


def synthetic_corpus(golds: Sequence[str], variants: Sequence[str] = tuple(VARIANTS)) -> list[Output]:
    """Every variant of every gold, in (gold, variant) order."""
    return [Output(name, VARIANTS[name][0], i, VARIANTS[name][1](gold))
            for i, gold in enumerate(golds) for name in variants]
