"""The derived IFC vocabulary, kept on disk between processes.

Deriving a schema's tables from ifcopenshell takes about half a second (plus importing ifcopenshell);
reading them back takes milliseconds, so that `ids-bench audit FILE` answers at once. Each table is a
pickle under `<cache>/vocabulary/<key>/`, where the key names the format, the ifcopenshell version and
a hash of the code that derives the tables (schema.py, psets.py): a new ifcopenshell or a change of
the derivation gives a new key, and the tables are derived again. A missing, unreadable or corrupt
file is derived again too; when the folder cannot be written, the tables live in memory only.

The tables live in the project's cache folder ($IDS_BENCH_CACHE, else $XDG_CACHE_HOME/ids-bench, else
~/.cache/ids-bench, as the witness models and pinned prompts do), under `vocabulary/`;
IDS_BENCH_CACHE=off keeps nothing on disk. The files are this package's own output, read only from
that folder.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import tempfile
import time
from collections.abc import Callable
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

FORMAT = 1  # bump when the pickled classes change shape
T = TypeVar("T")
_SOURCES = ("schema.py", "psets.py")


def cache_root() -> Path | None:
    """The cache folder, or None when caching on disk is off."""
    chosen = os.environ.get("IDS_BENCH_CACHE")
    if chosen:
        return None if chosen.strip().lower() in ("off", "0", "none") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ids-bench"


@lru_cache(maxsize=1)
def key() -> str:
    """Format, ifcopenshell version and a hash of the deriving code."""
    try:
        version = metadata.version("ifcopenshell")
    except metadata.PackageNotFoundError:
        version = "unknown"
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((Path(__file__).with_name(name)).read_bytes())
    return f"v{FORMAT}-ifcopenshell-{version}-{digest.hexdigest()[:12]}"


def cached(name: str, build: Callable[[], T]) -> T:
    """`build()`, read from the cache when it holds `name` under the current key, else derived and kept."""
    root = cache_root()
    if root is None:
        return build()
    folder = root / "vocabulary" / key()
    path = folder / f"{name}.pickle"
    try:
        with open(path, "rb") as handle:
            return pickle.load(handle)
    except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: derived again below
        pass
    value = build()
    _write(folder, path, value)
    return value


def _write(folder: Path, path: Path, value: object) -> None:
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=path.stem, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)  # readers see the old file or the whole new one
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        return
    _prune(folder)


def _prune(current: Path) -> None:
    """Remove the tables of other keys unused for a week (an older ifcopenshell or derivation; another
    environment sharing the folder keeps its own while in use)."""
    week_ago = time.time() - 7 * 24 * 3600
    for other in current.parent.iterdir():
        try:
            if other != current and other.is_dir() and other.stat().st_mtime < week_ago:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue
