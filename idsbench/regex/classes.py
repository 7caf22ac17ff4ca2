"""Character classes of xs:pattern values as the audit tool's .NET Regex sees them: the XSD escapes
`\\c \\d \\i \\w` (and their negations), which the tool rewrites into .NET's internal XML classes, and
the Unicode properties `\\p{…}` (general categories and `Is…` block names), with their Python class
bodies from elementpath."""
from __future__ import annotations

from functools import lru_cache

XML_ESCAPES = {"c": "_xmlC", "C": "_xmlC", "d": "_xmlD", "D": "_xmlD",
               "i": "_xmlI", "I": "_xmlI", "w": "_xmlW", "W": "_xmlW"}
CATEGORIES = frozenset(
    "L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp "
    "C Cc Cf Cs Co Cn".split())


def preprocess(pattern: str) -> str:
    """XmlRegex.Preprocess: rewrite XSD class escapes and wrap in `^…$`."""
    out, i, n = ["^"], 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt in XML_ESCAPES:
                sign = "P" if nxt.isupper() else "p"
                out.append(f"\\{sign}{{{XML_ESCAPES[nxt]}}}")
            else:
                out.append(ch + nxt)  # `\\\\` stays a pair, so a following letter is literal
            i += 2
            continue
        out.append(ch)
        i += 1
    out.append("$")
    return "".join(out)


@lru_cache(maxsize=64)
def property_class(name: str) -> str:
    """Body of a Python character class for a .NET property name."""
    from elementpath.regex.character_classes import c_shortcut, d_shortcut, i_shortcut, w_shortcut
    from elementpath.regex.unicode_subsets import unicode_category, unicode_subset

    shortcuts = {"_xmlC": c_shortcut, "_xmlD": d_shortcut, "_xmlI": i_shortcut, "_xmlW": w_shortcut}
    if name in shortcuts:
        return str(shortcuts[name]())
    if name in CATEGORIES:
        return str(unicode_category(name))
    return str(unicode_subset(name))  # "IsBasicLatin": XSD/.NET block naming


def is_known_property(name: str) -> bool:
    if name in CATEGORIES or name in ("_xmlC", "_xmlD", "_xmlI", "_xmlW"):
        return True
    if not name.startswith("Is"):
        return False
    try:
        property_class(name)
    except Exception:  # elementpath raises KeyError/RegexError for unknown blocks
        return False
    return True
