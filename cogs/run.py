"""Start the Discord bot from the environment (and .env), and stop it cleanly.

Every problem at start is one line on standard error and exit status 2, with no traceback: the configuration,
the bank (``bot.runtime.startup``: a folder, a read-only disk, a damaged or foreign file, another bot on it...), a token
Discord refuses, Discord out of reach (tried again with a growing pause for ``CONNECT_FOR`` seconds). SIGTERM
and SIGINT stop the bot within ``STOP_WITHIN`` seconds in every phase, connecting included; the hand in play is
kept (it is in the store already) and goes on at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.runtime.config import configured
from bot.runtime.startup import StartupError

if TYPE_CHECKING:
    from .app import PokerBot

log = logging.getLogger(__name__)

CONNECT_FOR = 180.0  # seconds Discord is tried at start before the bot gives up
STOP_WITHIN = 8.0  # seconds a clean stop may take (Docker kills after 10)
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 30.0  # between tries to reach Discord at start, doubling

HOW_TO_GET_A_TOKEN = """DISCORD_TOKEN is not set.

1. Open https://discord.com/developers/applications and create an application.
2. Under Bot, reset and copy the token; put DISCORD_TOKEN=... in a .env file here (or the environment).
3. Invite the bot with the scopes bot and applications.commands (see the README), then run make run again.

Offline tools that need no token: python -m bot replay FILE.phh, python -m bot simulate --help"""


def run_bot() -> int:
    """Run the bot until it is stopped; explain how to get a token when there is none."""
    config = configured()
    if config is None:
        return 2
    if config.token is None:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr)
        return 2
    from .app import make_bot
    from .logs import setup_logging

    setup_logging(getattr(logging, config.log_level))
    return serve(make_bot(config), config.token)


def serve(bot: PokerBot, token: str, *, connect_for: float = CONNECT_FOR) -> int:
    """Run ``bot`` until it is stopped: 0 after a clean stop, 2 after printing the one line that says why it
    could not start."""
    import discord

    try:
        asyncio.run(run_until_stopped(bot, token, connect_for=connect_for))
    except StartupError as error:
        print(error, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired as error:
        print(f"Discord refused the connection: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C before the bot listened for it: nothing had started
        return 0
    return 0


async def run_until_stopped(bot: PokerBot, token: str, *, connect_for: float = CONNECT_FOR) -> None:
    """Open the bank, reach Discord and run; on SIGTERM or SIGINT close the bot (clocks stopped, clicks under way
    finished, the store closed) and return within ``STOP_WITHIN`` seconds, whatever it was doing.

    Every action is already in the store when it is shown, so even a SIGKILL loses nothing;
    a clean stop just ends the clocks and the connection tidily.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            running = asyncio.create_task(_run(bot, token, connect_for), name="the bot")
            stopping = asyncio.create_task(stop.wait(), name="the stop signal")
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                stopping.cancel()
                running.result()  # a start-up problem, or the bot closed by itself
                return
            log.info("stopping: closing the tables' clocks and the connection")
            try:
                await asyncio.wait_for(asyncio.shield(bot.close()), STOP_WITHIN)
            except TimeoutError:
                log.warning("the bot did not stop within %.0f s; it stops now (every action is stored)", STOP_WITHIN)
            running.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(running, 1.0)
    finally:
        for sig in signals:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)


async def _run(bot: PokerBot, token: str, connect_for: float) -> None:
    await bot.open_bank()  # before Discord: a second bot on this bank stops here, connected to nothing
    await login(bot, token, connect_for)
    await bot.connect(reconnect=True)


async def login(bot: PokerBot, token: str, connect_for: float) -> None:
    """``bot.login``, tried again with a growing pause while Discord cannot be reached, for ``connect_for``
    seconds; then ``StartupError``. A refused token is not tried again (``LoginFailure``)."""
    import aiohttp
    import discord

    loop = asyncio.get_running_loop()
    began, tries, pause = loop.time(), 0, FIRST_PAUSE
    while True:
        tries += 1
        try:
            await bot.login(token)
            return
        except (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError) as error:
            waited = loop.time() - began
            reason = _reason(error)
            if waited + pause > connect_for:
                raise StartupError(f"Discord cannot be reached ({reason}): gave up after {tries} tries in "
                                   f"{waited:.0f} s; check this machine's network and DNS") from None
            log.warning("Discord cannot be reached (%s); trying again in %.0f s", reason, pause)
            await bot.http.close()  # a new session for the next try (login makes one each time)
            bot.http.connector = discord.utils.MISSING
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)


def _reason(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
