"""The table extension: /poker commands, the table message, buttons and clocks.

- ``_cog``: the wiring (the /poker group by concern, the components, the listeners).
- ``_table_commands``, ``_move_commands``, ``_night_commands``, ``_tournament``: the commands, by concern.
- ``_turn``, ``_seats``, ``_choice``, ``_draw``: the components, each action declared once (its button, what a
  click does, its command's move); ``_forms``: the forms as they come back.
- ``_play``: the one path of a move, from a click or a command to ``Table.act``.
- ``_runners``: every table's Discord side; ``_runner``: one table's, made of ``_presenter`` (what its message
  shows), ``_own_cards`` (what each player sees of his cards), ``_dealer`` (what happens and when: a change shown,
  the next deal, the clock's start and end) and ``_clock`` (the turn's clock).
- ``_screen``, ``_controls``: the table message (its embed, its components) as pure functions of the table.
- ``_text``: the words of the table; ``_writer``: the message writer (one write at a time, coalesced, under the
  channel's rate limit); ``_dms``: private hands by DM (every interaction is answered once and in time by its
  ``cogs.reply.Reply``);
  ``_alerts``: turn alerts; ``_ratelimit``: the channel's rate limit (Discord's failures: ``cogs.transport``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import TableCog

if TYPE_CHECKING:
    from cogs.app import PokerBot


async def setup(bot: PokerBot) -> None:
    """Load the extension: the cog registers the commands and the persistent components and resumes every table."""
    await bot.add_cog(TableCog(bot))
