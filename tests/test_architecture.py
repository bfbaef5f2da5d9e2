"""The package shows its pipeline: game → cards → lang → art → web → print → solve → cli, imports one way, no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tmphys"
#: The stages in pipeline order: a module may import from its own stage and those before it.
STAGES = ("game", "cards", "lang", "art", "web", "print", "solve", "cli")
#: Small helpers every stage may use; they import no stage themselves.
BASE = ("tmphys.files", "tmphys.text")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The tmphys modules a file imports, at its top or inside functions."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("tmphys")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            if base.startswith("tmphys"):
                found.add(base)
                found |= {f"{base}.{a.name}" for a in node.names if is_module(f"{base}.{a.name}")}
    return found


def is_module(name: str) -> bool:
    """Whether a dotted name is a module of the package (``from tmphys.art import svg``)."""
    return (PACKAGE.parent / name.replace(".", "/")).with_suffix(".py").exists()


def stage(module: str) -> int | None:
    """A module's place in the pipeline; None for the package's face and the base helpers."""
    parts = module.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else None


MODULES = {module_name(p): imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_imports_point_down_the_pipeline_only() -> None:
    """No module imports from a later stage (render never imports solve; no stage imports cli)."""
    wrong = [(m, i) for m, found in MODULES.items() for i in found
             if stage(m) is not None and stage(i) is not None and stage(i) > stage(m)]
    assert not wrong
    assert all(not found - {"tmphys"} or all(i in BASE for i in found) for m, found in MODULES.items() if m in BASE)


def test_no_import_cycle() -> None:
    """Following the imports from any module never comes back to it."""
    graph = {m: {i for i in found if i in MODULES and i != m} for m, found in MODULES.items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " -> ".join((*path, m))
        if m in done:
            return
        for n in graph[m]:
            if n != "tmphys":  # the package's face re-exports; importing a submodule runs it first
                visit(n, (*path, m))
        done.add(m)

    for m in graph:
        visit(m, ())


def test_the_command_line_holds_no_game_or_search_logic() -> None:
    """cli/ modules stay thin: no class but click's option types, and each is a few hundred lines at most."""
    for path in (PACKAGE / "cli").glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
        assert all("click" in ast.unparse(b) for n in classes for b in n.bases), path.name
        assert len(path.read_text("utf-8").splitlines()) < 600, path.name
