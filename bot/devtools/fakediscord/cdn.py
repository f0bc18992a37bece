"""What Discord's CDN serves, served by the fake: the files attached to messages (at their ``url``)."""

from __future__ import annotations

from aiohttp import web

from .messages import MessageStore


class Cdn:
    def __init__(self, messages: MessageStore) -> None:
        self.messages = messages

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.attachment)

    async def attachment(self, request: web.Request) -> web.Response:
        found = self.messages.attachment(int(request.match_info["attachment_id"]))
        if found is None:
            return web.Response(status=404)
        return web.Response(body=found.data, content_type=found.content_type or "application/octet-stream")
