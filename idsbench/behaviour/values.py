"""Values that satisfy or violate one facet parameter (a simpleValue, a restriction, or nothing).

A kind is how IFC stores the value: 'string', 'float', 'integer', 'boolean', 'logical' or
'enum' (an attribute's enumeration). Every sample is checked against the parameter with the same
restriction semantics the checker uses (check.BoundedRestriction), so a value generated for
"inside" is inside and one for "outside" is outside, whatever the generator's heuristics.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ifctester.facet import Restriction, cast_to_value, is_x

from .check import BoundedRestriction, _as_list
from .patterns import matching_strings, missing_string

_BOUNDS = ("minInclusive", "minExclusive", "maxInclusive", "maxExclusive")
_PLACEHOLDER = {"string": "W", "float": 1.0, "integer": 1, "boolean": True, "logical": True}


@dataclass(frozen=True)
class Sample:
    value: Any
    note: str


def _cast(text: str, kind: str) -> Any:
    if kind in ("boolean", "logical"):
        return {"true": True, "1": True, "false": False, "0": False}.get(str(text).strip())
    try:
        if kind == "float":
            return float(text)
        if kind == "integer":
            return int(float(text)) if float(text).is_integer() else None
    except (TypeError, ValueError):
        return None
    return str(text)


def accepts(param: Any, value: Any) -> bool:
    """Whether a value meets the parameter, as ifctester compares a stored value with it."""
    if param is None:
        return value is not None
    if isinstance(param, Restriction):
        return BoundedRestriction(dict(param.options), param.base) == value
    if isinstance(value, str):
        return value == param
    cast = cast_to_value(param, value)
    if isinstance(value, float) and isinstance(cast, float):
        return is_x(value, cast)
    return value == cast


def _step(value: float, kind: str) -> float:
    return 1 if kind == "integer" else max(abs(value), 1.0) * 1e-3


def _number(value: float, kind: str) -> Any:
    return int(value) if kind == "integer" else float(f"{value:.12g}")


def _bounds(options: dict, kind: str) -> tuple[list[Sample], list[Sample]]:
    """(inside, outside) samples for numeric bounds: each inclusive bound itself, a value just
    inside an exclusive one, an interior value first; just outside each bound."""
    low = next(((k, float(options[k])) for k in ("minInclusive", "minExclusive") if k in options), None)
    high = next(((k, float(options[k])) for k in ("maxInclusive", "maxExclusive") if k in options), None)
    inside, outside = [], []
    if low and high:
        middle = (low[1] + high[1]) / 2
    elif low:
        middle = low[1] + max(abs(low[1]), 1.0) * 0.5
    else:
        middle = high[1] - max(abs(high[1]), 1.0) * 0.5
    if kind == "integer":
        middle = round(middle)
    inside.append(Sample(_number(middle, kind), "a value inside the bounds"))
    for key, bound in (b for b in (low, high) if b is not None):
        step = _step(bound, kind) * (1 if key.startswith("min") else -1)
        if key.endswith("Inclusive"):
            inside.append(Sample(_number(bound, kind), f"the {key} bound itself"))
            outside.append(Sample(_number(bound - step, kind), f"just outside {key} {options[key]}"))
        else:
            inside.append(Sample(_number(bound + step, kind), f"just inside {key} {options[key]}"))
            outside.append(Sample(_number(bound, kind), f"the {key} bound itself (excluded)"))
    return inside, outside


def _enumeration(values: list, kind: str, enum_items: tuple) -> tuple[list[Sample], list[Sample]]:
    inside = [Sample(v, "a value of the enumeration") for v in (_cast(x, kind) for x in values) if v is not None]
    if kind in ("float", "integer"):
        top = max((s.value for s in inside), default=0)
        return inside, [Sample(_number(top + max(abs(top), 1.0), kind), "a value outside the enumeration")]
    if kind == "enum":
        other = next((i for i in enum_items if i not in values), None)
        return inside, [Sample(other, "another enumeration item")] if other else []
    text = str(values[0]) + "X" if values else "X"
    while text in values:
        text += "X"
    return inside, [Sample(text, "a value outside the enumeration")]


def _patterns(patterns: list[str], preferred: tuple[str, ...]) -> tuple[list[Sample], list[Sample]]:
    inside, outside = [], []
    for pattern in patterns:
        found = matching_strings(pattern, preferred)
        inside += [Sample(text, f"a string matching {pattern}") for text in found]
        miss = missing_string(pattern, found[0]) if found else None
        if miss is not None:
            outside.append(Sample(miss, f"a string not matching {pattern}"))
    return inside, outside


def _simple(param: str, kind: str, enum_items: tuple) -> tuple[list[Sample], list[Sample]]:
    value = _cast(param, kind)
    if value is None:
        return [], []
    if kind in ("boolean", "logical"):
        return [Sample(value, "the value")], [Sample(not value, "the other truth value")]
    if kind in ("float", "integer"):
        return [Sample(value, "the value")], [Sample(_number(value + _step(value, kind), kind), "just off the value")]
    if kind == "enum":
        other = next((i for i in enum_items if i != value), None)
        return [Sample(value, "the value")], [Sample(other, "another enumeration item")] if other else []
    return [Sample(value, "the value")], [Sample(value + "X", "another string")]


def samples(param: Any, kind: str, enum_items: tuple = (), preferred: tuple[str, ...] = ()
            ) -> tuple[list[Sample], list[Sample]]:
    """(values that satisfy the parameter, base first; values that violate it), all verified."""
    if param is None:
        base = preferred[0] if preferred and kind == "string" else _PLACEHOLDER.get(kind)
        if kind == "enum":
            base = next((i for i in enum_items if i not in ("NOTDEFINED", "USERDEFINED")), None)
        return ([Sample(base, "any value")] if base is not None else []), []
    if not isinstance(param, Restriction):
        inside, outside = _simple(str(param), kind, enum_items)
    else:
        options = param.options
        inside, outside = [], []
        if "enumeration" in options:
            more_in, more_out = _enumeration(_as_list(options["enumeration"]), kind, enum_items)
            inside, outside = inside + more_in, outside + more_out
        if "pattern" in options and kind in ("string", "enum"):
            more_in, more_out = _patterns([str(p) for p in _as_list(options["pattern"])], preferred)
            inside, outside = inside + more_in, outside + more_out
        if any(k in options for k in _BOUNDS) and kind in ("float", "integer"):
            more_in, more_out = _bounds(options, kind)
            inside, outside = inside + more_in, outside + more_out
    inside = _unique([s for s in inside if accepts(param, s.value)])
    outside = _unique([s for s in outside if s.value is not None and not accepts(param, s.value)])
    return inside, outside


def _unique(items: list[Sample]) -> list[Sample]:
    seen, out = set(), []
    for item in items:
        key = (type(item.value).__name__, item.value)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
