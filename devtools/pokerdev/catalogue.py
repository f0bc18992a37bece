"""Extract every English text a person sees into ``bot/i18n/locales/messages.pot`` and carry it into each language's
``.po`` (new texts added untranslated, texts gone dropped, translations kept).

Two sources:
- the code: every ``Text("…")``, ``Plural("…", "…", …)``, ``say(language, "…")`` and ``say_n(language, "…", "…", …)``
  with literal strings in ``bot/`` and ``cogs/`` (Babel's Python extractor);
- the slash commands: their descriptions, their options' descriptions and their choices' names, read from
  ``tests/data/command_tree.json``, which ``tests/e2e/test_command_tree.py`` keeps equal to the tree the bot syncs.

``python -m pokerdev.catalogue`` writes the files; ``--check`` only says whether they are up to date (exit 1 if
not); ``tests/i18n/test_catalogues.py`` runs the same check.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "i18n" / "locales"
TEMPLATE = LOCALES / "messages.pot"
COMMAND_TREE = ROOT / "tests" / "data" / "command_tree.json"
KEYWORDS: dict[str, Any] = {"Text": (1,), "Plural": (1, 2), "say": (2,), "say_n": (2, 3)}
TRANSLATED = ("de", "fr", "es", "pt_BR")
HEADER = ("# The bot's texts{language}: written by python -m pokerdev.catalogue from the code and the slash commands.\n"
          "# Translate the msgstr lines only; keep each {{placeholder}} as it is, and Discord's markup (**, `).")
COMMANDS = "slash commands"  # the location written for a command tree's text


def sources() -> Iterator[tuple[str | tuple[str, str], str]]:
    """Every text to translate with where it is (``file:line`` or the command's path), in a stable order."""
    for folder in ("bot", "cogs"):
        for path, line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=(),
                strip_comment_tags=True):
            where = f"{folder}/{path}:{line}"
            if isinstance(message, tuple):
                yield (message[0], message[1]), where
            else:
                yield message, where
    yield from command_texts()


def command_texts() -> Iterator[tuple[str, str]]:
    """The descriptions and choice names of the synced slash commands."""
    def walk(node: Any, path: str) -> Iterator[tuple[str, str]]:
        here = f"{path} {node['name']}".strip()
        if node.get("description"):
            yield node["description"], f"/{here}"
        for choice in node.get("choices") or ():
            yield choice["name"], f"/{here}"
        for option in node.get("options") or ():
            yield from walk(option, here)

    for command in json.loads(COMMAND_TREE.read_text(encoding="utf-8")):
        yield from walk(command, "")


def template() -> Catalog:
    """The catalogue of every source text (``messages.pot``)."""
    catalog = Catalog(project="draw-poker-bot", version="1", fuzzy=False, header_comment=HEADER.format(language=""),
                      copyright_holder="the draw-poker-bot authors", msgid_bugs_address="", last_translator="",
                      language_team="")
    for message, _where in sources():
        catalog.add(message)
    return catalog


def _written(catalog: Catalog) -> bytes:
    from io import BytesIO
    out = BytesIO()
    write_po(out, catalog, width=120, omit_header=False, sort_output=True, no_location=True)
    return out.getvalue()


def updated(code: str, source: Catalog) -> Catalog:
    """A language's catalogue carried over to ``source``: its translations kept, new texts empty, old ones gone."""
    path = LOCALES / f"{code}.po"
    if path.exists():
        with path.open("rb") as po:
            catalog = read_po(po, locale=code)
    else:
        catalog = Catalog(locale=code, project="draw-poker-bot", version="1", fuzzy=False)
    catalog.update(source, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.header_comment = HEADER.format(language=f" in {Locale.parse(code).english_name}")
    catalog.last_translator = catalog.language_team = catalog.msgid_bugs_address = ""
    return catalog


def files() -> dict[Path, bytes]:
    """Every catalogue file as it should be written."""
    source = template()
    written = {TEMPLATE: _written(source)}
    for code in TRANSLATED:
        written[LOCALES / f"{code}.po"] = _written(updated(code, source))
    return written


def stale() -> list[Path]:
    """The catalogue files that differ from what extraction writes."""
    return [path for path, data in files().items() if not path.exists() or _body(path.read_bytes()) != _body(data)]


def _body(data: bytes) -> bytes:
    """A catalogue without its header's dates, which change on every write."""
    dated = (b'"POT-Creation-Date', b'"PO-Revision')
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith(dated))


def untranslated(code: str) -> dict[str, Any]:
    """A language's texts without a translation: {source: ""} and, for a plural, {singular: ["", plural]}."""
    todo: dict[str, Any] = {}
    for message in updated(code, template()):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string or ())
        if message.fuzzy or not forms or not all(forms):
            todo[ids[0]] = ["", ids[1]] if len(ids) > 1 else ""
    return todo


def merge(code: str, translations: dict[str, Any]) -> list[str]:
    """Write translations ({source: text} or {singular: [form, ...]}) into a language's catalogue; the sources it
    does not have are returned, not written."""
    catalog = updated(code, template())
    unknown = []
    for source, text in translations.items():
        message = catalog.get(source)
        if message is None:
            message = next((m for m in catalog if isinstance(m.id, tuple) and m.id[0] == source), None)
        if message is None:
            unknown.append(source)
            continue
        message.string = tuple(text) if isinstance(message.id, tuple) else text
        message.flags.discard("fuzzy")
    (LOCALES / f"{code}.po").write_bytes(_written(catalog))
    return unknown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pokerdev.catalogue", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the files are up to date")
    parser.add_argument("--untranslated", metavar="CODE", help="print a language's untranslated texts as JSON")
    parser.add_argument("--merge", nargs=2, metavar=("CODE", "FILE"),
                        help="write the translations of a JSON file ({source: text}) into a language's catalogue")
    args = parser.parse_args(argv)
    if args.untranslated:
        print(json.dumps(untranslated(args.untranslated), ensure_ascii=False, indent=1))
        return 0
    if args.merge:
        code, file = args.merge
        unknown = merge(code, json.loads(Path(file).read_text(encoding="utf-8")))
        for source in unknown:
            print(f"not in the catalogue (left out): {source!r}")
        return 1 if unknown else 0
    if args.check:
        behind = stale()
        for path in behind:
            print(f"{path.relative_to(ROOT)} is not up to date: run python -m pokerdev.catalogue")
        return 1 if behind else 0
    LOCALES.mkdir(parents=True, exist_ok=True)
    for path, data in files().items():
        if not path.exists() or _body(path.read_bytes()) != _body(data):
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
