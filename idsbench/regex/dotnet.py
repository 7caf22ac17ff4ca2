"""Emulation of how the audit tool compiles `xs:pattern` values with .NET's Regex (code 109).

The tool rewrites the XSD escapes `\\c \\C \\d \\D \\i \\I \\w \\W` into .NET's internal XML
classes, wraps the result in `^…$` (no group: `A|B` means "starts with A or ends with B")
and calls `new Regex(…, RegexOptions.Singleline)`. This module re-implements the .NET
pattern grammar closely enough to tell which patterns that constructor rejects, and
translates accepted patterns into Python `re` syntax so that they can be matched with the
same meaning. The known differences from Python's `re` are handled explicitly: .NET accepts
`${1}` (a quantifier on an anchor), `\\p{L}` categories and `IsBlock` names, `(?<n>…)` and
`(?'n'…)` groups, class subtraction `[a-z-[aeiou]]`, and treats `{,n}` as literal text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .classes import is_known_property, preprocess, property_class

MAX_PATTERN_LENGTH = 4096  # longer patterns are not translated for matching (still checked)

_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "e": "\x1b"}
_ANCHOR_ESCAPES = {"b": r"\b", "B": r"\B", "A": r"\A", "G": r"\A", "z": r"\Z", "Z": r"(?=\n?\Z)"}
_CLASS_ESCAPES = {"s": r"\s", "S": r"\S"}
_QUANTIFIER_RE = re.compile(r"\{(\d+)(,(\d*))?\}")
_INT32_MAX = 2**31 - 1
_GROUP_NAME_RE = re.compile(r"\(\?(?:<(?![=!])|')(\w+)")


def _number(digits: str) -> int:
    """Value of a digit string as .NET's ScanDecimal sees it: anything past Int32 is
    "too large" (and int() itself refuses strings beyond 4300 digits, or digits like '²')."""
    digits = digits.lstrip("0")
    if len(digits) > len(str(_INT32_MAX)):
        return _INT32_MAX + 1
    try:
        return int(digits or "0")
    except ValueError:
        return _INT32_MAX + 1


def _is_number(text: str) -> bool:
    """ASCII digits only: .NET reads group numbers with '0'..'9', never other Unicode digits."""
    return text.isascii() and text.isdigit()


class DotnetRegexError(ValueError):
    """The message .NET's RegexParser would give (approximately)."""


@dataclass(frozen=True)
class DotnetRegex:
    pattern: str  # the xs:pattern value as written
    error: str | None  # None when .NET accepts the preprocessed pattern
    python: str | None  # equivalent Python pattern (for re.DOTALL search), None if unavailable


def _cls_char(code: int) -> str:
    return f"\\U{code:08x}"


def _count_groups(text: str) -> tuple[int, set[str]]:
    """Pre-scan like .NET's CountCaptures: numbered captures and group names."""
    numbered, names = 0, set()
    i, in_class = 0, False
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if text[i + 1:i + 2] == "]":
                i += 1
        elif ch == "(" and text[i + 1:i + 2] != "?":
            numbered += 1
        elif ch == "(":
            m = _GROUP_NAME_RE.match(text, i)  # no slicing: a slice per "(?" is quadratic
            if m:
                names.add(m.group(1))
        i += 1
    return numbered, names


