"""The package's modules form layers, with no import cycle among them.

model (message types, results, errors) -> dispatch (the handler registry)
-> transports (stdio, the event loop, the test client) -> Hook and the
lifecycle layer, which run a registry over a transport. Every import of a
hookwire module counts, wherever it is written: at the top, under
TYPE_CHECKING, or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hookwire

PACKAGE = Path(hookwire.__file__).parent

# Each module's layer: a module imports only from its own layer and those below.
LAYERS = {
    "model": {
        "_async",
        "_canonical",
        "_errors",
        "_json",
        "_line_limit",
        "_log",
        "_lifecycle_gen",
        "_lifecycle_support",
        "_methods_gen",
        "_protocol_gen",
        "_results",
        "_shell_follow",
        "_shell_lex",
        "_shell_parse",
        "_shell_types",
        "_tool_names_gen",
        "_version_gen",
        "shell",
    },
    "dispatch": {"_registry", "_tools"},
    "transport": {"_inline_server", "_server", "_stdio", "_testing", "_workers"},
    "top": {"_hook", "lifecycle", "__init__"},
}
ORDER = list(LAYERS)


def imports_of(path: Path) -> set[str]:
    """The hookwire modules a module's source imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "hookwire" or alias.name.startswith("hookwire."):
                    found.add(alias.name.partition(".")[2] or "__init__")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and node.module.split(".")[0] == "hookwire":
                module = node.module.partition(".")[2]
            elif node.level == 1:
                module = node.module or ""
            else:
                continue
            if module:
                found.add(module)
            else:  # from . import a, b: each a module (or a name of __init__)
                for alias in node.names:
                    is_module = (PACKAGE / f"{alias.name}.py").exists()
                    found.add(alias.name if is_module else "__init__")
    return found


def graph() -> dict[str, set[str]]:
    return {p.stem: imports_of(p) - {p.stem} for p in sorted(PACKAGE.glob("*.py"))}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_the_cycle_finder_finds_a_cycle_through_any_import() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_every_kind_of_import_counts(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from ._a import x\n"
        "if TYPE_CHECKING:\n"
        "    from ._b import y\n"
        "def f():\n"
        "    from . import _log\n"
        "    import hookwire._d\n"
        "    from hookwire import Hook\n"
    )
    assert imports_of(source) == {"_a", "_b", "_log", "_d", "__init__"}


def test_no_module_of_the_package_imports_itself_in_a_circle() -> None:
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found or [])


@pytest.mark.parametrize("module", sorted(graph()))
def test_a_module_imports_only_from_its_layer_and_those_below(module: str) -> None:
    layer = {m: ORDER.index(name) for name, members in LAYERS.items() for m in members}
    assert module in layer, f"{module} is in no layer: add it to LAYERS"
    above = sorted(m for m in graph()[module] if layer.get(m, len(ORDER)) > layer[module])
    assert above == [], f"{module} ({ORDER[layer[module]]}) imports {above} from above it"


def test_the_registry_never_loads_a_transport() -> None:
    reachable: set[str] = set()
    todo = ["_registry"]
    edges = graph()
    while todo:
        for m in edges[todo.pop()] - reachable:
            reachable.add(m)
            todo.append(m)
    assert not reachable & LAYERS["transport"], sorted(reachable & LAYERS["transport"])
