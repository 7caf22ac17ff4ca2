"""Bounded-time regex matching for untrusted patterns (they come from model output).

Python's `re` backtracks, so `(a+)+$` or `.*.*.*.*X` can take exponential or high
polynomial time. Patterns are first inspected with the standard library's own parser;
those with nested or many unbounded repeats are matched by a Thompson NFA simulated as a
lazily built DFA (linear in the text), and `re` is used only for the others.
Patterns the NFA cannot express (backreferences, lookarounds) and that are also risky are
refused: they match nothing.

Linear is not cheap: `(.{0,20}){0,900}Q` is an NFA of 18 000 states, and matching it against a
vocabulary took 25 s. So NFA work is metered in deterministic units (the states visited,
whatever the caches hold), and a document may spend a WorkBudget of them (the audit opens one
per document). Over budget, RegexBudgetExceeded ends the audit as an unhandled error: a timeout
in effect, verdict 0/0/0, and the same verdict whatever was scored before.
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from re import _constants as C  # noqa: N812 - the stdlib's own names
from re import _parser
from typing import Callable

MAX_NFA_STATES = 20000
MAX_DFA_CACHE = 50000
DOCUMENT_BUDGET = 10_000_000  # units per document: a few seconds of uncached work; real documents use < 1%
COMPILE_UNITS = 32  # per pattern character: compiling costs ~10 µs a character, an NFA unit ~0.3 µs
_UNSUPPORTED = {C.GROUPREF, C.GROUPREF_EXISTS, C.ASSERT, C.ASSERT_NOT}
Matcher = Callable[[str], bool]


def _never(_: str) -> bool:
    return False


# -- work metering -----------------------------------------------------------------------
class RegexBudgetExceeded(RuntimeError):
    """A document's patterns need more matching work than its budget."""


@dataclass
class Meter:
    """Units used by one evaluation; `limit` None = unmetered."""

    limit: int | None
    used: int = 0

    def add(self, units: int) -> None:
        self.used += units
        if self.limit is not None and self.used > self.limit:
            raise RegexBudgetExceeded(f"regular expressions need more than {self.limit} units of matching work")


@dataclass
class WorkBudget:
    """What one document may spend. Each distinct evaluation (a pattern against a candidate
    list) is charged once, cached or not, so the verdict never depends on earlier documents."""

    units: int
    spent: int = 0
    charged: set = field(default_factory=set)

    def meter(self, key: Hashable) -> Meter:
        return Meter(None if key in self.charged else self.units - self.spent)

    def charge(self, key: Hashable, cost: int) -> None:
        if key not in self.charged:
            self.charged.add(key)
            self.spent += cost
            if self.spent > self.units:
                raise RegexBudgetExceeded(f"regular expressions need more than {self.units} units of matching work")


_BUDGET: ContextVar[WorkBudget | None] = ContextVar("idsbench_regex_budget", default=None)
_METER: ContextVar[Meter | None] = ContextVar("idsbench_regex_meter", default=None)


@contextmanager
def work_budget(units: int | None = None) -> Iterator[WorkBudget]:
    """A fresh budget for the work done inside the block (one document); DOCUMENT_BUDGET units by default,
    read when the block opens (a test proves the budget ends an audit with a smaller one)."""
    token = _BUDGET.set(WorkBudget(DOCUMENT_BUDGET if units is None else units))
    try:
        yield _BUDGET.get()
    finally:
        _BUDGET.reset(token)


@contextmanager
def metered(key: Hashable) -> Iterator[Meter]:
    """Meter the evaluation `key` inside the block; charged to the budget when it completes
    (on a cache hit, charge the cost recorded with the cached result: `charge(key, cost)`)."""
    budget = _BUDGET.get()
    meter = budget.meter(key) if budget is not None else Meter(None)
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)
    charge(key, meter.used)


def charge(key: Hashable, cost: int) -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.charge(key, cost)


def charge_compile(pattern: str) -> None:
    """Charge compiling `pattern` (once per document): 10 MB of distinct patterns took minutes."""
    charge(("compile", pattern), COMPILE_UNITS * len(pattern))


def _spend(units: int) -> None:
    meter = _METER.get()
    if meter is not None:
        meter.add(units)


def _variable(op, av) -> bool:
    """A repeat that can match a varying number of times (`*`, `+`, `?`, `{m,n}`)."""
    return op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] != av[1]


