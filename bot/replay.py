"""``python -m bot replay FILE``: replay a PHH hand history through the engine and print its result.

Outside the engine because it reads a file and prints; the engine's
``bot.poker.phh`` parses and replays.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .poker.phh import PHHError, parse_phh, replay


def replay_command(path: str) -> int:
    """``python -m bot replay FILE``: print ``{"finishing_stacks": [...], "carried": N}``.

    Exit status 0 when the replay matches the file's ``finishing_stacks`` (or
    the file has none), 1 when they differ, 2 when the file cannot be read or
    replayed (the reason goes to stderr).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        print(f"{path}: no such file", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: cannot read the file: {error}", file=sys.stderr)
        return 2
    try:
        doc = parse_phh(text)
        hand = replay(doc)
    except PHHError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    if not hand.is_complete:
        who = f"p{hand.actor + 1} is to act" if hand.actor is not None else "nobody is to act"
        print(f"{path}: the history ends before the hand is over ({who}, phase {hand.phase})", file=sys.stderr)
        return 2
    print(json.dumps({"finishing_stacks": hand.stacks, "carried": hand.carried_out}))
    if doc.finishing_stacks is not None and list(doc.finishing_stacks) != hand.stacks:
        print(
            f"{path}: the file's finishing_stacks are {list(doc.finishing_stacks)}, "
            f"the replay ends with {hand.stacks}",
            file=sys.stderr,
        )
        return 1
    return 0
