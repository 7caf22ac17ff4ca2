"""IFC vocabulary for the rule-based baseline, from ifcopenshell (built lazily, cached per schema)."""
from __future__ import annotations

from functools import lru_cache

SCHEMAS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3_ADD2", "IFC4X3": "IFC4X3_ADD2"}
QUANTITY_TYPES = {  # quantity templates carry a kind, not a measure type
    "Q_LENGTH": "IFCLENGTHMEASURE", "Q_AREA": "IFCAREAMEASURE", "Q_VOLUME": "IFCVOLUMEMEASURE",
    "Q_WEIGHT": "IFCMASSMEASURE", "Q_COUNT": "IFCCOUNTMEASURE", "Q_TIME": "IFCTIMEMEASURE",
}


def schema_of(version: str) -> str | None:
    return SCHEMAS.get(version.upper())


def versions_of(ifc_version: str) -> list[str]:
    """The known schemas of an ifcVersion attribute value ("IFC2X3 IFC4" -> both)."""
    return [s for s in (schema_of(v) for v in ifc_version.split()) if s]


@lru_cache(maxsize=None)
def _schema(schema: str):
    import ifcopenshell  # noqa: PLC0415  (heavy import, only when the rule-based baseline runs)

    return ifcopenshell.ifcopenshell_wrapper.schema_by_name(schema)


@lru_cache(maxsize=None)
def _templates(schema: str):
    import ifcopenshell.util.pset  # noqa: PLC0415

    return ifcopenshell.util.pset.PsetQto("IFC4X3" if schema == "IFC4X3_ADD2" else schema)


@lru_cache(maxsize=None)
def entity_names(schema: str) -> dict[str, str]:
    """UPPERCASE -> schema spelling, for every entity of the schema."""
    return {e.name().upper(): e.name() for e in _schema(schema).entities()}


def entity_in_all(name: str, schemas: list[str]) -> bool:
    return bool(schemas) and all(name.upper() in entity_names(s) for s in schemas)


@lru_cache(maxsize=None)
def predefined_types(schema: str, entity: str) -> frozenset[str]:
    spelled = entity_names(schema).get(entity.upper())
    if spelled is None:
        return frozenset()
    for attribute in _schema(schema).declaration_by_name(spelled).all_attributes():
        if attribute.name() == "PredefinedType":
            declared = attribute.type_of_attribute().declared_type()
            return frozenset(getattr(declared, "enumeration_items", lambda: ())())
    return frozenset()


@lru_cache(maxsize=None)
def attribute_names(schema: str, entity: str) -> frozenset[str]:
    spelled = entity_names(schema).get(entity.upper())
    if spelled is None:
        return frozenset()
    return frozenset(a.name() for a in _schema(schema).declaration_by_name(spelled).all_attributes())


def _data_type(template) -> str | None:
    if template.TemplateType in QUANTITY_TYPES:
        return QUANTITY_TYPES[template.TemplateType]
    if template.TemplateType == "P_ENUMERATEDVALUE":
        return "IFCLABEL"
    measure = getattr(template, "PrimaryMeasureType", None)
    return measure.upper() if measure else None


@lru_cache(maxsize=None)
def set_properties(schema: str, property_set: str) -> dict[str, str | None]:
    """Property name -> UPPERCASE dataType of a standard Pset_/Qto_ template ({} when not standard)."""
    template = _templates(schema).get_by_name(property_set)
    if template is None:
        return {}
    return {p.Name: _data_type(p) for p in (template.HasPropertyTemplates or ())}


@lru_cache(maxsize=None)
def applicable_sets(schema: str, entity: str) -> tuple[str, ...]:
    spelled = entity_names(schema).get(entity.upper())
    return tuple(_templates(schema).get_applicable_names(spelled)) if spelled else ()


def standard_data_type(schemas: list[str], property_set: str, name: str) -> str | None:
    """The template's dataType in the first schema that defines it."""
    for schema in schemas:
        data_type = set_properties(schema, property_set).get(name)
        if data_type:
            return data_type
    return None


def find_standard_property(schemas: list[str], entity: str | None, name: str) -> str | None:
    """A standard set applicable to `entity` that defines property `name` (first found), else None."""
    if not entity:
        return None
    for schema in schemas:
        for property_set in applicable_sets(schema, entity):
            if name in set_properties(schema, property_set):
                return property_set
    return None


def set_entity(schemas: list[str], property_set: str) -> tuple[str, str | None] | None:
    """The first concrete class (and predefined type) a standard set names as applicable, valid in every
    schema: Pset_BoreholeCommon -> IFCBOREHOLE, Pset_SensorTypeSmokeSensor -> IFCSENSOR/SMOKESENSOR."""
    for schema in schemas:
        template = _templates(schema).get_by_name(property_set)
        for item in ((template.ApplicableEntity or "").split(",") if template else ()):
            name, _, predefined = item.strip().partition("/")
            upper = name.upper()
            if upper and entity_in_all(upper, schemas) and not _is_abstract(schemas[0], upper):
                return upper, predefined or None
    return None


def _is_abstract(schema: str, entity: str) -> bool:
    spelled = entity_names(schema).get(entity)
    return spelled is None or _schema(schema).declaration_by_name(spelled).is_abstract()
