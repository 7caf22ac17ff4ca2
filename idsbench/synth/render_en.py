"""English requests: letters and clause lists from BIM managers, and checklist exports (CSV)."""
from __future__ import annotations

from .gold import narrowed
from .plan import Change, Equals, OneOf, Presence, Requirement, SpecPlan, TaskPlan, Turn
from .render import Voice, filter_word, group_paragraph, group_name, item_name, number, spelled_class, unit_symbol, value_word
from .values import Format, Range, Token

PURPOSES = {  # by compose.PURPOSES' keys
    "design-check": "the design-stage model check", "fm-handover": "the handover to the facility manager",
    "fire-review": "the fire-safety review", "access-review": "the accessibility review",
    "structural-check": "the structural design check", "fabrication": "the precast and steel fabrication hand-off",
    "take-off": "the quantity take-off", "fire-equipment": "the fire-safety review", "commissioning": "the MEP commissioning hand-over",
    "maintenance-register": "the asset register for maintenance", "civil-register": "the civil asset register",
    "road-register": "the road asset register", "bridge-inspection": "the bridge inspection database",
    "earthworks-check": "the earthworks quantity check", "drainage-register": "the drainage asset register",
    "track-register": "the track asset register",
}
OPENINGS = (
    "Below are our information requirements for {purpose}. Could you turn them into an IDS we can run on the "
    "models before each delivery?",
    "Please write an IDS for {purpose}, covering the requirements below.",
    "For {purpose} we check the models against the following. Please make an IDS file of it.",
)
STANDARD = ("Use the IFC standard property sets wherever the item exists there.",
            "Items that exist in the IFC standard property sets go there.")
QUANTITIES = ("Quantities are given as IFC base quantities.", "Quantities are to be delivered as IFC base quantities.")
CLIENT_SET = ("Our own properties go in our property set '{name}' (data types in the dictionary below).",
              "Properties of our own are kept in the set '{name}'; see the data dictionary at the end.")
ANY_SET = ("Where we give only a property name, any property set of your choosing will do (data types in the "
           "dictionary below).",)
NORMS = {"jp": ("The project is in Japan: grades and classes are to the Japanese standards (JIS and related).",
                "Grades and classes follow the Japanese standards (JIS and related), as the project is in Japan."),
         "intl": ("Grades and classes are to the European standards (EN).",
                  "Grades and classes follow the European standards (EN) throughout.")}
SEPARATOR, BULLET, NONE = " ", "- ", "-"
DICTIONARY = ("Data dictionary of our own properties:", "| Property | Data type | Unit | Description |")
EXTRAS = ("", "", "Design team", "Contractor")  # the responsible party, a column the gold ignores
TBD_ROW = ("Classification code", "TBD", "TBD", "-", "To be confirmed by the client")
CLOSINGS = ("Everything else stays as it is.", "The rest is unchanged.")
INTROS = ("{} changes from the latest review, please:", "Please update the IDS ({} points):")
NOISE = {  # remarks from the request's own trade (compose.py draws one per task, alike in both languages)
    "architectural": ("Door and window schedules are checked separately and are not part of this check.",
                      "Classification codes will follow in a later revision and are not required yet.",
                      "Please keep the file name as given."),
    "structural": ("Lifting points and temporary works are checked by the contractor and are not part of this check.",
                   "Classification codes will follow in a later revision and are not required yet.",
                   "Please keep the file name as given."),
    "mep": ("Cable and pipe routing is coordinated separately and is not part of this check.",
            "Classification codes will follow in a later revision and are not required yet.",
            "Please keep the file name as given."),
    "civil": ("Alignment and setting-out data are checked by the surveyor and are not part of this check.",
              "Classification codes will follow in a later revision and are not required yet.",
              "Please keep the file name as given."),
}
BOUND = {"at least": "at least {a}", "at most": "at most {a}", "more than": "more than {a}",
         "less than": "less than {a}", "between": "between {a} and {b}", "positive": "greater than zero"}
SPELLED_BOUND = {"at least": ">= {a}", "at most": "<= {a}", "more than": "> {a}", "less than": "< {a}",
                 "between": "between {a} and {b} (both included)", "positive": "> 0"}


def quantity_text(v: Voice, value, unit_key: str | None) -> str:
    symbol = unit_symbol(v, unit_key)
    if not symbol:
        return number(value)
    return f"{number(value)}{symbol}" if symbol == "%" else f"{number(value)} {symbol}"


def range_text(v: Voice, value: Range, units: bool = True) -> str:
    unit_key = value.unit.key if value.unit and units else None
    shown = [quantity_text(v, b.shown, unit_key) for b in value.bounds]
    template = (SPELLED_BOUND if v.plan.spelled else BOUND)[value.phrase]
    if value.phrase == "between":
        return template.format(a=number(value.bounds[0].shown), b=shown[1])
    return template.format(a=shown[0])


def _token_words(token: Token) -> str:
    if token.kind == "literal":
        return "a hyphen" if token.text == "-" else f"the letters {token.text}" if len(token.text) > 1 \
            else f"the letter {token.text}"
    if token.kind == "digits":
        return f"{('one', 'two', 'three', 'four')[token.count - 1]} digit{'s' if token.count > 1 else ''}"
    if token.kind == "letters":
        return f"{('one', 'two', 'three')[token.count - 1]} capital letter{'s' if token.count > 1 else ''}"
    return "the storey code (two digits, or B1 to B3 for basements)"


def format_text(value: Format) -> str:
    parts = [_token_words(t) for t in value.tokens]
    words = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return f"{words} (e.g. {' or '.join(value.examples)})"


