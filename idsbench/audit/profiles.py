"""Audit profiles: which version of the IDS-Audit-tool behaviour to reproduce.

A profile is data: every behaviour that changed between ids-tool 1.0.96 (the validator
the paper used) and the newest snapshot read (docs/audit.md, profiles)
is one switch here, so the check code reads `profile.x` instead of comparing names.
"""
from __future__ import annotations

from dataclasses import dataclass

from .result import Status


@dataclass(frozen=True)
class Profile:
    name: str
    version: str  # the tool version reproduced, shown in signatures
    pset_variant: str  # a variant of vocabulary/psets.py
    empty_document_status: Status  # an empty stream is "not an IDS" in 1.0.96
    accepted_bases: tuple[str, ...]  # extra restriction base spellings accepted
    check_bounds: bool  # min/max facet values parsed against the base (XsBoundary)
    check_enumerated_property_values: bool  # values of enumerated standard properties
    optional_specification_needs_requirements: bool  # 204 for optional specs without them
    predefined_enum_check_only_without_userdefined: bool
    skip_empty_predefined_type: bool
    accept_void_fill_relation: bool  # "IFCRELVOIDSELEMENT IFCRELFILLSELEMENT"
    ifc2x3_occurrence_mapping: bool  # IFC4 occurrence names valid in IFC2X3 (e.g. IFCAIRTERMINAL)
    applicability_occurs_check_only_097: bool
    regex_message_word: str  # the 109 message ("Ivalid" is the 1.0.96 typo)
    backing_overrides: tuple[tuple[str, str], ...] = ()  # dataType -> XSD base changes


PROFILES_DATA = (
    Profile(
        name="ids-tool-1.0.96", version="1.0.96", pset_variant="tool-1.0.96",
        empty_document_status=Status.NOT_IMPLEMENTED_ERROR, accepted_bases=(),
        check_bounds=False, check_enumerated_property_values=False,
        optional_specification_needs_requirements=False,
        predefined_enum_check_only_without_userdefined=False, skip_empty_predefined_type=False,
        accept_void_fill_relation=False, ifc2x3_occurrence_mapping=False,
        applicability_occurs_check_only_097=False, regex_message_word="Ivalid",
    ),
    Profile(
        name="ids-tool-latest", version="cfaf222", pset_variant="latest",
        empty_document_status=Status.IDS_STRUCTURE_ERROR, accepted_bases=("xs:anyURI", "xs:time"),
        check_bounds=True, check_enumerated_property_values=True,
        optional_specification_needs_requirements=True,
        predefined_enum_check_only_without_userdefined=True, skip_empty_predefined_type=True,
        accept_void_fill_relation=True, ifc2x3_occurrence_mapping=True,
        applicability_occurs_check_only_097=True, regex_message_word="Invalid",
        backing_overrides=(("IFCURIREFERENCE", "xs:anyURI"),),
    ),
)
PROFILES = tuple(p.name for p in PROFILES_DATA)
DEFAULT_PROFILE = PROFILES[0]  # the paper's validator; every default in the project is this name
NO_AUDIT = "none"  # the command-line spelling of "skip Stage 1"
_BY_NAME = {p.name: p for p in PROFILES_DATA}


def get_profile(name: str) -> Profile:
    """The profile called `name`; a ValueError names the valid ones."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown audit profile {name!r}; valid profiles: {', '.join(PROFILES)}") from None
