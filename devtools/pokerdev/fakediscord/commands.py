"""The bot's application commands: as synced (``PUT .../commands``) or as its local tree says, and the
``data`` of an APPLICATION_COMMAND interaction built from them (typed and checked as Discord's client would)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from .constants import (
    JSON,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    OPT_USER,
)
from .form import FormErrors
from .guild import Guild
from .limits import validate_commands
from .model import FakeChannel, FakeRole, FakeUser, new_snowflake


class Commands:
    """Synced global and guild commands, and the local tree a test registered."""

    def __init__(self, guild: Guild) -> None:
        self.guild = guild
        self.global_commands: dict[str, JSON] = {}
        self.guild_commands: dict[str, JSON] = {}
        self.local: tuple[dict[str, JSON], dict[str, JSON]] = ({}, {})

    def register_local(self, global_commands: Sequence[JSON], guild_commands: Sequence[JSON] = ()) -> None:
        """The bot's local command tree (used for option types when commands were not synced). It is checked as
        Discord checks a sync (at most 25 subcommands and groups in a command or group, names, descriptions,
        choices...): a tree Discord would refuse raises ``ApiError`` here too, so a test cannot pass on it."""
        for commands in (global_commands, guild_commands):
            errors = FormErrors()
            validate_commands(errors, commands)
            errors.raise_if_any("invalid-commands")
        self.local = (
            {c["name"]: c for c in global_commands if int(c.get("type") or 1) == 1},
            {c["name"]: c for c in guild_commands if int(c.get("type") or 1) == 1},
        )

    def sync(self, commands: Sequence[JSON], *, in_guild: bool) -> list[JSON]:
        """Replace the global (or guild) commands, keeping the ids of those that stay; returns them as stored."""
        store = self.guild_commands if in_guild else self.global_commands
        old = dict(store)
        store.clear()
        for command in commands:
            entry = copy.deepcopy(command)
            previous = old.get(command["name"])
            entry.update(
                id=previous["id"] if previous else str(new_snowflake()),
                application_id=str(self.guild.app_id),
                version=str(new_snowflake()),
                type=int(command.get("type") or 1),
            )
            if in_guild:
                entry["guild_id"] = str(self.guild.id)
            store[entry["name"]] = entry
        return list(store.values())

    def paths(self, *, guild: bool | None = None) -> list[str]:
        """Synced chat-input commands as paths: ``["chips give", "poker create", ...]``."""
        sources = {None: [self.global_commands, self.guild_commands], False: [self.global_commands]}.get(
            guild, [self.guild_commands]
        )
        paths: list[str] = []

        def walk(prefix: str, options: Sequence[Mapping[str, Any]]) -> bool:
            found = False
            for option in options:
                if option.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                    found = True
                    if not walk(f"{prefix} {option['name']}", option.get("options") or []):
                        paths.append(f"{prefix} {option['name']}")
            return found

        for commands in sources:
            for name, command in commands.items():
                if int(command.get("type") or 1) == 1 and not walk(name, command.get("options") or []):
                    paths.append(name)
        return sorted(paths)

    def find(self, name: str) -> tuple[JSON | None, bool]:
        """The chat-input command ``name`` (synced first, then local) and whether it is a guild command."""
        for commands, in_guild in (
            (self.guild_commands, True),
            (self.global_commands, False),
            (self.local[1], True),
            (self.local[0], False),
        ):
            if name in commands and int(commands[name].get("type") or 1) == 1:
                return commands[name], in_guild
        return None, False

    def interaction_data(
        self,
        command: str,
        group: str | None,
        subcommand: str | None,
        options: Mapping[str, Any],
        *,
        force: bool,
        dm: bool,
    ) -> JSON:
        """The interaction's ``data`` for ``/command [group] [subcommand] options...``.

        Raises ValueError (or TypeError) for what Discord's client would not let a user send, unless ``force``.
        """
        declared, in_guild = self.find(command)
        if declared is None and not force and (self.global_commands or self.guild_commands or any(self.local)):
            raise ValueError(f"the bot has no command /{command}")
        if in_guild and dm and not force:
            raise ValueError(f"/{command} is a guild command; it cannot be used in DMs")
        leaf_decl: list[JSON] | None = list(declared.get("options") or []) if declared else None
        for level, (kind, name) in enumerate(((OPT_SUB_COMMAND_GROUP, group), (OPT_SUB_COMMAND, subcommand))):
            if leaf_decl is None:
                break
            subs = [o for o in leaf_decl if o.get("type") == kind]
            if name is None:
                if subs and not force and (level == 1 or not any(o.get("type") == OPT_SUB_COMMAND for o in leaf_decl)):
                    raise ValueError(f"/{command} needs a {'group' if kind == OPT_SUB_COMMAND_GROUP else 'subcommand'}")
                continue
            match = next((o for o in subs if o.get("name") == name), None)
            if match is None:
                if not force:
                    raise ValueError(f"/{command} has no {'group' if level == 0 else 'subcommand'} {name!r}")
                leaf_decl = None
                break
            leaf_decl = list(match.get("options") or [])
        resolved: JSON = {}
        leaf = [self._option(name, value, leaf_decl, resolved, force=force, dm=dm) for name, value in options.items()]
        if leaf_decl is not None and not force:
            missing = [o["name"] for o in leaf_decl if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{command} {subcommand or ''}: missing required option(s) {missing}")
        wrapped: list[JSON] = leaf
        if subcommand is not None:
            wrapped = [{"type": OPT_SUB_COMMAND, "name": subcommand, "options": wrapped}]
        if group is not None:
            wrapped = [{"type": OPT_SUB_COMMAND_GROUP, "name": group, "options": wrapped}]
        data: JSON = {
            "id": str(declared.get("id") or new_snowflake()) if declared else str(new_snowflake()),
            "name": command,
            "type": 1,
            "options": wrapped,
        }
        if in_guild:
            data["guild_id"] = str(self.guild.id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self, name: str, value: Any, declared: list[JSON] | None, resolved: JSON, *, force: bool, dm: bool
    ) -> JSON:
        decl = next((o for o in declared or [] if o.get("name") == name), None)
        if declared is not None and decl is None and not force:
            raise ValueError(f"unknown option {name!r}; the command has {[o.get('name') for o in declared]}")
        kind = int(decl["type"]) if decl else infer_option_type(value)
        wire: Any
        if kind in (OPT_USER, OPT_ROLE, OPT_CHANNEL, OPT_MENTIONABLE):
            entity = self._entity(value, kind)
            wire = str(entity.id)
            self.guild.resolve_into(resolved, entity, dm=dm)
        elif kind == OPT_INTEGER:
            if not force and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"option {name!r} is an integer, not {value!r}")
            wire = value
        elif kind == OPT_NUMBER:
            if not force and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"option {name!r} is a number, not {value!r}")
            wire = value
        elif kind == OPT_BOOLEAN:
            if not force and not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, not {value!r}")
            wire = value
        elif kind == OPT_STRING:
            if not force and not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, not {value!r}")
            wire = value
        else:
            raise NotImplementedError(f"option type {kind} ({name!r}) is not supported by the fake")
        if decl is not None and not force:
            check_option_value(name, wire, decl)
        return {"name": name, "type": kind, "value": wire}

    def _entity(self, value: Any, kind: int) -> FakeUser | FakeRole | FakeChannel:
        if isinstance(value, (FakeUser, FakeRole, FakeChannel)):
            return value
        if kind == OPT_USER:
            return self.guild.user(value)
        if kind == OPT_ROLE:
            return self.guild.role(value)
        if kind == OPT_CHANNEL:
            return self.guild.channel(value)
        try:
            return self.guild.user(value)
        except LookupError:
            return self.guild.role(value)


def infer_option_type(value: Any) -> int:
    """The option type of a Python value, for commands the fake does not know."""
    if isinstance(value, bool):
        return OPT_BOOLEAN
    if isinstance(value, int):
        return OPT_INTEGER
    if isinstance(value, float):
        return OPT_NUMBER
    if isinstance(value, FakeUser):
        return OPT_USER
    if isinstance(value, FakeRole):
        return OPT_ROLE
    if isinstance(value, FakeChannel):
        return OPT_CHANNEL
    return OPT_STRING


def check_option_value(name: str, value: Any, decl: Mapping[str, Any]) -> None:
    """What Discord's client refuses to send: a value not among the choices, out of range, too short or long."""
    choices = decl.get("choices")
    if choices and value not in [c.get("value") for c in choices]:
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices {[c.get('value') for c in choices]}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = decl.get("min_value"), decl.get("max_value")
        if low is not None and value < low:
            raise ValueError(f"option {name!r}: {value} is below the minimum {low}")
        if high is not None and value > high:
            raise ValueError(f"option {name!r}: {value} is above the maximum {high}")
    if isinstance(value, str):
        low, high = decl.get("min_length"), decl.get("max_length")
        if low is not None and len(value) < low:
            raise ValueError(f"option {name!r}: shorter than {low} characters")
        if high is not None and len(value) > high:
            raise ValueError(f"option {name!r}: longer than {high} characters")
