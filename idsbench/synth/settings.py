"""The difficulty settings: how large a task is, what it asks for and how it is written.

easy    IFC names spelled in the request, one version, one or two groups, values in SI or millimetres.
medium  trade words only, one trap or more, units to convert, the client's own properties, some
        revisions (one or two changes each) and two-version requests; most requirements on items of hard.py's
        kinds (a data type that is not the everyday one, a set other than the common one, a home that differs
        in the neighbouring version, a value spelled otherwise than the trade says it).
hard    trade words only, two traps or more per task, two to six groups, two-version requests, revisions
        of two or three changes (also two revisions in a row), checklist rows and clauses the gold must
        leave out; nearly every requirement on items of hard.py's kinds.
"""
from __future__ import annotations

from dataclasses import dataclass

DIFFICULTIES = ("easy", "medium", "hard")
MIXED = "mixed"  # the three in turn: task i has DIFFICULTIES[i % 3]


@dataclass(frozen=True)
class Setting:
    name: str
    specs: tuple[int, int]  # specifications per task (inclusive range)
    requirements: tuple[int, int]  # requirement facets per specification
    two_versions: float  # share of requests naming two IFC versions
    multi_turn: float  # share of tasks with a revision
    second_revision: float  # share of multi-turn tasks with two revisions
    changes: tuple[int, int]  # changes asked for in one revision message
    min_traps: int  # traps a task must have (best effort within a few draws)
    spelled: bool  # IFC names in the request
    conversions: bool  # units beyond mm -> m
    client: float  # share of tasks with the client's own property set
    any_set: float  # share of requirements on a client property in any set
    attribute: float  # weight of attribute requirements
    quantity: float  # weight of base quantities
    filter: float  # share of specifications narrowed by a property ("external walls")
    optional_spec: float  # share of "where there are any" specifications
    prohibited_spec: float  # share of "must not exist" specifications
    optional_requirement: float  # share of "if given, ..." requirements
    prohibited_requirement: float  # share of the client's properties that must no longer be given
    csv: float  # share of checklist inputs
    noise: bool  # rows and clauses that are not requirements (TBD, other trades, remarks)
    hard: float  # share of requirements drawn among items of hard.py's kinds (and of their values, tricky ones)
    hard_groups: float  # how much likelier a group with such items is drawn, per item (up to four)
    upgrade: float  # chance that a revision tries a version upgrade first (homes that move are hard.py's kind)


SETTINGS = {
    "easy": Setting("easy", (1, 2), (1, 3), 0.0, 0.15, 0.0, (1, 1), 0, True, False, 0.15, 0.05, 0.3, 0.15, 0.05,
                    0.1, 0.0, 0.0, 0.0, 0.4, False, 0.27, 0.0, 0.0),
    "medium": Setting("medium", (1, 3), (2, 4), 0.15, 0.3, 0.0, (1, 2), 1, False, True, 0.35, 0.1, 0.25, 0.2, 0.15,
                      0.2, 0.03, 0.08, 0.02, 0.45, True, 0.75, 0.5, 0.25),
    "hard": Setting("hard", (2, 6), (2, 5), 0.3, 0.25, 0.3, (2, 3), 2, False, True, 0.45, 0.1, 0.2, 0.25, 0.2, 0.25,
                    0.08, 0.12, 0.05, 0.45, True, 0.95, 2.0, 0.5),
}


def difficulty_of(difficulty: str, index: int) -> str:
    """The setting of task `index` for a requested difficulty (mixed: the three in turn)."""
    return DIFFICULTIES[index % 3] if difficulty == MIXED else difficulty
