"""The health file: written while the bot is in touch with Discord, and the check of it.

With ``HEALTH_FILE`` set (the Docker image sets it), the running bot writes the file every few seconds while every
gateway connection it runs is up (``cogs.gateway_watch``). ``python -m bot health`` (the image's HEALTHCHECK)
exits 0 while the file is fresher than ``STALE`` seconds and 1 otherwise, with one line that says why: a bot that
has lost Discord for minutes (a network gone, a token revoked) is reported unhealthy, and a container orchestrator
can restart it.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

__all__ = ["STALE", "check_health", "write_health_file"]

log = logging.getLogger(__name__)

STALE = 180.0  # seconds without contact after which the bot is unhealthy


def write_health_file(path: Path) -> None:
    """Say in ``path`` that the bot is in touch with Discord now (a failure to write is logged, not raised)."""
    try:
        path.write_text(f"in touch with Discord at {time.time():.0f}\n", encoding="utf-8")
    except OSError as error:
        log.warning("could not write the health file %s (%s)", path, error.strerror)


def check_health(path: Path | None, stale: float = STALE, now: float | None = None) -> tuple[bool, str]:
    """(healthy, the line that says so) from the health file's age."""
    if path is None:
        return False, "HEALTH_FILE is not set: the bot writes no health file to check"
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return False, f"unhealthy: the bot has not been in touch with Discord yet ({path} does not exist)"
    except OSError as error:
        return False, f"unhealthy: {path} cannot be read ({error.strerror})"
    if age > stale:
        return False, f"unhealthy: no contact with Discord for {age:.0f} s (more than {stale:.0f} s)"
    return True, f"healthy: in touch with Discord {max(0.0, age):.0f} s ago"