def _children(op, av):
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return [av[2]]
    if op is C.SUBPATTERN:
        return [av[3]]
    if op is C.BRANCH:
        return list(av[1])
    if op in (C.ASSERT, C.ASSERT_NOT):
        return [av[1]]
    if op is C.ATOMIC_GROUP:
        return [av]
    if op is C.GROUPREF_EXISTS:
        return [x for x in av[1:] if x is not None]
    return []


def _risk(seq, inside_repeat: bool = False) -> tuple[bool, int, bool]:
    """(ambiguity under a repeat, count of variable repeats, uses constructs the NFA lacks).

    Backtracking blows up when a repeated body can match one text in several ways
    (a nested variable repeat or an alternation inside a repeat) or when many variable
    repeats compete for the same characters (`.*.*.*X`, `a?a?a?aaa`)."""
    nested, count, unsupported = False, 0, False
    for op, av in seq:
        unsupported |= op in _UNSUPPORTED
        rep = _variable(op, av) or (op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[1] > 1)
        if _variable(op, av):
            count += 1
        nested |= inside_repeat and (_variable(op, av) or op is C.BRANCH)
        for child in _children(op, av):
            n, c, u = _risk(child, inside_repeat or rep)
            nested, count, unsupported = nested or n, count + c, unsupported or u
    return nested, count, unsupported


# -- Thompson NFA ------------------------------------------------------------------------
class _Nfa:
    def __init__(self):
        self.eps: list[list[int]] = []  # epsilon edges
        self.edges: list[list[tuple[object, int]]] = []  # (char test, target)
        self.asserts: dict[int, tuple[str, int]] = {}  # state -> (anchor kind, target)

    def new(self) -> int:
        if len(self.eps) >= MAX_NFA_STATES:
            raise OverflowError("pattern too large for the NFA")
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1


def _char_test(op, av, flags: int):
    ignore = bool(flags & re.IGNORECASE)
    if op is C.ANY:
        return lambda ch: True if flags & re.DOTALL else ch != "\n"
    if op is C.LITERAL:
        return (lambda ch: ch.lower() == chr(av).lower()) if ignore else (lambda ch: ord(ch) == av)
    if op is C.NOT_LITERAL:
        return lambda ch: ord(ch) != av
    if op is C.IN:
        items = _parser_items_pattern(av, ignore)
        return lambda ch: items.fullmatch(ch) is not None
    return None


def _parser_items_pattern(items, ignore: bool):
    """Compile a one-character set back into a tiny regex (fast, and exact)."""
    parts, negate = [], False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            parts.append(f"\\U{av:08x}")
        elif op is C.RANGE:
            parts.append(f"\\U{av[0]:08x}-\\U{av[1]:08x}")
        elif op is C.CATEGORY:
            parts.append({C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
                          C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w",
                          C.CATEGORY_NOT_WORD: r"\W"}.get(av, ""))
    body = "".join(parts)
    if not body:
        return re.compile(r"[\s\S]" if negate else "(?!)")
    return re.compile(f"[{'^' if negate else ''}{body}]", re.DOTALL | (re.IGNORECASE if ignore else 0))


_ANCHORS = {C.AT_BEGINNING: "bol", C.AT_BEGINNING_STRING: "bos", C.AT_END: "eol",
            C.AT_END_STRING: "eos", C.AT_BOUNDARY: "wb", C.AT_NON_BOUNDARY: "nwb"}


def _build(nfa: _Nfa, seq, start: int, flags: int) -> int:
    """Append the fragment for `seq` after `start`; return its end state."""
    cur = start
    for op, av in seq:
        cur = _build_one(nfa, op, av, cur, flags)
    return cur


def _build_one(nfa: _Nfa, op, av, cur: int, flags: int) -> int:
    if op is C.SUBPATTERN:
        return _build(nfa, av[3], cur, flags | av[1])
    if op is C.ATOMIC_GROUP:
        return _build(nfa, av, cur, flags)
    if op is C.BRANCH:
        end = nfa.new()
        for alt in av[1]:
            s = nfa.new()
            nfa.eps[cur].append(s)
            nfa.eps[_build(nfa, alt, s, flags)].append(end)
        return end
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return _build_repeat(nfa, av, cur, flags)
    if op is C.AT:
        mid, end = nfa.new(), nfa.new()  # one state per assertion: mid --[anchor]--> end
        nfa.eps[cur].append(mid)
        nfa.asserts[mid] = (_ANCHORS.get(av, "eos"), end)
        return end
    test = _char_test(op, av, flags)
    if test is None:
        raise OverflowError(f"unsupported regex construct {op}")
    end = nfa.new()
    nfa.edges[cur].append((test, end))
    return end


