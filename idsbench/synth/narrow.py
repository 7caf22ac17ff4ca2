"""Properties that narrow a group the way briefs do ("external walls", "existing doors", 「外部に面する壁」).

The narrowing is an applicability property facet; it is offered only for the classes where it reads
naturally, and only with values a brief puts before a noun.
"""
from __future__ import annotations

import random

from .lexicon import Group, lexicon
from .plan import Equals, Requirement, Text
from .vocab import common_home

# Properties that narrow a group as briefs do ("external walls", "existing doors"), and the classes for which
# the narrowing reads naturally.
FILTERS = {
    "IsExternal": ("IFCWALL", "IFCDOOR", "IFCWINDOW", "IFCSLAB", "IFCCOLUMN", "IFCBEAM", "IFCCOVERING", "IFCRAILING"),
    "LoadBearing": ("IFCWALL", "IFCCOLUMN", "IFCBEAM", "IFCSLAB", "IFCMEMBER"),
    "FireExit": ("IFCDOOR", "IFCSTAIR", "IFCRAMP"),
    "Combustible": ("IFCWALL", "IFCCOVERING", "IFCCURTAINWALL"),
    "IsMain": ("IFCELECTRICDISTRIBUTIONBOARD",),
    "Status": ("IFCWALL", "IFCDOOR", "IFCWINDOW", "IFCSLAB", "IFCCOLUMN", "IFCBEAM", "IFCPAVEMENT", "IFCKERB",
               "IFCPUMP", "IFCFAN", "IFCBOILER", "IFCCHILLER", "IFCVALVE", "IFCLIGHTFIXTURE"),
}
FILTER_VALUES = ("NEW", "EXISTING")  # the Status values a brief puts before a noun (temporary beams are no group)
# Filters that contradict items a group may carry: "combustible walls" cannot be concrete walls, so a group
# that concrete items fit (shear walls, parapets) is never narrowed by Combustible.
CLASHES = {"Combustible": ("StrengthClass", "ExposureClass", "ReinforcementStrengthClass", "ConcreteCover",
                           "ConcreteCoverAtMainBars", "ConcreteCoverAtLinks", "CastingMethod")}


def _clashes(key: str, group: Group) -> bool:
    props = lexicon().properties
    return any(props[k].fits(group) for k in CLASHES.get(key, ()) if k in props)


def fits(key: str, group: Group) -> bool:
    """Civil kinds (girder segments, pier stems) are not narrowed by building flags such as IsExternal."""
    return (group.ifc_class in FILTERS[key] and (key == "Status" or group.domain != "civil")
            and not _clashes(key, group))


def narrowing(rng: random.Random, versions, group: Group, taken: set[str]) -> Requirement | None:
    """A property that narrows the group ("external walls", "existing doors"), when the class has one."""
    lex = lexicon()
    for key in rng.sample(sorted(FILTERS), len(FILTERS)):
        concept = lex.properties[key]
        if not fits(key, group):
            continue
        home = common_home(versions, group, concept)
        if home is None or home.name in taken:
            continue
        if concept.kind == "boolean":
            if {group.key, group.ifc_class} & dict(concept.answer_for).keys():
                continue  # all roofs are external: no narrowing by it
            drawn = rng.random() < 0.6
            answer = drawn if not concept.role or concept.answer == "either" else concept.answer == "true"
            value = Equals("true" if answer else "false", concept.true if answer else concept.false)
        else:
            known = [(v, w) for v, w in concept.enumeration if v in home.enum_values and v in FILTER_VALUES]
            if not known:
                continue
            value = Equals(*rng.choice(known))
        return Requirement("standard", key, Text.same(home.pset), Text.same(home.name), home.data_type, value)
    return None
