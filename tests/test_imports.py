"""The import graph of the bot (``bot``, ``cogs``) and of its development tools (``pokerdev``): no module imports
itself back through others (a circle, counting imports made only for type checking and inside functions), no
module takes another module's private names, a package's private modules are imported only from inside it, and
``bot`` (the domain, the offline tools, the start-up without Discord) imports neither ``cogs`` nor discord.py.

Read from the source with ``ast``, so that the graph is the one a reader sees, whatever runs first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"bot": ROOT, "cogs": ROOT, "pokerdev": ROOT / "devtools"}
PRODUCT = ("bot", "cogs")
DISCORD_SIDE = ("cogs", "discord")  # packages of the Discord side: ``bot`` imports none of them
# ``python -m bot`` is the composition root: its ``run`` command starts the Discord client (``cogs.run``),
# imported inside that command only, so that the offline commands never load discord.py.
COMPOSITION_ROOT = "bot.__main__"


@dataclass(frozen=True, slots=True)
class Import:
    importer: str
    module: str  # a module of the graph
    name: str | None  # the name taken from it (None: the module itself)
    line: int


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, base in PACKAGES.items():
        for path in sorted((base / package).rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, path: Path) -> Iterator[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield Import(module, alias.name, None, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    yield Import(module, f"{source}.{alias.name}", None, node.lineno)
                elif source in MODULES:
                    yield Import(module, source, alias.name, node.lineno)


IMPORTS = [found for module, path in MODULES.items() for found in _imports(module, path)]


def _imported_names(path: Path) -> Iterator[tuple[str, int]]:
    """Every absolute module name ``path`` imports (relative imports stay inside its own package), with its line."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module, node.lineno
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def _discord_side_imports(modules: dict[str, Path], exempt: str | None = COMPOSITION_ROOT) -> list[str]:
    """``module:line imports name`` for each import of the Discord side by a module of ``bot``."""
    return [f"{module}:{line} imports {name}" for module, path in modules.items()
            if module.split(".")[0] == "bot" and module != exempt
            for name, line in _imported_names(path) if name.split(".")[0] in DISCORD_SIDE]


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for found in IMPORTS:
        if found.module != found.importer:
            edges[found.importer].add(found.module)
    return edges


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return circles


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_the_graph_is_read() -> None:
    """The test sees what it checks: every package, and imports of each kind."""
    assert {m.split(".")[0] for m in MODULES} == set(PACKAGES)
    assert any(i.importer == "cogs.table._cog" and i.module == "cogs.table._turn" for i in IMPORTS)
    assert any(i.importer == "bot.tables.table" and i.module == "bot.poker.rotation" and i.name is None
               for i in IMPORTS)
    assert any(i.importer == "bot.tables.registry" and i.module == "bot.tables.table" and i.name == "Table"
               for i in IMPORTS)


def test_no_import_circle() -> None:
    assert _circles(_graph()) == []


def test_no_private_name_is_taken_from_another_module() -> None:
    taken = [f"{i.importer}:{i.line} takes {i.name} from {i.module}" for i in IMPORTS
             if i.name is not None and _private(i.name)]
    assert taken == []


@pytest.mark.parametrize("package", PRODUCT)
def test_private_modules_are_imported_only_inside_their_package(package: str) -> None:
    outside = []
    for i in IMPORTS:
        if not i.importer.startswith(package):
            continue
        parts = i.module.split(".")
        for depth, part in enumerate(parts):
            owner = ".".join(parts[:depth])
            if _private(part) and not (i.importer == owner or i.importer.startswith(owner + ".")):
                outside.append(f"{i.importer}:{i.line} imports {i.module}")
    assert outside == []


def test_bot_imports_neither_cogs_nor_discord() -> None:
    """``bot`` is the domain, the offline tools and the start-up that needs no Discord; the Discord side is ``cogs``."""
    assert _discord_side_imports(MODULES) == []


def test_an_import_of_the_discord_side_from_bot_would_be_seen(tmp_path: Path) -> None:
    """The check can fail: imports of ``cogs`` and discord.py in a module of ``bot`` are found, however written,
    and the composition root's lazy import of the Discord client is there and is the one exception."""
    module = tmp_path / "made_up.py"
    module.write_text("import discord\nfrom cogs.app import PokerBot\n\n\ndef f() -> None:\n"
                      "    from cogs import transport\n    import discord.utils\n")
    assert _discord_side_imports({"bot.made_up": module}) == [
        "bot.made_up:1 imports discord", "bot.made_up:2 imports cogs.app", "bot.made_up:2 imports cogs.app.PokerBot",
        "bot.made_up:6 imports cogs", "bot.made_up:6 imports cogs.transport", "bot.made_up:7 imports discord.utils"]
    assert _discord_side_imports({"cogs.made_up": module}) == []
    assert "bot.__main__:" in " ".join(_discord_side_imports(MODULES, exempt=None))


def test_a_circle_and_a_private_name_would_be_seen() -> None:
    """The checks can fail: a made-up graph's circle is found, and private names are told from public ones."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
    assert _private("_Live") and not _private("__all__") and not _private("LiveHand")
