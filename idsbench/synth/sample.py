"""Drawing a task plan from (generator version, seed, index): domain, versions, groups, requirements.

Every draw comes from one random.Random seeded with the generator version, the seed and the task's
index, so task i is the same whatever --n is, and a second run gives the same bytes.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from .hard import home_kinds, shared_set, spelled_otherwise
from .lexicon import Group, lexicon
from .plan import Brief, SpecPlan, TaskPlan, Text, Turn
from .requirements import Option, clashes, compatible, compatible_all, concept_of, options, requirement
from .narrow import narrowing
from .revise import revise
from .settings import SETTINGS, Setting, difficulty_of
from .version import GENERATOR
from .vocab import group_exists

DRAWS = 24  # plans drawn for a task before the trap minimum is given up
JAPAN = 0.5  # the share of tasks under Japanese standards (the others under European ones)
DOMAINS = (("architectural", 3), ("structural", 2), ("mep", 3), ("civil", 2))
SINGLE = {"architectural": (("IFC2X3", 2), ("IFC4", 4), ("IFC4X3_ADD2", 3)),
          "structural": (("IFC2X3", 2), ("IFC4", 4), ("IFC4X3_ADD2", 3)),
          "mep": (("IFC4", 5), ("IFC4X3_ADD2", 4)),
          "civil": (("IFC4", 1), ("IFC4X3_ADD2", 6))}
PAIRS = {"architectural": (("IFC2X3", "IFC4"), ("IFC4", "IFC4X3_ADD2")),
         "structural": (("IFC2X3", "IFC4"), ("IFC4", "IFC4X3_ADD2")),
         "mep": (("IFC4", "IFC4X3_ADD2"),), "civil": (("IFC4", "IFC4X3_ADD2"),)}


def task_rng(seed: int, index: int, attempt: int = 0) -> random.Random:
    """The task's random stream; a task drawn again (it matched a benchmark gold) uses attempt 1, 2, ..."""
    return random.Random(f"{GENERATOR}:{seed}:{index}" + (f":{attempt}" if attempt else ""))


def _weighted(rng: random.Random, pairs) -> object:
    values, weights = zip(*pairs)
    return rng.choices(values, weights)[0]


def _versions(rng: random.Random, setting: Setting, domain: str) -> tuple[str, ...]:
    if rng.random() < setting.two_versions:
        return rng.choice(PAIRS[domain])
    return (_weighted(rng, SINGLE[domain]),)


@lru_cache(maxsize=None)
def _group_pool(domain: str, versions: tuple[str, ...]) -> tuple[Group, ...]:
    return tuple(g for g in lexicon().groups if g.domain == domain and g.usable_in(versions)
                 and all(group_exists(v, g) for v in versions))


@lru_cache(maxsize=None)
def _hard_items(versions: tuple[str, ...], group_key: str) -> int:
    return sum(hardness(versions, o) > 0 for o in options(versions, lexicon().group(group_key), None))


def _groups(rng: random.Random, setting: Setting, domain: str, versions: tuple[str, ...]) -> list[Group]:
    """Distinct classes: two specifications never select the same objects. Where the setting says so, groups with
    items of hard.py's kinds come first more often (a weighted shuffle)."""
    pool = list(_group_pool(domain, versions))
    rng.shuffle(pool)
    if setting.hard_groups:
        keys = {g.key: rng.random() ** (1 / (1 + setting.hard_groups * min(_hard_items(versions, g.key), 4)))
                for g in pool}
        pool.sort(key=lambda g: -keys[g.key])
    wanted, chosen = rng.randint(*setting.specs), []
    for group in pool:
        if len(chosen) < wanted and all(g.ifc_class != group.ifc_class for g in chosen):
            chosen.append(group)
    return chosen


def _weight(setting: Setting, versions, option: Option, used: Counter) -> float:
    """How likely the option is drawn: by kind, less for the sets every element has (a brief asks mostly about
    the thing itself), and away from what the task already asked of another group (a brief varies its items)."""
    if option.source == "attribute":
        weight = setting.attribute
    elif option.source in ("client", "any-set"):
        weight = 0.6
    else:
        weight = setting.quantity if option.source == "quantity" else 1.0
        if shared_set(versions[0], option.home.pset):
            weight = 0.25
    return weight / (1 + 3 * used[option.key])


@lru_cache(maxsize=None)
def hardness(versions: tuple[str, ...], option: Option) -> int:
    """How many of hard.py's kinds the option has (0 for attributes and the client's own properties); an item of
    a set every element has counts once at most (a brief asks mostly about the thing itself)."""
    if option.home is None:
        return 0
    concept = concept_of(option)
    tricky = any(spelled_otherwise(v, w) for v, w in concept.enumeration if v in option.home.enum_values)
    found = len(home_kinds(versions, option.home)) + tricky
    return min(found, 1) if shared_set(versions[0], option.home.pset) else found


