"""Hardened XML parsing of untrusted documents, with the published scorer's semantics.

The published facet scorer parses with the standard library's ElementTree (expat): comments and
processing instructions vanish (the text around a comment is joined), CDATA is plain text, internal
entities are expanded and external ones are never fetched. We use the very same parser, so results
match by construction, and add what a service scoring untrusted output needs:

- a size bound, checked before parsing;
- expat's own billion-laughs / quadratic-blowup protection (expat >= 2.4, bundled with CPython);
- no external entity or DTD is ever loaded (ElementTree sets no external-entity handler);
- a depth bound, checked after parsing without recursion, so later tree walks stay safe.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

MAX_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 256


@dataclass(frozen=True)
class Parsed:
    """A parsed document, or the reason it could not be parsed (never both)."""

    root: ET.Element | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.root is not None


def _depth_exceeds(root: ET.Element, limit: int) -> bool:
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in element)
    return False


def parse_xml(document: str | bytes) -> Parsed:
    """Parse the UTF-8 bytes of `document`; errors are returned as values, never raised."""
    if isinstance(document, str):
        try:
            document = document.encode("utf-8")
        except UnicodeEncodeError as exc:
            return Parsed(None, f"not encodable as UTF-8: {exc.reason}")
    if not document.strip():
        return Parsed(None, "empty document")
    if len(document) > MAX_BYTES:
        return Parsed(None, f"document too large: {len(document)} bytes > {MAX_BYTES}")
    try:
        root = ET.fromstring(document)
    except ET.ParseError as exc:
        return Parsed(None, f"not well-formed XML: {exc}")
    except (ValueError, LookupError, RecursionError, MemoryError) as exc:
        return Parsed(None, f"unparsable XML: {type(exc).__name__}: {exc}")
    if _depth_exceeds(root, MAX_DEPTH):
        return Parsed(None, f"document nested deeper than {MAX_DEPTH} elements")
    return Parsed(root)
