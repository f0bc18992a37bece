"""The table's forms, as they come back: recognised by their custom_id, as the buttons are, so that a form opened
before a restart still works and none is kept in memory while the player types.

``pk:amount:TABLE:HAND:SEQ`` (the Amount… form, ``cogs.table._turn``) and ``pk:rebuy:TABLE`` (the Rebuy… form,
``cogs.table._seats``).
"""

from __future__ import annotations

from typing import Any, Literal

from bot.tables import TableError
from bot.tables.settings import MAX_BUY_IN

from ..errors import answers_errors
from ..reply import Reply
from . import _seats, _turn
from ._runners import CLOSED, runners_of

__all__ = ["ModalSubmit", "modal_fields"]

Kind = Literal["amount", "rebuy"]


def modal_fields(data: Any) -> dict[str, list[str]]:
    """What a modal submission holds, by field custom_id: a text input's value, or a select's values."""
    fields: dict[str, list[str]] = {}

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        if "custom_id" in component:
            if "values" in component:
                fields[str(component["custom_id"])] = [str(v) for v in component["values"] or []]
            elif "value" in component:
                fields[str(component["custom_id"])] = [str(component["value"] or "")]
        for child in component.get("components") or []:
            visit(child)
        visit(component.get("component"))

    for top in (data or {}).get("components") or []:
        visit(top)
    return fields


class ModalSubmit:
    """A submitted table form, recognised by its custom_id."""

    def __init__(self, kind: Kind, table: int, hand: int, seq: int, fields: dict[str, list[str]]) -> None:
        self.kind, self.table, self.hand, self.seq, self.fields = kind, table, hand, seq, fields

    @classmethod
    def parse(cls, data: Any) -> ModalSubmit | None:
        """The submission of one of our forms, or None (another bot's, or not a table form)."""
        custom_id = str((data or {}).get("custom_id") or "")
        match = _turn.AMOUNT_FORM_ID.fullmatch(custom_id)
        if match:
            return cls("amount", int(match["table"]), int(match["hand"]), int(match["seq"]), modal_fields(data))
        match = _seats.REBUY_FORM_ID.fullmatch(custom_id)
        if match:
            return cls("rebuy", int(match["table"]), 0, 0, modal_fields(data))
        return None

    def field(self, name: str) -> str:
        """A text field's value ("" when missing)."""
        return (self.fields.get(name) or [""])[0]

    @answers_errors
    async def callback(self, reply: Reply) -> None:
        """The form submitted (``reply``: its interaction's ``Reply``, made as it was admitted)."""
        interaction = reply.interaction
        runner = runners_of(interaction).clicked(interaction, self.table)
        if runner is None:
            raise TableError(CLOSED)
        if self.kind == "rebuy":
            await _seats.rebuy_submitted(runner, reply, self.field(_seats.AMOUNT_FIELD), MAX_BUY_IN)
        else:
            await _turn.amount_submitted(runner, reply, self.hand, self.seq, self.field(_turn.AMOUNT_FIELD))