def enough_traps(plan: TaskPlan, setting: Setting) -> bool:
    """The setting's minimum, of at least two kinds when two are asked for."""
    kinds = {t.kind for t in plan.traps}
    return len(plan.traps) >= setting.min_traps and len(kinds) >= min(2, setting.min_traps)


def _pick(rng: random.Random, setting: Setting, versions, pool: list[Option], count: int,
          used: Counter) -> list[Option]:
    """`count` options of distinct names; each, with the setting's `hard` chance, among the hard ones (the harder,
    the likelier), else among the others (any, where one of the two kinds is missing)."""
    chosen, names = [], set()
    pool = list(pool)
    weights = [_weight(setting, versions, o, used) for o in pool]
    hard = [hardness(versions, o) for o in pool]
    while pool and len(chosen) < count:
        wanted = rng.random() < setting.hard
        among = [i for i, h in enumerate(hard) if bool(h) == wanted] or range(len(pool))
        index = rng.choices(among, [weights[i] * (hard[i] if wanted and hard[i] else 1) for i in among])[0]
        option = pool.pop(index)
        weights.pop(index)
        hard.pop(index)
        name = option.home.name if option.home else option.key
        if name not in names and not clashes(option, {o.key for o in chosen}):
            names.add(name)
            chosen.append(option)
    return chosen


def _occurrence(rng: random.Random, setting: Setting, group: Group) -> str:
    roll = rng.random()
    if roll < setting.prohibited_spec and group.ifc_class == "IFCBUILDINGELEMENTPROXY":
        return "prohibited"
    return "optional" if roll < setting.prohibited_spec + setting.optional_spec else "required"


def draw_spec(rng, setting: Setting, versions, group: Group, brief: Brief, used: Counter) -> SpecPlan | None:
    occurrence = _occurrence(rng, setting, group)
    if occurrence == "prohibited":
        return SpecPlan(group, occurrence, ())
    pool = options(versions, group, brief.client_mode, brief.jurisdiction)
    chosen = _pick(rng, setting, versions, pool, rng.randint(*setting.requirements), used)
    used.update(o.key for o in chosen)
    reqs = compatible_all(requirement(rng, setting, versions, group, o, brief) for o in chosen)
    if not reqs:
        return None
    narrow = narrowing(rng, versions, group, {r.name.en for r in reqs}) if rng.random() < setting.filter else None
    return SpecPlan(group, occurrence, reqs, narrow if narrow and compatible(narrow, reqs) else None)


def _client(rng: random.Random, setting: Setting) -> tuple[str | None, Text | None]:
    roll = rng.random()
    if roll < setting.client:
        return "client", Text(**rng.choice(lexicon().client_sets))
    return ("any-set", None) if roll < setting.client + setting.any_set else (None, None)


def _draw(rng: random.Random, setting: Setting, index: int, seed: int) -> TaskPlan | None:
    domain = _weighted(rng, DOMAINS)
    versions = _versions(rng, setting, domain)
    groups = _groups(rng, setting, domain, versions)
    client_mode, client_set = _client(rng, setting)
    brief = Brief(client_mode, client_set, "jp" if rng.random() < JAPAN else "intl")
    used: Counter = Counter()
    specs = tuple(draw_spec(rng, setting, versions, g, brief, used) for g in groups)
    if not specs or any(s is None for s in specs) or all(s.occurrence == "prohibited" for s in specs):
        return None
    turns = (Turn(versions, specs),)
    if rng.random() < setting.multi_turn:
        turns = revise(rng, setting, turns, brief)
    fmt = "csv" if rng.random() < setting.csv else "natural_language"
    slug = groups[0].words.en[0].lower().replace(" ", "-").replace("/", "-")
    return TaskPlan(index, seed, setting.name, domain, fmt, turns, setting.spelled, client_set, slug,
                    brief.jurisdiction)


def sample_task(seed: int, index: int, difficulty: str, attempt: int = 0) -> TaskPlan:
    """The plan of task `index` (difficulty easy | medium | hard | mixed)."""
    rng = task_rng(seed, index, attempt)
    setting = SETTINGS[difficulty_of(difficulty, index)]
    fallback = None
    for _ in range(DRAWS):
        plan = _draw(rng, setting, index, seed)
        if plan is not None and enough_traps(plan, setting):
            return plan
        fallback = fallback or plan
    while fallback is None:
        fallback = _draw(rng, setting, index, seed)
    return fallback

