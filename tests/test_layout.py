"""The layout is the architecture: the import graph of idsbench (every import statement, also those inside
functions) has no cycle, the core imports none of the harness, the leaderboard, the dataset tooling, the
generated tasks and the command line, nothing imports the command line, and no module edits sys.path or
loads code by path."""
from __future__ import annotations

import ast

import pytest

from tests.paths import ROOT

PACKAGE = ROOT / "idsbench"
ABOVE_THE_CORE = ("idsbench.harness", "idsbench.leaderboard", "idsbench.dataset", "idsbench.integrations",
                  "idsbench.synth", "idsbench.cli", "idsbench.__main__")


def module_name(path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The idsbench module an imported name lives in (a.b.c may be a module, or a name in module a.b)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_resolve(alias.name) for alias in node.names if alias.name.startswith("idsbench"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            if base.startswith("idsbench"):
                found.update(_resolve(f"{base}.{alias.name}") for alias in node.names)
    return {m for m in found if m and m != module}


GRAPH = {module: imports_of(module) for module in MODULES}


def is_core(module: str) -> bool:
    return not any(module == top or module.startswith(top + ".") for top in ABOVE_THE_CORE)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read():
    assert len(MODULES) > 60 and "idsbench.audit.rules" in GRAPH["idsbench.audit.context"]
    assert "idsbench.harness.cli" in GRAPH["idsbench.cli"]  # a function-level import would count too


def test_no_import_cycle():
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if is_core(m)))
def test_the_core_imports_nothing_above_it(module):
    assert sorted(target for target in GRAPH[module] if not is_core(target)) == []


def test_only_the_entry_points_import_the_command_line():
    assert sorted(m for m, targets in GRAPH.items() if "idsbench.cli" in targets) == ["idsbench.__main__"]


def test_no_module_edits_sys_path_or_loads_code_by_path():
    forbidden = ("sys.path." + "insert", "sys.path." + "append", "spec_from_" + "file_location")
    sources = [*ROOT.glob("*.py"), *ROOT.glob("idsbench/**/*.py"), *ROOT.glob("benchmarks/*.py"),
               *ROOT.glob("tests/**/*.py"), *ROOT.glob("ids_metric/*.py")]
    offenders = [str(p.relative_to(ROOT)) for p in sources if any(f in p.read_text(encoding="utf-8") for f in forbidden)]
    assert offenders == []
