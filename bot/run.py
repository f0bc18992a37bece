"""Start the Discord bot from the environment (and .env)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from .config import load_config

if TYPE_CHECKING:
    from .app import PokerBot

HOW_TO_GET_A_TOKEN = """DISCORD_TOKEN is not set.

1. Open https://discord.com/developers/applications and create an application.
2. Under Bot, reset and copy the token; put DISCORD_TOKEN=... in a .env file here (or the environment).
3. Invite the bot with the scopes bot and applications.commands (see the README), then run make run again.

Offline tools that need no token: python -m bot replay FILE.phh, python -m bot simulate --help"""


def run_bot() -> int:
    """Run the bot until it is stopped; explain how to get a token when there is none."""
    try:
        config = load_config()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    if config.token is None:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    import discord

    from .app import make_bot

    discord.utils.setup_logging(level=getattr(logging, config.log_level))
    bot = make_bot(config)
    try:
        asyncio.run(run_until_stopped(bot, config.token))
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN.", file=sys.stderr)
        return 2
    return 0


async def run_until_stopped(bot: PokerBot, token: str) -> None:
    """Run the bot; on SIGTERM or SIGINT close it cleanly (clocks stopped, the store closed).

    Every action is already in the store when it is shown, so even a SIGKILL loses nothing;
    a clean stop just ends the clocks and the connection tidily.
    """
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(token)
