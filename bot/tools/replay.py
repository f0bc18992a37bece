"""``python -m bot replay FILE``: replay a PHH hand history (or a ``.phhs`` night) through the engine and print
its result.

Outside the engine because it reads a file and prints; the engine's
``bot.poker.phh`` parses and replays, ``bot.night.phhs`` reads a night's hands.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path

from ..night.phhs import read_phhs
from ..poker.phh import PHHError, parse_phh, phh_document, replay

OK, DIFFERENT, UNREADABLE = 0, 1, 2


def replay_command(path: str) -> int:
    """``python -m bot replay FILE``: print ``{"finishing_stacks": [...], "carried": N}``.

    Exit status 0 when the replay matches the file's ``finishing_stacks`` (or
    the file has none), 1 when they differ, 2 when the file cannot be read or
    replayed (the reason goes to stderr).

    A ``.phhs`` file (a whole night) is replayed hand by hand: one JSON line
    per hand, with its key in the file (``{"hand": "1", ...}``). A hand that
    cannot be replayed is named on stderr and the others are still replayed;
    the exit status is the worst of its hands' (2 above 1 above 0).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        print(f"{path}: no such file", file=sys.stderr)
        return UNREADABLE
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: cannot read the file: {error}", file=sys.stderr)
        return UNREADABLE
    if not path.lower().endswith(".phhs"):
        return _replay_one(text, path, None)
    try:
        hands = read_phhs(text)
    except PHHError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return UNREADABLE
    if not hands:
        print(f"{path}: the file holds no hand", file=sys.stderr)
        return UNREADABLE
    return max(_replay_one(fields, f"{path}, hand {key}", key) for key, fields in hands.items())


def _replay_one(text_or_fields: str | Mapping[str, object], where: str, key: str | None) -> int:
    try:
        doc = parse_phh(text_or_fields) if isinstance(text_or_fields, str) else phh_document(text_or_fields)
        hand = replay(doc)
    except PHHError as error:
        print(f"{where}: {error}", file=sys.stderr)
        return UNREADABLE
    if not hand.is_complete:
        who = f"p{hand.actor + 1} is to act" if hand.actor is not None else "nobody is to act"
        print(f"{where}: the history ends before the hand is over ({who}, phase {hand.phase})", file=sys.stderr)
        return UNREADABLE
    result = {"finishing_stacks": hand.stacks, "carried": hand.carried_out}
    print(json.dumps(result if key is None else {"hand": key, **result}))
    if doc.finishing_stacks is not None and list(doc.finishing_stacks) != hand.stacks:
        print(
            f"{where}: the file's finishing_stacks are {list(doc.finishing_stacks)}, "
            f"the replay ends with {hand.stacks}",
            file=sys.stderr,
        )
        return DIFFERENT
    return OK
