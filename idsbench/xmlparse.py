"""Hardened XML parsing of untrusted documents: the one place where parsers for model output are set up.

Stage 2 parses with `parse_xml`; the audit reads documents with `lxml_pull_parser` (audit/xml.py).
`parse_xml` keeps the published scorer's semantics.

The published facet scorer parses with the standard library's ElementTree (expat): comments and
processing instructions vanish (the text around a comment is joined), CDATA is plain text, internal
entities are expanded and external ones are never fetched. We use the very same parser, so results
match by construction, and add what a service scoring untrusted output needs:

- a size bound, checked before parsing;
- expat's own billion-laughs / quadratic-blowup protection (expat >= 2.4, bundled with CPython);
- no external entity or DTD is ever loaded (ElementTree sets no external-entity handler);
- depth and element-count bounds, checked while parsing (chunk by chunk), so that later tree
  walks stay safe and a document of millions of tiny elements is refused before its tree fills
  the memory (Stage 2 keeps a canonical form per element: ~4 µs and ~400 bytes each).

The bounds are the only places where a result can differ from the published scorer's, and only
for documents no IDS needs: over 20 MB, over 256 levels, or over 200 000 elements.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from lxml import etree

MAX_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 256
MAX_ELEMENTS = 200_000  # Stage 2 and the audit alike
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Parsed:
    """A parsed document, or the reason it could not be parsed (never both)."""

    root: ET.Element | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.root is not None


def _shape_error(depth: int, count: int) -> str | None:
    if depth > MAX_DEPTH:
        return f"document nested deeper than {MAX_DEPTH} elements"
    if count > MAX_ELEMENTS:
        return f"document has more than {MAX_ELEMENTS} elements"
    return None


def _parse_bounded(data: bytes) -> Parsed:
    """ElementTree's parse (the same expat parser and tree builder as `ET.fromstring`), fed in
    chunks so that depth and size are checked before the whole tree is built."""
    parser = ET.XMLPullParser(events=("start", "end"))
    root, depth, count = None, 0, 0
    for offset in range(0, len(data), _CHUNK):
        parser.feed(data[offset:offset + _CHUNK])
        for event, element in parser.read_events():
            if event == "end":
                depth -= 1
                continue
            root = element if root is None else root
            depth, count = depth + 1, count + 1
            error = _shape_error(depth, count)
            if error:
                return Parsed(None, error)
    parser.close()
    return Parsed(root)


def lxml_pull_parser(encoding: str | None) -> etree.XMLPullParser:
    """The audit's parser: libxml2 with no network, no DTD, no entity resolution and its default limits
    (no huge_tree: nesting depth 256, entity amplification checks); comments and PIs kept as nodes, as
    the validator's reader sees them, CDATA as text."""
    return etree.XMLPullParser(
        events=("start", "end"), encoding=encoding, no_network=True, load_dtd=False,
        resolve_entities=False, dtd_validation=False, huge_tree=False, remove_comments=False,
        remove_pis=False, strip_cdata=True,
    )


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
        return _parse_bounded(document)
    except ET.ParseError as exc:
        return Parsed(None, f"not well-formed XML: {exc}")
    except (ValueError, LookupError, RecursionError, MemoryError) as exc:
        return Parsed(None, f"unparsable XML: {type(exc).__name__}: {exc}")
