"""Start the Discord bot (built in the Discord issue); until then, say so plainly."""

from __future__ import annotations

import os
import sys


def run_bot() -> int:
    """Run the bot with DISCORD_TOKEN; explain how to get a token when it is missing."""
    if not os.environ.get("DISCORD_TOKEN"):
        print(
            "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications,\n"
            "add a bot to it, copy its token, and run: DISCORD_TOKEN=... python -m bot\n"
            "Offline tools that need no token: python -m bot replay FILE.phh, python -m bot simulate --help",
            file=sys.stderr,
        )
        return 2
    print("The Discord layer is not built yet (see the Discord bot issue); the engine tools work offline.",
          file=sys.stderr)
    return 2
