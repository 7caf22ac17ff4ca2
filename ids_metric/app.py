"""Gradio demo for the metric Space.

evaluate 0.4.6's stock `launch_gradio_widget` is broken on gradio >= 4, so this builds a plain
Interface. The metric is loaded through evaluate from the script next to this file, which works the
same in a checkout and on the Space (where this folder is the repository root and requirements.txt
installs the scorer). Three examples (examples/) fill the boxes with one click: the gold itself, a near
miss and a broken output; the details explain every audit code. Nothing is flagged or stored.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from idsbench.audit.profiles import NO_AUDIT, PROFILES as AUDIT_PROFILES
from idsbench.audit.rules import meaning

HERE = Path(__file__).resolve().parent
PROFILES = [*AUDIT_PROFILES, NO_AUDIT]
HEADLINE = ["processability", "structure", "content", "facet_f1", "facet_precision", "facet_recall", "ag_facet_f1"]
EXAMPLES = (("gold (scores 1)", "gold.ids"), ("near miss", "near-miss.txt"), ("broken output", "broken.txt"))


@lru_cache(maxsize=1)
def metric():
    import evaluate

    return evaluate.load(str(HERE / "ids_metric.py"))


def examples() -> tuple[list[list[str]], list[str]]:
    """([prediction, reference, profile] rows, their labels); the reference is always the gold."""
    gold = (HERE / "examples" / "gold.ids").read_text(encoding="utf-8")
    rows = [[(HERE / "examples" / name).read_text(encoding="utf-8"), gold, PROFILES[0]] for _, name in EXAMPLES]
    return rows, [label for label, _ in EXAMPLES]


def details(row: dict) -> dict:
    """The per-example row with each audit code's meaning next to it."""
    codes = (row.get("audit") or {}).get("codes") or []
    return {**row, "audit_codes_explained": {str(code): meaning(code) for code in codes}}


def score_pair(prediction: str, reference: str, profile: str = PROFILES[0]) -> tuple[str, str]:
    """Score one raw model output against one gold IDS: (headline metrics, per-example JSON)."""
    if not (reference or "").strip():
        return "Paste a gold IDS document as the reference.", "{}"
    result = metric().compute(predictions=[prediction], references=[reference], return_per_example=True,
                              audit_profile=None if profile == NO_AUDIT else profile)
    lines = [f"{name:>16}: {'not computed' if result[name] is None else round(result[name], 4)}" for name in HEADLINE]
    lines.append(f"signature: {result['signature']}")
    return "\n".join(lines), json.dumps(details(result["per_example"][0]), indent=2, ensure_ascii=False)


def build_interface():
    import gradio as gr

    rows, labels = examples()
    return gr.Interface(
        fn=score_pair,
        inputs=[gr.Textbox(label="Prediction (raw model output)", lines=16),
                gr.Textbox(label="Reference (gold IDS)", lines=16),
                gr.Dropdown(PROFILES, value=PROFILES[0], label="Stage 1 audit profile")],
        outputs=[gr.Textbox(label="Scores"), gr.Code(label="Details (audit codes explained)", language="json")],
        examples=rows, example_labels=labels, cache_examples=False,
        flagging_mode="never",
        title="Ishigaki-IDS-Bench metric",
        description="Stage 1 IDS audit (IDS-Audit-tool 1.0.96 verdicts) and Stage 2 facet precision/recall/F1. "
                    "Click an example below, then Submit.",
    )


if __name__ == "__main__":
    build_interface().launch()
