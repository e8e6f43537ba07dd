"""The package's import graph: no module imports itself back, at any depth, even from inside a function.

Issue: `report/checkpoint_json` ↔ `service/evaluate`, `metrics/combination` → `meta/qarla`
(and, found since, `combination` ↔ `registry`, `correlation` ↔ `pairwise`) imported each other,
some from inside functions to dodge the cycle at load time. The graph is read from the source
with :mod:`ast`; ``from checkpoints import __version__`` (the package's own metadata) is left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"checkpoints": "checkpoints", "checkpoints.extract": "extract", "checkpoints.evaluate": "evaluate",
            "checkpoints.db": "db", "checkpoints.taxonomy": "taxonomy", "checkpoints.training": "training"}


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [part for part in path.relative_to(ROOT / folder).with_suffix("").parts if part != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def import_graph() -> nx.DiGraph:
    known = modules()
    graph = nx.DiGraph()
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("checkpoints.") and node.level == 0:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
                    if target in known and target != name:
                        graph.add_edge(name, target)
    return graph


def test_the_layout_is_read_whole() -> None:
    known = modules()
    assert {"checkpoints.cli", "checkpoints.evaluate.meta.clusters", "checkpoints.extract.eflomal_process"} <= set(known)


def test_no_module_imports_itself_back() -> None:
    cycles = sorted(" -> ".join(cycle) for cycle in nx.simple_cycles(import_graph()))
    assert cycles == []