def value_text(v: Voice, req: Requirement) -> str:
    """The value part of a clause: 'at least 0.9 m', 'one of EI60 or EI90', 'format ...'."""
    value = req.value
    if isinstance(value, Range):
        return range_text(v, value)
    if isinstance(value, Format):
        return f"in the format {format_text(value)}"
    if isinstance(value, OneOf):
        shown = [value_word(v, req, g, w) for g, w in zip(value.gold, value.words)]
        return "one of " + ", ".join(shown[:-1]) + " or " + shown[-1]
    if isinstance(value, Equals):
        return value_word(v, req, value.gold, value.words)
    return ""


def clause(v: Voice, req: Requirement) -> str:
    item = item_name(v, req)
    if req.source == "client":
        item = f"'{item}'"
    elif req.source == "any-set":
        item = f"'{item}' (in any property set)"
    if req.cardinality == "prohibited":
        return f"{item} is no longer used and must not be given"
    value = req.value
    if isinstance(value, Presence):
        text = v.pick(("presence", req.key), (f"{item} must be given", f"{item} is required", f"{item} required"))
    elif isinstance(value, Equals) and req.flag and not v.plan.spelled and value.words:
        text = v.pick(("flag", req.key), ("flagged as {}", "recorded as {}")).format(value_text(v, req))
    elif isinstance(value, Equals) and req.flag:
        text = f"{item} must be {'yes' if value.gold == 'true' else 'no'}"
    elif isinstance(value, Format):
        text = f"{item} {value_text(v, req)}"
    else:
        text = f"{item}: {value_text(v, req)}"
    return f"if given, {text}" if req.cardinality == "optional" else text


def group_phrase(v: Voice, spec: SpecPlan, version: str) -> str:
    if v.plan.spelled:
        text = spelled_class(version, spec.group.ifc_class) + " elements"
        if spec.group.predefined_type:
            text += f" with predefined type {spec.group.predefined_type}"
        if spec.filter:
            text += f" whose {spec.filter.pset.en}.{spec.filter.name.en} is {spec.filter.value.gold}"
        return text
    enumeration = spec.filter is not None and not spec.filter.flag
    return narrowed(group_name(v, spec), filter_word(v, spec), enumeration, "en")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


LEADS = {"prohibited": ("The model must not contain any {group}.", "No {group} may be delivered in the model."),
         "optional": ("{Group}, where present:", "If the model has {group}, each of them:"),
         "required": ("{Group} (the model must contain them):", "The model contains {group}; each one:")}


def spec_paragraph(v: Voice, spec: SpecPlan, version: str) -> str:
    return group_paragraph(v, spec, group_phrase(v, spec, version), lambda r: clause(v, r), LEADS, "; ", " ", ".")


HEADERS = (("#", "Element", "Presence in model", "Information item", "Source", "Requirement", "Unit", "Remarks"),
           ("Ref", "Object", "Applies", "Attribute / property", "Property set", "Rule", "Unit", "Responsible"))
PRESENCE = {"required": "Must exist", "optional": "Where present", "prohibited": "Must not exist"}
SOURCES = {"standard": "IFC standard", "quantity": "IFC base quantities", "attribute": "- (the object's own field)",
           "any-set": "any set"}
NOT_PERMITTED = "Not permitted in the model"


def rule(v: Voice, req: Requirement) -> str:
    if req.cardinality == "prohibited":
        return "Must not be given"
    if isinstance(req.value, Presence):
        return "Required"
    text = capital(range_text(v, req.value, units=False) if isinstance(req.value, Range) else value_text(v, req))
    if isinstance(req.value, Equals) and req.flag:
        text = "Yes" if req.value.gold == "true" else "No"
    return f"If given: {text}" if req.cardinality == "optional" else text


def change_text(v: Voice, plan: TaskPlan, before: Turn, after: Turn) -> str:
    """One change, as one sentence, worded against the state it changes."""
    change: Change = after.change
    version = after.versions[0]
    if change.kind == "version-upgrade":
        return (f"The models will now be delivered in {' '.join(after.versions)} instead of "
                f"{' '.join(before.versions)}: please update the IDS for that version.")
    spec = before.specs[change.spec]
    group = group_phrase(v, spec, version)
    if change.kind == "add-requirement":
        return f"Please also add for the {group}: {clause(v, change.requirement)}."
    if change.kind == "change-bound":
        return (f"Please change the limit for the {group}: {clause(v, change.requirement)} (instead of "
                f"{value_text(v, change.old)}).")
    if change.kind == "remove-requirement":
        if change.old.flag:  # a yes/no item is a predicate ("on an escape route"): named as an item
            return f"The item '{item_name(v, change.old)}' of the {group} is no longer needed: please drop it."
        return f"The {item_name(v, change.old)} of the {group} is no longer needed: please drop it."
    split = after.specs[change.spec]
    return (f"Please split the {group} into {group_phrase(v, split, version)} and "
            f"{group_phrase(v, after.specs[change.spec + 1], version)}: {SPLIT_PRESENCE[split.occurrence]}, both keep "
            f"the current requirements, and the {group_phrase(v, split, version)} must also have: "
            f"{clause(v, change.requirement)}.")


SPLIT_PRESENCE = {"required": "both must be present in the model", "optional": "each applies where present"}


def standard_case_text(nouns: list[str]) -> str:
    """The export convention that makes the class alone the entity: one sentence for the groups it concerns."""
    listed = ", ".join(nouns[:-1]) + " and " + nouns[-1] if len(nouns) > 1 else nouns[0]
    return f"{capital(listed)} are exported without the standard-case subtype."


def count_intro(intro: str, count: int) -> str:
    return capital(intro.format({2: "two", 3: "three"}[count]))
