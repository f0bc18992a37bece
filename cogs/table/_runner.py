"""Runs the tables in Discord: the table message, private hands by DM, clocks, dealing.

Rules are not decided here: every action goes to ``bot.tables.Table``, which
asks the engine and writes through the store. This module turns the result
into messages, and keeps the clocks and the next deal going.

The table message has one writer per table (``_Publisher``): one write at a
time, always of the newest state, so a busy table coalesces its edits (states
asked for while a write is in flight are skipped, the last one is shown) and
stays under Discord's per-channel rate limit instead of queueing behind it. A
click on the table message is answered with the table itself (an interaction
update, which costs no channel edit) unless a write is in flight; then it is
acknowledged at once and the writer shows its result. Nothing needs an
interaction token after the answer: later states are channel edits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import aiohttp
import discord

from bot import render
from bot.poker import Dealt, Game, Hand, IllegalAction, Legal, format_cards, get_game
from bot.store import StoreError
from bot.tables import ActionResult, Table, TableError

from ..errors import ignore_unknown_commands, running_callbacks
from ._views import DEFAULT_STRUCTURE, ActionButton, ChoiceSelect, StructureSelect, amount_modal, draw_modal

if TYPE_CHECKING:
    from bot.app import PokerBot

log = logging.getLogger(__name__)

MAX_LOG_LINES = 6
CLOSED_DMS = 50007
DMS_CLOSED = "dms_closed"  # the table's meta: players whose DMs were found closed
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
ACK_WITHIN = 1.5  # seconds after a click arrives by which it is acknowledged if its answer is not ready (Discord: 3)
CLICK_GRACE = 0.4  # seconds a click on the table message waits for a write in flight before it is just acknowledged
RATE_RESERVE = 1  # requests of the channel's rate limit the table message leaves for other posts (showdowns)
RETRY_PAUSES = (0.5, 1.0, 2.0)  # waits before a write that Discord failed (5xx) is tried again
NEEDED_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages", "embed_links": "Embed Links"}

T = TypeVar("T")


class CannotPost(TableError):
    """The bot may not post or edit the table message in the table's channel; the message says what to grant."""


@dataclass(eq=False)
class _Publisher:
    """The table message of one table: versions asked for and written, at most one write in flight."""

    wanted: int = 0  # versions asked for (each publish asks for one)
    written: int = 0  # every version up to this one is shown (a write renders the table as it is when it starts)
    busy: bool = False  # a write (channel edit or post, or an interaction's update) is in flight
    claims: int = 0  # clicks waiting to answer with the table: the writer lets them go first
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)
    closed: bool = False
    writes: int = 0  # channel writes of the table message (edits and posts)
    updates: int = 0  # clicks answered with the table

    def __post_init__(self) -> None:
        self.idle.set()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        if busy:
            self.idle.clear()
        else:
            self.idle.set()

    def settle(self, error: BaseException | None = None) -> None:
        """Release the publishers waiting for a version now shown (all of them, with ``error``, on a failure)."""
        keep = []
        for version, future in self.waiters:
            if future.done():
                continue
            if error is not None:
                future.set_exception(error)
            elif version <= self.written or self.closed:
                future.set_result(None)
            else:
                keep.append((version, future))
        self.waiters = keep


