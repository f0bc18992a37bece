"""The table extension: /poker commands, the table message, buttons and clocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import TableCog
from ._runner import TableRunner
from ._views import ActionButton, ChoiceSelect, StructureSelect

if TYPE_CHECKING:
    from bot.app import PokerBot


async def setup(bot: PokerBot) -> None:
    """Load the extension: the runner, the persistent components, the cog; resume the clocks."""
    runner = TableRunner(bot)
    bot.table_runner = runner  # type: ignore[attr-defined]
    bot.add_dynamic_items(ActionButton, ChoiceSelect, StructureSelect)
    await bot.add_cog(TableCog(bot, runner))
    await runner.resume_all()


async def teardown(bot: PokerBot) -> None:
    """Unload: stop every clock (the state is already in the store)."""
    runner: TableRunner | None = getattr(bot, "table_runner", None)
    if runner is not None:
        await runner.stop()
    bot.remove_dynamic_items(ActionButton, ChoiceSelect, StructureSelect)
