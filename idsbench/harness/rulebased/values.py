"""Values as practitioners write them ("min. 30 mm", "XC1 or XC3", "1,100mm以上", "RS-nnnnn") -> IDS values in SI."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..idsxml import ANY_SET, Param, Property, Restriction
from ..vocabulary import standard_data_type

# unit -> (factor to SI, dataType for a custom property). NFKC has already turned ㎡ into m2 and ℃ into °C.
UNITS: dict[str, tuple[float, str]] = {
    "mm": (0.001, "IFCLENGTHMEASURE"), "cm": (0.01, "IFCLENGTHMEASURE"), "m": (1, "IFCLENGTHMEASURE"),
    "km": (1000, "IFCLENGTHMEASURE"), "mm2": (1e-6, "IFCAREAMEASURE"), "m2": (1, "IFCAREAMEASURE"),
    "m3": (1, "IFCVOLUMEMEASURE"), "l": (0.001, "IFCVOLUMEMEASURE"), "l/s": (0.001, "IFCVOLUMETRICFLOWRATEMEASURE"),
    "m3/s": (1, "IFCVOLUMETRICFLOWRATEMEASURE"), "m3/h": (1 / 3600, "IFCVOLUMETRICFLOWRATEMEASURE"),
    "n": (1, "IFCFORCEMEASURE"), "kn": (1000, "IFCFORCEMEASURE"), "mn": (1e6, "IFCFORCEMEASURE"),
    "pa": (1, "IFCPRESSUREMEASURE"), "kpa": (1000, "IFCPRESSUREMEASURE"), "mpa": (1e6, "IFCPRESSUREMEASURE"),
    "bar": (1e5, "IFCPRESSUREMEASURE"), "n/mm2": (1e6, "IFCPRESSUREMEASURE"), "kn/m2": (1000, "IFCPLANARFORCEMEASURE"),
    "w": (1, "IFCPOWERMEASURE"), "kw": (1000, "IFCPOWERMEASURE"), "kg": (1, "IFCMASSMEASURE"),
    "t": (1000, "IFCMASSMEASURE"), "w/m2k": (1, "IFCTHERMALTRANSMITTANCEMEASURE"),
    "w/(m2k)": (1, "IFCTHERMALTRANSMITTANCEMEASURE"), "w/m2·k": (1, "IFCTHERMALTRANSMITTANCEMEASURE"),
    "db": (1, "IFCREAL"), "lx": (1, "IFCILLUMINANCEMEASURE"), "%": (1, "IFCRATIOMEASURE"),
}
TEMPERATURE_UNITS = {"°c", "c", "度"}
TIME_UNITS = {"min": 60, "minutes": 60, "分": 60, "s": 1, "h": 3600, "時間": 3600}
RATIO_TYPES = {"IFCRATIOMEASURE", "IFCPOSITIVERATIOMEASURE", "IFCNORMALISEDRATIOMEASURE"}
INTEGER_TYPES = {"IFCINTEGER", "IFCCOUNTMEASURE", "IFCPOSITIVEINTEGER"}
STRING_TYPES = {"IFCLABEL", "IFCTEXT", "IFCIDENTIFIER"}

SKIP = re.compile(r"^\s*(n/?a|tbd|tbc|未定|対象外|該当なし|確認中|-|－|—)\s*$|^\s*(tbd|未定)\b", re.I)
REQUIRED = re.compile(r"^\s*(required|mandatory|must|yes|y|x|✓|○|〇|必須|要|入力必須|any value|値は任意)\b|"
                      r"any value|入力必須|required|必須", re.I)
OPTIONAL = re.compile(r"\b(optional|not (mandatory|required|compulsory)|if (given|known|available|applicable|entered|"
                      r"encountered|present|any)|where (given|known|applicable|entered|present)|"
                      r"where .{0,40}\b(enters?|gives?|provides?) it)\b|任意|入力する場合|場合は|された場合|必須ではない|"
                      r"必須ではありません", re.I)
PROHIBITED = re.compile(r"\b(prohibited|forbidden|(must|shall) not (have|carry|contain|be (given|used|filled|assigned)))\b|"
                        r"禁止|入力しないこと|設定しないこと|してはならない", re.I)
NUMBER = r"[-+]?\d+(?:\.\d+)?"
_UNIT_WORDS = sorted([*UNITS, *TEMPERATURE_UNITS, *TIME_UNITS, "m²", "m³", "mm²"], key=len, reverse=True)
UNIT_RE = "(?:" + "|".join(re.escape(u) for u in _UNIT_WORDS) + r")(?![A-Za-z])"
_N = rf"(?P<n>{NUMBER})\s*(?P<u>{UNIT_RE})?"
BOUND_WORDS = [  # (regex with a number and an optional unit, xs facet)
    (rf"(?:>=|≥|≧|min(?:imum)?\.?|at least|not less than|no less than)\s*(?:of\s*)?{_N}", "minInclusive"),
    (rf"(?:<=|≤|≦|max(?:imum)?\.?|at most|not more than|no more than|up to|nothing above|not exceed(?:ing)?)\s*{_N}",
     "maxInclusive"),
    (rf"(?:>|more than|greater than|above|over|exceeding)\s*{_N}", "minExclusive"),
    (rf"(?:<|less than|below|under)\s*{_N}", "maxExclusive"),
    (rf"{_N}\s*(?:以上|or more|and above|or greater|or higher|minimum|at least)", "minInclusive"),
    (rf"{_N}\s*(?:以下|or less|and below|or lower|at most|maximum)", "maxInclusive"),
    (rf"{_N}\s*(?:超|を超える|より大きい|より大)", "minExclusive"),
    (rf"{_N}\s*(?:未満|より小さい|より小)", "maxExclusive"),
]
RANGE = re.compile(rf"(?:between\s*)?(?P<a>{NUMBER})\s*(?P<u1>{UNIT_RE})?\s*(?:-|–|—|~|〜|to|and|から)\s*"
                   rf"(?P<b>{NUMBER})\s*(?P<u2>{UNIT_RE})?(?![A-Za-z])", re.I)
OBLIGATION_ONLY = re.compile(r"^\s*(optional|required|mandatory|任意|必須|if (entered|given|known|present)|"
                             r"入力する場合は?)\s*$", re.I)
ENUM_SPLIT = re.compile(r"\s*(?:,|/|\bor\b|または|又は|もしくは|、|・|\|)\s*", re.I)
TRUE_WORDS = {"true", "yes", "y", "有", "あり", "はい", "○"}
FALSE_WORDS = {"false", "no", "n", "無", "なし", "いいえ"}


def normalize(text: str) -> str:
    """Full-width digits and symbols to ASCII, thousands separators removed (1,100 -> 1100)."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)


