"""The layers of the package (docs/architecture.md), checked on the source.

- No import circles: a module's imports, those of its functions included (a lazy import
  is still an arrow), never lead back to it.
- The kernels (``tessera.kernels``) import nothing above them.
- The front ends (the command line, the analysis engine, the web board) use the public
  Python API (positions, the search request, the game specs, agents, warm-up, perft),
  never the kernels: a change of a kernel's layout stops at that API.
"""

import pytest

from tests.import_graph import import_graph, imported_modules

FRONT_ENDS = ("tessera.cli", "tessera.analysis", "tessera.web")
GRAPH = import_graph()


def within(module, package):
    return module == package or module.startswith(package + ".")


def cycles(graph):
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_cycle_search_finds_a_circle_and_passes_a_tree():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_scan_skips_what_only_a_type_checker_imports():
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import tessera.agents\n"
        "def f():\n    import tessera.games\n"
    )
    assert "tessera.agents" not in imported_modules(source, "tessera.x", running_only=True)
    assert "tessera.games" in imported_modules(source, "tessera.x", running_only=True)


def test_the_graph_covers_the_package():
    assert {"tessera.position", "tessera.cli", "tessera.kernels.bind", "tessera.web.app"} <= set(GRAPH)
    assert "tessera.kernels.games" in GRAPH["tessera.position"]


def test_no_import_circles():
    assert cycles(GRAPH) == []


def test_the_kernels_import_nothing_above_them():
    upward = {
        (module, imported)
        for module, imports in GRAPH.items()
        if within(module, "tessera.kernels")
        for imported in imports
        if not within(imported, "tessera.kernels")
    }
    assert upward == set()


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_front_end_never_reaches_into_the_kernels(front_end):
    reaching = {
        (module, imported)
        for module, imports in GRAPH.items()
        if within(module, front_end)
        for imported in imports
        if within(imported, "tessera.kernels")
    }
    assert any(within(module, front_end) for module in GRAPH)
    assert reaching == set()
