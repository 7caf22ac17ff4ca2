"""Where things are: the checkout the commands run in, and the data they score by default.

Inside a checkout (the working directory or one of its parents, or the source tree of an editable
install) the checkout's data/ is used, so that maintainers editing scenarios never score stale
files. Elsewhere the copy of data/test-*.jsonl installed with the package is used. The signature's
`data:` hash tells which data a score was measured on.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
BUNDLED = PACKAGE / "_data"  # in a wheel: _data/data/test-*.jsonl and _data/.huggingface.yaml
FRONT_DOOR = "ishigaki_ids_bench.py"


def is_checkout(folder: Path) -> bool:
    """A project checkout: the dataset's front door beside the scenario sources."""
    return (folder / FRONT_DOOR).is_file() and (folder / "data" / "scenarios").is_dir()


def checkout_above(path: Path) -> Path | None:
    """The checkout `path` is in (itself or an ancestor), or None."""
    path = Path(path).resolve()
    return next((folder for folder in (path, *path.parents) if is_checkout(folder)), None)


def find_checkout() -> Path | None:
    """The checkout the working directory is in, else the one this package runs from (source tree,
    editable install); None outside any."""
    return checkout_above(Path.cwd()) or (PACKAGE.parent if is_checkout(PACKAGE.parent) else None)


def dataset_root() -> Path:
    """The folder whose data/ holds the default data files: a checkout, else the installed copy."""
    return find_checkout() or BUNDLED


def default_data() -> Path:
    return dataset_root() / "data"


def describe_data(path: Path) -> str:
    """Which data a command uses, in words (printed with its results)."""
    resolved = Path(path).resolve()
    if resolved == (BUNDLED / "data").resolve():
        return f"{resolved} (the copy installed with the package)"
    root = checkout_above(resolved)
    return f"{resolved} (checkout {root})" if root is not None else str(resolved)


DATA_HELP = "data JSONL file or folder (default: data/ of the checkout you are in, else the copy installed " \
            "with the package)"