class TableRunner:
    """The Discord side of every table: one per bot."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.clocks: dict[int, asyncio.Task[None]] = {}
        self.deadlines: dict[int, float] = {}
        self.dealing: dict[int, asyncio.Task[None]] = {}
        self.recent: dict[int, list[str]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> his DM channel's id
        self.pending_structure: dict[int, str] = {}  # table id -> the structure its chooser picked for the deal
        self._claimed: set[int] = set()  # interactions being answered (see answering())
        self._guards: dict[int, asyncio.Task[None]] = {}  # the deadline guards' acknowledgements under way
        self.publishers: dict[int, _Publisher] = {}
        self.last_write: dict[int, float] = {}  # when the table message of a channel was last written (loop time)
        self.stopped = False  # the bot is closing: no new clock, deal or write starts
        if ignore_unknown_commands not in bot.extra_events.get("on_command_error", []):
            bot.add_listener(ignore_unknown_commands, "on_command_error")  # "@bot hello" is not an error

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
            self.refresh(table)  # a crash may have come between an action and its edit: show the stored state

    async def stop(self) -> None:
        """Cancel every clock, pending deal and table message write (the state is in the store already), and
        wait for them to end, so that none still writes while the bot closes the store."""
        self.stopped = True
        writers = [p.task for p in self.publishers.values() if p.task is not None]
        tasks = [*self.clocks.values(), *self.dealing.values(), *writers]
        for publisher in self.publishers.values():
            publisher.closed = True
        for task in tasks:
            task.cancel()
        self.clocks.clear()
        self.dealing.clear()
        for publisher in self.publishers.values():
            publisher.settle()
        current = asyncio.current_task()
        pending = [t for t in tasks if t is not current and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=5)
        clicks = [t for t in running_callbacks() if t is not current]
        if clicks:  # a click under way finishes (its action is stored already; its answer goes out)
            await asyncio.wait(clicks, timeout=3)

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
                what = "the next game"
                if settings.dealer_picks_structure:
                    pending = self.pending_structure.get(table.id)
                    what += f" (structure: {render.STRUCTURE_NAMES[pending]})" if pending else " and its structure"
                embed.add_field(name="Dealer's choice", value=f"{render.mention(chooser)} picks {what}")
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
                if table.settings.dealer_picks_structure:
                    pending = self.pending_structure.get(table.id)
                    kinds = [(DEFAULT_STRUCTURE, "Each game's own structure"), *render.STRUCTURE_NAMES.items()]
                    view.add_item(StructureSelect(table.id, number, [
                        discord.SelectOption(label=name, value=value, default=value == (pending or DEFAULT_STRUCTURE))
                        for value, name in kinds]))
            return view
        t, h, s = table.id, live.record.id, live.seq
        if legal is not None and legal.phase == "betting":
            view.add_item(ActionButton(t, h, s, "fold", "Fold", discord.ButtonStyle.danger, row=0))
            label = "Check" if legal.can_check else f"Call {render.chips(legal.call_amount)}"
            view.add_item(ActionButton(t, h, s, "cc", label, discord.ButtonStyle.success, row=0))
            if legal.can_raise:
                self._raise_buttons(view, table, legal)
        elif legal is not None and legal.phase == "drawing":
            view.add_item(ActionButton(t, h, s, "draw", "Draw…", discord.ButtonStyle.primary, row=0))
            view.add_item(ActionButton(t, h, s, "pat", "Stand pat", discord.ButtonStyle.secondary, row=0))
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

    def publisher(self, table: Table) -> _Publisher:
        """The writer of the table's message."""
        publisher = self.publishers.get(table.id)
        if publisher is None:
            publisher = self.publishers[table.id] = _Publisher()
        return publisher

    async def publish(self, table: Table, interaction: discord.Interaction | None = None) -> None:
        """Show the table as it is now, and return once it is shown (or coalesced into a write in flight).

        ``interaction``, a click or modal on the table, is answered: with the table itself when no write is in
        flight (or one lands within ``CLICK_GRACE``), else acknowledged at once (the writer shows the table).
        Raises ``CannotPost`` when the bot may not post in the channel (whoever asked is told what to grant).
        """
        if self.bot.tables.get(table.record.channel_id) is not table:
            return  # closed meanwhile: its message says so
        publisher = self.publisher(table)
        if publisher.closed:
            return
        publisher.wanted += 1
        version = publisher.wanted
        if interaction is not None and self.claim(interaction):
            if await self._answer_with_table(table, publisher, interaction):
                self._kick(table, publisher)
                return
            try:
                await interaction.response.defer()  # acknowledged now; the writer edits the table message
            except discord.HTTPException:
                log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)
        if publisher.written >= version:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        publisher.waiters.append((version, future))
        self._kick(table, publisher)
        await future

    def refresh(self, table: Table) -> None:
        """Show the table again in the background (after a restart)."""
        if self.bot.tables.get(table.record.channel_id) is not table:
            return
        publisher = self.publisher(table)
        publisher.wanted += 1
        self._kick(table, publisher)

    async def _answer_with_table(self, table: Table, publisher: _Publisher, interaction: discord.Interaction) -> bool:
        """Answer a click on the table message with the table (an interaction update): True if answered."""
        message = interaction.message
        if message is None or message.id != table.meta.get("message"):
            return False  # a click on an older copy: the current message is edited instead
        if publisher.busy:
            publisher.claims += 1
            try:
                await asyncio.wait_for(publisher.idle.wait(), CLICK_GRACE)
            except TimeoutError:
                return False
            finally:
                publisher.claims -= 1
            if publisher.busy or message.id != table.meta.get("message"):
                return False
        upto = publisher.wanted
        publisher.set_busy(True)
        try:
            await interaction.response.edit_message(embed=self.embed(table), view=self.view(table))
        except discord.HTTPException:
            log.warning("could not answer interaction %s with the table; the message is edited instead",
                        interaction.id, exc_info=True)
            return False
        finally:
            publisher.set_busy(False)
        publisher.updates += 1
        publisher.written = max(publisher.written, upto)
        publisher.settle()
        return True

    def _kick(self, table: Table, publisher: _Publisher) -> None:
        """Start the writer if a version is still to be shown and nothing is being written."""
        if publisher.task is None and not publisher.busy and not publisher.closed and not self.stopped \
                and publisher.written < publisher.wanted:
            publisher.task = asyncio.create_task(self._write_loop(table, publisher))

    async def _write_loop(self, table: Table, publisher: _Publisher) -> None:
        """Write the newest state until every version asked for is shown; the versions asked for while a write
        is in flight are coalesced into the next write."""
        try:
            await asyncio.sleep(0)  # the publishes of this same moment join this write
            while publisher.written < publisher.wanted and not publisher.busy and not publisher.claims:
                if self.bot.tables.get(table.record.channel_id) is not table:
                    publisher.closed = True
                    break
                pause = self.rate_limit_pause(table.record.channel_id)
                if pause > 0:  # not busy meanwhile: a click is answered with the table, and may make this needless
                    await asyncio.sleep(pause)
                    continue
                upto = publisher.wanted
                publisher.set_busy(True)
                self.last_write[table.record.channel_id] = asyncio.get_running_loop().time()
                try:
                    await self._write_table(table)
                except CannotPost as error:
                    publisher.written = upto
                    publisher.settle(error)
                    continue
                except Exception:
                    log.warning("could not show table %s; the next change tries again", table.id, exc_info=True)
                finally:
                    publisher.set_busy(False)
                publisher.written = max(publisher.written, upto)
                publisher.settle()
        finally:
            publisher.task = None
            publisher.settle()
            if publisher.claims == 0 and not publisher.closed:
                self._kick_later(table, publisher)

    def rate_limit_pause(self, channel_id: int) -> float:
        """Seconds to wait before editing a message of the channel, so that the edits stay under the channel's
        rate limit (as Discord's last answer announced it, kept by discord.py) with ``RATE_RESERVE`` requests to
        spare, instead of queueing behind it in discord.py: the requests left in the window are spread over the
        time left in it (a busy table is shown every second or so, not four times at once and then not for
        five seconds). 0 when there is room, or nothing is known."""
        route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                                   message_id=0)
        hashes = getattr(self.bot.http, "_bucket_hashes", None)
        buckets = getattr(self.bot.http, "_buckets", None)
        if not isinstance(hashes, dict) or not isinstance(buckets, dict):
            return 0.0
        bucket_hash = hashes.get(route.key)
        ratelimit = buckets.get(f"{bucket_hash or route.key}:{route.major_parameters}")
        if ratelimit is None or not getattr(ratelimit, "dirty", False):
            return 0.0  # no answer with rate limit headers yet
        now = asyncio.get_running_loop().time()
        expires, limit, remaining = ratelimit.expires, int(ratelimit.limit), int(ratelimit.remaining)
        left = (expires - now) if expires is not None else 0.0
        if left <= 0:
            return 0.0  # the window is over: a full one starts
        usable = remaining - (RATE_RESERVE if limit > RATE_RESERVE + 1 else 0)
        if usable <= 0:
            return float(left)
        last = self.last_write.get(channel_id)
        return 0.0 if last is None else max(0.0, left / usable - (now - last))

    def _kick_later(self, table: Table, publisher: _Publisher) -> None:
        """When the writer stopped with a version still to show (it let a click go first, and the click did not
        answer with the table after all): start it again."""
        if publisher.written < publisher.wanted and not publisher.busy:
            loop = asyncio.get_running_loop()
            loop.call_soon(self._kick, table, publisher)

    async def _write_table(self, table: Table) -> None:
        """Edit the table message (post a new one if it is gone), retrying what Discord failed (5xx)."""
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        publisher = self.publisher(table)

        async def write() -> None:
            embed, view = self.embed(table), self.view(table)
            message_id = table.meta.get("message")
            if message_id is not None:
                try:
                    publisher.writes += 1
                    await channel.get_partial_message(message_id).edit(embed=embed, view=view)
                    return
                except discord.NotFound:  # deleted by someone: the table is posted again
                    if table.meta.get("message") == message_id:
                        table.meta.pop("message", None)
            publisher.writes += 1
            message = await channel.send(embed=embed, view=view)
            table.meta["message"] = message.id
            await table.save_meta()

        try:
            await self._retrying(write)
        except discord.Forbidden as error:
            if error.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
                raise CannotPost(self.permission_text(table.record.channel_id)) from None
            raise

    def permission_text(self, channel_id: int) -> str:
        """What to grant the bot so that it can show a table in the channel."""
        missing = list(NEEDED_PERMISSIONS.values())
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel) and channel.guild.me is not None:
            perms = channel.permissions_for(channel.guild.me)
            lacking = [label for name, label in NEEDED_PERMISSIONS.items() if not getattr(perms, name)]
            missing = lacking or missing
        names = ", ".join(f"**{m}**" for m in missing[:-1]) + (" and " if len(missing) > 1 else "") + \
            f"**{missing[-1]}**"
        return (f"I cannot post the table in <#{channel_id}>: please grant me {names} in that channel "
                "(Edit Channel → Permissions), then use `/poker table`.")

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, tried again after a pause when Discord answers 5xx (discord.py itself retries 500, 502
        and 504 but not 503) or the request fails on the way."""
        for pause in (*RETRY_PAUSES, None):
            try:
                return await call()
            except discord.HTTPException as error:
                if error.status < 500 or pause is None or self.bot.is_closed():
                    raise
                log.info("Discord answered %s; trying again in %ss", error.status, pause)
            except (TimeoutError, OSError, aiohttp.ClientError):
                if pause is None or self.bot.is_closed():
                    raise
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _post(self, table: Table, text: str) -> None:
        """Post a line in the table's channel (a showdown, a notice); a failure is logged, not raised."""
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            await self._retrying(lambda: channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none()))
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            log.warning("could not post in channel %s", table.record.channel_id, exc_info=True)

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
        if kind in ("draw", "pat"):
            if legal.phase != "drawing":
                raise TableError("It is not time to draw.")
            if kind == "draw":
                await interaction.response.send_modal(draw_modal(table_id, hand_id, seq, legal))
            else:
                await self.draw(table, user, "sd", seq, interaction)
            return
        if legal.phase != "betting":
            raise TableError("It is time to draw, not to bet.")
        if kind == "amount":
            await interaction.response.send_modal(amount_modal(table_id, hand_id, seq, legal))
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

    async def on_draw(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                      codes: list[str], *, face_up: bool = False) -> None:
        """The draw modal: throw the cards picked (none: stand pat), Assassin's twos face up if asked."""
        table = self._table(interaction, table_id)
        user = interaction.user.id
        legal = self._check_turn(table, user, hand_id, seq)
        if legal.phase != "drawing":
            raise TableError("It is not time to draw.")
        held = {c.code: c for c in legal.hand}
        if any(code not in held for code in codes):
            raise TableError("Those are not your cards now; press Draw again.")
        cards = format_cards([held[code] for code in codes])
        await self.draw(table, user, f"{'sdu' if face_up else 'sd'} {cards}" if cards else "sd", seq, interaction)

    async def draw(self, table: Table, user: int, action: str, seq: int, interaction: discord.Interaction) -> None:
        """Apply a draw: the answer shows the table, and the new cards go by DM (to a player whose DMs are closed,
        in the answer itself, which only he sees; the table is then shown by an edit)."""
        seat = table.engine_seat(user)
        async with self.answering(interaction):
            result = await table.act(user, action, seq)
            drawn = [c for e in result.events if isinstance(e, Dealt) and e.player == seat for c in e.cards]
            hand = table.hand
            dm = self.private_text(table, hand, seat) if drawn and hand is not None and seat is not None else None
            answer: discord.Interaction | None = interaction
            if dm is not None and hand is not None and seat is not None and self.dms_closed(table, user):
                text = f"You drew {render.cards(drawn)}. Now: {render.private_hand(hand, seat)}"
                if self.claim(interaction):
                    await interaction.response.send_message(text, ephemeral=True)
                else:  # acknowledged already, by the deadline guard
                    await self.settled(interaction)
                    await interaction.followup.send(text, ephemeral=True)
                dm, answer = None, None
            try:
                await self.after_action(table, result, answer)
            finally:
                if dm is not None:
                    await self.send_dm(table, user, dm)

    async def on_choice(self, interaction: discord.Interaction, table_id: int, number: int, game: str) -> None:
        """Dealer's choice: the chooser picked a game."""
        table = self._table(interaction, table_id)
        async with self.answering(interaction):
            await table.choose_game(interaction.user.id, game, self.pending_structure.get(table.id))
            self.cancel_clock(table)
            self.note(table, f"{render.mention(interaction.user.id)} chose {get_game(game).name}")
            await self.hand_started(table, interaction)

    async def on_structure(self, interaction: discord.Interaction, table_id: int, structure: str | None) -> None:
        """Dealer's choice, if the host allows it: the chooser picks the structure before the game (None: each
        game's own). Remembered until the deal; the table shows it."""
        table = self._table(interaction, table_id)
        table.check_choice(interaction.user.id, structure)
        if structure is None:
            self.pending_structure.pop(table.id, None)
        else:
            self.pending_structure[table.id] = structure
        async with self.answering(interaction):
            await self.publish(table, interaction)

    @asynccontextmanager
    async def answering(self, interaction: discord.Interaction | None) -> AsyncIterator[None]:
        """Around the handling of a click that acts: if its answer (the table) is not ready ``ACK_WITHIN`` seconds
        after it arrived, as when the bot is swamped and the click waits its turn, it is acknowledged then, so it
        cannot miss Discord's deadline; the table is then shown by an edit. Whoever answers first, this guard or
        :meth:`publish`, claims the interaction; an error is reported only once the guard's answer is out. Every
        call of :meth:`publish` with an interaction is inside one of these (which forgets the claim after)."""
        if interaction is None:
            yield
            return
        timer = asyncio.get_running_loop().call_later(ACK_WITHIN, self._acknowledge_late, interaction)
        try:
            yield
        finally:
            timer.cancel()
            await self.settled(interaction)  # the guard's answer goes first, then any error goes as a follow-up
            self._guards.pop(interaction.id, None)
            self._claimed.discard(interaction.id)

    def _acknowledge_late(self, interaction: discord.Interaction) -> None:
        if self.claim(interaction):
            self._guards[interaction.id] = asyncio.create_task(self._defer(interaction))

    @staticmethod
    async def _defer(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer()
        except discord.HTTPException:
            log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)

    def claim(self, interaction: discord.Interaction) -> bool:
        """True for the first to answer ``interaction`` (its handler or its deadline guard), False after."""
        if interaction.id in self._claimed or interaction.response.is_done():
            return False
        self._claimed.add(interaction.id)
        return True

    async def settled(self, interaction: discord.Interaction) -> None:
        """Wait until the deadline guard's acknowledgement, if it claimed the interaction, is out."""
        guard = self._guards.get(interaction.id)
        if guard is not None and not guard.done():
            await asyncio.wait([guard])

    async def act(self, table: Table, user: int, action: str, seq: int,
                  interaction: discord.Interaction | None) -> None:
        """Apply a player's action, then show the table."""
        async with self.answering(interaction):
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
            await self._post(table, text)

    def note(self, table: Table, line: str) -> None:
        """Add a line to the table's recent actions."""
        lines = self.recent.setdefault(table.id, [])
        lines.append(line)
        del lines[:-MAX_LOG_LINES]

    # ------------------------------------------------------------------ dealing

    def schedule_deal(self, table: Table, delay: float | None = None) -> None:
        """Deal the next hand (or ask for the dealer's choice) after a pause."""
        if table.paused or self.stopped:
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
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", table.id, exc_info=True)
        except TableError as error:  # paused, or players gone, while the deal waited for the table
            log.info("table %s: no deal: %s", table.id, error)
        except Exception:
            if not self.stopped:  # else the store closed under it: the deal is made after the restart
                log.exception("could not deal at table %s", table.id)

    async def deal(self, table: Table) -> None:
        """Start the next hand, or ask the button for the dealer's choice."""
        if table.live is not None or table.paused or self.stopped \
                or self.bot.tables.get(table.record.channel_id) is not table:
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
        self.pending_structure.pop(table.id, None)  # used by this deal, or not chosen in time
        self.note(table, f"Hand #{live.record.number}: {live.hand.game.name}")
        self.arm_clock(table)
        hand = live.hand
        dms = [self.send_dm(table, user, self.private_text(table, hand, seat)) for seat, user in enumerate(live.users)]
        # The cards go out while the table is shown (a slow or failing edit does not hold them up), and even if
        # the table cannot be shown.
        shown, *_ = await asyncio.gather(self.publish(table, interaction), *dms, return_exceptions=True)
        if isinstance(shown, BaseException):
            raise shown

    def hand_text(self, table: Table, user: int) -> str:
        """A player's own cards (ephemeral), or why there are none."""
        seat = table.engine_seat(user)
        if table.hand is None or seat is None:
            return "You have no cards: you are not in the hand being played."
        if table.hand.folded[seat]:
            return "You folded this hand."
        return render.private_hand(table.hand, seat)

    def private_text(self, table: Table, hand: Hand, seat: int) -> str:
        """The DM of a player's cards in ``hand``."""
        return f"Table <#{table.record.channel_id}>, {hand.game.name}: {render.private_hand(hand, seat)}"

    async def send_private_hand(self, table: Table, user: int, seat: int) -> None:
        """DM a player his cards in the hand being played."""
        if table.hand is not None:
            await self.send_dm(table, user, self.private_text(table, table.hand, seat))

    async def send_dm(self, table: Table, user: int, text: str) -> None:
        """DM a player (tried again when Discord fails); if his DMs are closed, say once in the channel to use
        "My hand". Never raises: a DM that cannot be sent must not stop the table."""
        async def send() -> None:
            await (await self.dm_channel(user)).send(text)

        try:
            await self._retrying(send)
        except discord.Forbidden as error:
            if error.code == CLOSED_DMS and not self.dms_closed(table, user):
                await self._remember_dms(table, user, closed=True)
                await self._post(table, f"{render.mention(user)}, I cannot DM you your cards: press **My hand** "
                                        "to see them (only you will).")
        except (TimeoutError, discord.HTTPException, OSError, aiohttp.ClientError):
            log.warning("could not DM user %s", user, exc_info=True)
        else:
            if self.dms_closed(table, user):  # open again: told again if he closes them later
                await self._remember_dms(table, user, closed=False)

    @staticmethod
    def dms_closed(table: Table, user: int) -> bool:
        """True if the player's DMs were found closed at this table (he was told to use My hand)."""
        return user in table.meta.get(DMS_CLOSED, ())

    @staticmethod
    async def _remember_dms(table: Table, user: int, *, closed: bool) -> None:
        """Note in the table's stored state that the player's DMs are closed (or open again), so that the notice
        is said once, also across a restart."""
        users = set(table.meta.get(DMS_CLOSED, ())) - {user}
        table.meta[DMS_CLOSED] = sorted(users | ({user} if closed else set()))
        try:
            await table.save_meta()
        except (StoreError, OSError):
            log.warning("could not remember that the DMs of %s are %s", user, "closed" if closed else "open",
                        exc_info=True)

    async def dm_channel(self, user: int) -> discord.abc.Messageable:
        """The DM channel of a player. Its id never changes, so it is opened once (``Client.create_dm`` keeps only
        the last 128, which would cost a REST call per private hand in a busy server)."""
        channel_id = self.dm_channels.get(user)
        if channel_id is None:
            channel = await self.bot.create_dm(discord.Object(user))
            self.dm_channels[user] = channel_id = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    # ------------------------------------------------------------------ clocks

    def arm_clock(self, table: Table, elapsed: float = 0.0) -> None:
        """Start the clock of the player to act (RULES.md section 5), ``elapsed`` seconds of it already gone."""
        self.cancel_clock(table)
        if table.live is None or table.actor() is None or self.stopped:
            return
        seconds = max(0.0, table.settings.clock - elapsed)
        self.deadlines[table.id] = time.time() + seconds
        self.clocks[table.id] = asyncio.create_task(self._expire(table, table.next_seq(), seconds))

    def arm_choice_clock(self, table: Table) -> None:
        """Dealer's choice: deal the previous game if the chooser does not pick in time."""
        self.cancel_clock(table)
        if self.stopped:
            return
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
        except CannotPost:
            log.warning("table %s: the clock acted, but the table message cannot be shown", table.id, exc_info=True)
        except (TableError, IllegalAction):
            return
        except Exception:
            if not self.stopped:
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
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", table.id, exc_info=True)
        except (TableError, IllegalAction):  # the chooser picked at the last moment: his game is dealt
            return
        except Exception:
            log.exception("dealer's choice clock failed at table %s", table.id)

    async def close(self, table: Table) -> None:
        """Forget a closed table's clocks and tasks."""
        self.cancel_clock(table)
        task = self.dealing.pop(table.id, None)
        if task is not None:
            task.cancel()
        self.recent.pop(table.id, None)
        self.pending_structure.pop(table.id, None)

    @staticmethod
    async def _quiet(publisher: _Publisher | None, timeout: float = 10.0) -> None:
        """Wait until no write of the table message is in flight (before an edit of it by hand). A closed table's
        writer that is only waiting for its turn under the rate limit is stopped instead."""
        if publisher is None:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while publisher.busy or publisher.task is not None:
                    task = publisher.task
                    if task is not None and publisher.closed and not publisher.busy:
                        task.cancel()
                    if task is not None:
                        await asyncio.wait({task})
                    else:
                        await publisher.idle.wait()

    async def retire_message(self, table: Table, message_id: int) -> None:
        """An older table message (after ``/poker table`` posted a new one): its buttons go, a link stays."""
        new_id = table.meta.get("message")
        link = f"https://discord.com/channels/{table.record.guild_id}/{table.record.channel_id}/{new_id}"
        embed = discord.Embed(title="The table moved", description=f"It is now [this message]({link}).",
                              colour=discord.Colour.dark_grey())
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        await self._quiet(self.publishers.get(table.id))  # a write of the old message must not land after this
        try:
            await self._retrying(lambda: channel.get_partial_message(message_id).edit(embed=embed, view=None))
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
        publisher = self.publishers.pop(table.id, None)
        if publisher is not None:
            publisher.closed = True
            await self._quiet(publisher)  # the table's last state must not land after "closed"
            publisher.settle()
        try:
            await self._retrying(lambda: channel.get_partial_message(message_id).edit(embed=embed, view=None))
        except discord.HTTPException:
            log.warning("could not mark the table message %s closed", message_id, exc_info=True)
