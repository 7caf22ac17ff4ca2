"""The evaluate module (ids_metric/, a wrapper over the installed package): loads from a clean cache
offline, equals the library, runs its doctests and its card's, names the distribution when missing."""
import ast
import doctest
import json
import os
import re
import subprocess
import sys

import pytest

from idsbench.example import Reference
from idsbench.pipeline import score
from idsbench.synthetic.documents import DOORS, WALLS, entity, ids, spec
from tests.paths import ROOT

GOLD_A = ids(WALLS, DOORS)
GOLD_B = ids(WALLS)
PREDICTIONS = [f"```ids\n{GOLD_A}\n```", "sorry", None, ids(WALLS), ids(spec([entity("IFCWALLX")]))]
REFERENCES = [GOLD_A, GOLD_A, GOLD_B, GOLD_A, GOLD_B]
METADATA = [
    {"language": "en", "input_format": "csv", "turn_type": "single_turn", "domain": "mep", "ifc_versions": ["IFC4"]},
    {"language": "ja", "input_format": "csv", "turn_type": "multi_turn", "domain": "mep", "ifc_versions": ["IFC4"]},
    {"language": "en", "input_format": "natural_language", "turn_type": "single_turn", "domain": "civil",
     "ifc_versions": ["IFC4", "IFC4X3_ADD2"]},
    {"language": "ja", "input_format": "natural_language", "turn_type": "single_turn", "domain": "civil",
     "ifc_versions": ["IFC2X3"]},
    {"language": "en", "input_format": "csv", "turn_type": "multi_turn", "domain": "structural", "ifc_versions": ["IFC2X3"]},
]

LOAD_AND_COMPUTE = """
import json, sys, evaluate
inputs = json.load(sys.stdin)
metric = evaluate.load(inputs.pop("path"))
print(json.dumps([metric.compute(**inputs, **variant) for variant in inputs.pop("variants")]))
"""
# Stage 1 on and off, in this process and in worker processes: one load, one interpreter, three computes.
VARIANTS = [{"audit_profile": "ids-tool-1.0.96"}, {"audit_profile": None},
            {"audit_profile": "ids-tool-1.0.96", "workers": 2, "time_limit": 30}]


def library_result(audit_profile="ids-tool-1.0.96"):
    refs = [Reference(str(i), gold, meta) for i, (gold, meta) in enumerate(zip(REFERENCES, METADATA))]
    run = score(PREDICTIONS, refs, audit_profile=audit_profile)
    o = run.overall
    return {
        "processability": o.processability, "structure": o.structure, "content": o.content,
        "ids_audit_pass": o.content, "facet_f1": o.facet_f1, "facet_precision": o.precision,
        "facet_recall": o.recall, "ag_facet_f1": o.ag_facet_f1, "n": o.n, "signature": run.signature,
        "breakdowns": {k: {v: s.to_json() for v, s in g.items()} for k, g in run.breakdowns.items()},
        "per_example": [r.to_json() for r in run.results],
    }


def test_loaded_from_a_clean_cache_offline_equals_the_library(tmp_path):
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    env.pop("HF_MODULES_CACHE", None)
    inputs = {"path": str(ROOT / "ids_metric"), "predictions": PREDICTIONS, "references": REFERENCES,
              "metadata": METADATA, "return_breakdowns": True, "return_per_example": True, "variants": VARIANTS}
    done = subprocess.run([sys.executable, "-c", LOAD_AND_COMPUTE], input=json.dumps(inputs), env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    expected = [library_result(variant["audit_profile"]) for variant in VARIANTS]
    assert loaded == json.loads(json.dumps(expected))
    copied = list((tmp_path / "hf").rglob("ids_metric.py"))
    assert copied, "evaluate did not copy the module into the clean cache"


@pytest.fixture(scope="module")
def metric():
    import evaluate
    return evaluate.load(str(ROOT / "ids_metric"))


def _script_docstring(name: str) -> str:
    """A module-level string constant of ids_metric.py, read without importing the script."""
    tree = ast.parse((ROOT / "ids_metric" / "ids_metric.py").read_text(encoding="utf-8"))
    return next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == name)


def _run_doctest(text: str, name: str, globs: dict) -> doctest.TestResults:
    test = doctest.DocTestParser().get_doctest(text, globs, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return doctest.TestResults(runner.failures, runner.tries)


def test_doctest_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # as in a checkout: evaluate.load("ids_metric") finds the folder
    failures, tries = _run_doctest(_script_docstring("_KWARGS_DESCRIPTION"), "ids_metric", {})
    assert failures == 0 and tries >= 6


def test_the_card_examples_run_as_shown(metric):
    card = (ROOT / "ids_metric" / "README.md").read_text(encoding="utf-8")
    examples = re.search(r"### Examples\n```python\n(.*?)^```$", card, re.S | re.M).group(1)
    failures, tries = _run_doctest(examples, "card", {"ids_metric": metric})
    assert failures == 0 and tries >= 3


def test_add_batch_and_add_equal_one_compute(metric):
    whole = metric.compute(predictions=PREDICTIONS, references=REFERENCES, audit_profile=None)
    metric.add_batch(predictions=PREDICTIONS[:3], references=REFERENCES[:3])
    for p, r in zip(PREDICTIONS[3:], REFERENCES[3:]):
        metric.add(prediction=p, reference=r)
    assert metric.compute(audit_profile=None) == whole


def test_columns_as_metadata_equal_rows(metric):
    columns = {key: [row[key] for row in METADATA] for key in METADATA[0]}
    by_rows = metric.compute(predictions=PREDICTIONS, references=REFERENCES, metadata=METADATA,
                             audit_profile=None, return_breakdowns=True)
    by_columns = metric.compute(predictions=PREDICTIONS, references=REFERENCES, metadata=columns,
                                audit_profile=None, return_breakdowns=True)
    assert by_rows == by_columns and set(by_rows["breakdowns"]) == set(columns)


@pytest.mark.parametrize("kwargs,message", [
    ({"predictions": ["a"], "references": ["b", "c"]}, "Mismatch"),
    ({"predictions": ["a"], "references": ["b"], "metadata": [{}, {}]}, "metadata"),
    ({"predictions": ["a"], "references": ["b"], "metadata": {"colour": ["red"]}}, "unknown metadata keys"),
    ({"predictions": [3], "references": ["b"]}, "expected format"),
    ({"predictions": ["a"], "references": ["b"], "workers": 0}, "workers must be at least 1"),
    ({"predictions": ["a"], "references": ["b"], "workers": 2, "time_limit": -1}, "time_limit positive"),
])
def test_clear_value_errors(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs)


def test_unknown_options_are_named(metric):
    with pytest.raises(TypeError, match="bogus"):
        metric.compute(predictions=["a"], references=["b"], bogus=1)


def test_space_app_builds_and_scores(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "ids_metric"))
    import app
    table, details = app.score_pair(PREDICTIONS[0], GOLD_A, "none")
    assert "facet_f1: 1.0" in table and json.loads(details)["f1"] == 1.0
    pytest.importorskip("gradio")
    assert app.build_interface() is not None


def test_metric_card_has_the_canonical_sections():
    card = (ROOT / "ids_metric" / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "sdk: gradio" in card and "app_file: app.py" in card
    for section in ("Metric Description", "How to Use", "Inputs", "Output Values", "Values from Popular Papers",
                    "Examples", "Limitations and Bias", "Citation"):
        assert f"# {section}" in card


def test_the_module_folder_is_a_thin_wrapper_over_the_installed_package():
    """No sibling modules for evaluate to copy: the script imports the distribution, whose requirement the
    Space's requirements.txt states."""
    folder = ROOT / "ids_metric"
    assert sorted(p.name for p in folder.iterdir() if p.name != "__pycache__") == \
        ["README.md", "app.py", "examples", "ids_metric.py", "requirements.txt"]
    assert not list((folder / "examples").rglob("*.py"))  # the Space's example documents, no code
    script = (folder / "ids_metric.py").read_text(encoding="utf-8")
    assert not re.search(r"^from \.", script, re.M) and "# From: ishigaki-ids-bench" in script
    assert "ishigaki-ids-bench" in (folder / "requirements.txt").read_text(encoding="utf-8")


def test_without_the_package_evaluate_names_the_distribution(monkeypatch, tmp_path):
    import evaluate

    monkeypatch.setitem(sys.modules, "idsbench", None)  # as if it were not installed
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    with pytest.raises(ImportError, match="pip install ishigaki-ids-bench"):
        evaluate.load(str(ROOT / "ids_metric"))
