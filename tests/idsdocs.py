"""Small builders for IDS documents used across the tests."""

HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ids xmlns="http://standards.buildingsmart.org/IDS" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://standards.buildingsmart.org/IDS '
    'http://standards.buildingsmart.org/IDS/1.0/ids.xsd">'
)


def simple(tag, value):
    return f"<{tag}><simpleValue>{value}</simpleValue></{tag}>"


def entity(name, predefined=None):
    return "<entity>" + simple("name", name) + (simple("predefinedType", predefined) if predefined else "") + "</entity>"


def prop(pset, name, value=None, data_type="IFCLABEL", cardinality="required"):
    attrs = (f' dataType="{data_type}"' if data_type else "") + (f' cardinality="{cardinality}"' if cardinality else "")
    inner = simple("propertySet", pset) + simple("baseName", name) + (simple("value", value) if value is not None else "")
    return f"<property{attrs}>{inner}</property>"


def attribute(name, value=None, cardinality="required"):
    inner = simple("name", name) + (simple("value", value) if value is not None else "")
    return f'<attribute cardinality="{cardinality}">{inner}</attribute>'


def spec(applicability, requirements=(), name="S", version="IFC4"):
    req = f"<requirements>{''.join(requirements)}</requirements>" if requirements else ""
    return (f'<specification name="{name}" ifcVersion="{version}">'
            f'<applicability minOccurs="1" maxOccurs="unbounded">{"".join(applicability)}</applicability>{req}'
            "</specification>")


def ids(*specs, title="t"):
    return f"{HEADER}<info><title>{title}</title></info><specifications>{''.join(specs)}</specifications></ids>"


WALL = spec([entity("IFCWALL")], [prop("Pset_WallCommon", "FireRating", "EI60"),
                                   prop("Pset_WallCommon", "IsExternal", "true", "IFCBOOLEAN")], name="walls")
DOOR = spec([entity("IFCDOOR")], [attribute("Name"), prop("Pset_DoorCommon", "FireRating")], name="doors")
