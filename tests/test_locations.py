"""Which data the commands use: the checkout you are in, else the one the package runs from, else the copy
installed with the package."""
from pathlib import Path

from idsbench import locations


def make_checkout(folder: Path) -> Path:
    (folder / "data" / "scenarios").mkdir(parents=True)
    (folder / locations.FRONT_DOOR).write_text("", encoding="utf-8")
    return folder


def test_a_checkout_is_the_front_door_beside_the_scenarios(tmp_path):
    assert not locations.is_checkout(tmp_path)
    assert locations.is_checkout(make_checkout(tmp_path / "c"))
    assert locations.checkout_above(tmp_path / "c" / "data" / "scenarios") == (tmp_path / "c").resolve()
    assert locations.checkout_above(tmp_path) is None


def test_the_checkout_you_are_in_wins(tmp_path, monkeypatch):
    root = make_checkout(tmp_path / "c")
    monkeypatch.chdir(root / "data")
    assert locations.find_checkout() == root.resolve() and locations.default_data() == root.resolve() / "data"
    assert "checkout" in locations.describe_data(locations.default_data())


def test_outside_any_checkout_the_installed_copy_is_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(locations, "PACKAGE", tmp_path / "site-packages" / "idsbench")
    monkeypatch.setattr(locations, "BUNDLED", tmp_path / "site-packages" / "idsbench" / "_data")
    assert locations.find_checkout() is None
    assert locations.default_data() == tmp_path / "site-packages" / "idsbench" / "_data" / "data"
    assert "installed with the package" in locations.describe_data(locations.default_data())
