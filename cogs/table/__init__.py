"""The table extension: /poker commands, the table message, buttons and clocks.

- ``_cog``: the commands and the components' handlers; one ``TableSession`` per open table.
- ``_commands``: the moves by slash command (fold, call, bet, draw...), through the buttons' path.
- ``_session``: one table in Discord (its clock, next deal, recent lines, message writer).
- ``_screen``: the table message as a pure function of the table's state.
- ``_writer``: the message writer (one write at a time, coalesced, under the channel's rate limit).
- ``_answers``: every interaction answered once and in time.
- ``_dms``: private hands by DM.
- ``_views``: the persistent buttons, selects and forms.
- ``_transport``, ``_ratelimit``: Discord's failures and rate limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import TableCog

if TYPE_CHECKING:
    from bot.app import PokerBot


async def setup(bot: PokerBot) -> None:
    """Load the extension: the cog registers the persistent components and resumes every table."""
    await bot.add_cog(TableCog(bot))
