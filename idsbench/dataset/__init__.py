"""The dataset: record schema and configs (schema), loading (load), the maintainers' build of data
files and card from the scenario sources (scenarios, ids_analysis, composition, card, build), the
quality gates (gates) and their commands (cli). `ishigaki_ids_bench.py` is the front door over this."""
from .build import BuildError, build, build_records, card_yaml, composition_of, hub_yaml, record_of, render_outputs, report
from .gates import CheckReport, run_checks
from .load import load
from .schema import (CONFIGS, CORE_FIELDS, DEFAULT_CONFIG, DERIVED_FIELDS, DOMAINS, FEATURES, IFC_VERSIONS,
                     INPUT_FORMATS, LANGUAGES, OFFICIAL_HUB_ID, SPLIT, TURN_TYPES, Config, validate_record)

check = run_checks

__all__ = ["BuildError", "CONFIGS", "CORE_FIELDS", "CheckReport", "Config", "DEFAULT_CONFIG", "DERIVED_FIELDS",
           "DOMAINS", "FEATURES", "IFC_VERSIONS", "INPUT_FORMATS", "LANGUAGES", "OFFICIAL_HUB_ID", "SPLIT",
           "TURN_TYPES", "build", "build_records", "card_yaml", "check", "composition_of", "hub_yaml", "load",
           "record_of", "render_outputs", "report", "validate_record"]