class _Parser:
    """Recursive-descent reader of .NET pattern syntax that emits Python syntax."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0
        self.numbered, self.names = _count_groups(text)
        self.lossy = False  # set when a construct has no faithful Python translation

    # -- helpers ---------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        j = self.pos + k
        return self.text[j] if j < len(self.text) else ""

    def fail(self, message: str) -> None:
        raise DotnetRegexError(f"Invalid pattern '{self.text}' at offset {self.pos}. {message}")

    # -- grammar ---------------------------------------------------------------------
    def parse(self) -> str:
        out = self.alternation()
        if self.pos < len(self.text):
            self.fail("Too many )'s.")
        return out

    def alternation(self) -> str:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.pos += 1
            branches.append(self.sequence())
        return "|".join(branches)

    def sequence(self) -> str:
        parts: list[str] = []
        last_quantifiable = False
        while self.pos < len(self.text) and self.peek() not in "|)":
            quant = self.quantifier()
            if quant is not None:
                if not parts or not last_quantifiable:
                    self.fail("Quantifier following nothing." if not parts else "Nested quantifier.")
                parts[-1] = f"(?:{parts[-1]}){quant}"
                last_quantifiable = False
                continue
            atom, last_quantifiable = self.atom()
            if atom is not None:
                parts.append(atom)
        return "".join(parts)

    def quantifier(self) -> str | None:
        ch = self.peek()
        if ch in ("*", "+", "?"):
            self.pos += 1
            body = ch
        elif ch == "{":
            m = _QUANTIFIER_RE.match(self.text, self.pos)
            if m is None:
                return None
            low, high = _number(m.group(1)), m.group(3)
            if low > _INT32_MAX or (high and _number(high) > _INT32_MAX):
                self.fail("Capture group numbers must be less than or equal to Int32.MaxValue.")
            if high and _number(high) < low:
                self.fail("Illegal {x,y} with x > y.")
            self.pos = m.end()
            body = m.group(0)
        else:
            return None
        if self.peek() == "?":
            self.pos += 1
            body += "?"
        return body

    def atom(self) -> tuple[str | None, bool]:
        ch = self.peek()
        self.pos += 1
        if ch == "(":
            return self.group()
        if ch == "[":
            return self.char_class(), True
        if ch == "\\":
            return self.escape()
        if ch == ".":
            return ".", True
        if ch in "^$":
            return ch, True  # .NET lets anchors take quantifiers (`${1}`)
        return re.escape(ch), True

    # -- groups ----------------------------------------------------------------------
    def group(self) -> tuple[str | None, bool]:
        if self.peek() != "?":
            inner = self.alternation()
            self.close_group()
            return f"({inner})", True
        self.pos += 1
        ch = self.peek()
        simple = {":": "(?:", "=": "(?=", "!": "(?!", ">": "(?>"}
        if ch in simple:
            self.pos += 1
            return self.finish_group(simple[ch])
        if ch == "<" and self.peek(1) in "=!":
            self.pos += 2
            return self.finish_group("(?<" + self.text[self.pos - 1])
        if ch in "<'":
            return self.named_group("'" if ch == "'" else ">")
        if ch == "#":
            end = self.text.find(")", self.pos)
            if end < 0:
                self.fail("Unterminated (?#...) comment.")
            self.pos = end + 1
            return None, False
        if ch == "(":
            return self.conditional()
        return self.option_group()

    def close_group(self) -> None:
        if self.peek() != ")":
            self.fail("Not enough )'s.")
        self.pos += 1

    def finish_group(self, opener: str) -> tuple[str, bool]:
        inner = self.alternation()
        self.close_group()
        return f"{opener}{inner})", True

    def named_group(self, closer: str) -> tuple[str, bool]:
        self.pos += 1
        m = re.compile(r"(\w*)(?:-(\w+))?").match(self.text, self.pos)
        name, balance = m.group(1), m.group(2)
        if (not name and not balance) or (name[:1].isdigit() and not name.isdigit()):
            self.fail("Invalid group name: Group names must begin with a word character.")
        if balance and not (balance in self.names or (_is_number(balance) and _number(balance) <= self.numbered)):
            self.fail(f"Reference to undefined group name '{balance}'.")
        self.pos = m.end()
        if self.peek() != closer:
            self.fail("Unrecognized grouping construct.")
        self.pos += 1
        inner = self.alternation()
        self.close_group()
        if not name or balance:
            self.lossy = True  # balancing groups have no Python equivalent
            return f"(?:{inner})", True
        return f"(?P<{self.py_name(name)}>{inner})", True

    @staticmethod
    def py_name(name: str) -> str:
        return f"g{name}" if name[0].isdigit() else name

    def conditional(self) -> tuple[str, bool]:
        inner = self.alternation()  # the condition, read as an expression
        self.close_group()
        yes_no = self.alternation()
        if yes_no.count("|") > 1 and "(" not in yes_no:
            self.fail("Too many | in (?()|).")
        self.close_group()
        self.lossy = True
        return f"(?:{inner}{yes_no})", True

    def option_group(self) -> tuple[str | None, bool]:
        m = re.compile(r"([imnsx]*)(?:-([imnsx]*))?([:)])").match(self.text, self.pos)
        if m is None:
            self.fail("Unrecognized grouping construct.")
        self.pos = m.end()
        on, off = m.group(1), m.group(2) or ""
        py_on = "".join(f for f in on if f in "is")
        py_off = "".join(f for f in off if f in "is")
        if m.group(3) == ")":
            self.lossy = self.lossy or bool(py_on or py_off)  # options up to the group end
            return None, False
        flags = py_on + (f"-{py_off}" if py_off else "")
        return self.finish_group(f"(?{flags}:" if flags else "(?:")

    # -- escapes ---------------------------------------------------------------------
    def escape(self) -> tuple[str, bool]:
        ch = self.peek()
        if not ch:
            self.fail("Illegal \\ at end of pattern.")
        self.pos += 1
        if ch in _ANCHOR_ESCAPES:
            return _ANCHOR_ESCAPES[ch], True
        if ch in "pP":
            body = self.property_body()
            return (f"[^{body}]" if ch == "P" else f"[{body}]"), True
        if ch in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[ch], True
        if ch == "k":
            return self.named_backreference(), True
        if _is_number(ch) and ch != "0":
            return self.backreference(ch), True
        return _cls_char(self.char_escape(ch)), True

    def property_body(self) -> str:
        if self.peek() != "{":
            self.fail("Incomplete \\p{X} character escape.")
        end = self.text.find("}", self.pos)
        if end < 0:
            self.fail("Incomplete \\p{X} character escape.")
        name = self.text[self.pos + 1:end]
        self.pos = end + 1
        if not is_known_property(name):
            self.fail(f"Unknown property '{name}'.")
        return property_class(name)

    def backreference(self, first: str) -> str:
        digits = first
        while _is_number(self.peek()) and _number(digits + self.peek()) <= self.numbered:
            digits += self.peek()
            self.pos += 1
        if _number(digits) > self.numbered:
            self.fail(f"Reference to undefined group number {digits}.")
        return f"(?:\\{digits})"

    def named_backreference(self) -> str:
        m = re.compile(r"<(\w+)>|'(\w+)'").match(self.text, self.pos)
        if m is None:
            self.fail("Malformed \\k<...> named back reference.")
        name = m.group(1) or m.group(2)
        self.pos = m.end()
        if _is_number(name):
            if _number(name) > self.numbered:
                self.fail(f"Reference to undefined group number {name}.")
            return f"(?:\\{name})"
        if name not in self.names:
            self.fail(f"Reference to undefined group name '{name}'.")
        return f"(?P={name})"

    def char_escape(self, ch: str) -> int:
        """Code point of a single-character escape (outside or inside a class)."""
        if ch in _SIMPLE_ESCAPES:
            return ord(_SIMPLE_ESCAPES[ch])
        if ch in "xu":
            width = 2 if ch == "x" else 4
            digits = self.text[self.pos:self.pos + width]
            if len(digits) < width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                self.fail("Insufficient hex digits.")
            self.pos += width
            return int(digits, 16)
        if ch == "c":
            letter = self.peek()
            if not letter or not ("a" <= letter.lower() <= "z" or letter in "@[\\]^_"):
                self.fail("Missing control character." if not letter else "Unrecognized control character.")
            self.pos += 1
            return ord(letter.upper()) ^ 0x40
        if ch == "0":
            digits = ""
            while len(digits) < 2 and self.peek() in "01234567" and self.peek():
                digits += self.peek()
                self.pos += 1
            return int(digits or "0", 8)
        if ch.isalnum() or ch == "_":
            self.fail(f"Unrecognized escape sequence \\{ch}.")
        return ord(ch)

    # -- character classes -----------------------------------------------------------
    def char_class(self) -> str:
        negate = self.peek() == "^"
        if negate:
            self.pos += 1
        items: list[str] = []
        first, subtraction = True, None
        while True:
            ch = self.peek()
            if not ch:
                self.fail("Unterminated [] set.")
            if ch == "]" and not first:
                self.pos += 1
                break
            first = False
            if ch == "-" and self.peek(1) == "[" and items:
                self.pos += 2
                subtraction = self.char_class()
                if self.peek() != "]":
                    self.fail("A subtraction must be the last element in a character class.")
                continue
            items.append(self.class_item())
        body = "".join(items)
        base = f"[{'^' if negate else ''}{body}]" if body else ("[\\s\\S]" if negate else "(?!)")
        if subtraction is None:
            return base
        return f"(?:(?!{subtraction}){base})"

    def class_item(self) -> str:
        low = self.class_atom()
        if self.peek() == "-" and self.peek(1) not in ("]", "[", ""):
            if isinstance(low, str):
                self.fail("Cannot include class in character range.")
            self.pos += 1
            high = self.class_atom()
            if isinstance(high, str):
                self.fail("Cannot include class in character range.")
            if high < low:
                self.fail("[x-y] range in reverse order.")
            return f"{_cls_char(low)}-{_cls_char(high)}"
        return low if isinstance(low, str) else _cls_char(low)

    def class_atom(self) -> int | str:
        """A code point, or a class body (str) for \\p, \\s, \\w-like escapes."""
        ch = self.peek()
        self.pos += 1
        if ch != "\\":
            return ord(ch)
        esc = self.peek()
        if not esc:
            self.fail("Illegal \\ at end of pattern.")
        self.pos += 1
        if esc in "pP":
            body = self.property_body()
            self.lossy = self.lossy or esc == "P"  # Python cannot nest a negated set
            return body
        if esc in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[esc]
        if esc == "b":
            return 8
        return self.char_escape(esc)


@lru_cache(maxsize=4096)
def compile_dotnet(pattern: str) -> DotnetRegex:
    """Validity (code 109) and a Python translation of an xs:pattern value."""
    text = preprocess(pattern)
    parser = _Parser(text)
    try:
        python = parser.parse()
    except DotnetRegexError as exc:
        return DotnetRegex(pattern, str(exc), None)
    except RecursionError:
        return DotnetRegex(pattern, None, None)  # nesting too deep to translate; .NET copes
    if len(pattern) > MAX_PATTERN_LENGTH or parser.lossy:
        return DotnetRegex(pattern, None, None)
    return DotnetRegex(pattern, None, python)
