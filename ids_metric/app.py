"""Gradio demo for the metric Space.

evaluate 0.4.6's stock `launch_gradio_widget` is broken on gradio >= 4, so this builds a plain
Interface. The metric is loaded through evaluate from the script next to this file, which works the
same in a checkout and on the Space (where this folder is the repository root and requirements.txt
installs the scorer).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from idsbench.audit.profiles import NO_AUDIT, PROFILES as AUDIT_PROFILES

PROFILES = [*AUDIT_PROFILES, NO_AUDIT]
HEADLINE = ["processability", "structure", "content", "facet_f1", "facet_precision", "facet_recall", "ag_facet_f1"]


@lru_cache(maxsize=1)
def metric():
    import evaluate

    return evaluate.load(str(Path(__file__).resolve().with_name("ids_metric.py")))


def score_pair(prediction: str, reference: str, profile: str = PROFILES[0]) -> tuple[str, str]:
    """Score one raw model output against one gold IDS: (headline metrics, per-example JSON)."""
    if not (reference or "").strip():
        return "Paste a gold IDS document as the reference.", "{}"
    result = metric().compute(predictions=[prediction], references=[reference], return_per_example=True,
                              audit_profile=None if profile == NO_AUDIT else profile)
    lines = [f"{name:>16}: {'not computed' if result[name] is None else round(result[name], 4)}" for name in HEADLINE]
    lines.append(f"signature: {result['signature']}")
    return "\n".join(lines), json.dumps(result["per_example"][0], indent=2, ensure_ascii=False)


def build_interface():
    import gradio as gr

    return gr.Interface(
        fn=score_pair,
        inputs=[gr.Textbox(label="Prediction (raw model output)", lines=16),
                gr.Textbox(label="Reference (gold IDS)", lines=16),
                gr.Dropdown(PROFILES, value=PROFILES[0], label="Stage 1 audit profile")],
        outputs=[gr.Textbox(label="Scores"), gr.Code(label="Details", language="json")],
        title="Ishigaki-IDS-Bench metric",
        description="Stage 1 IDS audit (IDS-Audit-tool 1.0.96 verdicts) and Stage 2 facet precision/recall/F1.",
    )


if __name__ == "__main__":
    build_interface().launch()
