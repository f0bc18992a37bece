"""One base for the table's persistent components (buttons and menus found again from their custom_id after a
restart): its custom_id is declared once, as fields, and gives both the template discord.py matches and the id
written on the component; the table's runner is resolved once from it; its admission check runs before the
callback and makes the click's ``Reply``, which ``clicked`` is given; its errors are answered.

A component is ``pk:<kind>:<table>`` followed by its fields, each ``:value``; optional fields come last, and a
missing one ends the id (``pk:deal:7:3`` and ``pk:deal:7:3:holdem:pot``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

import discord

from ..errors import answers_errors
from ..reply import Reply
from ._runners import Admitting, clicked_runner

__all__ = ["Field", "TableItem", "number", "word"]

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


@dataclass(frozen=True, slots=True)
class Field:
    """One part of a custom_id after the table: its name (the constructor's argument), the pattern it matches,
    how it is read back, and whether it may be missing (optional fields come last)."""

    name: str
    pattern: str = r"\d+"
    read: Callable[[str], Any] = int
    optional: bool = False


def number(name: str, pattern: str = r"\d+") -> Field:
    """A whole number."""
    return Field(name, pattern, int)


def word(name: str, pattern: str = r"[a-z-]+", *, optional: bool = False) -> Field:
    """A name, kept as text."""
    return Field(name, pattern, str, optional)


def _template(kind: str, fields: Sequence[Field]) -> str:
    required = "".join(f":(?P<{f.name}>{f.pattern})" for f in fields if not f.optional)
    optional = ""
    for f in reversed([f for f in fields if f.optional]):  # each optional part only after the one before it
        optional = f"(?::(?P<{f.name}>{f.pattern}){optional})?"
    return rf"pk:{kind}:(?P<table>\d+){required}{optional}"


class TableItem(Admitting, discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A table's persistent component. A subclass names its ``kind`` and ``fields`` in its class line, takes
    ``(table, *fields, ..., runner=None)`` in its constructor, builds its component with ``make_id(table, ...)``
    and does its work in ``clicked``."""

    id_kind: ClassVar[str]  # the custom_id's second part
    fields: ClassVar[tuple[Field, ...]]

    def __init_subclass__(cls, *, kind: str, fields: Sequence[Field] = (), **kwargs: Any) -> None:
        cls.id_kind, cls.fields = kind, tuple(fields)
        super().__init_subclass__(template=_template(kind, cls.fields), **kwargs)

    @classmethod
    def make_id(cls, table: int, *values: object) -> str:
        """``pk:<kind>:<table>:<value>…``, up to the first missing (None) optional value."""
        parts = [f"pk:{cls.id_kind}:{table}"]
        for field, value in zip(cls.fields, values, strict=True):
            if value is None:
                if not field.optional:
                    raise ValueError(f"{cls.__name__}: {field.name} is required")
                break
            parts.append(str(value))
        return ":".join(parts)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        values = [None if match[f.name] is None else f.read(match[f.name]) for f in cls.fields]
        make: Any = cls  # a subclass's constructor, which takes the fields (DynamicItem's takes an item)
        return make(int(match["table"]), *values, runner=clicked_runner(interaction, match))  # type: ignore[no-any-return]

    @answers_errors
    async def callback(self, reply: Reply) -> None:
        await self.clicked(reply)

    async def clicked(self, reply: Reply) -> None:
        """What a click does, once admitted, answered through ``reply`` (``reply.interaction`` is the click; its
        errors are answered to the player)."""
        raise NotImplementedError
