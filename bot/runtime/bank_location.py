"""Where the bank is: ``POKER_DB`` (or ``--db``) read as an address.

A path (``data/poker.db``) or an ``sqlite:///path`` URL is an SQLite file, the embedded default for a home server;
a ``postgresql://user:password@host:port/db`` URL is a PostgreSQL database, for a bot that outgrows one machine
(several processes over one bank). A URL of another engine (``mysql://...``) is refused with a sentence that says
so, never taken for a file name (it used to become a folder named ``mysql:`` holding a new, empty bank).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["BankAddress", "parse_bank", "without_password"]

_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://")
SQLITE_SCHEMES = ("sqlite", "file")
POSTGRES_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True, slots=True)
class BankAddress:
    """An SQLite file (``path``) or a PostgreSQL database (``url``)."""

    engine: Literal["sqlite", "postgresql"]
    path: Path | None = None
    url: str | None = None

    @property
    def target(self) -> Path | str:
        """What ``Store.open`` takes: the file's path, or the URL."""
        if self.path is not None:
            return self.path
        assert self.url is not None
        return self.url

    def __str__(self) -> str:
        return str(self.path) if self.path is not None else without_password(self.url or "")


def parse_bank(text: str, setting: str = "POKER_DB") -> BankAddress:
    """The bank that ``text`` names; ``ValueError`` naming the setting for an address this version cannot use."""
    value = text.strip()
    if not value:
        raise ValueError(f"{setting} is empty: name the bank's SQLite file, such as data/poker.db, or a PostgreSQL "
                         "URL, such as postgresql://poker:secret@localhost:5432/poker")
    match = _URL.match(value)
    if match is None:
        return BankAddress("sqlite", path=Path(value))
    scheme = match["scheme"].lower()
    rest = value[match.end():]
    if scheme in SQLITE_SCHEMES and rest.startswith("/"):  # sqlite:///abs/path, file:///abs/path
        return BankAddress("sqlite", path=Path(rest))
    if scheme in POSTGRES_SCHEMES:
        if not rest.split("/", 1)[0].rsplit("@", 1)[-1]:
            raise ValueError(f"{setting}={without_password(value)} names no server: write "
                             "postgresql://user:password@host:port/database")
        return BankAddress("postgresql", url=value)
    raise ValueError(f"{setting}={without_password(value)} names a {scheme}:// URL; the bot keeps its bank in an "
                     "SQLite file (a path such as data/poker.db) or in PostgreSQL (a postgresql:// URL)")


def without_password(url: str) -> str:
    """A URL as it may be printed: a password in it is hidden (the store's rule, imported when needed: the
    configuration is read before the store is loaded)."""
    from ..store.postgres import redact

    return redact(url)