def unit_key(unit: str | None) -> str:
    return normalize(unit or "").strip().lower().replace("²", "2").replace("³", "3").replace(" ", "")


def number_text(value: float, integer: bool = False) -> str:
    if integer:
        return str(int(round(value)))
    text = format(value, ".10g")
    return text if "e" not in text else repr(value)


def to_si(number: float, unit: str | None, data_type: str | None) -> float:
    """Practitioners' units -> IFC's SI storage (mm -> m, kN -> N, °C -> K, % -> ratio for ratio types)."""
    key = unit_key(unit)
    if key in TEMPERATURE_UNITS:
        return number + 273.15
    if key == "%":
        return number / 100 if data_type in RATIO_TYPES else number
    if key in TIME_UNITS:
        return number * TIME_UNITS[key] if data_type == "IFCTIMEMEASURE" else number
    return number * UNITS.get(key, (1, ""))[0]


def custom_data_type(constraint: Constraint, unit: str | None) -> str:
    """A guess for a property without a template: by unit, then by the shape of the values."""
    key = unit_key(constraint.unit or unit)
    values = list(constraint.values)
    if key in UNITS:
        return UNITS[key][1]
    if key in TEMPERATURE_UNITS:
        return "IFCTHERMODYNAMICTEMPERATUREMEASURE"
    if values and all(v.lower() in TRUE_WORDS | FALSE_WORDS for v in values):
        return "IFCBOOLEAN"
    if constraint.kind == "bounds" or (values and all(re.fullmatch(NUMBER, v) for v in values)):
        return "IFCREAL"
    return "IFCLABEL"


def base_of(data_type: str | None) -> str:
    if data_type in INTEGER_TYPES:
        return "xs:integer"
    if data_type == "IFCBOOLEAN":
        return "xs:boolean"
    if data_type in STRING_TYPES or data_type is None or data_type.startswith("IFCLABEL"):
        return "xs:string"
    return "xs:double"  # measures, REAL, NUMBER


@dataclass(frozen=True)
class Constraint:
    """What a value cell or phrase asks: kind is none|skip|simple|enum|bounds|pattern."""

    kind: str
    values: tuple[str, ...] = ()
    bounds: tuple[tuple[str, str], ...] = ()
    unit: str | None = None


def _pattern(text: str) -> str | None:
    """"RS-nnnnn", "RS-数字5桁", "CL-A00" -> an XSD pattern; None when no code template is visible."""
    text = text.strip()
    match = re.search(r"([A-Z][A-Z0-9]*-)\s*(?:数字|digits?)\s*(\d+)\s*桁?", text)
    if match:
        return f"{match[1]}[0-9]{{{match[2]}}}"
    match = re.search(r"\b([A-Z]{1,4}-?)(n{2,}|N{2,}|#{2,}|0{2,}|X{2,}|9{2,})\b", text)
    if match:
        return f"{match[1]}[0-9]{{{len(match[2])}}}"
    return None


