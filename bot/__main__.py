"""``python -m bot``: run the Discord bot, or one of the offline tools.

    python -m bot                      run the bot (needs DISCORD_TOKEN)
    python -m bot replay FILE.phh      replay a hand history, print its result as JSON
    python -m bot simulate --game G --players N --hands K --seed S
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen command; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="A Discord bot for draw poker nights.")
    commands = parser.add_subparsers(dest="command")

    replay = commands.add_parser("replay", help="replay a PHH hand history through the engine")
    replay.add_argument("file", help="a .phh file")

    simulate = commands.add_parser("simulate", help="play random hands and check that no chip or card is lost")
    simulate.add_argument("--game", default="dealers-choice", help="a game id, or dealers-choice to rotate")
    simulate.add_argument("--players", type=int, default=6)
    simulate.add_argument("--hands", type=int, default=1000)
    simulate.add_argument("--seed", type=int, default=0)

    args = parser.parse_args(argv)
    if args.command == "replay":
        from .poker.phh import replay_command

        return replay_command(args.file)
    if args.command == "simulate":
        from .simulate import simulate_command

        return simulate_command(args.game, args.players, args.hands, args.seed)
    from .run import run_bot

    return run_bot()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the output went to a pipe that closed early (e.g. `| head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
