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
_DECLARED_VERSION = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml\s+version\s*=\s*([\"'])([^\"']*)\1")
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


def _has_doctype(root: etree._Element) -> bool:
    info = root.getroottree().docinfo
    return bool(info.doctype) or info.internalDTD is not None or info.externalDTD is not None


_PARSE_ERRORS = (etree.LxmlError, ValueError, LookupError, RecursionError, MemoryError)
_NAME = r"[A-Za-z_][\w.-]*"
_END_TAG = re.compile(rf"</({_NAME}(?::{_NAME})?)\s*>$")
_NARROWING = 16  # a failing piece is fed again in this many smaller pieces, down to single bytes
_FATAL = etree.ErrorLevels.FATAL
_NAMESPACE_ERRORS = frozenset(getattr(etree.ErrorTypes, name) for name in (
    "NS_ERR_ATTRIBUTE_REDEFINED", "NS_ERR_COLON", "NS_ERR_EMPTY", "NS_ERR_QNAME", "NS_ERR_UNDEFINED_NAMESPACE",
    "NS_ERR_XML_NAMESPACE"))
_FIRST_FEED = 4  # libxml2 detects the encoding from the first four bytes: never feed fewer first


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column (1-based, in characters) of byte `offset`."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[line_start:offset].decode("utf-8", "replace")) + 1


def _name(el: etree._Element) -> str:
    prefix, local_name = el.prefix, el.tag.rsplit("}", 1)[-1]
    return f"{prefix}:{local_name}" if prefix else local_name


def _describe(data: bytes, position: tuple[int, int] | None, at_end: bool,
              open_elements: list[etree._Element]) -> XmlError:
    """The first well-formedness error in the words of the validator's reader, worked out from the
    document, the elements still open there and the error's position, never from the parser library's
    message (its wording changes between versions). `at_end`: the error came when the data ended."""
    if at_end and (position is None or position[0] >= data.rstrip().count(b"\n") + 1):
        names = ", ".join(_name(el) for el in reversed(open_elements))
        message = (f"Unexpected end of file has occurred. The following elements are not closed: {names}."
                   if names else "Unexpected end of file has occurred.")
        return XmlError(message, *_position(data, len(data.rstrip())))
    line, column = position or _position(data, len(data))
    lines = data.split(b"\n")
    before = lines[line - 1].decode("utf-8", "replace")[:max(column - 1, 0)] if 0 < line <= len(lines) else ""
    if not open_elements:
        return XmlError("Data at the root level is invalid.", line, column)
    tag = _END_TAG.search(before)
    top = _name(open_elements[-1])
    if tag is not None and tag.group(1) != top:
        return XmlError(f"The '{top}' start tag on line {open_elements[-1].sourceline} does not match the end tag "
                        f"of '{tag.group(1)}'.", line, column)
    return XmlError(f"The XML is not well-formed near '{before.strip()[-40:]}'.", line, column)


def _stops_reader(entry: etree._LogEntry) -> bool:
    """An error that stops .NET's XmlReader: a fatal one, or a namespace error (an undeclared prefix,
    a prefix bound to nothing...), after which libxml2 reads on. A namespace name that is not a valid
    URI is only a warning for libxml2, and no error for .NET."""
    return entry.level == _FATAL or entry.type in _NAMESPACE_ERRORS


class _Pull:
    """libxml2's push parser over `data`, fed chunk by chunk; keeps the events of every call that
    succeeded, and only those.

    After an error a parser library may still report events (lxml 6.2 ends every element left open
    when the data ends early; libxml2 reads on after an undeclared prefix); the validator's reader
    never gets past the error. So the events of a call that met an error are dropped, and the piece it
    was given is read again, in smaller pieces, by a fresh parser, until the error lies in a single
    byte: every event kept was read before the error."""

    def __init__(self, data: bytes, encoding: str | None):
        self.data, self.encoding, self.parser = data, encoding, lxml_pull_parser(encoding)
        self.events: list[tuple[str, etree._Element]] = []
        self.cuts: list[int] = []  # where each call that succeeded ended
        self.started = 0  # elements read so far
        self.offset = 0
        self.closed = False
        self.position: tuple[int, int] | None = None  # where the library put the error of a failed close

    def _step(self, end: int | None) -> bool:
        """Feed up to `end` (None: close the parser); False when the call met an error."""
        try:
            if end is None:
                self.parser.close()
            else:
                self.parser.feed(self.data[self.offset:end])
            failed = next((e for e in self.parser.feed_error_log if _stops_reader(e)), None)
        except _PARSE_ERRORS as exc:
            self.position = getattr(exc, "position", None)
            return False  # what the call read is dropped with its parser
        if failed is not None:
            self.position = (failed.line, failed.column)
            return False
        new = list(self.parser.read_events())
        self.started += sum(1 for event, _ in new if event == "start")
        self.events.extend(new)
        if end is not None:
            self.offset = end
            self.cuts.append(end)
        return True

    def feed(self, size: int | None) -> XmlError | None:
        if self.closed:
            return None
        end = len(self.data) if size is None else min(len(self.data), self.offset + size)
        if end > self.offset and not self._step(end):
            self.closed = True
            return self._narrow(end)
        if end < len(self.data):
            return None
        self.closed = True
        if self._step(None):
            return None
        return _describe(self.data, self.position, True, self.open_elements())

    def _narrow(self, end: int) -> XmlError:
        """The error of the call that fed data[offset:end], and the events read before it."""
        start = self.offset
        while end - start > 1 and end > _FIRST_FEED:
            fresh = _Pull(self.data, self.encoding)
            if not all(fresh._step(cut) for cut in self.cuts):
                break  # the same calls did not succeed twice: keep what the first parser read
            step, failed = max(1, (end - start) // _NARROWING), None
            for piece_end in [*range(max(start + step, _FIRST_FEED), end, step), end]:
                if not fresh._step(piece_end):
                    failed = piece_end
                    break
            self.parser, self.events, self.cuts, self.started = fresh.parser, fresh.events, fresh.cuts, fresh.started
            self.position = fresh.position or self.position
            if failed is None:
                break  # smaller pieces read without an error: the error is where the data ends
            start, end = fresh.offset, failed
        self.offset = len(self.data)
        return _describe(self.data, self.position, False, self.open_elements())

    def open_elements(self) -> list[etree._Element]:
        stack: list[etree._Element] = []
        for event, el in self.events:
            if event == "start":
                stack.append(el)
            elif stack:
                stack.pop()
        return stack

    def read_rest(self) -> XmlError | None:
        """Read on until the end, an error, or more than MAX_ELEMENTS elements."""
        while not self.closed and self.started <= MAX_ELEMENTS:
            error = self.feed(_CHUNK)
            if error is not None:
                return error
        return None

    def root(self) -> etree._Element | None:
        return self.events[0][1] if self.events else None


def _bad_version(data: bytes) -> IdsRead | None:
    """.NET's reader accepts only version "1.0" in an XML declaration; libxml2 reads any "1.x"."""
    declaration = _DECLARED_VERSION.match(data)
    if declaration is None or declaration.group(2) == b"1.0":
        return None
    version = declaration.group(2).decode("utf-8", "replace")
    return IdsRead(None, False, XmlError(f"Version number '{version[:40]}' is invalid.", 1, declaration.start(2) + 1),
                   None)


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
            self._head = _bad_version(self.data)
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
                self._whole = self._read_pull()
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

    def _read_pull(self) -> IdsRead:
        pull = self._pull
        error = self._head.error or pull.read_rest()
        oversized = pull.started > MAX_ELEMENTS
        if error is None:
            return IdsRead(pull.root(), False, None, None, oversized)
        ended = {el for event, el in pull.events if event == "end"}
        return IdsRead(pull.root(), False, error, ended, oversized)


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
    """ElementTree's parser (expat, with namespaces) reads the document without an error (an unknown
    declared encoding raises LookupError there, not ExpatError)."""
    parser = expat.ParserCreate(None, "}")
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, ValueError, LookupError, RecursionError, MemoryError):
        return False
    return True


def as_read(text: str) -> tuple[bytes, str | None]:
    """The bytes the validator reads for a text, and the encoding to read them in (None: the one the
    document declares, as .NET honours it reading a file). The published harness writes each
    candidate to a UTF-8 file for the validator, so a text is read as its UTF-8 bytes: a declaration of
    another encoding then makes it unreadable there, and here. A text with lone surrogates has no UTF-8
    form (the harness could not write it): its surrogates are passed through and read as UTF-8."""
    try:
        return text.encode("utf-8"), None
    except UnicodeEncodeError:
        return text.encode("utf-8", errors="surrogatepass"), "utf-8"


def as_written(candidate: str) -> str:
    """The file the published harness writes for a candidate: the text and a newline."""
    return candidate + "\n"


class Candidate:
    """A candidate document (the text extracted from a model output), parsed once for both stages."""

    def __init__(self, text: str):
        self.text = text
        self.data, encoding = as_read(as_written(text))  # the audit reads the file the validator read
        self._utf8 = encoding is None  # lone surrogates: the audit passes them through, Stage 2 refuses
        self.reader = IdsReader(self.data, encoding)
        self._stage2: Parsed | None = None
        # What the audit kept of the tree (its element objects): held while Stage 2 reads the same tree,
        # lxml hands back those objects instead of making new ones.
        self.audited: object = None

    def stage2(self) -> Parsed:
        """The document as the published scorer parses it (see the module docstring)."""
        if self._stage2 is None:
            shared = self._shared_root()
            parsed = Parsed(shared) if shared is not None else parse_xml(self.text)
            self._stage2 = Parsed(parsed.root, parsed.error, len(self.data) - 1)  # the text's bytes
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
