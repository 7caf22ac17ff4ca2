"""Deterministic mutations of IDS documents, shared by tests/test_fuzz.py and benchmarks/fuzz.py.

A mutation is (operation, a, b): two integers pick the element or position, so hypothesis and a
seeded random generator can both drive it, and any failure replays from its three numbers.
"""
from __future__ import annotations

import copy

from lxml import etree

JUNK = ["<", "&", "]]>", "<!--", "\x00", "\ud800", "<?x?>", "<a>", "</specification>", "&lol;", "\u2028",
        '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', "```", "<think>", "é", "\t\n "]
OPERATIONS = ("delete", "duplicate", "swap", "flip_case", "truncate", "inject", "comment", "retag", "attribute",
              "declaration")
# Damaged XML declarations: long, unknown and non-ASCII names, other encodings than the UTF-8 an output
# is written in (the validator reads that file), odd versions and standalone values.
VERSIONS = ["1.0", "1.1", "1.", "2.0", "1." + "0" * 300, "１.０", "", "1.0 "]
ENCODINGS = ["UTF-8", "utf-8", "UTF8", "UTF-16", "UTF-32", "ISO-8859-1", "Shift_JIS", "ascii", "no-such-encoding",
             "UTF" + "A" * 250 + "-8", "ÜTF-8", "UTF-8\x00", "", None]
STANDALONES = [None, "yes", "no", "maybe", "YES", "y" * 300]
TAGS = ["simpleValue", "restriction", "specification", "entity", "property", "name", "value", "pattern", "partOf"]


def _elements(root: etree._Element) -> list[etree._Element]:
    return [el for el in root.iter(etree.Element)]


def _tree_mutation(text: str, operation: str, a: int, b: int) -> str:
    try:
        root = etree.fromstring(text.encode("utf-8", "surrogatepass"), etree.XMLParser(resolve_entities=False))
    except (etree.XMLSyntaxError, ValueError):
        return text
    root = copy.deepcopy(root)
    elements = _elements(root)
    el = elements[a % len(elements)]
    parent = el.getparent()
    if operation == "delete" and parent is not None:
        parent.remove(el)
    elif operation == "duplicate" and parent is not None:
        el.addnext(copy.deepcopy(el))
    elif operation == "swap" and parent is not None:
        other = elements[b % len(elements)]
        if other.getparent() is not None and other is not el and el not in other.iterancestors() \
                and other not in el.iterancestors():
            marker = etree.Element("marker")
            other.addprevious(marker)
            el.addprevious(other)
            marker.addprevious(el)
            marker.getparent().remove(marker)
    elif operation == "flip_case":
        el.text = (el.text or "").swapcase() or None
        for key, value in el.attrib.items():
            el.set(key, value.swapcase())
    elif operation == "comment" and parent is not None:
        el.addprevious(etree.Comment(f" c{b} "))
    elif operation == "retag":
        namespace, local = etree.QName(el).namespace, TAGS[b % len(TAGS)]
        el.tag = f"{{{namespace}}}{local}" if namespace else local
    elif operation == "attribute":
        el.set(["minOccurs", "maxOccurs", "cardinality", "dataType", "ifcVersion", "base", "value"][b % 7],
               ["", "0", "unbounded", "IFC4", "xs:string", "-1", "optional", "IFCLABEL", "9" * 40][a % 9])
    return etree.tostring(root, encoding="unicode")


def declaration(a: int, b: int) -> str:
    version, encoding = VERSIONS[a % len(VERSIONS)], ENCODINGS[(a // len(VERSIONS)) % len(ENCODINGS)]
    standalone = STANDALONES[b % len(STANDALONES)]
    parts = [f'version="{version}"'] if (b // len(STANDALONES)) % 5 else []  # now and then no version
    parts += [f'encoding="{encoding}"'] if encoding is not None else []
    parts += [f'standalone="{standalone}"'] if standalone is not None else []
    return f"<?xml {' '.join(parts)}?>"


def _with_declaration(text: str, a: int, b: int) -> str:
    """The document with its XML declaration replaced by a damaged one (or one put first), and now and
    then a non-ASCII character at the end (some parsers look up the encoding only then)."""
    start = text.lstrip()
    body = start.partition("?>")[2].lstrip() if start.startswith("<?xml") else text
    return declaration(a, b) + "\n" + body + ("<!-- é -->" if b % 3 == 0 else "")


def mutate(text: str, operation: str, a: int, b: int) -> str:
    """`text` changed by one operation; a and b are any integers (taken modulo what they index)."""
    if operation == "declaration":
        return _with_declaration(text, a, b)
    if operation == "truncate":
        return text[: a % (len(text) + 1)]
    if operation == "inject":
        at = a % (len(text) + 1)
        return text[:at] + JUNK[b % len(JUNK)] + text[at:]
    return _tree_mutation(text, operation, a, b)


def mutate_many(text: str, steps: list[tuple[str, int, int]]) -> str:
    for operation, a, b in steps:
        text = mutate(text, operation, a, b)
    return text
