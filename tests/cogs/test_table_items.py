"""The table's persistent components share one base (``cogs.table._items.TableItem``): the custom_id a component
writes is the one its template reads back, optional parts included, and a component is rebuilt from it with the
same values."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.table import _runners
from cogs.table._choice import ChooseButton, DealButton, GameSelect, StructureSelect
from cogs.table._cog import DYNAMIC_ITEMS
from cogs.table._draw import CardButton, ThrowButton
from cogs.table._items import TableItem
from cogs.table._preaction_taps import PreActionButton
from cogs.table._seats import SeatButton
from cogs.table._tournament import TournamentButton
from cogs.table._turn import TurnButton


def _rebuilt(cls: type[TableItem[Any]], custom_id: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The component discord.py makes of a click on ``custom_id`` (its table has no runner: none is open)."""
    runners = SimpleNamespace(clicked=lambda interaction, table: None)
    cog = SimpleNamespace(runners=runners)
    interaction = SimpleNamespace(client=SimpleNamespace(get_cog=lambda name: cog))
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return asyncio.run(cls.from_custom_id(interaction, SimpleNamespace(), match))  # type: ignore[arg-type]


@pytest.mark.parametrize(("cls", "values", "custom_id"), [
    (SeatButton, ("join",), "pk:seat:7:join"),
    (ChooseButton, (3,), "pk:choose:7:3"),
    (GameSelect, (3, None), "pk:game:7:3"),
    (GameSelect, (3, "pot"), "pk:game:7:3:pot"),
    (StructureSelect, (3, "holdem"), "pk:structure:7:3:holdem"),
    (DealButton, (3, None, None), "pk:deal:7:3"),
    (DealButton, (3, "holdem", None), "pk:deal:7:3:holdem"),
    (DealButton, (3, "holdem", "pot"), "pk:deal:7:3:holdem:pot"),
    (TournamentButton, ("rebuy",), "pk:tournament:7:rebuy"),
    (TurnButton, (41, 5, "fold"), "pk:turn:7:41:5:fold"),
    (PreActionButton, (41, "call", 20), "pk:pre:7:41:call:20"),
    (CardButton, (41, 5, 6, 2), "pk:card:7:41:5:6:2"),
])
def test_the_id_written_is_the_id_read(cls: type[TableItem[Any]], values: tuple[Any, ...], custom_id: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert cls.make_id(7, *values) == custom_id
    item = _rebuilt(cls, custom_id, monkeypatch)
    assert item.custom_id == custom_id  # the component rebuilt writes the same id
    assert [getattr(item, f.name) for f in cls.fields] == list(values)


def test_an_optional_part_comes_only_after_the_one_before_it() -> None:
    template = DealButton.__discord_ui_compiled_template__
    assert template.fullmatch("pk:deal:7:3:holdem:pot")
    assert not template.fullmatch("pk:deal:7:3::pot")
    assert DealButton.make_id(7, 3, None, "pot") == "pk:deal:7:3"  # no structure without its game


def test_a_required_part_cannot_be_left_out() -> None:
    with pytest.raises(ValueError, match="name is required"):
        SeatButton.make_id(7, None)


def test_a_forged_id_is_not_one_of_the_component() -> None:
    assert not TournamentButton.__discord_ui_compiled_template__.fullmatch("pk:tournament:7:steal")
    assert not re.fullmatch(SeatButton.__discord_ui_compiled_template__, "pk:seat:x:join")


def test_a_throw_says_whether_the_twos_go_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    for face_up in (False, True):
        custom_id = ThrowButton.make_id(7, 41, 5, 6, int(face_up))
        assert custom_id == f"pk:throw:7:41:5:6:{int(face_up)}"
        assert _rebuilt(ThrowButton, custom_id, monkeypatch).face_up is face_up


def test_every_table_component_is_admitted_before_its_callback() -> None:
    assert len(DYNAMIC_ITEMS) == 10
    for cls in DYNAMIC_ITEMS:
        assert issubclass(cls, _runners.Admitting)
        assert cls.callback is TableItem.callback  # the errors answered, the work in ``clicked``
