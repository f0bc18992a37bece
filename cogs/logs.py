"""The bot's log: discord.py's line format, in colour only on a terminal.

discord.py's own ``setup_logging`` colours its lines whenever it guesses it runs in Docker, so ``docker logs`` and
log files got ANSI escape codes. Here colour is used only when the output is a terminal (and ``NO_COLOR`` is not
set). discord.py's "Attempting a reconnect" (an ERROR with a traceback for each try while Discord cannot be
reached) becomes one WARNING line that names the error, and its warnings that voice is not supported (the bot
has no voice) are left out.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import discord.utils

__all__ = ["FORMAT", "setup_logging", "wants_colour"]

FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def wants_colour(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal that may get colour codes."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class DiscordLines(logging.Filter):
    """discord.py logs each reconnect attempt with ``exception()``: one WARNING line naming the error instead; its
    "voice will NOT be supported" warnings (PyNaCl, davey) are dropped: the bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "discord.client" and "voice will NOT be supported" in str(record.msg):
            return False
        if record.name == "discord.client" and str(record.msg).startswith("Attempting a reconnect") \
                and record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"the connection to Discord's gateway failed ({error!r}); " + str(record.msg).lower()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(level: int, stream: TextIO | None = None) -> logging.Handler:
    """Log ``level`` and above to ``stream`` (standard error) in discord.py's format; return the handler."""
    out = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(out)
    colour = getattr(discord.utils, "_ColourFormatter", None)
    if wants_colour(out) and colour is not None:
        handler.setFormatter(colour())
    else:
        handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT, style="{"))
    handler.addFilter(DiscordLines())
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    return handler
