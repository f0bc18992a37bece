"""Every ``Text`` and ``Plural`` in the code is written with literal strings, so that the catalogue's extraction
(``python -m pokerdev.catalogue``) finds it: a text built at run time (an f-string, a variable) would never be
translated."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"Text": 1, "Plural": 2}  # the positional arguments that are English sources


def not_literal(code: str) -> list[int]:
    """The lines of ``Text(...)``/``Plural(...)`` calls whose sources are not literal strings."""
    lines = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SOURCES:
            wanted = SOURCES[node.func.id]
            sources = node.args[:wanted]
            if len(sources) < wanted or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                for a in sources):
                lines.append(node.lineno)
    return lines


def test_every_text_in_the_code_is_a_literal_source() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{line}"
                 for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/**/*.py")])
                 if "i18n" not in path.parts  # where Text and Plural are defined
                 for line in not_literal(path.read_text(encoding="utf-8"))]
    assert offenders == [], "a Text's source must be a literal string (no f-string, no variable)"


def test_the_check_finds_a_text_built_at_run_time() -> None:
    code = 'Text("fine {a}", a=1)\nText(f"{x} folds")\nPlural("one", plural)\nText(source)\nPlural("a", "b", count=2)'
    assert not_literal(code) == [2, 3, 4]
