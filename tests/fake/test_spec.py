"""The fake checks request bodies against Discord's OpenAPI specification: bad bodies are answered 400 / 50035
and recorded as violations, good ones pass, every route of the fake has its operation in the specification, and
the fake runs without jsonschema when asked not to check (the demo, the load bench)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from pokerdev.fakediscord import FakeConfig, FakeDiscord
from pokerdev.fakediscord.spec import RELAXED, spec_checker
from tests.e2e.conftest import BotStarter

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def button(**fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Fold", "custom_id": "table:fold", **fields}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


GOOD_MESSAGE: dict[str, Any] = {
    "content": "Alice raises to 4",
    "embeds": [{"title": "Table 1", "description": "Pot 12", "color": 0x2E8B57,
                "fields": [{"name": "Alice", "value": "96", "inline": True}], "footer": {"text": "hand #3"}}],
    "components": [
        row(button(), button(label="Call 2", custom_id="table:call", style=3, emoji={"name": "♠", "id": None})),
        row({"type": 3, "custom_id": "table:discard", "min_values": 0, "max_values": 2,
             "options": [{"label": "A♠", "value": "As"}, {"label": "K♠", "value": "Ks", "description": "kept"}]}),
    ],
    "allowed_mentions": {"parse": []},
    "flags": 0,
    "tts": False,
}
GOOD_MODAL: dict[str, Any] = {
    "type": 9,
    "data": {"custom_id": "raise", "title": "Raise", "components": [
        {"type": 18, "label": "Amount", "component": {"type": 4, "custom_id": "amount", "style": 1, "max_length": 6}},
    ]},
}

# (method, path, body, where the error is, what it says): each caught by the specification.
BAD: dict[str, tuple[str, str, Any, str, str]] = {
    "an 81-character button label": (
        "POST", "/channels/1/messages", {"components": [row(button(label="x" * 81))]},
        "components.0.components.0.label", "Must be 80 or fewer in length."),
    "an unknown component type": (
        "POST", "/channels/1/messages", {"content": "x", "components": [{"type": 99}]},
        "components.0.type", 'must be one of (1, '),
    "a label that is a number": (
        "PATCH", "/channels/1/messages/2", {"components": [row(button(label=7))]},
        "components.0.components.0.label", "is not of type 'string', 'null'"),
    "a colour past 0xFFFFFF": (
        "POST", "/channels/1/messages", {"embeds": [{"title": "t", "color": 0x1000000}]},
        "embeds.0.color", "less than or equal to 16777215"),
    "content that is not text": (
        "PATCH", "/webhooks/1/tok/messages/@original", {"content": 5}, "content", "is not of type 'string'"),
    "a select without options": (
        "POST", "/webhooks/1/tok", {"components": [row({"type": 3, "custom_id": "s"})]},
        "components.0.components.0.options", "This field is required"),
    "a text input of style 3": (
        "POST", "/interactions/1/tok/callback",
        {"type": 9, "data": {**GOOD_MODAL["data"], "components": [
            {"type": 18, "label": "Amount", "component": {"type": 4, "custom_id": "amount", "style": 3}}]}},
        "data.components.0.component.style", "Value must be one of [1, 2]."),
    "an unknown callback type": (
        "POST", "/interactions/1/tok/callback", {"type": 77}, "type", "must be one of ("),
    "a DM to someone who is not an id": (
        "POST", "/users/@me/channels", {"recipient_id": "alice"}, "recipient_id", "does not match"),
    "a command without a name": (
        "PUT", "/applications/1/commands", [{"description": "d", "type": 1}], "0.name", "This field is required"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_body_is_caught_where_it_is_wrong(case: str) -> None:
    method, path, body, where, says = BAD[case]
    errors = spec_checker().check(method, path, body)
    assert [".".join(map(str, p)) for p, _, _ in errors.items] == [where], errors.summary()
    assert says in errors.summary()
    nested = errors.nested()
    for key in where.split("."):
        nested = nested[key]
    assert nested["_errors"][0]["code"].isupper()


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/channels/1/messages", GOOD_MESSAGE),
        ("PATCH", "/channels/1/messages/2", {"content": "edited", "embeds": [], "attachments": [{"id": 0}]}),
        ("POST", "/interactions/1/tok/callback", {"type": 4, "data": {**GOOD_MESSAGE, "flags": 64}}),
        ("POST", "/interactions/1/tok/callback", {"type": 6}),
        ("POST", "/interactions/1/tok/callback", GOOD_MODAL),
        ("POST", "/interactions/1/tok/callback", {"type": 8, "data": {"choices": [{"name": "2-7", "value": "27"}]}}),
        ("PATCH", "/webhooks/1/tok/messages/@original", {"content": None, "components": []}),
        ("POST", "/users/@me/channels", {"recipient_id": 1234567890}),
        ("PUT", "/applications/1/commands", [{"name": "poker", "description": "Tables", "type": 1, "options": [
            {"type": 1, "name": "join", "description": "Sit down", "options": [
                {"type": 4, "name": "seat", "description": "Which seat", "min_value": 1, "max_value": 9}]}]}]),
    ],
)
def test_a_good_body_passes(method: str, path: str, body: Any) -> None:
    assert not spec_checker().check(method, path, body), spec_checker().check(method, path, body).summary()


def test_every_route_of_the_fake_has_its_operation_in_the_specification() -> None:
    checker = spec_checker()
    fake = FakeDiscord()
    missing = []
    for route in fake.rest.routes:
        method, template = route.template.split(" ", 1)
        path = re.sub(r"\{\w+\}", "123", template)
        if checker.operation(method, path) is None:
            missing.append(route.template)
    assert missing == []
    original = checker.operation("PATCH", "/webhooks/1/t/messages/@original")
    followup = checker.operation("PATCH", "/webhooks/1/t/messages/9")
    assert original is not None and original.operation_id == "update_original_webhook_message"
    assert followup is not None and followup.operation_id == "update_webhook_message"


def test_integer_ids_are_accepted_as_discord_does() -> None:
    """The one relaxation: the specification types ids as strings; Discord (and discord.py) use numbers too."""
    assert [name for name, _, _ in RELAXED] == ["SnowflakeType"]
    assert not spec_checker().check("POST", "/users/@me/channels", {"recipient_id": 42})
    assert spec_checker().check("POST", "/users/@me/channels", {"recipient_id": -42})


async def test_discord_py_sending_a_bad_body_gets_400_and_a_violation(fake: FakeDiscord, start_bot: BotStarter) -> None:
    """Through the real discord.py: an embed colour past 0xFFFFFF (the fake's own limits do not check colours)."""
    bot = await start_bot(discord.Client(intents=discord.Intents.default()))
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as rejected:
        await channel.send(embed=discord.Embed(title="too bright", colour=0x1000000))
    assert rejected.value.status == 400 and rejected.value.code == 50035
    assert "embeds.0.color" in rejected.value.text
    [violation] = fake.take_violations("invalid-form-body")
    assert "embeds.0.color" in violation.detail and "(OpenAPI)" in violation.detail
    assert fake.channel_messages("general") == []
    await channel.send(embed=discord.Embed(title="fine", colour=0xFFFFFF))
    assert [m.embeds[0]["title"] for m in fake.channel_messages("general")] == ["fine"]


async def test_the_specification_checks_multipart_payload_json(fake: FakeDiscord) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": 12, "attachments": [{"id": 0, "filename": "h.phh"}]}',
                   content_type="application/json")
    form.add_field("files[0]", b"hand", filename="h.phh", content_type="application/octet-stream")
    url = f"{fake.api_base}/channels/{fake.channel('poker').id}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, data=form) as response:
        assert response.status == 400
        assert (await response.json())["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_INVALID"
    assert [v.kind for v in fake.take_violations()] == ["invalid-form-body"]


def test_checks_are_on_in_tests_and_can_be_turned_off() -> None:
    assert FakeDiscord().spec is spec_checker()  # jsonschema comes with the test extra
    assert FakeDiscord(FakeConfig(spec_checks=False)).spec is None


def test_the_fake_runs_without_jsonschema() -> None:
    """The demo and the load bench use the fake without the test extra: nothing imports jsonschema unasked."""
    code = (
        "import sys; sys.modules['jsonschema'] = None\n"
        "from pokerdev.fakediscord import FakeConfig, FakeDiscord\n"
        "assert FakeDiscord().spec is None\n"
        "try:\n    FakeDiscord(FakeConfig(spec_checks=True))\nexcept ImportError:\n    print('refused')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=False)
    assert run.returncode == 0 and run.stdout.strip() == "refused", run.stdout + run.stderr