def bounds_of(text: str) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """Numeric limits; when two phrases bound the same number ("nothing above 150"), the earlier one wins."""
    hits = sorted((m.start(), facet, m["n"], m["u"]) for regex, facet in BOUND_WORDS
                  for m in re.finditer(regex, text, re.I))
    found: dict[str, str] = {}
    numbers: set[str] = set()
    unit = None
    for _, facet, number, unit_text in hits:
        side = facet[:3]  # min / max: keep one of each
        if any(f.startswith(side) for f in found) or number in numbers:
            continue
        found[facet] = number
        numbers.add(number)
        unit = unit or unit_text
    if not found and (match := RANGE.search(text)) and float(match["a"]) <= float(match["b"]):
        return (("minInclusive", match["a"]), ("maxInclusive", match["b"])), match["u1"] or match["u2"] or None
    order = ("minInclusive", "minExclusive", "maxInclusive", "maxExclusive")
    return tuple((f, found[f]) for f in order if f in found), unit


def value_part(text: str) -> str:
    """The values of a cell that also states its obligation ("optional; if entered: A, B or C" -> "A, B or C")."""
    parts = [p for p in re.split(r"[;；。:：]", text) if p.strip() and not OBLIGATION_ONLY.match(p)]
    text = "; ".join(parts) if parts else text
    text = re.sub(r"^.*(場合は|if (entered|given|known|present))\s*,?", "", text, flags=re.I)
    return re.sub(r"\s*(のいずれか|のどれか|のみ|only|とする|とすること)\s*$", "", text, flags=re.I).strip()


def parse_constraint(cell: str) -> Constraint:
    """A CSV value cell (or a short phrase) -> Constraint."""
    text = value_part(normalize(cell).strip().strip('"'))
    if not text or REQUIRED.fullmatch(text) or text.lower() in {"required", "mandatory", "必須", "入力必須"}:
        return Constraint("none")
    if SKIP.search(text):
        return Constraint("skip")
    if text.lower().startswith("pattern") or "桁" in text or re.search(r"n{3,}|N{3,}", text):
        pattern = _pattern(text)
        return Constraint("pattern", (pattern,)) if pattern else Constraint("none")
    bounds, unit = bounds_of(text)
    if bounds:
        return Constraint("bounds", bounds=bounds, unit=unit)
    if REQUIRED.search(text):
        return Constraint("none")
    parts = [p.strip() for p in ENUM_SPLIT.split(text) if p.strip()]
    if len(parts) > 1:
        return Constraint("enum", tuple(parts))
    return Constraint("simple", (text,))


def _convert(number: str, unit: str | None, data_type: str | None) -> str:
    return number_text(to_si(float(number), unit, data_type), data_type in INTEGER_TYPES)


def _bool_text(value: str) -> str:
    return "true" if value.lower() in TRUE_WORDS else "false" if value.lower() in FALSE_WORDS else value


def value_param(constraint: Constraint, unit: str | None, data_type: str | None) -> Param | None:
    """The IDS value for a constraint, converted to SI for the property's dataType. A value that cannot be
    written in the dataType's XSD form (text for a measure, limits on a label) is left out: the facet then
    still requires the property, which is what the row asks for at least."""
    unit = constraint.unit or unit
    base = base_of(data_type)
    numeric = base in ("xs:double", "xs:integer")
    if constraint.kind == "bounds":
        return Restriction(base, tuple((f, _convert(n, unit, data_type)) for f, n in constraint.bounds)) \
            if numeric else None
    if constraint.kind == "pattern":
        return Restriction("xs:string", (("pattern", constraint.values[0]),)) if base == "xs:string" else None
    values = [_convert(v, unit, data_type) if numeric and re.fullmatch(NUMBER, v) else v for v in constraint.values]
    values = [_bool_text(v) for v in values] if data_type == "IFCBOOLEAN" else values
    if (numeric and not all(re.fullmatch(NUMBER, v) for v in values)) or \
            (base == "xs:boolean" and not set(values) <= {"true", "false"}):
        return None
    if constraint.kind == "enum" and base != "xs:boolean":
        return Restriction(base, tuple(("enumeration", v) for v in values))
    if constraint.kind in ("simple", "enum"):
        return values[0]
    return None


def cardinality_of(text: str) -> str:
    """required / optional / prohibited from the words of a cell or clause ("any value" is not "optional")."""
    text = re.sub(r"値は任意|any value", "", normalize(text), flags=re.I)
    if PROHIBITED.search(text):
        return "prohibited"
    return "optional" if OPTIONAL.search(text) else "required"


def make_property(schemas: list[str], property_set: str | None, name: str, constraint: Constraint,
                  unit: str | None = None, cardinality: str = "required") -> Property:
    """A property facet: the template's dataType for standard sets, a guess otherwise; the any-set pattern
    when no set is named."""
    data_type = standard_data_type(schemas, property_set, name) if property_set else None
    if data_type is None:
        data_type = custom_data_type(constraint, unit)
    value = value_param(constraint, unit, data_type)
    return Property(property_set or ANY_SET, name, value, data_type, cardinality)
