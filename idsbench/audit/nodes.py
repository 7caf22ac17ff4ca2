"""The audit's view of an lxml element, as the validator reads it (no tree of our own is built).

The validator walks a streaming XmlReader (IgnoreComments, IgnoreWhitespace): every element is
recognised by its local name whatever its namespace, only text nodes set content (CDATA does not),
a text sets the content of the *most recently opened* element, whitespace-only text is never
delivered, and a node is checked when its end tag is read. These helpers answer the same questions
from the parsed tree, for the elements the checks look at.
"""
from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

ELEMENTS = etree.Element  # tag filter: elements only (no comments, PIs or entities)


def local(el: etree._Element) -> str:
    """The local name ("" for comments and processing instructions)."""
    tag = el.tag
    return tag[tag.rfind("}") + 1:] if tag.__class__ is str else ""


def children(el: etree._Element) -> list[etree._Element]:
    return list(el.iterchildren(ELEMENTS))


def first_children(el: etree._Element) -> dict[str, etree._Element]:
    """The first child element of each local name."""
    found: dict[str, etree._Element] = {}
    for node in el:
        tag = node.tag
        if tag.__class__ is str:
            found.setdefault(tag[tag.rfind("}") + 1:], node)
    return found


def ancestor(el: etree._Element, name: str) -> etree._Element | None:
    node = el.getparent()
    while node is not None and local(node) != name:
        node = node.getparent()
    return node


def content(el: etree._Element) -> str:
    """The last non-whitespace text read while `el` was the element opened last: the texts between
    its start tag and the next start tag in the document ("" when there is none)."""
    text = el.text
    last = text if text and not text.isspace() else ""
    if len(el):
        for node in el:
            if node.tag.__class__ is str:
                return last  # the next start tag
            text = node.tail  # after a comment or PI inside el
            if text and not text.isspace():
                last = text
    node, parent = el, el.getparent()
    while parent is not None:  # after el's end tag, up to the next start tag
        text = node.tail
        if text and not text.isspace():
            last = text
        sibling = node.getnext()
        while sibling is not None and sibling.tag.__class__ is not str:
            text = sibling.tail
            if text and not text.isspace():
                last = text
            sibling = sibling.getnext()
        if sibling is not None:
            return last
        node, parent = parent, parent.getparent()
    return last


_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>|<!--.*?-->|<\?.*?\?>", re.DOTALL)


def _cdata_as_comment(match: re.Match) -> str:
    body = match.group(1)
    return match.group(0) if body is None else "<!--" + "\n" * body.count("\n") + "-->"


def without_cdata(data: bytes, encoding: str | None, declared: str | None) -> bytes | None:
    """The document with each CDATA section replaced by an empty comment on as many lines (the
    validator's reader delivers CDATA as its own node, which sets no content), or None when it
    has none or cannot be decoded. Comments and PIs are skipped over, so a `<![CDATA[` inside
    them is left alone."""
    codec = encoding or declared or "utf-8"
    try:
        text = data.decode(codec, errors="surrogatepass" if codec.lower() in ("utf-8", "utf8") else "strict")
    except (UnicodeDecodeError, LookupError):
        return None
    if "<![CDATA[" not in text:
        return None
    changed = _CDATA.sub(_cdata_as_comment, text)
    try:
        return changed.encode(codec, errors="surrogatepass" if codec.lower() in ("utf-8", "utf8") else "strict")
    except (UnicodeEncodeError, LookupError):
        return None


@lru_cache(maxsize=64)
def ascii_markup(encoding: str | None) -> bool:
    """Markup characters are their ASCII bytes in this encoding (UTF-8, Latin-1, Shift_JIS...)."""
    if not encoding:
        return False
    try:
        return "<>/:=\"' ".encode(encoding) == b"<>/:=\"' " and not encoding.lower().startswith(("utf-16", "utf-32"))
    except LookupError:
        return False
