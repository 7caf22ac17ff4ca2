"""Reading untrusted IDS documents for the audit, with the parser xmlparse.py configures for it.

lxml/libxml2 with no network, no DTD loading, no entity resolution and its default limits
(no huge_tree: nesting depth 256, entity amplification checks). The document prolog is
read first, like the tool's version probe (an XmlReader with DtdProcessing.Prohibit that
stops at the first element): a DOCTYPE stops everything before the rest is parsed. When
the XML breaks after the root start tag, the elements read so far are kept, because the
tool's single streaming pass has audited them before it meets the error. Reading stops once
a document has more than MAX_ELEMENTS elements (it is not audited then), so ten megabytes of
`<a/>` never become 2.6 million element proxies (11 s and 1.1 GB).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from idsbench.xmlparse import MAX_ELEMENTS, lxml_pull_parser

MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
_PROBE_CHUNK = 4096
_READ_CHUNK = 1 << 16
_XSI_SCHEMA_LOCATION = "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation"


@dataclass(frozen=True)
class XmlError:
    message: str
    line: int | None
    column: int | None


@dataclass
class ParsedDocument:
    """Outcome of reading a document: `root` is None when no element could be read."""

    root: etree._Element | None
    doctype: bool
    error: XmlError | None  # well-formedness error (before or after the root start tag)
    ended: set | None  # elements whose end tag was read, when `error` is set
    oversized: bool = False  # more than MAX_ELEMENTS elements: reading stopped there

    @property
    def root_local_name(self) -> str | None:
        # string split, not etree.QName: libxml2 recovers names such as ":" that QName refuses
        return self.root.tag.rsplit("}", 1)[-1] if self.root is not None else None

    @property
    def schema_location(self) -> str | None:
        return self.root.get(_XSI_SCHEMA_LOCATION) if self.root is not None else None


def as_bytes(document: str | bytes) -> tuple[bytes, str | None]:
    """UTF-8 bytes of a str document (its declared encoding is then ignored, as .NET does
    for text it reads from a string); bytes are parsed as given."""
    if isinstance(document, str):
        return document.encode("utf-8", errors="surrogatepass"), "utf-8"
    return bytes(document), None


def _error(exc: Exception) -> XmlError:
    line, column = getattr(exc, "position", (None, None)) or (None, None)
    message = re.sub(r" \(<string>, line \d+\)$", "", str(exc)) or type(exc).__name__
    return XmlError(message, line, column)


def _has_doctype(root: etree._Element) -> bool:
    info = root.getroottree().docinfo
    return bool(info.doctype) or info.internalDTD is not None or info.externalDTD is not None


class _Reader:
    def __init__(self, data: bytes, encoding: str | None):
        self.data, self.parser = data, lxml_pull_parser(encoding)
        self.events: list[tuple[str, etree._Element]] = []
        self.started = 0  # elements read so far
        self.offset = 0
        self.closed = False

    def feed(self, size: int | None) -> XmlError | None:
        if self.closed:
            return None
        end = len(self.data) if size is None else min(len(self.data), self.offset + size)
        try:
            if end > self.offset:
                self.parser.feed(self.data[self.offset:end])
            self.offset = end
            if end >= len(self.data):
                self.closed = True
                self.parser.close()
        except (etree.XMLSyntaxError, etree.ParserError, ValueError, LookupError) as exc:
            self.offset, self.closed = len(self.data), True
            return _error(exc)
        finally:
            new = list(self.parser.read_events())
            self.started += sum(1 for event, _ in new if event == "start")
            self.events.extend(new)
        return None

    def read_rest(self) -> XmlError | None:
        """Read on, chunk by chunk, until the end, an error, or more than MAX_ELEMENTS elements."""
        while not self.closed and self.started <= MAX_ELEMENTS:
            error = self.feed(_READ_CHUNK)
            if error is not None:
                return error
        return None

    def root(self) -> etree._Element | None:
        return self.events[0][1] if self.events else None


def parse_document(data: bytes, encoding: str | None = None) -> ParsedDocument:
    """Read the prolog up to the root start tag, then (if no DOCTYPE) the whole document."""
    reader = _Reader(data, encoding)
    error = None
    while reader.root() is None and reader.offset < len(data) and error is None:
        error = reader.feed(_PROBE_CHUNK)
    if reader.root() is None:
        error = error or reader.feed(None) or XmlError("Root element is missing.", 1, 1)
        return ParsedDocument(None, False, error, None)
    root = reader.root()
    if _has_doctype(root):
        return ParsedDocument(root, True, None, None)
    error = error or reader.read_rest()
    oversized = reader.started > MAX_ELEMENTS
    if error is None:
        return ParsedDocument(root, False, None, None, oversized)
    ended = {el for event, el in reader.events if event == "end"}
    return ParsedDocument(root, False, error, ended, oversized)
