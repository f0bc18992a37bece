"""Routes about the bot itself: its user, its application, the gateway URL, and its application commands."""

from __future__ import annotations

from ..answers import Answer, ApiError
from ..commands import Commands
from ..form import FormErrors
from ..guild import Guild
from ..limits import validate_commands
from ..records import RestCall
from ..runtime import Runtime
from ..server import Route, route


def check_application(guild: Guild, call: RestCall) -> None:
    """403 / 50001 for a route naming another application than the bot's."""
    app_id = call.params.get("app_id")
    if app_id != str(guild.app_id):
        raise ApiError(403, 50001, "Missing Access", violation="wrong-application", detail=f"app id {app_id}")


class AppRoutes:
    def __init__(self, guild: Guild, commands: Commands, runtime: Runtime) -> None:
        self.guild = guild
        self.commands = commands
        self.runtime = runtime

    def routes(self) -> list[Route]:
        return [
            route("GET", "/users/@me", self.get_me),
            route("GET", "/users/{user_id}", self.get_user),
            route("GET", "/oauth2/applications/@me", self.get_application),
            route("GET", "/applications/@me", self.get_application),
            route("GET", "/gateway", self.get_gateway),
            route("GET", "/gateway/bot", self.get_gateway),
            route("GET", "/applications/{app_id}/commands", self.get_commands),
            route("PUT", "/applications/{app_id}/commands", self.put_commands),
            route("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            route("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
        ]

    async def get_me(self, call: RestCall) -> Answer:
        return Answer(body={**self.guild.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def get_user(self, call: RestCall) -> Answer:
        try:
            return Answer(body=self.guild.user(call.params["user_id"]).payload())
        except LookupError:
            raise ApiError(404, 10013, "Unknown User") from None

    async def get_application(self, call: RestCall) -> Answer:
        guild = self.guild
        owner = guild.user(guild.owner_id) if guild.owner_id in guild.users else guild.bot_user
        return Answer(
            body={
                "id": str(guild.app_id),
                "name": guild.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        )

    async def get_gateway(self, call: RestCall) -> Answer:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return Answer(body={"url": self.runtime.gateway_url, "shards": 1, "session_start_limit": limit})

    async def get_commands(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        store = self.commands.guild_commands if "guild_id" in call.params else self.commands.global_commands
        return Answer(body=list(store.values()))

    async def put_commands(self, call: RestCall) -> Answer:
        check_application(self.guild, call)
        in_guild = "guild_id" in call.params
        if in_guild and call.params["guild_id"] != str(self.guild.id):
            raise ApiError(403, 50001, "Missing Access")
        commands = call.json if isinstance(call.json, list) else []
        errors = FormErrors()
        validate_commands(errors, commands)
        errors.raise_if_any("invalid-commands")
        return Answer(body=self.commands.sync(commands, in_guild=in_guild))
