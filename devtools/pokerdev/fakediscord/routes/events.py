"""The scheduled-event routes: list, create, fetch, edit and delete a guild's events, and list the members
Interested in one (``/guilds/{id}/scheduled-events``)."""

from __future__ import annotations

from ..answers import Answer, ApiError
from ..events import ScheduledEvents
from ..guild import Guild
from ..records import RestCall
from ..server import Route, route


class EventRoutes:
    def __init__(self, guild: Guild, events: ScheduledEvents) -> None:
        self.guild = guild
        self.events = events

    def routes(self) -> list[Route]:
        many = "/guilds/{guild_id}/scheduled-events"
        one = many + "/{event_id}"
        return [
            route("GET", many, self.list_events),
            route("POST", many, self.create),
            route("GET", one, self.get),
            route("PATCH", one, self.edit),
            route("DELETE", one, self.delete),
            route("GET", one + "/users", self.users),
        ]

    def _check_guild(self, call: RestCall) -> None:
        if call.params.get("guild_id") != str(self.guild.id):
            raise ApiError(404, 10004, "Unknown Guild")

    @staticmethod
    def _with_count(call: RestCall) -> bool:
        return call.query.get("with_user_count", "false").lower() in ("true", "1")

    async def list_events(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=[e.payload(self._with_count(call)) for e in self.events])

    async def create(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=self.events.create(call.json or {}).payload())

    async def get(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=self.events.find(call.params["event_id"]).payload(self._with_count(call)))

    async def edit(self, call: RestCall) -> Answer:
        self._check_guild(call)
        event = self.events.find(call.params["event_id"])
        self.events.edit(event, call.json or {})
        return Answer(body=event.payload())

    async def delete(self, call: RestCall) -> Answer:
        self._check_guild(call)
        self.events.delete(self.events.find(call.params["event_id"]))
        return Answer(204)

    async def users(self, call: RestCall) -> Answer:
        self._check_guild(call)
        return Answer(body=self.events.users(self.events.find(call.params["event_id"]), call.query))
