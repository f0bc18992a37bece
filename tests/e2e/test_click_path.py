"""The path of one click, counted (docs/architecture.md, "The path of one click"): a player's Call, from the
interaction reaching the bot to the move stored and the click answered with the table.

Recorded with ``sys.setprofile`` while the click is handled:

* **the path**: the files of the bot's own code on the call stack when the move is stored (the store's
  ``append_action``) and when the click is answered (the transport sends the interaction callback): what a newcomer
  follows, frame by frame, to see what a click does. Issue 31: under 12 files of the Discord side.
* **everything run**: every function of ``bot/`` and ``cogs/`` that ran meanwhile (the table message rendered, the
  clock started, the private messages kept), printed for the docs (``pytest -s``).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import cogs.reply

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = (ROOT / "bot", ROOT / "cogs")
STORED, ANSWERED = "TablesMixin.append_action", "_wrap_webhook.<locals>.webhook_request"
DISCORD_SIDE_FILES = 12  # issue 31: a click's path crosses fewer files than this of the Discord side


def _product(frame: FrameType) -> str | None:
    path = Path(frame.f_code.co_filename)
    return str(path.relative_to(ROOT)) if any(path.is_relative_to(base) for base in PRODUCT) else None


class Recorder:
    """Every product function called, and the product files on the stack at the two moments of the path."""

    def __init__(self) -> None:
        self.ran: dict[str, set[str]] = defaultdict(set)
        self.stacks: dict[str, list[str]] = {}

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or (name := _product(frame)) is None:
            return
        qualname = frame.f_code.co_qualname
        self.ran[name].add(qualname)
        if qualname in (STORED, ANSWERED) and qualname not in self.stacks:
            stack: list[str] = []
            caller: FrameType | None = frame
            while caller is not None:
                if (file := _product(caller)) is not None:
                    stack.append(f"{file}: {caller.f_code.co_qualname}")
                caller = caller.f_back
            self.stacks[qualname] = stack[::-1]


def _files(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(line.split(":")[0] for line in lines))


async def test_a_call_crosses_few_files_of_the_discord_side(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob", "carol"))
    turn = await players.turn(1)
    recorder = Recorder()
    sys.setprofile(recorder)
    try:
        answer = await players.act("cc", turn=turn)
        after = await players.turn(1)  # the table message shows the next turn
    finally:
        sys.setprofile(None)
    assert after.seq == turn.seq + 1 and answer.response_type == 7  # answered with the table, an update
    assert set(recorder.stacks) == {STORED, ANSWERED}, recorder.stacks  # both moments were seen
    path = [*recorder.stacks[STORED], *recorder.stacks[ANSWERED]]
    files = _files(path)
    discord_side = [f for f in files if f.startswith("cogs/")]
    ran = recorder.ran
    print(f"\nthe path: {len(files)} files ({len(discord_side)} of the Discord side), "
          f"{len(dict.fromkeys(path))} functions")
    for moment in (STORED, ANSWERED):
        print(f"  to {moment}:")
        for line in recorder.stacks[moment]:
            print(f"    {line}")
    print(f"everything run: {len(ran)} files, {sum(len(names) for names in ran.values())} functions, of which the "
          f"Discord side {sum(f.startswith('cogs/') for f in ran)} files")
    for name in sorted(ran):
        print(f"  {name}: {', '.join(sorted(ran[name]))}")
    assert "cogs/table/_play.py" in files and "bot/tables/table.py" in files  # the move's way, recorded
    assert len(discord_side) < DISCORD_SIDE_FILES, discord_side


async def test_a_handled_interaction_is_not_kept(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Each interaction's ``Reply`` holds it while it is answered and is let go after (the bot's memory stays flat:
    a reply kept per click held the interaction's whole payload)."""
    await poker_bot(seed=6)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob", "carol"))
    before = set(cogs.reply._REPLIES)
    for _ in range(2):  # the first betting round, to the draw
        turn = await players.turn(1)
        await players.act("cc", turn=turn)
    await fake.reply_to(await fake.slash("alice", "poker", subcommand="hand"))

    def none_kept() -> bool | None:  # the last answers' handling ends just after they reach Discord
        return True if not set(cogs.reply._REPLIES) - before else None

    await fake.wait_for(none_kept, 5, what="every handled interaction let go")
