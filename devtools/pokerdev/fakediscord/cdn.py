"""What Discord's CDN serves, served by the fake: the files attached to messages (at their ``url``) and the
application's emoji images (at ``/emojis/{id}.png``, where discord.py's ``Emoji.url`` points once
:func:`~.patch.patch_discord` has pointed ``Asset.BASE`` at the fake; served as uploaded, whatever the extension)."""

from __future__ import annotations

from aiohttp import web

from .emojis import ApplicationEmojis
from .messages import MessageStore


class Cdn:
    def __init__(self, messages: MessageStore, emojis: ApplicationEmojis) -> None:
        self.messages = messages
        self.emojis = emojis

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)
        app.router.add_get("/emojis/{emoji_id:\\d+}.{ext}", self.emoji)

    async def attachment(self, request: web.Request) -> web.Response:
        found = self.messages.attachment(int(request.match_info["attachment_id"]))
        if found is None:
            return web.Response(status=404)
        return web.Response(body=found.data, content_type=found.content_type or "application/octet-stream")

    async def emoji(self, request: web.Request) -> web.Response:
        emoji = self.emojis.by_id.get(int(request.match_info["emoji_id"]))
        if emoji is None:
            return web.Response(status=404)
        return web.Response(body=emoji.image, content_type=emoji.content_type)
