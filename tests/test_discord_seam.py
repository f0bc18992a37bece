"""The seam under discord.py (``cogs.discord_seam``): what it relies on is still there in the installed discord.py,
it does what it says, and no other module of the bot reaches under discord.py's public API.

A discord.py upgrade that renames or reshapes one of these fails here, before a table misbehaves.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from cogs import discord_seam

ROOT = Path(__file__).resolve().parents[1]
PRIVATE = re.compile(r"\._connection\b|\._response_type\b|\bAsyncWebhookAdapter\b|\.request\s*=[^=]")
WRAPPED_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "GUILD_SCHEDULED_EVENT_USER_ADD",
                  "GUILD_SCHEDULED_EVENT_USER_REMOVE")


def test_the_requests_wrapped_take_what_the_transport_passes_on() -> None:
    bot = inspect.signature(HTTPClient.request).parameters
    assert list(bot)[:2] == ["self", "route"] and {"files", "kwargs"} <= set(bot)
    webhook = inspect.signature(AsyncWebhookAdapter.request).parameters
    assert list(webhook)[:3] == ["self", "route", "session"]
    assert {"payload", "files", "params"} <= set(webhook)  # the transport reads the payload, resets files, drops params


def test_the_gateway_reads_the_parsers_the_seam_wraps() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert set(WRAPPED_EVENTS) <= set(client._connection.parsers)
    # The websocket takes the state's own dict of parsers, so replacing an entry in it reaches the gateway.
    assert "client._connection.parsers" in inspect.getsource(DiscordWebSocket.from_client)


def test_wrap_parser_puts_the_wrap_in_place_and_undo_puts_discord_py_back() -> None:
    client = discord.Client(intents=discord.Intents.none())
    original = client._connection.parsers["MESSAGE_UPDATE"]
    seen: list[Any] = []

    def wrap(parse: discord_seam.Parser) -> discord_seam.Parser:
        assert parse is original
        return seen.append

    undo = discord_seam.wrap_parser(client, "MESSAGE_UPDATE", wrap)
    client._connection.parsers["MESSAGE_UPDATE"]({"id": "1"})
    assert seen == [{"id": "1"}]
    undo()
    assert client._connection.parsers["MESSAGE_UPDATE"] is original


def test_an_interaction_marked_responded_is_done_for_discord_py() -> None:
    response = object.__new__(discord.InteractionResponse)
    response._response_type = None
    assert not response.is_done()
    discord_seam.mark_responded(SimpleNamespace(response=response),  # type: ignore[arg-type]
                                discord.InteractionResponseType.deferred_message_update)
    assert response.is_done()


def test_wrapping_the_bot_requests_happens_once_per_client() -> None:
    http = discord.Client(intents=discord.Intents.none()).http
    calls: list[str] = []

    def wrap(request: discord_seam.BotRequest) -> discord_seam.BotRequest:
        calls.append("wrapped")

        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            return await request(*args, **kwargs)

        return wrapped

    discord_seam.wrap_bot_requests(http, wrap)
    discord_seam.wrap_bot_requests(http, wrap)
    assert calls == ["wrapped"]


@pytest.mark.parametrize("package", ["bot", "cogs"])
def test_no_other_module_reaches_under_discord_py(package: str) -> None:
    seam = ROOT / "cogs" / "discord_seam.py"
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sorted((ROOT / package).rglob("*.py")) if path != seam
             for number, line in enumerate(path.read_text().splitlines(), 1) if PRIVATE.search(line)]
    assert found == []


@pytest.mark.parametrize("package", ["bot", "cogs"])
def test_an_interaction_carries_no_state_of_ours(package: str) -> None:
    """The answer's state is its ``cogs.reply.Reply``'s: nothing is written into ``interaction.extras``."""
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sorted((ROOT / package).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if "interaction.extras" in line]
    assert found == []
