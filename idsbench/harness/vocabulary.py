"""IFC vocabulary for the rule-based baseline: a view of the Stage 1 audit's vocabulary
(`idsbench.vocabulary`) with every template ifcopenshell ships."""
from __future__ import annotations

from functools import lru_cache

from idsbench.vocabulary.psets import PsetTemplate, property_sets, pset_type_filter
from idsbench.vocabulary.schema import IfcClass, concrete_descendants, schema_vocabulary

SCHEMAS = {"IFC2X3": "IFC2X3", "IFC4": "IFC4", "IFC4X3_ADD2": "IFC4X3_ADD2", "IFC4X3": "IFC4X3_ADD2"}
VARIANT = "latest"  # a generator may use every standard set, not only those the 1.0.96 tables know


def schema_of(version: str) -> str | None:
    return SCHEMAS.get(version.upper())


def versions_of(ifc_version: str) -> list[str]:
    """The known schemas of an ifcVersion attribute value ("IFC2X3 IFC4" -> both)."""
    return [s for s in (schema_of(v) for v in ifc_version.split()) if s]


def _entity(schema: str, name: str) -> IfcClass | None:
    cls = schema_vocabulary(schema).classes.get(name.upper())
    return cls if cls is not None and cls.entity else None  # defined types are not entities


def entity_in_all(name: str, schemas: list[str]) -> bool:
    return bool(schemas) and all(_entity(s, name) for s in schemas)


@lru_cache(maxsize=None)
def predefined_types(schema: str, entity: str) -> frozenset[str]:
    return frozenset(cls.predefined if (cls := _entity(schema, entity)) else ())


@lru_cache(maxsize=None)
def attribute_names(schema: str, entity: str) -> frozenset[str]:
    return frozenset(cls.attributes if (cls := _entity(schema, entity)) else ())


@lru_cache(maxsize=None)
def set_properties(schema: str, property_set: str) -> dict[str, str | None]:
    """Property name -> UPPERCASE dataType of a standard Pset_/Qto_ template ({} when not standard)."""
    template = property_sets(schema, VARIANT).get(property_set)
    return {n: (p.data_types or (None,))[0] for n, p in template.properties.items()} if template else {}


def _accepts(schema: str, template: PsetTemplate, upper: str) -> bool:
    """The audit's set type filter, but type classes only for type-driven sets: an occurrence-driven
    set (IFC2X3 Pset_WallCommon) belongs on IfcWall, not on IfcWallType."""
    if "TYPE" in template.template_type:
        return upper in pset_type_filter(schema, VARIANT, template.name)
    return any(upper in concrete_descendants(schema, a) for a in template.applicable)


@lru_cache(maxsize=None)
def applicable_sets(schema: str, entity: str) -> tuple[str, ...]:
    upper = entity.upper()
    return tuple(n for n, t in property_sets(schema, VARIANT).items() if _accepts(schema, t, upper))


def standard_data_type(schemas: list[str], property_set: str, name: str) -> str | None:
    """The template's dataType in the first schema that defines it."""
    return next((t for s in schemas if (t := set_properties(s, property_set).get(name))), None)


def set_entity(schemas: list[str], property_set: str) -> tuple[str, str | None] | None:
    """The first concrete class (and predefined type) a standard set names as applicable, valid in every
    schema: Pset_BoreholeCommon -> IFCBOREHOLE, Pset_SensorTypeSmokeSensor -> IFCSENSOR/SMOKESENSOR."""
    for schema in schemas:
        template = property_sets(schema, VARIANT).get(property_set)
        for name, predefined in zip(template.applicable, template.predefined) if template else ():
            if entity_in_all(name, schemas) and not _entity(schemas[0], name).abstract:
                return name, predefined or None
    return None
