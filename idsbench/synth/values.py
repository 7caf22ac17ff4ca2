"""Values a request states and the gold writes: numbers in practitioners' units and in SI, bounds, formats.

Numbers are exact fractions throughout. A value is only offered when its SI form is a short exact decimal
(900 mm -> 0.9, 20 °C -> 293.15, 1800 m³/h -> 0.5): a gold never depends on how a converted value is
rounded.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from .lexicon import Typical, Unit

MAX_DIGITS = 9  # significant digits of an SI literal; longer conversions are not offered
PHRASES = {None: ("at least", "at least", "at most", "at most", "more than", "less than", "between"),
           "min": ("at least", "at least", "at least", "more than", "between"),
           "max": ("at most", "at most", "at most", "less than", "between")}
BOUND_FACETS = {"at least": "minInclusive", "more than": "minExclusive", "at most": "maxInclusive",
                "less than": "maxExclusive"}


def decimal_text(value: Fraction) -> str | None:
    """The shortest plain decimal of an exact value (no exponent, no trailing zeros), or None when the
    value has no finite decimal of at most MAX_DIGITS significant digits."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return None
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    text = text.rstrip("0").rstrip(".") if "." in text else text
    digits = text.replace("-", "").replace(".", "").lstrip("0")
    return text if len(digits) <= MAX_DIGITS else None


def to_si(value: Fraction, unit: Unit | None) -> Fraction:
    return value if unit is None else value * unit.factor + unit.offset


def _series(typical: Typical) -> list[Fraction]:
    return [v for v in typical.series if typical.low <= v <= typical.high]


def _ends(typical: Typical) -> tuple[Fraction, Fraction]:
    """The lowest and highest value a brief writes in the range."""
    if typical.series:
        values = _series(typical)
        return values[0], values[-1]
    return typical.low, typical.low + typical.step * int((typical.high - typical.low) / typical.step)


SIDE_PART = 4  # a lower limit comes from the lowest quarter of the values, an upper one from the highest


@lru_cache(maxsize=None)
def _values(typical: Typical) -> tuple[Fraction, ...]:
    """Every value a brief writes in the range: sizes from their series (DN15, DN20 ...), else by step."""
    if typical.series:
        return tuple(_series(typical))
    steps = int((typical.high - typical.low) / typical.step)
    return tuple(typical.low + typical.step * i for i in range(steps + 1))


