"""The application-emoji routes: list, create, fetch, rename and delete (``/applications/{id}/emojis``)."""

from __future__ import annotations

from ..answers import Answer
from ..emojis import ApplicationEmojis
from ..guild import Guild
from ..records import RestCall
from ..server import Route, route
from .app import check_application


class EmojiRoutes:
    def __init__(self, guild: Guild, emojis: ApplicationEmojis) -> None:
        self.guild = guild
        self.emojis = emojis

    def routes(self) -> list[Route]:
        one = "/applications/{app_id}/emojis/{emoji_id}"
        return [
            route("GET", "/applications/{app_id}/emojis", self.list_emojis),
            route("POST", "/applications/{app_id}/emojis", self.create),
            route("GET", one, self.get),
            route("PATCH", one, self.edit),
            route("DELETE", one, self.delete),
        ]

    async def list_emojis(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        return Answer(body={"items": [e.payload() for e in self.emojis]})

    async def create(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        return Answer(201, self.emojis.create(call.json).payload())

    async def get(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        return Answer(body=self.emojis.find(call.params["emoji_id"]).payload())

    async def edit(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        emoji = self.emojis.find(call.params["emoji_id"])
        self.emojis.rename(emoji, call.json)
        return Answer(body=emoji.payload())

    async def delete(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        self.emojis.delete(self.emojis.find(call.params["emoji_id"]))
        return Answer(204)
