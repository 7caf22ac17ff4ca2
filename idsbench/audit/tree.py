"""The audit's view of an IDS document: nodes known by local name, as the tool reads them.

The tool walks a streaming XmlReader (IgnoreComments, IgnoreWhitespace): every element is
recognised by its local name whatever its namespace, a text node sets the content of the
*most recently opened* element, whitespace-only text is never delivered, and a node is
checked when its end tag is read. These nodes carry exactly that information, built from
an lxml tree (or the part of one read before a well-formedness error).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from lxml import etree


@dataclass(eq=False, slots=True)
class Node:
    name: str  # local name
    attrs: dict[str, str]  # attributes without a namespace (what GetAttribute("x") sees)
    parent: "Node | None"
    line: int | None
    source: etree._Element  # kept to locate the node (prefix, column) when it is reported
    children: list["Node"] = field(default_factory=list)
    content: str = ""
    complete: bool = True  # False when the document broke before the end tag

    def child(self, name: str) -> "Node | None":
        for c in self.children:
            if c.name == name:
                return c
        return None

    def ancestor(self, name: str) -> "Node | None":
        node = self.parent
        while node is not None and node.name != name:
            node = node.parent
        return node

    @property
    def qname(self) -> str:
        prefix = self.source.prefix
        return f"{prefix}:{self.name}" if prefix else self.name


def _local(tag: str) -> str:
    return tag[tag.find("}") + 1:] if tag[0] == "{" else tag


_ALL_ATTRIBUTES = etree.XPath("@*")
_MANY_ATTRIBUTES = 64


def attribute_items(el: etree._Element) -> list[tuple[str, str]]:
    """(name, value) pairs in document order, as `el.items()` gives them. lxml looks each value
    up by name with a linear scan, so `items()` is quadratic (minutes for 40 000 attributes);
    XPath's `@*` reads a long list in one pass."""
    if len(el.attrib) <= _MANY_ATTRIBUTES:
        return el.items()
    return [(a.attrname, str(a)) for a in _ALL_ATTRIBUTES(el)]


def _attributes(el: etree._Element) -> dict[str, str]:
    attrs = dict(attribute_items(el))
    if any(k[0] == "{" for k in attrs):
        return {k: v for k, v in attrs.items() if k[0] != "{"}
    return attrs


class _Builder:
    def __init__(self, ended: set | None):
        self.ended = ended
        self.last_opened: Node | None = None
        self.count = 0

    def open(self, el: etree._Element, parent: Node | None) -> Node:
        node = Node(_local(el.tag), _attributes(el) if len(el.attrib) else {}, parent, el.sourceline, el)
        if self.ended is not None:
            node.complete = el in self.ended
        if parent is not None:
            parent.children.append(node)
        self.last_opened = node
        self.count += 1
        text = el.text
        if text and not text.isspace():
            node.content = text
        return node

    def tail(self, text: str | None) -> None:
        if text and not text.isspace() and self.last_opened is not None:
            self.last_opened.content = text


def build_tree(root: etree._Element, ended: set | None = None) -> tuple[Node, int]:
    """Nodes for `root` and its element descendants; `ended` lists the elements whose end
    tag was read (None: all of them). Returns the root node and the element count."""
    builder = _Builder(ended)
    top = builder.open(root, None)
    stack: list[tuple[etree._Element, Node, Iterator]] = [(root, top, iter(root))]
    while stack:
        el, node, it = stack[-1]
        child = next(it, None)
        if child is None:
            stack.pop()
            if stack:  # the root's tail lies outside the document element
                builder.tail(el.tail)
            continue
        if not isinstance(child.tag, str):  # comment or processing instruction
            builder.tail(child.tail)
            continue
        stack.append((child, builder.open(child, node), iter(child)))
    return top, builder.count


class Locator:
    """Positions of reported nodes, computed in one pass over the tree when first needed:
    the tool's positional path (`/ids1/specifications1/specification2`) and the column."""

    def __init__(self, root: Node, lines: list[str] | None):
        self.lines = lines
        self.index: dict[int, int] = {}
        self.occurrence: dict[int, int] = {}
        self.positions: dict[tuple[int, str], list[int]] = {}
        seen_on_line: dict[tuple[int | None, str], int] = {}
        for node in _pre_order(root):
            siblings: dict[str, int] = {}
            for child in node.children:
                siblings[child.name] = siblings.get(child.name, 0) + 1
                self.index[id(child)] = siblings[child.name]
            key = (node.line, node.qname)
            self.occurrence[id(node)] = seen_on_line.get(key, 0)
            seen_on_line[key] = self.occurrence[id(node)] + 1

    def path(self, node: Node) -> str:
        parts = []
        while node is not None:
            parts.append(f"{node.name}{self.index.get(id(node), 1)}")
            node = node.parent
        return "/" + "/".join(reversed(parts))

    def column(self, node: Node) -> int | None:
        """1-based column of the node's name (after `<`), as .NET's LinePosition reports it."""
        lines = self.lines
        if lines is None or node.line is None or not 0 < node.line <= len(lines):
            return None
        positions = self._tag_positions(node.line, node.qname)
        nth = self.occurrence.get(id(node), 0)
        return positions[nth] + 2 if nth < len(positions) else None

    def _tag_positions(self, line: int, qname: str) -> list[int]:
        """Offsets of every `<qname` tag on a line, found once: searching again from the line start
        for each node was quadratic on a one-line document with thousands of findings."""
        key = (line, qname)
        found = self.positions.get(key)
        if found is None:
            text, found = self.lines[line - 1], []
            pos = _find_tag(text, qname, 0)
            while pos >= 0:
                found.append(pos)
                pos = _find_tag(text, qname, pos + 1)
            self.positions[key] = found
        return found


def _find_tag(text: str, qname: str, start: int) -> int:
    pos = text.find("<" + qname, start)
    while pos >= 0 and text[pos + 1 + len(qname):pos + 2 + len(qname)] not in ("", " ", "\t", "/", ">", "\r", "\n"):
        pos = text.find("<" + qname, pos + 1)
    return pos


def _pre_order(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))
