"""The one place the bot reaches under discord.py's public API, each reach named for what it is for.

discord.py has no public hook for these four things, and each is needed:

* **every REST call** through one retry layer (``cogs.transport``): ``HTTPClient.request`` for the bot's token and
  ``AsyncWebhookAdapter.request`` for interaction callbacks and follow-ups (discord.py has no transport hook);
* **a gateway event's raw data** before or instead of discord.py's parser: the scheduled events' user add and
  remove (dropped by discord.py unless the member is cached) and the bot's own message events (parsed into
  ``Message`` objects nothing reads);
* **an interaction marked answered** when Discord says it was (a repeat answered "already acknowledged"), so that
  discord.py does not let anything answer it again: its state is ``InteractionResponse._response_type``.

Nothing else in ``bot`` or ``cogs`` names discord.py's private parts; ``tests/test_discord_seam.py`` fails when a
discord.py upgrade changes one of them (a name gone, a signature changed), before any table misbehaves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

__all__ = ["BotRequest", "Parser", "WebhookRequest", "mark_responded", "wrap_bot_requests", "wrap_parser",
           "wrap_webhook_requests"]

Parser = Callable[[Any], None]  # a gateway event's parser: its ``d`` payload in, nothing out
BotRequest = Callable[..., Awaitable[Any]]  # ``request(route, **kwargs)`` of one HTTPClient
WebhookRequest = Callable[..., Awaitable[Any]]  # ``request(adapter, route, session, **kwargs)``
_WRAPPED = "_poker_wrapped"  # set on what was wrapped once: wrapping is done once per client / process


def wrap_bot_requests(http: HTTPClient, wrap: Callable[[BotRequest], BotRequest]) -> None:
    """Route every REST call made with the bot's token through ``wrap(request)`` (once per client)."""
    if getattr(http, _WRAPPED, False):
        return
    http.request = _wrapping(http.request, wrap)  # type: ignore[method-assign]
    setattr(http, _WRAPPED, True)


def wrap_webhook_requests(wrap: Callable[[WebhookRequest], WebhookRequest]) -> None:
    """Route every interaction callback and follow-up through ``wrap(request)``: discord.py's webhook adapter is
    one per process, so this is done once for all."""
    if getattr(AsyncWebhookAdapter, _WRAPPED, False):
        return
    AsyncWebhookAdapter.request = _wrapping(  # type: ignore[method-assign]
        AsyncWebhookAdapter.request, wrap)
    setattr(AsyncWebhookAdapter, _WRAPPED, True)


def _wrapping(request: Callable[..., Awaitable[Any]], wrap: Callable[[Any], Any]) -> Any:
    """``wrap(request)``, which still shows discord.py's signature (``inspect.signature`` follows ``__wrapped__``)."""
    wrapped = wrap(request)
    wrapped.__wrapped__ = request
    return wrapped


def wrap_parser(client: discord.Client, event: str, wrap: Callable[[Parser], Parser]) -> Callable[[], None]:
    """Replace the parser of the gateway's ``event`` (e.g. ``MESSAGE_CREATE``) by ``wrap(parser)``, which may call
    discord.py's parser or not; returns what puts discord.py's back."""
    parsers: dict[str, Parser] = client._connection.parsers
    original = parsers[event]
    parsers[event] = wrap(original)

    def undo() -> None:
        parsers[event] = original

    return undo


def mark_responded(interaction: discord.Interaction, kind: discord.InteractionResponseType) -> None:
    """Make discord.py take ``interaction`` as answered (``is_done()``), so that no later answer is tried."""
    interaction.response._response_type = kind
