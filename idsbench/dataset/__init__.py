"""The dataset: record schema and configs (schema), loading (load), the maintainers' build of data
files and card from the scenario sources (scenarios, ids_analysis, composition, card, build), the
quality gates (gates) and their commands (cli). `ishigaki_ids_bench.py` is the front door over this.

Names are imported on first use, so that a command that needs none of them (`facts`) does not pay for
importing `datasets`."""
import sys
from importlib import import_module
from types import ModuleType

_HOMES = {
    "build": ("BuildError", "build", "build_records", "card_yaml", "composition_of", "hub_yaml", "record_of",
              "render_outputs", "report"),
    "gates": ("CheckReport", "run_checks"),
    "load": ("load",),
    "schema": ("CONFIGS", "CORE_FIELDS", "DEFAULT_CONFIG", "DERIVED_FIELDS", "DOMAINS", "FEATURES", "IFC_VERSIONS",
               "INPUT_FORMATS", "LANGUAGES", "OFFICIAL_HUB_ID", "SPLIT", "TURN_TYPES", "Config", "validate_record"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}
# Functions named like their submodule: importing the submodule binds the module to the package's
# attribute, so the package answers these names itself.
_SHADOWED = frozenset({"build", "load"})

__all__ = ["BuildError", "CONFIGS", "CORE_FIELDS", "CheckReport", "Config", "DEFAULT_CONFIG", "DERIVED_FIELDS",
           "DOMAINS", "FEATURES", "IFC_VERSIONS", "INPUT_FORMATS", "LANGUAGES", "OFFICIAL_HUB_ID", "SPLIT",
           "TURN_TYPES", "build", "build_records", "card_yaml", "check", "composition_of", "hub_yaml", "load",
           "record_of", "render_outputs", "report", "validate_record"]


def resolve(name: str):
    """A public name, imported from its module."""
    if name == "check":
        return resolve("run_checks")
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)


def __getattr__(name: str):
    value = resolve(name)
    if name not in _SHADOWED:
        globals()[name] = value
    return value


class _Package(ModuleType):
    def __getattribute__(self, name: str):
        if name in _SHADOWED:
            return resolve(name)
        return super().__getattribute__(name)


sys.modules[__name__].__class__ = _Package
