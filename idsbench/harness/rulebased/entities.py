"""Which IFC class a phrase means: explicit class names, common element words (en/ja), predefined types."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..idsxml import Entity
from ..vocabulary import entity_in_all, predefined_types

# (pattern, ENTITY, predefinedType). Longer/more specific phrases first: the first match at a position wins.
ELEMENT_WORDS: tuple[tuple[str, str, str | None], ...] = (
    (r"curtain ?walls?|カーテンウォール", "IFCCURTAINWALL", None),
    (r"floor slabs?|床スラブ", "IFCSLAB", "FLOOR"), (r"roof slabs?|屋根スラブ", "IFCSLAB", "ROOF"),
    (r"base slabs?|foundation slabs?|基礎スラブ|耐圧版", "IFCSLAB", "BASESLAB"),
    (r"slabs?|スラブ|床版", "IFCSLAB", None), (r"walls?|壁", "IFCWALL", None),
    (r"doors?|ドア|扉", "IFCDOOR", None), (r"windows?|窓|サッシ", "IFCWINDOW", None),
    (r"beams?|梁|大梁|小梁", "IFCBEAM", None), (r"columns?|柱(?!脚)", "IFCCOLUMN", None),
    (r"spaces?|rooms?|居室|室|部屋|スペース", "IFCSPACE", None), (r"stairs?|staircases?|階段", "IFCSTAIR", None),
    (r"ramps?|スロープ", "IFCRAMP", None), (r"guard ?rails?|railings?|balustrades?|手すり|手摺", "IFCRAILING", None),
    (r"ceilings?|天井", "IFCCOVERING", "CEILING"), (r"cladding|クラッディング", "IFCCOVERING", "CLADDING"), (r"coverings?|仕上げ|被覆", "IFCCOVERING", None),
    (r"roofs?|屋根", "IFCROOF", None), (r"piles?|杭", "IFCPILE", None),
    (r"footings?|foundations?|基礎", "IFCFOOTING", None), (r"plates?|プレート|鋼板", "IFCPLATE", None),
    (r"members?|間柱|根太|垂木", "IFCMEMBER", None), (r"furniture|家具|什器", "IFCFURNISHINGELEMENT", None),
    (r"storeys?|stories|階層|フロア", "IFCBUILDINGSTOREY", None), (r"buildings?|建物|棟", "IFCBUILDING", None),
    (r"sites?|敷地", "IFCSITE", None),
    (r"culverts?|カルバート", "IFCPIPESEGMENT", "CULVERT"), (r"drains?|pipes?|piping|配管|排水管|管", "IFCPIPESEGMENT", None),
    (r"ducts?|ダクト", "IFCDUCTSEGMENT", None), (r"valves?|バルブ|弁", "IFCVALVE", None),
    (r"pumps?|ポンプ", "IFCPUMP", None), (r"fans?|送風機|ファン", "IFCFAN", None),
    (r"boilers?|ボイラー", "IFCBOILER", None), (r"chillers?|冷凍機", "IFCCHILLER", None),
    (r"air handling units?|AHUs?|air handlers?|空調機", "IFCUNITARYEQUIPMENT", "AIRHANDLER"),
    (r"unitary equipment|ユニタリー機器", "IFCUNITARYEQUIPMENT", None),
    (r"air terminals?|diffusers?|吹出口|制気口", "IFCAIRTERMINAL", None),
    (r"light fixtures?|luminaires?|照明器具", "IFCLIGHTFIXTURE", None),
    (r"smoke detectors?|煙感知器", "IFCSENSOR", "SMOKESENSOR"), (r"detectors?|sensors?|感知器|センサー", "IFCSENSOR", None),
    (r"sanitary|toilets? pans?|衛生器具|便器", "IFCSANITARYTERMINAL", None),
    (r"rebars?|reinforcing bars?|bars|鉄筋|主筋|帯筋", "IFCREINFORCINGBAR", None),
    (r"bolts?|fasteners?|ボルト", "IFCMECHANICALFASTENER", None),
    (r"manholes?|マンホール", "IFCDISTRIBUTIONCHAMBERELEMENT", "MANHOLE"),
    (r"bridges?|橋梁|橋", "IFCBRIDGE", None), (r"bearings?|支承", "IFCBEARING", None),
    (r"roads?|道路", "IFCROAD", None), (r"kerbs?|curbs?|縁石", "IFCKERB", None),
    (r"pavements?|舗装", "IFCPAVEMENT", None), (r"courses?|層", "IFCCOURSE", None),
    (r"signs?|標識", "IFCSIGN", None), (r"signals?|信号", "IFCSIGNAL", None),
    (r"rails?|レール", "IFCRAIL", None), (r"tendons?|PC鋼材", "IFCTENDON", None),
    (r"elevators?|lifts?|エレベーター", "IFCTRANSPORTELEMENT", None),
    (r"tanks?|タンク|水槽", "IFCTANK", None), (r"transformers?|変圧器", "IFCTRANSFORMER", None),
    (r"outlets?|sockets?|コンセント", "IFCOUTLET", None), (r"cables?|ケーブル", "IFCCABLESEGMENT", None),
)
_TYPE_WORD = re.compile(r"\s*の?(?:types?\b|タイプ)", re.I)
_IFC_NAME = re.compile(r"(?<![A-Za-z0-9_])(Ifc[A-Z][A-Za-z0-9]+|IFC[A-Z0-9]{3,})(?![A-Za-z0-9_])")
_COMPILED = [(re.compile(rf"(?<![A-Za-z])(?:{p})(?![a-z])", re.I), e, t) for p, e, t in ELEMENT_WORDS]


@dataclass(frozen=True)
class Mention:
    """An entity found in text, with where it starts (to attach later requirements to the nearest one)."""

    start: int
    entity: Entity
    label: str
    conditions: tuple = ()  # applicability facets besides the entity ("spaces whose ObjectType is Toilet")


def valid_predefined(entity: str, token: str | None, schemas: list[str]) -> str | None:
    """`token` when every schema lists it for `entity` (the audit checks exactly this), else None."""
    if not token:
        return None
    token = token.strip().upper()
    return token if all(token in predefined_types(s, entity) for s in schemas) else None


def _with_type(entity: str, text_after: str, schemas: list[str]) -> str:
    """"door types" / "ドアタイプ" -> the type class (IFCDOORTYPE) when it exists in every schema."""
    if _TYPE_WORD.match(text_after) and entity_in_all(entity + "TYPE", schemas):
        return entity + "TYPE"
    return entity


def ifc_names(text: str, schemas: list[str]) -> list[Mention]:
    """Explicit class names (IfcWall, IFCSLAB) valid in every schema of the specification."""
    found = []
    for match in _IFC_NAME.finditer(text):
        name = match[1].upper()
        if entity_in_all(name, schemas):
            found.append(Mention(match.start(), Entity(name), match[1]))
    return found


def element_words(text: str, schemas: list[str]) -> list[Mention]:
    """Common element words; the first (most specific) pattern claims each stretch of text."""
    found, taken = [], []
    for regex, entity, predefined in _COMPILED:
        for match in regex.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            name = _with_type(entity, text[match.end():match.end() + 8], schemas)
            if not entity_in_all(name, schemas):
                continue
            taken.append((match.start(), match.end()))
            found.append(Mention(match.start(), Entity(name, valid_predefined(name, predefined, schemas)), match[0]))
    return sorted(found, key=lambda m: m.start)


def entity_for_cell(cell: str, schemas: list[str]) -> Entity | None:
    """A CSV cell naming the element: a class name first, else the first element word."""
    mentions = ifc_names(cell, schemas) or element_words(cell, schemas)
    return mentions[0].entity if mentions else None


def entity_by_predefined(token: str, schemas: list[str]) -> str | None:
    """The one element-word class whose PredefinedType lists `token` (CULVERT -> IFCPIPESEGMENT), if unique."""
    candidates = {e for _, e, _ in ELEMENT_WORDS if entity_in_all(e, schemas) and valid_predefined(e, token, schemas)}
    return candidates.pop() if len(candidates) == 1 else None
