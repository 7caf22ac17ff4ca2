"""Witness elements -> a small IFC model, with ifcopenshell's api, the same bytes every time.

Each model has an IfcProject with SI units in metres, square and cubic metres, radians and seconds (so values are stored
as the IDS writes them) and the witness elements, each named after its witness. GlobalIds are
derived from a seed and the creation order, and timestamps are fixed, so a model rebuilt from the
same plan is identical (and can be written and opened in any IFC viewer).
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence

import ifcopenshell
import ifcopenshell.api.owner
import ifcopenshell.api.project
import ifcopenshell.api.pset
import ifcopenshell.api.root
import ifcopenshell.api.type
import ifcopenshell.api.unit
import ifcopenshell.guid

from . import ifcschema
from .elements import Element

FIXED_TIME = 1_700_000_000  # 2023-11-14, for OwnerHistory and the header
FIXED_STAMP = "2023-11-14T22:13:20"
_UNITS = ("LENGTHUNIT", "AREAUNIT", "VOLUMEUNIT", "PLANEANGLEUNIT", "TIMEUNIT")


def _scaffold(version: str, name: str) -> ifcopenshell.file:
    model = ifcopenshell.api.project.create_file(version=version)
    if version == "IFC2X3":  # IFC2X3 needs an owner history on every rooted entity
        person = ifcopenshell.api.owner.add_person(model, identification="W", family_name="Witness")
        org = ifcopenshell.api.owner.add_organisation(model, identification="IDSB", name="Ishigaki-IDS-Bench")
        ifcopenshell.api.owner.add_person_and_organisation(model, person=person, organisation=org)
        ifcopenshell.api.owner.add_application(model, application_developer=org, version="1",
                                               application_full_name="Ishigaki-IDS-Bench witnesses",
                                               application_identifier="ids-bench")
    ifcopenshell.api.root.create_entity(model, ifc_class="IfcProject", name=name)
    # No mass unit: ifctester 0.9 converts weight quantities to grams when kilograms are declared.
    units = [ifcopenshell.api.unit.add_si_unit(model, unit_type=u) for u in _UNITS]
    assignment = ifcopenshell.api.unit.assign_unit(model, units=units)
    assignment.Units = tuple(units)  # the api keeps them in a set: fix the order
    return model


def _set_predefined_type(model: ifcopenshell.file, product, element: Element) -> None:
    pdt = element.predefined_type
    if not pdt:
        return
    version = model.schema_identifier
    own = ifcschema.predefined_types(version, element.ifc_class)
    if own:
        _write_pdt(product, pdt, own)
        return
    carrier = ifcschema.type_class(version, element.ifc_class)
    if carrier is None:
        return
    kind = ifcopenshell.api.root.create_entity(model, ifc_class=carrier, name=f"{product.Name} type")
    _write_pdt(kind, pdt, ifcschema.predefined_types(version, carrier))
    ifcopenshell.api.type.assign_type(model, related_objects=[product], relating_type=kind)


def _write_pdt(entity, pdt: str, items: Sequence[str]) -> None:
    if pdt in items:
        entity.PredefinedType = pdt
        return
    entity.PredefinedType = "USERDEFINED"  # a custom predefined type lives in ObjectType / ElementType
    for attribute in ("ObjectType", "ElementType", "ProcessType"):
        if hasattr(entity, attribute):
            setattr(entity, attribute, pdt)
            return


def _properties(model: ifcopenshell.file, product, element: Element) -> None:
    for pset_name, props in element.psets.items():
        if pset_name.startswith("Qto_"):
            qto = ifcopenshell.api.pset.add_qto(model, product=product, name=pset_name)
            qto.Quantities = [model.create_entity(v.ifc_type, name, None, None, v.value)
                              if v.ifc_type.startswith("IfcQuantity") else
                              model.create_entity("IfcQuantityLength", name, None, None, float(v.value))
                              for name, v in props.items()]
            continue
        pset = ifcopenshell.api.pset.add_pset(model, product=product, name=pset_name)
        values = {name: model.create_entity(v.ifc_type, v.value) for name, v in props.items()}
        ifcopenshell.api.pset.edit_pset(model, pset=pset, properties=values)


def add_element(model: ifcopenshell.file, name: str, element: Element):
    """One witness element; returns the product."""
    element = element.finished()
    product = ifcopenshell.api.root.create_entity(model, ifc_class=element.ifc_class, name=name)
    _set_predefined_type(model, product, element)
    for attribute, value in element.attributes.items():
        setattr(product, attribute, value)
    _properties(model, product, element)
    return product


def _deterministic(model: ifcopenshell.file, seed: str) -> None:
    for index, root in enumerate(model.by_type("IfcRoot")):
        digest = hashlib.sha256(f"{seed}:{index}".encode()).hexdigest()[:32]
        root.GlobalId = ifcopenshell.guid.compress(digest)
    model.header.file_name.time_stamp = FIXED_STAMP
    for history in model.by_type("IfcOwnerHistory"):
        history.CreationDate = FIXED_TIME
        if history.LastModifiedDate is not None:
            history.LastModifiedDate = FIXED_TIME


def build(version: str, seed: str, elements: Sequence[tuple[str, Element]]) -> tuple[ifcopenshell.file, dict[str, int]]:
    """A model holding the named elements; {name: step id} for reading verdicts back."""
    model = _scaffold(version, f"Witnesses {seed[:12]}")
    ids = {name: add_element(model, name, element).id() for name, element in elements}
    _deterministic(model, seed)
    return model, ids


def write(model: ifcopenshell.file, path: str) -> None:
    model.header.file_name.time_stamp = FIXED_STAMP
    model.write(path)
