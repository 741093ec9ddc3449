"""The direction of imports: the core (``bot/``) never imports the Discord layer (``cogs/``),
which it reaches only through ``bot.interactions`` and the extensions it loads by name; and
no two modules import each other, not even for their type annotations: a helper that needs
part of a cog says which part (a ``Protocol``) instead of importing the cog."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(path): path for top in PACKAGES for path in (ROOT / top).rglob("*.py")}


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(path: Path, *, typing_too: bool) -> Iterator[tuple[str, int]]:
    """The absolute names ``path`` imports (its submodules' imported names as modules), with
    their lines; ``typing_too``: also those under ``if TYPE_CHECKING``. Only the statements
    run when the module loads: none inside a function."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def walk(nodes: list[ast.stmt]) -> Iterator[tuple[str, int]]:
        for node in nodes:
            if _type_checking(node) and not typing_too:
                continue
            if isinstance(node, ast.Import):
                yield from ((alias.name, node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package
                    for _ in range(node.level - 1):
                        parent = parent.rpartition(".")[0]
                    base = f"{parent}.{base}" if base else parent
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    yield (sub if sub in MODULES else base), node.lineno
            elif isinstance(node, ast.If | ast.Try | ast.With):
                yield from walk(node.body)
                yield from walk(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    yield from walk(handler.body)

    yield from walk(ast.parse(path.read_text()).body)


def _ours(name: str) -> str | None:
    """The module of this project ``name`` is, or is in (None: another package's)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_core_never_imports_the_discord_layer() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for module, path in MODULES.items()
        if module.split(".")[0] == "bot"
        for name, line in _imports(path, typing_too=True)
        if name == "cogs" or name.startswith("cogs.")
    ]
    assert found == []


def test_no_two_modules_import_each_other() -> None:
    graph = {
        module: {
            other
            for name, _ in _imports(path, typing_too=True)
            if (other := _ours(name)) is not None and other != module
        }
        for module, path in MODULES.items()
    }
    assert _cycles(graph) == []


def test_the_checks_see_an_import_of_the_discord_layer_and_a_circle() -> None:
    path = ROOT / "bot" / "client.py"
    assert any(name == "discord" for name, _ in _imports(path, typing_too=False))
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
