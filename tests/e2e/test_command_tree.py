"""The slash commands the bot syncs, as Discord receives them (names, options, descriptions, choices), are those of
``tests/data/command_tree.json``: a change of the code behind them (issue 31's refactors) leaves them as they were,
and a change of a command is seen in the diff of that file, on purpose.

After a deliberate change: ``UPDATE_COMMAND_TREE=1 .venv/bin/pytest tests/e2e/test_command_tree.py`` writes the
file again (the test then fails once, saying so); read its diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord

SNAPSHOT = Path(__file__).resolve().parents[1] / "data" / "command_tree.json"


async def test_the_synced_commands_are_the_ones_written_down(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    bot = await poker_bot(seed=1)
    tree = [command.to_dict(bot.tree) for command in sorted(bot.tree.get_commands(), key=lambda c: c.name)]
    text = json.dumps(tree, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_COMMAND_TREE"):
        SNAPSHOT.write_text(text)
        raise AssertionError(f"{SNAPSHOT} written again: read its diff, then run the test without UPDATE_COMMAND_TREE")
    assert SNAPSHOT.read_text() == text, "the synced commands changed: see the module's docstring"
    names = {command["name"] for command in tree}
    assert names == {"poker", "chips"}
