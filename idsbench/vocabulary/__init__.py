"""The IFC vocabulary, derived from ifcopenshell: schema (classes, predefined types, attributes, data
types, relations) and psets (standard property and quantity set templates)."""
