"""``python -m bot``: run the Discord bot, or one of the offline tools.

    python -m bot                      run the bot (needs DISCORD_TOKEN)
    python -m bot replay FILE.phh      replay a hand history, print its result as JSON
    python -m bot replay FILE.phhs     replay a night's hands, one JSON line per hand
    python -m bot simulate --game G --players N --hands K --seed S [--structure fixed|pot|no] [--export F.phhs]
    python -m bot demo [--game G] [--hands N]   watch the bot play a few hands offline (no token, no network)
    python -m bot db check [--db URL]           check the bank's database (integrity, every server's chips)
    python -m bot db backup FILE [--db URL]     back the bank up while the bot runs, and check the copy
    python -m bot health                        0 while the running bot is in touch with Discord (HEALTH_FILE)
    python -m bot rules                         print the house rules as markdown (docs/rules.md)
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

DEMO_NEEDS_DEVTOOLS = (
    "The demo runs the bot against the fake Discord of the tests, which is not part of the bot itself: "
    "`make demo` installs it (or `pip install -e devtools` in this repository)."
)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen command; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="A Discord bot for draw poker nights.")
    commands = parser.add_subparsers(dest="command")

    replay = commands.add_parser("replay", help="replay a PHH hand history through the engine")
    replay.add_argument("file", help="a .phh file (one hand) or a .phhs file (a night)")

    simulate = commands.add_parser("simulate", help="play random hands and check that no chip or card is lost")
    simulate.add_argument("--game", default="dealers-choice", help="a game id, or dealers-choice to rotate")
    simulate.add_argument("--players", type=int, default=6)
    simulate.add_argument("--hands", type=int, default=1000)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--structure", choices=["fixed", "pot", "no", "fixed-limit", "pot-limit", "no-limit"],
                          help="the betting structure (default: each game's own)")
    simulate.add_argument("--export", metavar="FILE.phhs", help="write every hand played to one PHH file")

    demo = commands.add_parser("demo", help="watch the real bot deal a few hands against a fake Discord, offline")
    demo.add_argument("--hands", type=int, default=3, help="hands to play (default 3)")
    demo.add_argument("--game", default="dealers-choice",
                      help="a game, dealers-choice (default) or a rotation: horse, eight-game (one hand of each game)")
    demo.add_argument("--seed", type=int, default=1, help="seed of the deck and of the players' choices")
    demo.add_argument("--players", type=int, default=4, help="players at the table, 2 to 6 (default 4)")
    demo.add_argument("--pace", type=float, default=0.05, help="seconds each player takes to act (default 0.05)")
    demo.add_argument("--full", action="store_true", help="print the whole table at every update")
    demo.add_argument("--verbose", action="store_true", help="also show the bot's log")

    add_db_commands(commands)
    commands.add_parser("health", help="exit 0 while the running bot is in touch with Discord (needs HEALTH_FILE)")
    commands.add_parser("rules", help="print the house rules as markdown (the text of docs/rules.md)")

    args = parser.parse_args(argv)
    if args.command == "db":
        from .tools.dbcli import db_command

        return db_command(args)
    if args.command == "health":
        return health_command()
    if args.command == "replay":
        from .tools.replay import replay_command

        return replay_command(args.file)
    if args.command == "simulate":
        from .tools.simulate import simulate_command

        return simulate_command(args.game, args.players, args.hands, args.seed, args.structure, args.export)
    if args.command == "rules":
        from .content.rules_text import rules_markdown

        sys.stdout.write(rules_markdown())
        return 0
    if args.command == "demo":
        try:
            from pokerdev.demo import demo_command
        except ImportError:
            print(DEMO_NEEDS_DEVTOOLS, file=sys.stderr)
            return 2
        return demo_command(args.hands, args.seed, args.players, args.full, args.verbose, args.pace, args.game)
    from cogs.run import run_bot

    return run_bot()


def add_db_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``db`` group (its commands in ``bot.tools.dbcli``, imported only when used)."""
    db = commands.add_parser("db", help="check, back up or copy the bank's database (check and backup: safe while "
                                        "the bot runs)")
    group = db.add_subparsers(dest="db_command", required=True, metavar="{check,backup,copy}")
    check = group.add_parser("check", help="the database's own checks and the audit of every server's chips")
    check.add_argument("--db", metavar="URL", help="the database (default: POKER_DB)")
    backup = group.add_parser("backup", help="copy the bank while the bot runs, and check the copy")
    backup.add_argument("file", type=Path, help="the copy to write (replaced if it exists)")
    backup.add_argument("--db", metavar="URL", help="the database (default: POKER_DB)")
    copy = group.add_parser("copy", help="copy a whole bank into an empty one, between SQLite and PostgreSQL")
    copy.add_argument("source", metavar="SOURCE", help="the bank to copy: an SQLite file or a postgresql:// URL")
    copy.add_argument("target", metavar="TARGET", help="the empty bank to fill: a new SQLite file or an empty "
                                                       "PostgreSQL database")


def health_command() -> int:
    """``python -m bot health``: the Docker image's HEALTHCHECK (``bot.runtime.health``)."""
    from .runtime.config import configured
    from .runtime.health import check_health

    config = configured()
    if config is None:
        return 2
    healthy, line = check_health(config.health_file)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the output went to a pipe that closed early (e.g. `| head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
