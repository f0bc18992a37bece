"""Pointing the real discord.py at the fake (TESTING-DISCORD.md, "Patch points")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import yarl

if TYPE_CHECKING:
    import pytest

    from .fake import FakeDiscord


def patch_discord(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord) -> None:
    """Point discord.py's REST base (bot calls and interaction webhooks), gateway URL and CDN at the fake.

    ``monkeypatch.setattr`` raises AttributeError if discord.py ever moves these attributes.
    """
    import discord.asset
    import discord.gateway
    import discord.http

    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.asset.Asset, "BASE", fake.runtime.base_url)  # emoji images, attachments
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
