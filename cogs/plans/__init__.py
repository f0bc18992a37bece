"""The planned-nights extension: /poker night (plan, timezone, list, cancel), the sign-up message's buttons, and
each night's course (reminders, the table opened on time, the Discord event).

- ``_cog``: the commands and the buttons' handler; every night followed again when the bot starts.
- ``_runner``: one task per planned night: its reminders, its start, its end when the table closes.
- ``_message``: what a night shows (the sign-up message, the reminder, the start's mention, the list).
- ``_events``: the night's Discord scheduled event and its Interested members.
- ``_table``: the night's table, opened through the table extension, its seats held for those who signed up.
(``cogs.plan_clock``: the time the nights run on; tests move their own.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import PlansCog

if TYPE_CHECKING:
    from cogs.app import PokerBot


async def setup(bot: PokerBot) -> None:
    """Load the extension (after ``cogs.table``, whose /poker it joins)."""
    await bot.add_cog(PlansCog(bot))
