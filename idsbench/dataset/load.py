"""Loading the benchmark as a datasets.Dataset: from a checkout, the copy installed with the package,
a folder with the same layout, or a Hub repo such as the official release."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import datasets

from idsbench.locations import dataset_root

from .schema import CONFIGS, DEFAULT_CONFIG, DOMAINS, IFC_VERSIONS, OFFICIAL_HUB_ID, SPLIT


def _require(value: Optional[str], allowed, what: str) -> None:
    if value is not None and value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(allowed)}")


def _resolve_source(source: Optional[str]) -> str:
    if source is None:
        return str(dataset_root())
    if Path(source).is_dir():
        folder = Path(source).resolve()
        if (folder / f"{folder.name}.py").is_file():
            raise ValueError(f"{folder} holds {folder.name}.py, which datasets >= 4 refuses as a loading "
                             "script; rename the folder")
        return str(folder)
    if re.fullmatch(r"[\w.-]+/[\w.-]+", source):
        return source
    raise ValueError(f"source {source!r} is neither a local folder nor a Hub repo id like {OFFICIAL_HUB_ID}")


def load(config: str = DEFAULT_CONFIG, *, domain: Optional[str] = None, ifc_version: Optional[str] = None,
         source: Optional[str] = None, split: str = SPLIT) -> datasets.Dataset:
    """Load one config of the benchmark as a datasets.Dataset, optionally filtered by domain / IFC version.

    source: None = the checkout you are in (else the copy installed with the package); a local folder
    with the same layout; or a Hub repo id such as "ONESTRUCTION/Ishigaki-IDS-Bench". A source without
    our YAML configs is loaded whole and the config applied as a column filter, so the official release
    works with every config name.
    """
    _require(config, CONFIGS, "config")
    _require(domain, DOMAINS, "domain")
    _require(ifc_version, IFC_VERSIONS, "ifc_version")
    path = _resolve_source(source)
    if config in datasets.get_dataset_config_names(path):
        ds = datasets.load_dataset(path, config, split=split)
    else:
        ds = datasets.load_dataset(path, split=split)
        c = CONFIGS[config]
        if c.column:
            ds = ds.filter(lambda v: v == c.value, input_columns=c.column)
    if domain:
        ds = ds.filter(lambda v: v == domain, input_columns="domain")
    if ifc_version:
        ds = ds.filter(lambda v: ifc_version in v, input_columns="ifc_versions")
    return ds