def side_values(typical: Typical, side: str) -> tuple[Fraction, ...]:
    """The values a limit on one side is drawn from: every object of a group must plausibly meet it, so a
    minimum sits in the low part of the typical range and a maximum in the high part (no beam "at most
    2.5 m" of 2-16 m beams)."""
    values = _values(typical)
    part = -(-len(values) // SIDE_PART)
    return values[:part] if side == "min" else values[-part:]


def _side(facet: str) -> str:
    return "min" if facet.startswith("min") else "max"


@dataclass(frozen=True)
class Bound:
    facet: str  # minInclusive | minExclusive | maxInclusive | maxExclusive
    shown: Fraction  # as the request writes it, in `unit`
    si: str  # as the gold writes it


@dataclass(frozen=True)
class Range:
    """Numeric bounds; `phrase` is how the request words them (at least, more than, at most, less than,
    between, positive)."""

    phrase: str
    bounds: tuple[Bound, ...]
    unit: Unit | None
    base: str  # xs:double | xs:integer


def _bound(facet: str, shown: Fraction, unit: Unit | None) -> Bound | None:
    si = decimal_text(to_si(shown, unit))
    return Bound(facet, shown, si) if si is not None else None


def sample_range(rng: random.Random, typical: Typical, unit: Unit | None, integer: bool) -> Range | None:
    """A bound a brief would set on the value, or None when the drawn number does not convert exactly."""
    phrase = rng.choice(PHRASES[typical.bound])
    a = rng.choice(side_values(typical, "min" if phrase == "between" else _side(BOUND_FACETS[phrase])))
    b = rng.choice(side_values(typical, "max"))
    if phrase == "between":
        if a == b:
            return None
        bounds = (_bound("minInclusive", a, unit), _bound("maxInclusive", b, unit))
    elif (phrase, a) in (("more than", typical.high), ("less than", typical.low), ("at most", _ends(typical)[0]),
                         ("at least", _ends(typical)[1])):
        return None  # "less than 300 mm" of 300-1200 mm panels, "at most DN15" of pipes: no range left to limit
    else:
        bounds = (_bound(BOUND_FACETS[phrase], a, unit),)
    if any(x is None for x in bounds):
        return None
    return Range(phrase, bounds, unit, "xs:integer" if integer else "xs:double")


def positive(unit: Unit | None, integer: bool) -> Range:
    """The check a take-off makes where no range is known: the value is greater than zero."""
    return Range("positive", (Bound("minExclusive", Fraction(0), "0"),), unit, "xs:integer" if integer else "xs:double")


def shift_range(rng: random.Random, old: Range, typical: Typical) -> Range | None:
    """The same kind of bound with another value (a revision that tightens or relaxes a limit)."""
    if typical is None:
        return None
    for _ in range(8):
        new = sample_range(random.Random(rng.random()), typical, old.unit, old.base == "xs:integer")
        if new is not None and new.phrase == old.phrase and new.bounds != old.bounds and _modest(old, new):
            return new
    return None


def _modest(old: Range, new: Range) -> bool:
    """A revision tightens or relaxes a limit; it does not halve or double it (70 then 30 mm of a slab)."""
    return all(o.shown > 0 and Fraction(1, 2) < n.shown / o.shown < 2 for o, n in zip(old.bounds, new.bounds))


@dataclass(frozen=True)
class Token:
    kind: str  # literal | digits | letters | storey
    text: str = ""
    count: int = 0

    def regex(self) -> str:
        if self.kind == "literal":
            return self.text
        if self.kind in ("digits", "letters"):  # one character is written bare: [A-Z], not [A-Z]{1}
            chars = "[0-9]" if self.kind == "digits" else "[A-Z]"
            return chars if self.count == 1 else f"{chars}{{{self.count}}}"
        return "([0-9]{2}|B[1-3])"

    def example(self, rng: random.Random) -> str:
        if self.kind == "literal":
            return self.text
        if self.kind == "digits":
            return "".join(rng.choice("0123456789") for _ in range(self.count))
        if self.kind == "letters":
            return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVW") for _ in range(self.count))
        return rng.choice(("01", "02", "03", "12", "B1", "B2"))


@dataclass(frozen=True)
class Format:
    """A described format (the request says it in words with an example; the gold writes the pattern)."""

    tokens: tuple[Token, ...]
    examples: tuple[str, ...]

    @property
    def regex(self) -> str:
        return "".join(t.regex() for t in self.tokens)


def _shapes(rng: random.Random, storeys: bool, prefixes: tuple[str, ...]) -> list[tuple[Token, ...]]:
    prefix = Token("literal", rng.choice(prefixes))
    dash = Token("literal", "-")
    shapes = [
        (prefix, dash, Token("digits", count=rng.choice((3, 4)))),
        (prefix, dash, Token("digits", count=2), dash, Token("digits", count=3)),
        (Token("letters", count=2), dash, Token("digits", count=rng.choice((3, 4)))),
        (prefix, Token("digits", count=rng.choice((3, 4)))),
        (prefix, dash, Token("digits", count=3), dash, Token("letters", count=1)),
    ]
    return shapes + [(Token("storey"), dash, Token("digits", count=3))] if storeys else shapes


def sample_format(rng: random.Random, storeys: bool = False, prefixes: tuple[str, ...] = ("A", "B", "C")) -> Format:
    """A described format; `storeys`: the field marks where a building object is (a tag or name), so a storey
    code may lead it (never a type, batch or serial number, nor anything of a civil asset); `prefixes`: the
    letters codes of the object's kind start with (lexicon/prefixes.yaml)."""
    tokens = rng.choice(_shapes(rng, storeys, prefixes))
    examples = tuple(dict.fromkeys("".join(t.example(rng) for t in tokens) for _ in range(2)))
    return Format(tokens, examples)
