"""What a user's client submits for a modal the bot showed: the components of MODAL_SUBMIT, checked against the
modal's own constraints (required, lengths, offered options) as Discord's client checks them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .constants import ACTION_ROW, JSON, LABEL, SELECT_TYPES, STRING_SELECT, TEXT_INPUT


def submission(modal: Mapping[str, Any], fields: dict[str, Any], *, force: bool) -> list[JSON]:
    """The submitted components; ``fields`` (custom_id -> text, or a select's values) loses the keys used."""

    def convert(items: Sequence[Mapping[str, Any]]) -> list[JSON]:
        out: list[JSON] = []
        for item in items:
            kind = item.get("type")
            if kind == ACTION_ROW:
                out.append({"type": ACTION_ROW, "components": convert(item.get("components") or [])})
            elif kind == LABEL:
                inner = convert([item.get("component") or {}])
                if inner:
                    out.append({"type": LABEL, "component": inner[0]})
            elif kind == TEXT_INPUT:
                cid = str(item["custom_id"])
                value = str(fields.pop(cid)) if cid in fields else str(item.get("value") or "")
                if not force:
                    check_text_input(item, value)
                out.append({"type": TEXT_INPUT, "custom_id": cid, "value": value})
            elif kind in SELECT_TYPES:
                cid = str(item["custom_id"])
                chosen = fields.pop(cid, [])
                values = [chosen] if isinstance(chosen, str) else [str(v) for v in chosen]
                if not force:
                    check_select(item, values)
                out.append({"type": kind, "custom_id": cid, "values": values})
        return out

    return convert(modal.get("components") or [])


def forged_fields(fields: Mapping[str, str | Sequence[str]]) -> list[JSON]:
    """Components for fields the modal does not have (a forged submission): text typed, or a select's values."""
    out: list[JSON] = []
    for key, value in fields.items():
        if isinstance(value, str):
            out.append({"type": ACTION_ROW, "components": [{"type": TEXT_INPUT, "custom_id": key, "value": value}]})
        else:
            select = {"type": STRING_SELECT, "custom_id": key, "values": [str(v) for v in value]}
            out.append({"type": LABEL, "component": select})
    return out


def check_select(item: Mapping[str, Any], values: Sequence[str]) -> None:
    """What Discord's client lets a user submit in a modal's select: offered options, within min/max values
    (none at all when the select is not required)."""
    cid = item.get("custom_id")
    offered = {str(o.get("value")) for o in item.get("options") or []}
    if item.get("type") == STRING_SELECT and any(v not in offered for v in values):
        raise ValueError(f"modal select {cid!r} offers no option {sorted(set(values) - offered)}")
    low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
    if not values and not item.get("required", True):
        return
    if not low <= len(values) <= high:
        raise ValueError(f"modal select {cid!r} takes {low} to {high} values, not {len(values)}")


def check_text_input(item: Mapping[str, Any], value: str) -> None:
    cid = item.get("custom_id")
    if item.get("required", True) and not value:
        raise ValueError(f"modal field {cid!r} is required; Discord would not submit it empty")
    low, high = item.get("min_length"), item.get("max_length")
    if value and low is not None and len(value) < int(low):
        raise ValueError(f"modal field {cid!r} needs at least {low} characters")
    if high is not None and len(value) > int(high):
        raise ValueError(f"modal field {cid!r} takes at most {high} characters")
