"""Every ``Text``, ``Plural``, ``say`` and ``say_n`` in the code is written with literal strings, so that the
catalogue's extraction (``python -m pokerdev.catalogue``) finds it: a text built at run time (an f-string, a
variable) would never be translated."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"Text": (0, 1), "Plural": (0, 2), "say": (1, 2), "say_n": (1, 3)}  # which positional arguments are sources


def not_literal(code: str) -> list[int]:
    """The lines of ``Text(...)``/``Plural(...)`` calls whose sources are not literal strings."""
    lines = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SOURCES:
            first, end = SOURCES[node.func.id]
            sources = node.args[first:end]
            if len(sources) < end - first or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
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
    code = ('Text("fine {a}", a=1)\nText(f"{x} folds")\nPlural("one", plural)\nText(source)\n'
            'Plural("a", "b", count=2)\nsay(lang, "fine")\nsay(lang, text)\n'
            'say_n(lang, "a", f"{b}", count=1)\nsay(lang)')
    assert not_literal(code) == [2, 3, 4, 7, 8, 9]
