"""Hardened XML parsing of untrusted documents: the one place where parsers for model output are set up.

A candidate document is parsed once (`Candidate`) and both stages read that parse:

- the audit reads it as the validator does (`IdsReader`): libxml2 with no network, no DTD loading, no
  entity resolution and its default limits (nesting depth 256, entity amplification checks), comments
  and PIs kept as nodes; first up to the root start tag (the version probe), then the rest on demand,
  keeping what was read before a well-formedness error;
- Stage 2 sees it with the published scorer's semantics (`Candidate.stage2`): the scorer parsed with the
  standard library's ElementTree (expat), where comments and processing instructions vanish (text
  around a comment is joined), CDATA is text, internal entities are expanded and external ones never
  fetched. The libxml2 tree gives the same elements, attributes and texts wherever both parsers accept
  the document, once comment and PI nodes are skipped and text is joined across them
  (facets/blocks.py reads it that way). Where they could differ, Stage 2 parses again with ElementTree
  itself (`parse_xml`): a DOCTYPE (entities), a declared encoding other than UTF-8, a text that is not
  valid UTF-8, any document libxml2 refuses (so that the error, or the tree expat still builds, is the
  scorer's) and a non-ASCII document that expat refuses (libxml2 takes names by XML 1.0 fifth
  edition, expat by the fourth; expat is asked, without building a tree).

`parse_xml` adds what a service scoring untrusted output needs: a size bound checked before parsing,
expat's billion-laughs protection, no external entity or DTD, and depth and element-count bounds
checked while parsing, so that later tree walks stay safe. The bounds are the only places where a
result can differ from the published scorer's, and only for documents no IDS needs: over 20 MB, over
256 levels, or over 200 000 elements.
"""
from __future__ import annotations

import gc
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
import xml.etree.ElementTree as ET
from xml.parsers import expat
from dataclasses import dataclass

from lxml import etree

MAX_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 256
MAX_ELEMENTS = 200_000  # Stage 2 and the audit alike
WHOLE_PARSE_BYTES = MAX_BYTES  # up to this size, a document that cannot hold MAX_ELEMENTS nodes is parsed in one call
PROBE_FIRST_BYTES = 64 * 1024  # above this size the root start tag is read first (a rejected file is not parsed)
LARGE_BYTES = 1024 * 1024  # see large_document
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_CHUNK = 1 << 16
_PROBE_CHUNK = 4096
_XSI_SCHEMA_LOCATION = "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation"
_LXML_OPTIONS = dict(no_network=True, load_dtd=False, resolve_entities=False, dtd_validation=False,
                     huge_tree=False, remove_comments=False, remove_pis=False, strip_cdata=True)
_DECLARED_ENCODING = re.compile(rb"<\?xml[^>]*?\sencoding\s*=\s*[\"']([^\"']*)[\"']")
_MANY_ATTRIBUTES = 64
_ALL_ATTRIBUTES = etree.XPath("@*")


# -- Stage 2's parse: ElementTree, bounded -----------------------------------------------------------
@dataclass(frozen=True)
class Parsed:
    """A parsed document, or the reason it could not be parsed (never both)."""

    root: ET.Element | etree._Element | None
    error: str | None = None
    size: int = 0  # bytes of the document (0: not known)

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


def parse_xml(document: str | bytes) -> Parsed:
    """Parse the UTF-8 bytes of `document` as the published scorer does; errors are returned as values."""
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


# -- the audit's read: libxml2 ----------------------------------------------------------------------
def lxml_pull_parser(encoding: str | None) -> etree.XMLPullParser:
    """libxml2 fed chunk by chunk (large documents, and those that break part-way)."""
    return etree.XMLPullParser(events=("start", "end"), encoding=encoding, **_LXML_OPTIONS)


_PARSERS = threading.local()  # lxml parsers are reused, but not shared between threads


def _whole_parser(encoding: str | None) -> etree.XMLParser:
    found = getattr(_PARSERS, "by_encoding", None)
    if found is None:
        found = _PARSERS.by_encoding = {}
    parser = found.get(encoding)
    if parser is None:
        parser = found[encoding] = etree.XMLParser(encoding=encoding, **_LXML_OPTIONS)
    return parser


