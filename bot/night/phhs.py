"""PHH's multi-hand form, ``.phhs``: a whole night in one file, and each hand back out of it.

A ``.phhs`` document is TOML with one table per hand, headed ``[1]``,
``[2]``, ... (pokerkit's ``HandHistory.dumps_all`` writes it so and
``loads_all`` reads every table in order). ``write_phhs`` puts standalone PHH
texts (``bot.poker.phh.export_phh``) under such headers; ``split_phhs`` gives
each hand back as a standalone PHH text that ``bot.poker.phh.parse_phh`` reads
and ``replay`` plays: the hand's own lines when they can be cut out of the
file as they are, else the hand's fields written again. ``read_phhs`` reads
each hand's fields with the file, for a replay of the whole night. Both check that every
hand reads back to exactly the fields it had; bad input raises ``PHHError``
naming the hand.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.poker.phh import PHHError

# A table header on a line of its own: [name] or [[name]], with an optional comment.
_HEADER = re.compile(r"^[ \t]*(\[\[?)[ \t]*([^\[\]]+?)[ \t]*(\]\]?)[ \t]*(#.*)?$", re.MULTILINE)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def write_phhs(phh_texts: Sequence[str]) -> str:
    """The hands as one ``.phhs`` document: hand k under ``[k]``, a blank line between hands.

    Each text must be one PHH document (TOML); a table inside a hand (``[x]``)
    becomes ``[k.x]``.
    """
    tables: list[dict[str, Any]] = []
    parts: list[str] = []
    for number, text in enumerate(phh_texts, 1):
        tables.append(_load(text, f"hand {number}"))
        body = _HEADER.sub(rf"\g<1>{number}.\g<2>\g<3>", text.strip())  # [x] -> [k.x] (a comment after it goes)
        parts.append(f"[{number}]\n{body}\n" if body else f"[{number}]\n")
    document = "\n".join(parts)
    read = _load(document, "the .phhs document")
    for number, table in enumerate(tables, 1):
        if read.get(str(number)) != table:
            raise PHHError(f"hand {number} does not read back the same inside a .phhs file (a multi-line string "
                           "holding a line that looks like a table header?)")
    return document


def read_phhs(text: str) -> dict[str, dict[str, Any]]:
    """Each hand of a ``.phhs`` document, in the file's order, by its key: its fields as TOML reads them
    (``bot.poker.phh.phh_document`` makes a hand history of them)."""
    data = _load(text, "the .phhs file")
    for key, value in data.items():
        if not isinstance(value, dict):
            raise PHHError(f"a .phhs file holds one table per hand ([1], [2], ...), but {key!r} is a field: "
                           "is this a single hand (.phh)?")
    return data


def split_phhs(text: str) -> list[str]:
    """Each hand of a ``.phhs`` document, in the file's order, as a standalone PHH text."""
    data = read_phhs(text)
    pieces = _pieces(text)
    hands: list[str] = []
    for key, table in data.items():
        piece = pieces.get(key)
        if piece is None or _reads_as(piece) != table:
            piece = _dump_table(table)
            if _reads_as(piece) != table:
                raise PHHError(f"hand {key} cannot be written back as a standalone hand history")
        hands.append(piece)
    return hands


def _reads_as(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _load(text: str, what: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PHHError(f"{what} is not valid TOML: {error}") from None


def _pieces(text: str) -> dict[str, str]:
    """Each top-level table's own lines, by key, its sub-table headers (``[1.x]``) turned into ``[x]``."""
    headers = list(_HEADER.finditer(text))
    lines: dict[str, list[str]] = {}
    for index, match in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        body = text[match.end():end].strip("\n")
        key, _, sub = match[2].partition(".")
        key = _unquote(key.strip())
        if not sub:
            lines.setdefault(key, []).append(body)
        else:
            lines.setdefault(key, []).append(f"{match[1]}{sub.strip()}{match[3]}\n{body}")
    return {key: "\n".join(part for part in parts if part).strip() + "\n" for key, parts in lines.items()}


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        return key[1:-1]
    return key


# ------------------------------------------------------------------------ writing a table again (the fallback)


def _dump_table(table: Mapping[str, Any]) -> str:
    return "".join(f"{_key(key)} = {_value(value)}\n" for key, value in table.items())


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")  # a JSON string is a TOML one
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise PHHError(f"a hand history cannot hold {value!r}")
