"""The versioned signature printed and stored with every score (in the spirit of sacreBLEU)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from importlib import metadata

from idsbench.audit.profiles import NO_AUDIT

VERSION = "0.1.0"  # the scorer's version, under the metric's name `ids_metric`; bump it when a score can change
FACET_MODE = "paper"


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "none"


def data_hash(golds: Iterable[str]) -> str:
    """sha256 prefix over the gold documents, order-independent: the same references give the same
    hash whether they come from the CLI (sorted by id) or from `evaluate` (caller's order)."""
    digest = hashlib.sha256()
    for gold in sorted(golds):
        digest.update(json.dumps(gold, ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()[:12]


def signature(*, n: int, data: str, audit_profile: str | None, extra: dict | None = None) -> str:
    """e.g. `ids_metric:0.1.0|audit:ids-tool-1.0.96|facets:paper|data:3f2a…|n:166|ifcopenshell:0.9.0`."""
    parts = {
        "ids_metric": VERSION,
        "audit": audit_profile or NO_AUDIT,
        "facets": FACET_MODE,
        "data": data,
        "n": str(n),
        "ifcopenshell": package_version("ifcopenshell"),
    }
    parts.update(extra or {})
    return "|".join(f"{key}:{value}" for key, value in parts.items())
