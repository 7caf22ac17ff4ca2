"""The evaluate module: loads from a clean cache offline, equals the library, runs its doctests."""
import doctest
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from idsdocs import DOOR, WALL, ids, spec, entity
from ids_metric.evaluation import Reference
from ids_metric.scoring import score

GOLD_A = ids(WALL, DOOR)
GOLD_B = ids(WALL)
PREDICTIONS = [f"```ids\n{GOLD_A}\n```", "sorry", None, ids(WALL), ids(spec([entity("IFCWALLX")]))]
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
print(json.dumps(metric.compute(**inputs)))
"""


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


@pytest.mark.parametrize("audit_profile, pool", [("ids-tool-1.0.96", {}), (None, {}),
                                                 ("ids-tool-1.0.96", {"workers": 2, "time_limit": 30})])
def test_loaded_from_a_clean_cache_offline_equals_the_library(tmp_path, audit_profile, pool):
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    env.pop("HF_MODULES_CACHE", None)
    inputs = {"path": str(ROOT / "ids_metric"), "predictions": PREDICTIONS, "references": REFERENCES,
              "metadata": METADATA, "audit_profile": audit_profile,
              "return_breakdowns": True, "return_per_example": True, **pool}
    done = subprocess.run([sys.executable, "-c", LOAD_AND_COMPUTE], input=json.dumps(inputs), env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == json.loads(json.dumps(library_result(audit_profile)))
    copied = list((tmp_path / "hf").rglob("ids_metric.py"))
    assert copied, "evaluate did not copy the module into the clean cache"


@pytest.fixture(scope="module")
def metric():
    import evaluate
    return evaluate.load(str(ROOT / "ids_metric"))


def test_doctest_examples_run(metric, monkeypatch):
    from ids_metric import ids_metric as module
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(module._KWARGS_DESCRIPTION, {}, "ids_metric", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


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
    ({"predictions": ["a"], "references": ["b"], "bogus": 1}, "unknown options"),
    ({"predictions": ["a"], "references": ["b"], "metadata": [{}, {}]}, "metadata"),
    ({"predictions": ["a"], "references": ["b"], "metadata": {"colour": ["red"]}}, "unknown metadata keys"),
    ({"predictions": [3], "references": ["b"]}, "expected format"),
    ({"predictions": ["a"], "references": ["b"], "workers": 0}, "workers must be at least 1"),
    ({"predictions": ["a"], "references": ["b"], "workers": 2, "time_limit": -1}, "time_limit positive"),
])
def test_clear_value_errors(metric, kwargs, message):
    with pytest.raises(ValueError, match=message):
        metric.compute(**kwargs)


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


def test_every_module_the_metric_reaches_is_imported_by_its_main_script():
    """evaluate copies only the siblings named in ids_metric.py; a transitive-only import would break the Hub copy."""
    import re
    folder = ROOT / "ids_metric"
    relative = re.compile(r"^\s*from \.(\w+) import", re.MULTILINE)
    direct = set(relative.findall((folder / "ids_metric.py").read_text(encoding="utf-8")))
    reached, todo = set(), list(direct)
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += relative.findall((folder / f"{name}.py").read_text(encoding="utf-8"))
    assert reached - direct == set()
