"""Render dataset_card.md: generated YAML front matter + data/card_template.md with generated tables."""

from __future__ import annotations

import re
from pathlib import Path

from datasets import List, Value

from . import authoring
from . import composition as comp
from .schema import CONFIGS, DEFAULT_CONFIG, FEATURES, OFFICIAL_HUB_ID

TEMPLATE = Path("data") / "card_template.md"
PLACEHOLDER_RE = re.compile(r"\{\{([a-z_]+)\}\}")
FIELD_DOCS = {
    "id": "unique example id, `<scenario_id>-<language>` (e.g. `s001-en`)",
    "scenario_id": "`s001` … `s083`; the en and ja examples of a scenario share it",
    "messages": "the conversation: user and assistant turns alternate; the last message is the gold IDS. "
                "No system message (the harness adds its prompt)",
    "language": "`en` or `ja`",
    "input_format": "format of the first request: `csv` (checklist table) or `natural_language`",
    "turn_type": "`single_turn` (2 messages) or `multi_turn` (4 or 6: earlier request, earlier IDS, change request…)",
    "domain": "`architectural`, `structural`, `mep` or `civil`",
    "ifc_versions": "IFC schema versions of the final gold: `IFC2X3`, `IFC4`, `IFC4X3_ADD2`",
    "gold_ids": "the gold IDS XML again (= content of the last message), convenient for `evaluate`",
    "n_specifications": "derived: number of `<specification>` elements in the gold",
    "facet_kinds": "derived: facet elements used in the gold (entity, attribute, property, …)",
    "restriction_kinds": "derived: `xs:restriction` kinds used in the gold (bounds, enumeration, length, pattern)",
    "skills": "derived (version 2): the mappings the example exercises (class-mapping, predefined-type, standard-pset, "
              "quantity-set, client-pset, any-set, attribute, data-type, unit-conversion, enumeration, pattern, bounds, "
              "cardinality, revision)",
}


def type_name(feature) -> str:
    if isinstance(feature, Value):
        return feature.dtype
    if isinstance(feature, List):
        inner = feature.feature
        if isinstance(inner, dict):
            return "list of {" + ", ".join(f"{k}: {type_name(v)}" for k, v in inner.items()) + "}"
        return f"list of {type_name(inner)}"
    return type(feature).__name__


def fields_table() -> str:
    rows = [f"| `{name}` | {type_name(feat)} | {FIELD_DOCS.get(name, '')} |" for name, feat in FEATURES.items()]
    return "\n".join(["| field | type | meaning |", "|---|---|---|", *rows])


def configs_table(records: list[dict]) -> str:
    rows = []
    for name, c in CONFIGS.items():
        n = sum(1 for r in records if c.column is None or r[c.column] == c.value)
        selects = "all examples" if c.column is None else f"`{c.column} == {c.value}`"
        default = " (default)" if name == DEFAULT_CONFIG else ""
        rows.append(f"| `{name}`{default} | {selects} | {n} |")
    return "\n".join(["| config | examples selected | rows |", "|---|---|---:|", *rows])


def render_card(root: Path, records: list[dict], composition: comp.Composition, yaml_text: str,
                figures: dict[str, str] | None = None) -> str:
    template = (root / TEMPLATE).read_text(encoding="utf-8")
    values = {
        "n_examples": str(len(records)),
        "n_scenarios": str(len({r["scenario_id"] for r in records})),
        "composition_progress": comp.progress_line(composition),
        "composition_table": comp.composition_table(composition),
        "fields_table": fields_table(),
        "configs_table": configs_table(records),
        "official_hub_id": OFFICIAL_HUB_ID,
        **authoring.card_figures(records),
        **(figures or {}),
    }
    # Placeholders are lowercase ({{name}}), so BibTeX's {{ONESTRUCTION}} passes through untouched.
    unknown = sorted(set(PLACEHOLDER_RE.findall(template)) - set(values))
    if unknown:
        raise ValueError(f"{TEMPLATE}: unknown placeholder(s) {unknown}; known: {sorted(values)}")
    body = PLACEHOLDER_RE.sub(lambda m: values[m.group(1)], template)
    return f"---\n{yaml_text}---\n\n{body.lstrip()}"