def _build_repeat(nfa: _Nfa, av, cur: int, flags: int) -> int:
    low, high, body = av
    for _ in range(low):
        cur = _build(nfa, body, cur, flags)
    if high is C.MAXREPEAT:
        loop = nfa.new()
        nfa.eps[cur].append(loop)
        nfa.eps[_build(nfa, body, loop, flags)].append(loop)
        return loop
    end = nfa.new()
    for _ in range(high - low):
        nfa.eps[cur].append(end)
        cur = _build(nfa, body, cur, flags)
    nfa.eps[cur].append(end)
    return end


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _anchor_ok(kind: str, text: str, pos: int) -> bool:
    n = len(text)
    if kind in ("bol", "bos"):
        return pos == 0
    if kind == "eol":
        return pos == n or (pos == n - 1 and text[pos] == "\n")
    if kind == "eos":
        return pos == n
    before = pos > 0 and _is_word(text[pos - 1])
    after = pos < n and _is_word(text[pos])
    return (before != after) if kind == "wb" else (before == after)


class _LazyDfa:
    def __init__(self, nfa: _Nfa, start: int, accept: int):
        self.nfa, self.start, self.accept = nfa, start, accept
        self.cache: dict[tuple, frozenset[int]] = {}
        self.closures: dict[tuple, frozenset[int]] = {}
        self.start_set = frozenset((start,))

    def closure(self, states: frozenset[int], text: str, pos: int) -> frozenset[int]:
        n = len(text)
        context = (pos == 0, pos == n, pos == n - 1 and text[pos] == "\n",
                   pos > 0 and _is_word(text[pos - 1]), pos < n and _is_word(text[pos]))
        key = (states, context)
        hit = self.closures.get(key)
        if hit is None:
            hit = self._closure(states, text, pos)
            if len(self.closures) < MAX_DFA_CACHE:
                self.closures[key] = hit
        return hit

    def _closure(self, states: frozenset[int], text: str, pos: int) -> frozenset[int]:
        seen, stack = set(states), list(states)
        while stack:
            s = stack.pop()
            nxt = list(self.nfa.eps[s])
            if s in self.nfa.asserts:
                kind, target = self.nfa.asserts[s]
                if _anchor_ok(kind, text, pos):
                    nxt.append(target)
            for t in nxt:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return frozenset(seen)

    def step(self, states: frozenset[int], ch: str) -> frozenset[int]:
        key = (states, ch)
        hit = self.cache.get(key)
        if hit is None:
            hit = frozenset(t for s in states for test, t in self.nfa.edges[s] if test(ch))
            if len(self.cache) < MAX_DFA_CACHE:
                self.cache[key] = hit
        return hit

    def search(self, text: str) -> bool:
        _spend(len(self.nfa.eps))  # the NFA's size: building it is work too
        states: frozenset[int] = frozenset()
        for pos in range(len(text) + 1):
            states = self.closure(states | self.start_set, text, pos)
            _spend(len(states))  # the same units whether the step was cached or not
            if self.accept in states:
                return True
            if pos < len(text):
                states = self.step(states, text[pos])
        return False


def _nfa_matcher(parsed, flags: int) -> Matcher:
    nfa = _Nfa()
    start = nfa.new()
    accept = _build(nfa, parsed, start, flags)
    return _LazyDfa(nfa, start, accept).search


@lru_cache(maxsize=4096)
def compile_search(pattern: str, flags: int = re.DOTALL) -> Matcher | None:
    """A bounded-time `search` for a Python pattern; None when it does not compile."""
    try:
        compiled = re.compile(pattern, flags)
        parsed = _parser.parse(pattern, flags)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None
    nested, count, unsupported = _risk(list(parsed))
    if not nested and count <= 2:
        return lambda text: compiled.search(text) is not None
    if unsupported:
        return _never
    try:
        return _nfa_matcher(list(parsed), flags | parsed.state.flags)
    except (OverflowError, RecursionError):
        return _never
