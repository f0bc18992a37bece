"""The table's modal submissions are recognised by custom_id alone (no modal kept in memory): the parsing, as
Discord sends them (a label around a select or a text input, or the older action row)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table._forms import ModalSubmit, modal_fields


def label(component: dict[str, Any]) -> dict[str, Any]:
    return {"type": 18, "component": component}


def test_an_amount_submission_in_a_label_or_an_action_row() -> None:
    labelled = {"custom_id": "pk:amount:1:2:3",
                "components": [label({"type": 4, "custom_id": "amount", "value": "40"})]}
    rowed = {"custom_id": "pk:amount:1:2:3", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": "40"}]}]}
    for data in (labelled, rowed):
        submit = ModalSubmit.parse(data)
        assert submit is not None and submit.kind == "amount" and submit.fields == {"amount": ["40"]}


@pytest.mark.parametrize("custom_id", ["pk:w:3:41:7",  # the draw form of an old version: the picker replaced it
                                       "pk:w:1:2", "pk:x:1:2:3", "", "amount", "pk:amount:-1:2:3", " pk:amount:1:2:3"])
def test_other_custom_ids_are_not_ours(custom_id: str) -> None:
    assert ModalSubmit.parse({"custom_id": custom_id, "components": []}) is None


def test_malformed_components_are_skipped_not_fatal() -> None:
    data = {"custom_id": "pk:w:1:2:3", "components": [None, "x", 7, {"type": 18}, {"type": 1, "components": None},
                                                      label({"type": 3, "custom_id": "throw", "values": None})]}
    assert modal_fields(data) == {"throw": []}
    assert modal_fields(None) == {} and modal_fields({}) == {}
