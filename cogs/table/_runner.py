"""Runs the tables in Discord: the table message, private hands by DM, clocks, dealing.

Rules are not decided here: every action goes to ``bot.tables.Table``, which
asks the engine and writes through the store. This module turns the result
into messages, and keeps the clocks and the next deal going.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

import discord

from bot import render
from bot.poker import Dealt, Game, IllegalAction, Legal, get_game
from bot.store import StoreError
from bot.tables import ActionResult, Table, TableError

from ._views import ActionButton, AmountModal, ChoiceSelect, draw_view

if TYPE_CHECKING:
    from bot.app import PokerBot

log = logging.getLogger(__name__)

MAX_LOG_LINES = 6
CLOSED_DMS = 50007


class TableRunner:
    """The Discord side of every table: one per bot."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.clocks: dict[int, asyncio.Task[None]] = {}
        self.deadlines: dict[int, float] = {}
        self.dealing: dict[int, asyncio.Task[None]] = {}
        self.recent: dict[int, list[str]] = {}
        self.dm_warned: set[tuple[int, int]] = set()
        self.generations: dict[int, int] = {}  # table message versions started, per table
        self.shown: dict[int, int] = {}  # the newest version that landed, per table
        self.reshowing: dict[int, asyncio.Task[None]] = {}
        self.posting: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ lifecycle

    async def resume_all(self) -> None:
        """After a start: re-arm the clock of every live hand where it stood (the time since the hand
        last moved counts: a restart gives nobody a fresh clock) and keep dealing at running tables."""
        for table in self.bot.tables.by_channel.values():
            if table.live is not None:
                try:
                    since = await self.bot.store.last_activity(table.live.record.id)
                except StoreError:
                    log.warning("table %s: no time for its hand's last action; a fresh clock", table.id,
                                exc_info=True)
                    since = time.time()
                self.arm_clock(table, elapsed=max(0.0, time.time() - since))
            elif not table.paused:
                self.schedule_deal(table)

    async def stop(self) -> None:
        """Cancel every clock and pending deal (the state is in the store already), and wait for them to
        end, so that none still writes while the bot closes the store."""
        tasks = [*self.clocks.values(), *self.dealing.values(), *self.reshowing.values()]
        for task in tasks:
            task.cancel()
        self.clocks.clear()
        self.dealing.clear()
        self.reshowing.clear()
        current = asyncio.current_task()
        pending = [t for t in tasks if t is not current and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=5)

    # ------------------------------------------------------------------ the table message

    def embed(self, table: Table) -> discord.Embed:
        """The table as everyone sees it: game, stakes, seats, pots, whose turn, last actions."""
        settings = table.settings
        hand = table.hand
        live = table.live
        game: Game | None
        if hand is not None and live is not None:
            game = hand.game
            title = f"{game.name} — hand #{live.record.number}"
            structure = hand.stakes.structure
        else:
            game = None if settings.is_dealers_choice else get_game(settings.game)
            title = "Dealer's choice" if game is None else game.name
            structure = None
        embed = discord.Embed(title=title, description=render.stakes_line(settings, game, structure),
                              colour=discord.Colour.dark_green())
        if hand is not None and live is not None:
            lines = render.seat_lines(hand, live.users)
            lines += [f"{render.mention(s.user_id)} {render.chips(s.stack)} · "
                      + ("sitting out" if s.sitting_out else "leaving" if s.leaving
                         else "no chips" if s.stack == 0 else "dealt in from the next hand")
                      for s in table.record.seats if s.user_id not in live.users]
            embed.add_field(name="Players", value="\n".join(lines), inline=False)
            embed.add_field(name="Pot", value=render.pots_line(hand), inline=True)
            actor = table.actor()
            if actor is not None:
                deadline = self.deadlines.get(table.id)
                clock = f" (clock <t:{int(deadline)}:R>)" if deadline else ""
                what = "to draw" if hand.phase == "drawing" else "to act"
                embed.add_field(name="Turn", value=f"{render.mention(actor)} {what}{clock}", inline=True)
        else:
            seats = table.record.seats
            lines = [f"{render.mention(s.user_id)} {render.chips(s.stack)}"
                     + (" · sitting out" if s.sitting_out else "") for s in seats]
            embed.add_field(name=f"Seats ({len(seats)}/{settings.max_seats})", value="\n".join(lines) or "empty",
                            inline=False)
            chooser = table.chooser()
            if chooser is not None and not table.paused:
                embed.add_field(name="Dealer's choice", value=f"{render.mention(chooser)} picks the next game")
            elif table.paused:
                embed.add_field(name="Waiting", value="The host starts the game with `/poker start`.")
        if table.record.carried_pot and hand is None:
            embed.add_field(name="Carried pot", value=render.chips(table.record.carried_pot), inline=True)
        recent = self.recent.get(table.id)
        if recent:
            embed.add_field(name="Last actions", value="\n".join(recent[-MAX_LOG_LINES:]), inline=False)
        return embed

    def view(self, table: Table) -> discord.ui.View:
        """The buttons for the player to act (or the dealer's choice select)."""
        view = discord.ui.View(timeout=None)
        live = table.live
        legal = table.legal()
        if live is None:
            chooser = table.chooser()
            if chooser is not None and not table.paused:
                number = (table.record.button or 0) * 1000 + len(self.recent.get(table.id, []))
                options = [discord.SelectOption(label=g.name, value=g.id) for g in table.choices()][:25]
                view.add_item(ChoiceSelect(table.id, number, options))
            return view
        t, h, s = table.id, live.record.id, live.seq
        if legal is not None and legal.phase == "betting":
            view.add_item(ActionButton(t, h, s, "fold", "Fold", discord.ButtonStyle.danger, row=0))
            label = "Check" if legal.can_check else f"Call {render.chips(legal.call_amount)}"
            view.add_item(ActionButton(t, h, s, "cc", label, discord.ButtonStyle.success, row=0))
            if legal.can_raise:
                self._raise_buttons(view, table, legal)
        elif legal is not None and legal.phase == "drawing":
            view.add_item(ActionButton(t, h, s, "draw", "Draw", discord.ButtonStyle.primary, row=0))
        view.add_item(ActionButton(t, h, s, "hand", "My hand", discord.ButtonStyle.secondary, row=1))
        return view

    def _raise_buttons(self, view: discord.ui.View, table: Table, legal: Legal) -> None:
        assert table.live is not None
        t, h, s = table.id, table.live.record.id, table.live.seq
        word = "Bet" if legal.is_bet else "Raise to"
        style = discord.ButtonStyle.primary
        view.add_item(ActionButton(t, h, s, "min", f"{word} {render.chips(legal.min_raise_to)}", style, row=0))
        if legal.min_raise_to == legal.max_raise_to:
            return
        if legal.min_raise_to < legal.pot_raise_to < legal.max_raise_to:
            view.add_item(ActionButton(t, h, s, "pot", f"Pot {render.chips(legal.pot_raise_to)}", style, row=0))
        all_in = table.hand is not None and table.hand.stakes.structure == "no-limit"
        label = f"{'All in' if all_in else 'Max'} {render.chips(legal.max_raise_to)}"
        view.add_item(ActionButton(t, h, s, "max", label, style, row=0))
        view.add_item(ActionButton(t, h, s, "amount", "Amount…", discord.ButtonStyle.secondary, row=1))

    async def publish(self, table: Table, interaction: discord.Interaction | None = None) -> None:
        """Show the table: through the interaction's response when it is a click on the table
        message, else by editing the table message (a new one if it was deleted).

        Edits can be in flight at once (a click, a join, the clock): if an older version lands after
        a newer one, the table is shown again, so the message never stays at a past moment."""
        if self.bot.tables.get(table.record.channel_id) is not table:
            return  # closed meanwhile: its message says so
        generation = self.generations[table.id] = self.generations.get(table.id, 0) + 1
        await self._show(table, interaction)
        if self.shown.get(table.id, 0) > generation:
            self._show_again(table)
        else:
            self.shown[table.id] = generation

    async def _show(self, table: Table, interaction: discord.Interaction | None) -> None:
        embed, view = self.embed(table), self.view(table)
        message_id = table.meta.get("message")
        if interaction is not None and not interaction.response.is_done():
            if interaction.message is not None and interaction.message.id == message_id:
                await interaction.response.edit_message(embed=embed, view=view)
                return
            await interaction.response.defer()  # a click on an older copy of the table: the current one is edited
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass
        async with self.posting.setdefault(table.id, asyncio.Lock()):  # one new message, not one per publisher
            current = table.meta.get("message")
            if current not in (None, message_id):  # posted by another publisher meanwhile
                try:
                    await channel.get_partial_message(current).edit(embed=self.embed(table), view=self.view(table))
                    return
                except discord.NotFound:
                    pass
            message = await channel.send(embed=self.embed(table), view=self.view(table))
            table.meta["message"] = message.id
            await table.save_meta()

    def _show_again(self, table: Table) -> None:
        if table.id in self.reshowing:
            return

        async def again() -> None:
            self.reshowing.pop(table.id, None)  # from here on, a newer overwrite schedules another showing
            try:
                await self.publish(table)
            except Exception:
                log.exception("could not show table %s again", table.id)

        self.reshowing[table.id] = asyncio.create_task(again())

    # ------------------------------------------------------------------ clicks

    def _table(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = self.bot.tables.get(interaction.channel_id or 0)
        if table is None or table.id != table_id:
            raise TableError("This table is closed.")
        return table

    def _check_turn(self, table: Table, user: int, hand_id: int, seq: int) -> Legal:
        live = table.live
        if live is None or live.record.id != hand_id:
            raise TableError("That hand is over.")
        if seq != live.seq:
            raise TableError("That button is from an earlier moment of the hand; use the current one.")
        if table.seat_of(user) is None:
            raise TableError("You are not seated at this table.")
        if user not in live.users:
            raise TableError("You are not in this hand.")
        if table.actor() != user:
            raise TableError("It is not your turn.")
        legal = table.legal()
        assert legal is not None
        return legal

    async def on_button(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                        kind: str) -> None:
        """A click on one of the table's buttons."""
        table = self._table(interaction, table_id)
        user = interaction.user.id
        if kind == "hand":
            await interaction.response.send_message(self.hand_text(table, user), ephemeral=True)
            return
        legal = self._check_turn(table, user, hand_id, seq)
        if kind == "draw":
            if legal.phase != "drawing":
                raise TableError("It is not time to draw.")
            text = f"Your hand: {render.cards(legal.hand)}. Pick the cards to throw."
            await interaction.response.send_message(text, view=draw_view(table_id, hand_id, seq, legal),
                                                    ephemeral=True)
            return
        if kind == "amount":
            await interaction.response.send_modal(AmountModal(table_id, hand_id, seq, legal))
            return
        action = {
            "fold": "f", "cc": "cc", "min": f"cbr {legal.min_raise_to}", "pot": f"cbr {legal.pot_raise_to}",
            "max": f"cbr {legal.max_raise_to}",
        }.get(kind)
        if action is None:
            raise TableError("That button is not one of this table's.")
        await self.act(table, user, action, seq, interaction)

    async def on_amount(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                        text: str) -> None:
        """The amount modal: any bet in pot and no limit."""
        table = self._table(interaction, table_id)
        legal = self._check_turn(table, interaction.user.id, hand_id, seq)
        amount = text.strip().replace(",", "").replace("_", "")
        word = "bet" if legal.is_bet else "raise"
        if not amount:
            raise TableError(f"Type how many chips to {word} to, from {render.chips(legal.min_raise_to)} to "
                             f"{render.chips(legal.max_raise_to)}.")
        if not amount.isascii() or not amount.isdigit():
            shown = text.strip()
            shown = shown if len(shown) <= 40 else shown[:40] + "…"
            raise TableError(f"“{shown}” is not an amount: give a whole number of chips, from "
                             f"{render.chips(legal.min_raise_to)} to {render.chips(legal.max_raise_to)}.")
        value = int(amount) if len(amount.lstrip("0")) <= 16 else legal.max_raise_to + 1  # no 10**4000 here
        low, high = legal.min_raise_to, legal.max_raise_to
        if low == high and value != low:
            raise TableError(f"You can only {word} to {render.chips(low)}.")
        if value < low:
            raise TableError(f"The smallest {word} is to {render.chips(low)}.")
        if value > high:
            raise TableError(f"The largest {word} is to {render.chips(high)}.")
        await self.act(table, interaction.user.id, f"cbr {value}", seq, interaction)

    async def on_draw_pick(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                           codes: list[str]) -> None:
        """The draw view's select: show the cards picked; Discard now carries them."""
        table = self._table(interaction, table_id)
        legal = self._check_turn(table, interaction.user.id, hand_id, seq)
        held = {c.code: c for c in legal.hand}
        if any(code not in held for code in codes):
            raise TableError("Those are not your cards now; press Draw again.")
        chosen = [held[code] for code in codes]
        shown = render.cards(chosen) or "nothing"
        await interaction.response.edit_message(content=f"Throwing: {shown}. Now press Discard (or Stand pat).",
                                                view=draw_view(table_id, hand_id, seq, legal, chosen))

    async def on_draw_button(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                             kind: str, cards: str) -> None:
        """The draw view's Discard, Stand pat, or Discard with twos face up."""
        if kind == "pat":
            action = "sd"
        elif not cards:
            await interaction.response.send_message("Pick the cards to throw first, or press Stand pat.",
                                                    ephemeral=True)
            return
        else:
            action = f"{kind} {cards}"
        await self.on_draw(interaction, table_id, hand_id, seq, action)

    async def on_draw(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                      action: str) -> None:
        """The draw view's decision."""
        table = self._table(interaction, table_id)
        user = interaction.user.id
        self._check_turn(table, user, hand_id, seq)
        result = await table.act(user, action, seq)
        seat = table.engine_seat(user)
        hand = table.hand
        new = [e for e in result.events if isinstance(e, Dealt)]
        if hand is not None and seat is not None:
            got = f"You drew {render.cards(new[0].cards)}. " if new else "You stand pat. "
            await interaction.response.edit_message(content=got + "Now: " + render.private_hand(hand, seat),
                                                    view=None)
        else:
            await interaction.response.edit_message(content="Done.", view=None)
        if new and hand is not None and seat is not None:
            await self.send_private_hand(table, user, seat)
        await self.after_action(table, result, None)

    async def on_choice(self, interaction: discord.Interaction, table_id: int, number: int, game: str) -> None:
        """Dealer's choice: the chooser picked a game."""
        table = self._table(interaction, table_id)
        await table.choose_game(interaction.user.id, game)
        self.cancel_clock(table)
        self.note(table, f"{render.mention(interaction.user.id)} chose {get_game(game).name}")
        await self.hand_started(table, interaction)

    async def act(self, table: Table, user: int, action: str, seq: int,
                  interaction: discord.Interaction | None) -> None:
        """Apply a player's action, then show the table."""
        result = await table.act(user, action, seq)
        await self.after_action(table, result, interaction)

    async def after_action(self, table: Table, result: ActionResult,
                           interaction: discord.Interaction | None) -> None:
        """Log the action, show the table, and either re-arm the clock or finish the hand."""
        hand = table.hand or table.last_hand
        users = table.live.users if table.live is not None else table.last_users
        if hand is not None:
            for event in result.events:
                line = render.event_line(event, users, hand)
                if line:
                    self.note(table, line)
        if result.hand_over:
            self.cancel_clock(table)
            await self.publish(table, interaction)
            await self.post_showdown(table)
            self.schedule_deal(table)
        else:
            self.arm_clock(table)
            await self.publish(table, interaction)

    async def post_showdown(self, table: Table) -> None:
        """Post the end of the hand: hands shown, pots won, carried chips."""
        hand = table.last_hand
        if hand is None:
            return
        text = render.showdown(hand, table.last_users)
        if text:
            channel = self.bot.get_partial_messageable(table.record.channel_id)
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())

    def note(self, table: Table, line: str) -> None:
        """Add a line to the table's recent actions."""
        lines = self.recent.setdefault(table.id, [])
        lines.append(line)
        del lines[:-MAX_LOG_LINES]

    # ------------------------------------------------------------------ dealing

    def schedule_deal(self, table: Table, delay: float | None = None) -> None:
        """Deal the next hand (or ask for the dealer's choice) after a pause."""
        if table.paused:
            return
        old = self.dealing.pop(table.id, None)
        if old is not None:
            old.cancel()
        wait = self.bot.next_hand_delay if delay is None else delay
        self.dealing[table.id] = asyncio.create_task(self._deal_later(table, wait))

    async def _deal_later(self, table: Table, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            await self.deal(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not deal at table %s", table.id)

    async def deal(self, table: Table) -> None:
        """Start the next hand, or ask the button for the dealer's choice."""
        if table.live is not None or table.paused or self.bot.tables.get(table.record.channel_id) is not table:
            return
        if len(table.dealt_in()) < 2:
            self.note(table, "Waiting for at least two players with chips.")
            await self.publish(table)
            return
        if table.chooser() is not None:
            await self.publish(table)
            self.arm_choice_clock(table)
            return
        await table.start_hand()
        await self.hand_started(table, None)

    async def hand_started(self, table: Table, interaction: discord.Interaction | None) -> None:
        """A new hand: private hands by DM, the table message, the clock."""
        live = table.live
        if live is None:
            return
        self.note(table, f"Hand #{live.record.number}: {live.hand.game.name}")
        self.arm_clock(table)
        await self.publish(table, interaction)
        for seat, user in enumerate(live.users):
            await self.send_private_hand(table, user, seat)

    def hand_text(self, table: Table, user: int) -> str:
        """A player's own cards (ephemeral), or why there are none."""
        seat = table.engine_seat(user)
        if table.hand is None or seat is None:
            return "You have no cards: you are not in the hand being played."
        if table.hand.folded[seat]:
            return "You folded this hand."
        return render.private_hand(table.hand, seat)

    async def send_private_hand(self, table: Table, user: int, seat: int) -> None:
        """DM a player his cards; if his DMs are closed, say once in the channel to use "My hand"."""
        hand = table.hand
        if hand is None:
            return
        text = f"Table <#{table.record.channel_id}>, {hand.game.name}: {render.private_hand(hand, seat)}"
        try:
            channel = await self.bot.create_dm(discord.Object(user))
            await channel.send(text)
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and (table.id, user) not in self.dm_warned:
                self.dm_warned.add((table.id, user))
                channel = self.bot.get_partial_messageable(table.record.channel_id)
                await channel.send(f"{render.mention(user)}, I cannot DM you your cards: press **My hand** "
                                   "to see them (only you will).")
        except discord.HTTPException:
            log.warning("could not DM user %s", user, exc_info=True)

    # ------------------------------------------------------------------ clocks

    def arm_clock(self, table: Table, elapsed: float = 0.0) -> None:
        """Start the clock of the player to act (RULES.md section 5), ``elapsed`` seconds of it already gone."""
        self.cancel_clock(table)
        if table.live is None or table.actor() is None:
            return
        seconds = max(0.0, table.settings.clock - elapsed)
        self.deadlines[table.id] = time.time() + seconds
        self.clocks[table.id] = asyncio.create_task(self._expire(table, table.next_seq(), seconds))

    def arm_choice_clock(self, table: Table) -> None:
        """Dealer's choice: deal the previous game if the chooser does not pick in time."""
        self.cancel_clock(table)
        seconds = table.settings.clock
        self.deadlines[table.id] = time.time() + seconds
        self.clocks[table.id] = asyncio.create_task(self._choice_expires(table, seconds))

    def cancel_clock(self, table: Table) -> None:
        """Stop the table's clock."""
        task = self.clocks.pop(table.id, None)
        self.deadlines.pop(table.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire(self, table: Table, seq: int, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            actor = table.actor()
            result = await table.timeout(seq)
            if result is None:
                return
            if actor is not None:
                self.note(table, f"{render.mention(actor)} ran out of time")
            await self.after_action(table, result, None)
        except asyncio.CancelledError:
            raise
        except (TableError, IllegalAction):
            return
        except Exception:
            log.exception("clock failed at table %s", table.id)

    async def _choice_expires(self, table: Table, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            if table.live is not None or table.chooser() is None:
                return
            await table.choice_timed_out()
            self.note(table, "No choice in time: the previous game is dealt again")
            await self.hand_started(table, None)
        except asyncio.CancelledError:
            raise
        except (TableError, IllegalAction):  # the chooser picked at the last moment: his game is dealt
            return
        except Exception:
            log.exception("dealer's choice clock failed at table %s", table.id)

    async def close(self, table: Table) -> None:
        """Forget a closed table's clocks and tasks."""
        self.cancel_clock(table)
        for tasks in (self.dealing, self.reshowing):
            task = tasks.pop(table.id, None)
            if task is not None:
                task.cancel()
        with contextlib.suppress(KeyError):
            del self.recent[table.id]

    async def retire_message(self, table: Table, message_id: int) -> None:
        """An older table message (after ``/poker table`` posted a new one): its buttons go, a link stays."""
        new_id = table.meta.get("message")
        link = f"https://discord.com/channels/{table.record.guild_id}/{table.record.channel_id}/{new_id}"
        embed = discord.Embed(title="The table moved", description=f"It is now [this message]({link}).",
                              colour=discord.Colour.dark_grey())
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(embed=embed, view=None)
        except discord.HTTPException:
            log.info("could not retire the old table message %s", message_id, exc_info=True)

    async def show_closed(self, table: Table) -> None:
        """The table message of a closed table: no buttons left to click."""
        message_id = table.meta.get("message")
        if message_id is None:
            return
        embed = discord.Embed(title="Table closed", description="Everyone was cashed out. `/poker create` opens "
                              "a new table.", colour=discord.Colour.dark_grey())
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(embed=embed, view=None)
        except discord.HTTPException:
            log.warning("could not mark the table message %s closed", message_id, exc_info=True)
