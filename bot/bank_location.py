"""Where the bank is: ``POKER_DB`` (or ``--db``) read as an address.

This version keeps the bank in one SQLite file: a path (``data/poker.db``) or an ``sqlite:///path`` URL. A URL of
another engine (``postgresql://host/db``) is refused with a sentence that says so, never taken for a file name
(it used to become a folder named ``postgresql:`` holding a new, empty bank). Another engine slots in here: its
address kind, its lock (``bot.store.lock``) and its ``db`` commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["BankAddress", "parse_bank"]

_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://")
SQLITE_SCHEMES = ("sqlite", "file")


@dataclass(frozen=True, slots=True)
class BankAddress:
    """An SQLite file (the only engine of this version)."""

    engine: Literal["sqlite"]
    path: Path

    def __str__(self) -> str:
        return str(self.path)


def parse_bank(text: str, setting: str = "POKER_DB") -> BankAddress:
    """The bank that ``text`` names; ``ValueError`` naming the setting for an address this version cannot use."""
    value = text.strip()
    if not value:
        raise ValueError(f"{setting} is empty: name the bank's SQLite file, such as data/poker.db")
    match = _URL.match(value)
    if match is None:
        return BankAddress("sqlite", Path(value))
    scheme = match["scheme"].lower()
    rest = value[match.end():]
    if scheme in SQLITE_SCHEMES and rest.startswith("/"):  # sqlite:///abs/path, file:///abs/path
        return BankAddress("sqlite", Path(rest))
    engine = "PostgreSQL" if scheme.startswith("postgres") else f"a {scheme}:// URL"
    raise ValueError(f"{setting}={_without_password(value)} names {engine}; this version of the bot keeps its bank "
                     "in an SQLite file only: set it to a path such as data/poker.db")


def _without_password(url: str) -> str:
    """A URL as it may be printed: a password in it is hidden."""
    return re.sub(r"(://[^:/@]+:)[^@/]*@", r"\1***@", url)
