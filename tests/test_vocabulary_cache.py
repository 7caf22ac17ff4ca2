"""The on-disk vocabulary cache: derived once, read back by later processes, derived again when missing,
stale or corrupt, and never in the way when its folder cannot be written."""
import pickle
import subprocess
import sys

import pytest

from idsbench.vocabulary import cache
from idsbench.vocabulary.schema import schema_vocabulary
from tests.paths import ROOT


def _counting(value):
    calls = []

    def build():
        calls.append(1)
        return value
    return build, calls


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("IDS_BENCH_CACHE", str(tmp_path))
    return tmp_path


def test_derived_once_then_read(folder):
    build, calls = _counting({"a": (1, 2)})
    assert cache.cached("t", build) == {"a": (1, 2)} and calls == [1]
    assert cache.cached("t", build) == {"a": (1, 2)} and calls == [1]  # read from disk
    assert list((folder / "vocabulary" / cache.key()).glob("*.pickle")) == [folder / "vocabulary" / cache.key() / "t.pickle"]


@pytest.mark.parametrize("damage", ["corrupt", "empty", "stale"])
def test_derived_again_when_damaged_or_stale(folder, monkeypatch, damage):
    build, calls = _counting([1])
    cache.cached("t", build)
    path = folder / "vocabulary" / cache.key() / "t.pickle"
    if damage == "corrupt":
        path.write_bytes(b"not a pickle")
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        monkeypatch.setattr(cache, "key", lambda: "v0-ifcopenshell-older-000000000000")
    assert cache.cached("t", build) == [1] and calls == [1, 1]


@pytest.mark.parametrize("setting", ["off", "unwritable"])
def test_memory_only_when_off_or_unwritable(tmp_path, monkeypatch, setting):
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    monkeypatch.setenv("IDS_BENCH_CACHE", "off" if setting == "off" else str(blocked / "below"))
    build, calls = _counting(3)
    assert cache.cached("t", build) == 3 and cache.cached("t", build) == 3 and calls == [1, 1]


def test_the_key_names_the_ifcopenshell_version():
    from importlib import metadata

    assert f"ifcopenshell-{metadata.version('ifcopenshell')}-" in cache.key()


def test_schema_tables_survive_the_round_trip():
    vocabulary = schema_vocabulary("IFC4")
    again = pickle.loads(pickle.dumps(vocabulary))
    assert (again.classes, again.attributes, again.data_types, again.subclasses) == \
           (vocabulary.classes, vocabulary.attributes, vocabulary.data_types, vocabulary.subclasses)


def test_a_warm_process_audits_without_ifcopenshell_or_ifctester():
    """The XSD is read from ifctester's folder without importing it, the vocabulary from the cache."""
    code = ("import sys; from idsbench.audit import audit; from idsbench.audit.rules import RULES; "
            "assert audit(RULES[103].passing()).status == 0; "
            "print(sorted(m for m in ('ifcopenshell', 'ifctester', 'xmlschema') if m in sys.modules))")
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr[-2000:]
    assert runs[1].stdout.strip() == "[]"
