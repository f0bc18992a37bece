"""The one way the bot makes a message's components: a view of dynamic items that discord.py does not keep."""

from __future__ import annotations

import discord

__all__ = ["dynamic_view"]


def dynamic_view() -> discord.ui.View:
    """An empty view for a message whose components are all dynamic items (and links). discord.py dispatches a
    dynamic item by its custom_id, whatever message it is on, so it need not keep the view. The view is stopped
    before it is sent, so sending it stores nothing. Otherwise every ephemeral view (a draw picker, a menu, a
    question) gets a 15-minute timeout task holding it and its items: about 3,000 of them alive at 10 busy
    tables, most of the memory the bot grew by during play."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view
