"""When a template's data type is "not the intuitive one": the rules behind the catalogue's datatype facts.

ifcopenshell gives each standard property its data type; what a model would guess instead is a judgement,
so it is written here as rules, each naming the property names and data types it covers, the tempting
wrong answer and why the template's type is right. A property is a datatype fact when at least one rule
matches it (all matching rules are quoted in the fact's note; the first names `obvious`).

- identifier: IfcIdentifier, where IfcLabel is the usual guess for any short text.
- text: IfcText (long text), where IfcLabel is the usual guess.
- rating-is-text: a name ending in Rating, Class, Classification or Grade whose type is a label or an
  identifier: a rating reads like a number ("60 minutes", "Rw 45") but is the text of a classification.
- positive-length / non-negative-length: IfcPositiveLengthMeasure or IfcNonNegativeLengthMeasure,
  where IfcLengthMeasure is the usual guess.
- signed-length: a name for a size that is never negative (width, height, depth, thickness, diameter,
  radius, length) typed IfcLengthMeasure, where IfcPositiveLengthMeasure is the guess.
- ratio: a ratio type: values are fractions (0.5), not percentages (50), and the three ratio types differ.
- count: IfcCountMeasure where IfcInteger is the guess, or IfcInteger for a NumberOf…/…Count name.
- logical: IfcLogical (true, false, unknown), where IfcBoolean is the guess.
- duration: IfcDuration (an ISO 8601 duration such as P25Y) where a number of seconds (IfcTimeMeasure) is
  the guess, and IfcTimeMeasure for a …Duration/…Period/…Life name, where IfcDuration is the guess.
- positive-angle: IfcPositivePlaneAngleMeasure, where IfcPlaneAngleMeasure is the guess.
- version-change: the same property has another data type in another IFC version.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping


@dataclass(frozen=True)
class Rule:
    name: str
    applies: Callable[[str, str], bool]  # (property name, UPPER data type)
    obvious: str
    why: str


_SIZE_NAME = re.compile(r"(Width|Height|Depth|Thickness|Diameter|Radius|Length)$")
_RATING_NAME = re.compile(r"(Rating|Class|Classification|Grade)$")
_COUNT_NAME = re.compile(r"^NumberOf|Count$")
_DURATION_NAME = re.compile(r"(Duration|Period|Life)$")
_RATIOS = ("IFCRATIOMEASURE", "IFCPOSITIVERATIOMEASURE", "IFCNORMALISEDRATIOMEASURE")

RULES = (
    Rule("identifier", lambda n, t: t == "IFCIDENTIFIER", "IFCLABEL",
         "an identifier (IfcIdentifier), not a label"),
    Rule("text", lambda n, t: t == "IFCTEXT", "IFCLABEL", "free text (IfcText), not a label"),
    Rule("rating-is-text", lambda n, t: bool(_RATING_NAME.search(n)) and t in ("IFCLABEL", "IFCIDENTIFIER"),
         "IFCREAL", "a rating or class is text, not a number"),
    Rule("positive-length", lambda n, t: t == "IFCPOSITIVELENGTHMEASURE", "IFCLENGTHMEASURE",
         "a positive length (IfcPositiveLengthMeasure), not any length"),
    Rule("non-negative-length", lambda n, t: t == "IFCNONNEGATIVELENGTHMEASURE", "IFCLENGTHMEASURE",
         "a non-negative length (IfcNonNegativeLengthMeasure), not any length"),
    Rule("signed-length", lambda n, t: bool(_SIZE_NAME.search(n)) and t == "IFCLENGTHMEASURE",
         "IFCPOSITIVELENGTHMEASURE", "a size typed as any length (IfcLengthMeasure), not a positive one"),
    Rule("ratio", lambda n, t: t in _RATIOS, "IFCREAL",
         "a ratio: a fraction (0.5 for 50 %) of exactly this ratio type"),
    Rule("count", lambda n, t: t == "IFCCOUNTMEASURE", "IFCINTEGER", "a count measure (IfcCountMeasure), not an integer"),
    Rule("count-is-integer", lambda n, t: bool(_COUNT_NAME.search(n)) and t == "IFCINTEGER", "IFCCOUNTMEASURE",
         "a count typed as an integer (IfcInteger), not a count measure"),
    Rule("logical", lambda n, t: t == "IFCLOGICAL", "IFCBOOLEAN", "a logical (true, false or unknown), not a boolean"),
    Rule("duration", lambda n, t: t == "IFCDURATION", "IFCTIMEMEASURE",
         "an ISO 8601 duration (IfcDuration), not a number of seconds"),
    Rule("duration-in-seconds", lambda n, t: bool(_DURATION_NAME.search(n)) and t == "IFCTIMEMEASURE",
         "IFCDURATION", "a duration in seconds (IfcTimeMeasure), not an ISO 8601 duration"),
    Rule("positive-angle", lambda n, t: t == "IFCPOSITIVEPLANEANGLEMEASURE", "IFCPLANEANGLEMEASURE",
         "a positive angle (IfcPositivePlaneAngleMeasure), not any angle"),
)


def matching_rules(prop: str, data_type: str, elsewhere: Mapping[str, tuple[str, ...]]) -> tuple[Rule, ...]:
    """The rules a property of one version matches; `elsewhere` holds its data types in other versions."""
    found = [r for r in RULES if r.applies(prop, data_type)]
    others = sorted({t[0] for t in elsewhere.values() if t and t[0] != data_type})
    if others:
        versions = ", ".join(f"{t} in {' and '.join(v for v, ts in elsewhere.items() if ts[:1] == (t,))}"
                             for t in others)
        found.append(Rule("version-change", lambda n, t: True, others[0], f"the type differs by version ({versions})"))
    return tuple(found)