def attribute_items(el: etree._Element) -> list[tuple[str, str]]:
    """(name, value) pairs in document order, as `el.items()` gives them. lxml looks each value
    up by name with a linear scan, so `items()` is quadratic (minutes for 40 000 attributes);
    XPath's `@*` reads a long list in one pass."""
    if len(el.attrib) <= _MANY_ATTRIBUTES:
        return el.items()
    return [(a.attrname, str(a)) for a in _ALL_ATTRIBUTES(el)]


@dataclass(frozen=True)
class XmlError:
    message: str
    line: int | None
    column: int | None


@dataclass
class IdsRead:
    """What was read: `root` is None when no element could be read."""

    root: etree._Element | None
    doctype: bool
    error: XmlError | None  # well-formedness error (before or after the root start tag)
    ended: set | None  # elements whose end tag was read, when `error` is set
    oversized: bool = False  # more than MAX_ELEMENTS nodes: reading stopped there

    @property
    def root_local_name(self) -> str | None:
        # string split, not etree.QName: libxml2 recovers names such as ":" that QName refuses
        return self.root.tag.rsplit("}", 1)[-1] if self.root is not None else None

    @property
    def schema_location(self) -> str | None:
        return self.root.get(_XSI_SCHEMA_LOCATION) if self.root is not None else None

    @property
    def complete(self) -> bool:
        """The whole document was read, with no error and no DOCTYPE."""
        return self.root is not None and not self.doctype and self.error is None and not self.oversized


def _error(exc: Exception) -> XmlError:
    line, column = getattr(exc, "position", (None, None)) or (None, None)
    # lxml ends its message with the position, which the finding carries: said once, not three times
    message = re.sub(r" \(<string>, line \d+\)$", "", str(exc))
    message = re.sub(r", line \d+, column \d+$", "", message) or type(exc).__name__
    message = re.sub(r"^Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)$",
                     r"Opening and ending tag mismatch: <\1> (opened on line \2) closed by </\3>", message)
    return XmlError(message, line, column)


def _has_doctype(root: etree._Element) -> bool:
    info = root.getroottree().docinfo
    return bool(info.doctype) or info.internalDTD is not None or info.externalDTD is not None


class _Pull:
    """libxml2's push parser over `data`, fed chunk by chunk; keeps every event read."""

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
        """Read on until the end, an error, or more than MAX_ELEMENTS elements."""
        while not self.closed and self.started <= MAX_ELEMENTS:
            error = self.feed(_CHUNK)
            if error is not None:
                return error
        return None

    def root(self) -> etree._Element | None:
        return self.events[0][1] if self.events else None


class IdsReader:
    """Reads a document as the validator does: `probe()` up to the root start tag (its XmlReader
    with DtdProcessing.Prohibit stops there), `read()` the whole document.

    A document that cannot hold more than MAX_ELEMENTS nodes (each begins with a `<`, so fewer of
    those will do) is parsed in one call (the same libxml2 parse, done at once); when that fails, or
    for other documents, it is read chunk by chunk, which stops at the root start tag for the probe,
    keeps what was read before a well-formedness error (the validator's single pass has audited it by
    then) and stops after MAX_ELEMENTS elements, so ten megabytes of `<a/>` never become 2.6 million
    element proxies (11 s and 1.1 GB)."""

    def __init__(self, data: bytes, encoding: str | None = None):
        self.data, self.encoding = data, encoding
        self._pull: _Pull | None = None
        self._head: IdsRead | None = None
        self._whole: IdsRead | None = None
        self._parsed_whole = self._whole_tried = False

    def probe(self, limit: int | None = None) -> IdsRead | None:
        """The document up to its root start tag (or the error before it; the root is None then).
        With a `limit`, None when the root start tag does not end within that many bytes (a
        start tag of millions of attributes is not read to find a schemaLocation)."""
        if self._head is None:
            if limit is None and len(self.data) <= PROBE_FIRST_BYTES and self._parse_whole():
                self._head = self._whole
            else:
                self._head = self._probe_pull(limit)
        return self._head

    def small(self) -> bool:
        """Too small to hold more than MAX_ELEMENTS nodes: a quarter of its bytes, or its `<` bytes
        that do not open an end tag, when it starts with a `<` or a byte-order mark (`<` is that byte
        in every such encoding; every node takes one `<`, besides the `</` of an end tag)."""
        data = self.data
        if len(data) // 4 <= MAX_ELEMENTS:
            return True
        if len(data) > WHOLE_PARSE_BYTES or not (data.lstrip()[:1] == b"<" or data.startswith(_BOMS)):
            return False
        return data.count(b"<") - data.count(b"</") <= MAX_ELEMENTS

    def read(self) -> IdsRead:
        """The whole document (after a DOCTYPE or an error before the root: the probe's answer)."""
        head = self.probe()
        if self._whole is None:
            if head.root is None or head.doctype:
                self._whole = head
            elif not self._parse_whole():
                self._whole = self._read_pull(head.root)
        return self._whole

    @property
    def whole(self) -> bool:
        """The document was parsed in one call (it is small and well-formed)."""
        return self._parsed_whole

    def _parse_whole(self) -> bool:
        """One libxml2 call for the whole document, once; False when it is too big or fails (then it is
        read chunk by chunk: the part before an error counts)."""
        if self._whole_tried or not self.small():
            return self._parsed_whole
        self._whole_tried = True
        try:
            root = etree.fromstring(self.data, _whole_parser(self.encoding))
        except (etree.LxmlError, ValueError, LookupError):
            return False
        self._whole, self._parsed_whole = IdsRead(root, _has_doctype(root), None, None), True
        return True

    def _probe_pull(self, limit: int | None) -> IdsRead | None:
        pull = self._pull = _Pull(self.data, self.encoding)
        error = None
        while pull.root() is None and pull.offset < len(self.data) and error is None:
            if limit is not None and pull.offset >= limit:
                self._pull = None
                return None
            error = pull.feed(_PROBE_CHUNK)
        if pull.root() is None:
            error = error or pull.feed(None) or XmlError("Root element is missing.", 1, 1)
            return IdsRead(None, False, error, None)
        root = pull.root()
        if _has_doctype(root):
            return IdsRead(root, True, None, None)
        return IdsRead(root, False, error, None)

    def _read_pull(self, root: etree._Element) -> IdsRead:
        pull = self._pull
        error = self._head.error or pull.read_rest()
        oversized = pull.started > MAX_ELEMENTS
        if error is None:
            return IdsRead(root, False, None, None, oversized)
        ended = {el for event, el in pull.events if event == "end"}
        return IdsRead(root, False, error, ended, oversized)


@contextmanager
def large_document(size: int) -> Iterator[None]:
    """Work on a document of `size` bytes; above LARGE_BYTES the cyclic garbage collector waits until
    the block ends. Checking a large tree makes millions of small objects, none of them in a cycle, and
    each collection walks all of them: paused, a 10 MB document is audited in 60% of the time."""
    if size <= LARGE_BYTES or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# -- one parse for both stages -------------------------------------------------------------------
def _expat_accepts(data: bytes) -> bool:
    """ElementTree's parser (expat, with namespaces) reads the document without an error."""
    parser = expat.ParserCreate(None, "}")
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return False
    return True


class Candidate:
    """A candidate document (the text extracted from a model output), parsed once for both stages."""

    def __init__(self, text: str):
        self.text = text
        try:
            self.data, self._utf8 = text.encode("utf-8"), True
        except UnicodeEncodeError:  # lone surrogates: the audit reads them as .NET does, Stage 2 refuses
            self.data, self._utf8 = text.encode("utf-8", errors="surrogatepass"), False
        self.reader = IdsReader(self.data, "utf-8")  # a str's declared encoding is ignored, as by .NET
        self._stage2: Parsed | None = None
        # What the audit kept of the tree (its element objects): held while Stage 2 reads the same tree,
        # lxml hands back those objects instead of making new ones.
        self.audited: object = None

    def stage2(self) -> Parsed:
        """The document as the published scorer parses it (see the module docstring)."""
        if self._stage2 is None:
            shared = self._shared_root()
            parsed = Parsed(shared) if shared is not None else parse_xml(self.text)
            self._stage2 = Parsed(parsed.root, parsed.error, len(self.data))
        return self._stage2

    def _shared_root(self) -> etree._Element | None:
        data = self.data
        if not self._utf8 or data.startswith(b"\xef\xbb\xbf") or len(data) > MAX_BYTES:
            return None
        if self.reader._whole is None and not self.reader.small():
            return None  # not read whole by the audit: ElementTree reads it as fast
        read = self.reader.read()
        if not read.complete:
            return None
        declared = _DECLARED_ENCODING.match(data, 0, 200)
        if declared is not None and declared.group(1).lower() != b"utf-8":
            return None
        if not data.isascii() and not _expat_accepts(data):
            return None
        return read.root
