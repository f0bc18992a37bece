"""The /poker commands and the table's components: thin adapters over bot.tables (no game rules here).

The cog keeps one ``TableSession`` per open table (its clock, next deal, message writer) and routes every
command, click and form to it. Who may act and what is legal are asked of the table (``Table.check_turn``,
``Table.next``), which asks the engine.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cardfaces import card_text
from bot.command_help import COMMAND_HELP, describe
from bot.poker import (
    GAMES,
    BetRaise,
    Card,
    CheckCall,
    Draw,
    Fold,
    Hand,
    IllegalAction,
    Legal,
    Move,
    get_game,
    parse_cards,
)
from bot.rules_text import rules_page
from bot.store import HandRecord
from bot.tables import Outcome, SettingsError, Table, TableError, TableSettings
from bot.tables.night import history_hands, night_phhs, rebuild, resolve_night
from bot.tables.settings import MAX_BUY_IN, MAX_CLOCK, MIN_CLOCK
from cogs import render

from .. import night_views, tournament_views
from ..acknowledge import PUBLIC_ANSWER, defer_thinking, respond
from ..closes import finish_closes
from ..errors import ignore_unknown_commands, report, running_callbacks
from ..options import CHIPS, GAME_CHOICES, POSITIVE, SEATS, STRUCTURE_CHOICES
from . import _draw
from ._answers import APPLIED, Answers
from ._commands import NO_TWO_TO_SHOW, TWOS_CHOICES, MoveCommands, parse_amount, with_range
from ._dms import DmSender
from ._session import TableSession
from ._text import chips, draw_report, mention, unbroken
from ._views import (
    COG_NAME,
    DYNAMIC_ITEMS,
    ActionButton,
    ModalSubmit,
    SeatButton,
    amount_modal,
    rebuy_modal,
)
from ._writer import CannotPost

if TYPE_CHECKING:
    from bot.app import PokerBot

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()

DRAW_LIMIT_CHOICES = [
    app_commands.Choice(name="Unlimited", value="none"),
    app_commands.Choice(name="Three cards", value="3"),
    app_commands.Choice(name="Three, or four keeping an ace", value="3-or-4-with-ace"),
]
CHOICE_PER_CHOICES = [
    app_commands.Choice(name="Each hand", value="hand"),
    app_commands.Choice(name="Each orbit", value="orbit"),
]
CLOCK = app_commands.Range[int, MIN_CLOCK, MAX_CLOCK]
BETTING_KINDS = frozenset({"fold", "cc", "min", "pot", "max", "amount", "allin", "allinok"})
DRAWING_KINDS = frozenset({"draw", "pat"})


def is_host(table: Table, interaction: discord.Interaction) -> bool:
    """The table's host, or a member with Manage Server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return interaction.user.id == table.record.host_id or bool(perms and perms.manage_guild)


def button_move(kind: str, legal: Legal) -> Move:
    """The move a betting button makes."""
    if kind == "fold":
        return Fold()
    if kind == "cc":
        return CheckCall()
    to = {"min": legal.min_raise_to, "pot": legal.pot_raise_to, "max": legal.max_raise_to}.get(kind)
    if to is None:
        raise TableError("That button is not one of this table's.")
    return BetRaise(to)


class TableCog(commands.Cog, name=COG_NAME):
    """Tables in channels: create, join, play, close."""

    poker = app_commands.Group(name="poker", description="Draw poker tables", guild_only=True)

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.answers = Answers()
        self.dms = DmSender(bot)
        self.sessions: dict[int, TableSession] = {}  # by table id
        self.stopped = False
        self.moves = MoveCommands(self)  # /poker fold, call, draw... (issue 16)
        self.reports = _draw.Reports()  # each player's last draw report, removed at his next picker

    # ------------------------------------------------------------------ sessions

    def session(self, table: Table) -> TableSession:
        """The Discord side of an open table."""
        session = self.sessions.get(table.id)
        if session is None or session.table is not table:
            session = self.sessions[table.id] = TableSession(
                self.bot, table, answers=self.answers, dms=self.dms, next_hand_delay=self.bot.next_hand_delay,
                is_open=self._is_open, card=self._card_text, wants_alerts=self.bot.store.turn_alerts)
        return session

    def _is_open(self, table: Table) -> bool:
        return not self.stopped and self.bot.tables.get(table.record.channel_id) is table

    async def resume_all(self) -> None:
        """After a start: every open table's clock, deal and message as they stood."""
        for table in list(self.bot.tables.by_channel.values()):
            await self.session(table).resume()

    async def cog_load(self) -> None:
        if ignore_unknown_commands not in self.bot.extra_events.get("on_command_error", []):
            self.bot.add_listener(ignore_unknown_commands, "on_command_error")  # "@bot hello" is not an error
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.resume_all()
        await finish_closes(self.bot)  # closes stored before the last stop but never shown

    async def cog_unload(self) -> None:
        """Stop every clock, pending deal and table message write (the state is in the store already), and wait
        for them to end, so that none still writes while the bot closes the store."""
        self.stopped = True
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        tasks = [task for session in self.sessions.values() for task in session.stop()]
        current = asyncio.current_task()
        pending = [t for t in tasks if t is not current and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=5)
        clicks = [t for t in running_callbacks() if t is not current]
        if clicks:  # a click under way finishes (its action is stored already; its answer goes out)
            await asyncio.wait(clicks, timeout=3)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await report(interaction, error)

    def _table(self, interaction: discord.Interaction) -> Table:
        return self.bot.tables.require(interaction.channel_id or 0)

    def _host_table(self, interaction: discord.Interaction) -> Table:
        table = self._table(interaction)
        if not is_host(table, interaction):
            raise TableError("Only the table's host (or someone with Manage Server) can do that.")
        return table

    def _clicked_table(self, interaction: discord.Interaction, table_id: int) -> Table:
        table = self.bot.tables.get(interaction.channel_id or 0)
        if table is None or table.id != table_id:
            raise TableError("This table is closed.")
        return table

    # ------------------------------------------------------------------ listeners

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted the table message: post it again, so the game can go on."""
        table = self.bot.tables.get(payload.channel_id)
        if table is None or table.message_id != payload.message_id:
            return
        try:
            await table.remember_message(None)
            await self.session(table).publish()
        except (discord.HTTPException, TableError):  # TableError: the bot may not post here (the host is told)
            log.warning("could not post table %s again after its message was deleted", table.id, exc_info=True)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A table modal submitted (the amount, the draw): handled by its custom_id, so one opened before a
        restart still works."""
        if interaction.type is discord.InteractionType.modal_submit:
            submit = ModalSubmit.parse(interaction.data)
            if submit is not None:
                await submit.callback(interaction)

    # ------------------------------------------------------------------ clicks and forms (Controls)

    def check_click(self, interaction: discord.Interaction, table_id: int, hand: int, seq: int, kind: str) -> None:
        """Refuse a click or form that is not for this moment: a closed table, an old button, not your turn, the
        wrong phase. The turn itself is the table's to say (``Table.check_turn``)."""
        table = self._clicked_table(interaction, table_id)
        legal = table.check_turn(interaction.user.id, hand, seq)
        if kind in DRAWING_KINDS and legal.phase != "drawing":
            raise TableError("It is not time to draw.")
        if kind in BETTING_KINDS and legal.phase != "betting":
            raise TableError("It is time to draw, not to bet.")

    async def on_button(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                        kind: str) -> None:
        """A click on one of the turn's buttons (checked already by ``check_click``)."""
        table = self._clicked_table(interaction, table_id)
        session = self.session(table)
        user = interaction.user.id
        legal = table.check_turn(user, hand_id, seq)
        if kind == "draw":
            content, view = self._picker(session, hand_id, seq, legal, 0)
            await self.answers.send(interaction, content, view=view)
            await self.reports.remove(table_id, hand_id, user)
        elif kind == "pat":
            await self._draw(session, user, Draw(), seq, interaction)
        elif kind == "amount":
            await self.answers.modal(interaction, amount_modal(table_id, hand_id, seq, legal))
        elif kind == "allin":  # one tap more: all in is never a slip of the thumb
            view = discord.ui.View(timeout=None)
            view.add_item(ActionButton(table_id, hand_id, seq, "allinok", f"Yes, all in for {chips(legal.all_in_to)}",
                                       discord.ButtonStyle.danger))
            await self.answers.send(interaction, f"Go all in for {chips(legal.all_in_to)}?", view=view)
        elif kind == "allinok":
            await self._apply(session, user, BetRaise(legal.all_in_to), seq, interaction, answer=False)
            await self.answers.update(interaction, content=f"You are all in for {chips(legal.all_in_to)}.", view=None)
        else:
            await self._act(session, user, button_move(kind, legal), seq, interaction)

    def _picker(self, session: TableSession, hand_id: int, seq: int, legal: Legal,
                mask: int) -> tuple[str, discord.ui.View]:
        hand = session.table.hand
        assert hand is not None
        value = hand.value_of(legal.player)
        describe = ("holds a two" if hand.is_assassinated(legal.player)
                    else unbroken(value.describe()) if value else None)
        return _draw.picker(session.table.id, hand_id, seq, legal, mask, draw=hand.draw_number + 1,
                            draws=hand.game.draws, card=session.card, emoji=self._emoji, describe=describe)

    def _emoji(self, card: Card) -> discord.PartialEmoji | None:
        emojis = getattr(self.bot, "card_emojis", None)
        return emojis.partial(card) if emojis is not None else None

    def _card_text(self, card: Card) -> str:
        emojis = getattr(self.bot, "card_emojis", None)
        return emojis.card(card) if emojis is not None else card_text(card)

    async def on_toggle(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int, mask: int,
                        card: int) -> None:
        """The draw picker: a card marked or unmarked (the picker is shown again)."""
        table = self._clicked_table(interaction, table_id)
        legal = table.check_turn(interaction.user.id, hand_id, seq)
        if legal.phase != "drawing" or mask >> len(legal.hand):
            raise TableError("That draw is over; press Draw… again.")
        content, view = self._picker(self.session(table), hand_id, seq, legal, mask)
        await self.answers.update(interaction, content=content, view=view)

    async def on_draw_confirm(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                              mask: int, face_up: bool) -> None:
        """The draw picker's last tap: throw the marked cards; the picker then shows what came."""
        table = self._clicked_table(interaction, table_id)
        user = interaction.user.id
        legal = table.check_turn(user, hand_id, seq)
        if legal.phase != "drawing" or mask >> len(legal.hand):
            raise TableError("That draw is over; press Draw… again.")
        cards = _draw.thrown(legal, mask)
        twos = tuple(c for c in cards if c in legal.face_up_twos) if face_up else ()
        await self._draw(self.session(table), user, Draw(cards, face_up=twos), seq, interaction, picker=True)

    async def on_amount(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                        text: str) -> None:
        """The amount form: any bet in pot and no limit."""
        table = self._clicked_table(interaction, table_id)
        legal = table.check_turn(interaction.user.id, hand_id, seq)
        if legal.phase != "betting":  # a form from a betting round, sent during the draw (or forged)
            raise TableError("It is time to draw, not to bet.")
        move = BetRaise(parse_amount(text, legal))
        try:
            await self._act(self.session(table), interaction.user.id, move, seq, interaction)
        except IllegalAction as error:  # too small or too large: said with the range allowed
            raise with_range(error, legal) from None

    async def on_draw(self, interaction: discord.Interaction, table_id: int, hand_id: int, seq: int,
                      codes: list[str], *, face_up: bool = False) -> None:
        """The draw form (opened before an upgrade): throw the cards picked, Assassin's twos face up if asked."""
        table = self._clicked_table(interaction, table_id)
        user = interaction.user.id
        legal = table.check_turn(user, hand_id, seq)
        held = {c.code: c for c in legal.hand}
        if any(code not in held for code in codes):
            raise TableError("Those are not your cards now; press Draw again.")
        cards = tuple(held[code] for code in codes)
        twos = tuple(c for c in cards if c.is_two) if face_up else ()
        if face_up and not twos:
            raise TableError(NO_TWO_TO_SHOW)
        await self._draw(self.session(table), user, Draw(cards, face_up=twos), seq, interaction)

    async def _apply(self, session: TableSession, user: int, move: Move, seq: int,
                     interaction: discord.Interaction | None, *, answer: bool = True) -> Outcome | None:
        """A player's move through the table, then the table shown (answering ``interaction`` with it if
        ``answer``). Once the move is stored, a failure to show it is Discord's, not the player's: the writer
        keeps trying, and nothing says the move was not made."""
        async with self.answers.answering(interaction):
            outcome = await session.table.act(user, move, seq)
            self.moves.played(session.table.id, user, move)
            if interaction is not None:
                interaction.extras[APPLIED] = True
            try:
                await session.show(outcome, interaction if answer else None)
            except CannotPost:
                raise
            except Exception:
                log.exception("table %s: the move was stored but could not be shown; the writer retries",
                              session.table.id)
                session.writer.refresh()
            return outcome

    async def _act(self, session: TableSession, user: int, move: Move, seq: int,
                   interaction: discord.Interaction | None) -> None:
        await self._apply(session, user, move, seq, interaction)

    async def _draw(self, session: TableSession, user: int, move: Draw, seq: int,
                    interaction: discord.Interaction, *, picker: bool = False, command: bool = False) -> None:
        """A draw: the new cards go by DM, and to whoever drew from the picker or by command right where he drew
        (a player whose DMs are closed sees them in an ephemeral answer); the table is shown."""
        table = session.table
        seat = table.engine_seat(user)
        hand_id = table.live.record.id if table.live is not None else 0
        answer_with_table = not picker and not command and not table.dms_closed(user)
        outcome = await self._apply(session, user, move, seq, interaction, answer=answer_with_table)
        if outcome is None or outcome.hand is None or seat is None:
            return
        drawn = session.drawn_cards(outcome, seat)
        here = draw_report(outcome.hand, seat, move.discards, drawn, session.card)  # in the table's channel
        text = f"{session.dm_heading(outcome.hand)}\n{here}"  # his DM
        try:
            if picker:
                await self.answers.update(interaction, content=here, view=None)
                self.reports.shown(table.id, hand_id, interaction)
            elif not answer_with_table:
                await self.answers.send(interaction, here)
        finally:  # whatever became of the answer, his new cards reach him (closed DMs: he saw them, or My hand)
            if drawn and not table.dms_closed(user):
                await session.send_dm(user, text)

    async def on_choice(self, interaction: discord.Interaction, table_id: int, game: str) -> None:
        """Dealer's choice: the chooser picked a game in the menu; it is shown, and dealt when he presses Deal."""
        table = self._clicked_table(interaction, table_id)
        table.check_choice(interaction.user.id)
        try:
            get_game(game)
        except ValueError as error:
            raise TableError(str(error)) from None
        if game not in {g.id for g in table.choices()}:
            raise TableError("That game cannot be dealt to these players; pick another.")
        session = self.session(table)
        session.pending_game = game
        async with self.answers.answering(interaction):
            await session.publish(interaction)

    async def on_structure(self, interaction: discord.Interaction, table_id: int, structure: str | None) -> None:
        """Dealer's choice, if the host allows it: the chooser picks the structure (None: each game's own);
        shown until the deal."""
        table = self._clicked_table(interaction, table_id)
        table.check_choice(interaction.user.id, structure)
        session = self.session(table)
        session.pending_structure = structure
        async with self.answers.answering(interaction):
            await session.publish(interaction)

    async def on_deal(self, interaction: discord.Interaction, table_id: int, number: int) -> None:
        """Dealer's choice: Deal pressed: the game (and structure) picked are dealt."""
        table = self._clicked_table(interaction, table_id)
        session = self.session(table)
        table.check_choice(interaction.user.id, session.pending_structure)
        if number != session.choice_number():
            raise TableError("That menu is from an earlier hand; use the current one.")
        game = session.pending_game
        if game is None:
            raise TableError("Pick a game in the menu first.")
        async with self.answers.answering(interaction):
            outcome = await table.choose_game(interaction.user.id, game, session.pending_structure)
            session.cancel_clock()
            await session.hand_started(outcome, interaction)
            session.note(f"{mention(interaction.user.id)} chose {get_game(game).name}")
            session.writer.refresh()

    async def on_seat(self, interaction: discord.Interaction, table_id: int, kind: str) -> None:
        """The seat buttons: My hand, Join, Sit out / in, Rebuy…, Leave (the same as their commands)."""
        table = self._clicked_table(interaction, table_id)
        user = interaction.user.id
        session = self.session(table)
        if kind == "hand":
            await self.answers.send(interaction, session.hand_text(user))
        elif kind == "join":
            await self._join(interaction, table, None)
        elif kind == "sit":
            seat = table.seat_of(user)
            if seat is None:
                raise TableError("You are not seated at this table; press Join.")
            await (self._sit_in if seat.sitting_out else self._sit_out)(interaction, table)
        elif kind == "rebuy":
            seat = table.seat_of(user)
            if seat is None:
                raise TableError("You are not seated at this table; press Join.")
            low, high = table.settings.buy_in_range
            await self.answers.modal(interaction, rebuy_modal(table.id, low, high, seat.stack))
        elif kind == "leave":
            if table.seat_of(user) is None:
                raise TableError("You are not seated at this table.")
            view = discord.ui.View(timeout=None)
            view.add_item(SeatButton(table.id, "leaveok", "Yes, leave", discord.ButtonStyle.danger))
            during = " You fold the hand you are in." if table.engine_seat(user) is not None and table.hand and \
                table.hand.can(Fold(player=table.engine_seat(user))) else ""
            await self.answers.send(interaction, f"Leave the table and cash out?{during}", view=view)
        elif kind == "leaveok":
            await self._leave(interaction, table, user, edit=True)
        else:
            raise TableError("That button is not one of this table's.")

    async def on_rebuy(self, interaction: discord.Interaction, table_id: int, text: str) -> None:
        """The rebuy form."""
        table = self._clicked_table(interaction, table_id)
        amount = text.strip().replace(",", "").replace("_", "")
        if not amount.isascii() or not amount.isdigit() or not 0 < int(amount) <= MAX_BUY_IN:
            raise TableError(f"“{text.strip()[:40]}” is not a number of chips.")
        await self._rebuy(interaction, table, int(amount))

    # ------------------------------------------------------------------ the table

    @poker.command(name="create", extras=PUBLIC_ANSWER, description="Open a table in this channel")
    @app_commands.choices(game=GAME_CHOICES, structure=STRUCTURE_CHOICES, draw_limit=DRAW_LIMIT_CHOICES,
                          choice_per=CHOICE_PER_CHOICES)
    @app_commands.describe(
        game="The game, or dealer's choice", small_blind="Small blind", big_blind="Big blind",
        structure="Betting structure (default: each game's own)", ante="Ante from every player",
        min_buy_in="Smallest buy-in in chips (default 20 big blinds)",
        max_buy_in="Largest buy-in in chips (default 100 big blinds)", seats="Seats at the table",
        clock="Seconds each player has to act (default 60)", jokers="Assassin: add two jokers that play as twos",
        draw_limit="Five Card Draw and Assassin: how many cards may be drawn",
        choice_per="Dealer's choice: the button picks the game for each hand (default) or for an orbit",
        dealer_picks_structure="Dealer's choice: the button may also pick the betting structure",
        **describe("poker create"),
    )
    async def create(
        self, interaction: discord.Interaction, game: str, small_blind: CHIPS, big_blind: CHIPS,
        structure: str | None = None, ante: CHIPS = 0, min_buy_in: POSITIVE | None = None,
        max_buy_in: POSITIVE | None = None, seats: SEATS | None = None,
        clock: CLOCK = 60, jokers: bool = False, draw_limit: str = "none",
        choice_per: str = "hand", dealer_picks_structure: bool = False, chip_value: str | None = None,
    ) -> None:
        """/poker create"""
        try:
            settings = TableSettings(
                game=game, small_blind=small_blind, big_blind=big_blind, structure=structure,  # type: ignore[arg-type]
                ante=ante, min_buy_in=min_buy_in, max_buy_in=max_buy_in, seats=seats, clock=clock, jokers=jokers,
                draw_limit=draw_limit, choice_per=choice_per,  # type: ignore[arg-type]
                dealer_picks_structure=dealer_picks_structure, chip_value=chip_value,
            )
        except SettingsError as error:
            raise TableError(str(error)) from None
        assert interaction.guild_id is not None and interaction.channel_id is not None
        table = await self.bot.tables.create(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                             settings)
        await table.pause()  # nothing is dealt until the host starts the game
        low, high = settings.buy_in_range
        await self.answers.send(  # never raises: a lost answer must not keep the table from being posted
            interaction,
            f"Table open: {render.stakes_line(settings, None if settings.is_dealers_choice else GAMES[game])}. "
            f"Buy-ins {render.chips(low)} to {render.chips(high)}. Press **Join** on the table (or "
            "`/poker join`), then the host deals with `/poker table start`."
            + (f" {settings.chip_value}." if settings.chip_value else ""),
            ephemeral=False)
        await self.session(table).publish()

    async def _seats_changed(self, table: Table) -> None:
        """Show the table after a seat changed, and deal when the table can (it says when: ``Table.next``)."""
        session = self.session(table)
        await session.publish()
        pending = session.dealing is not None and not session.dealing.done()
        if table.live is None and table.next().kind in ("deal", "choose") and not pending:
            session.schedule_deal()

    async def _join(self, interaction: discord.Interaction, table: Table, buy_in: int | None) -> None:
        seat = await table.join(interaction.user.id, buy_in)
        await self.answers.send(interaction, f"You sit in seat {seat.seat_no} with {chips(seat.stack)} chips.")
        self.session(table).note(f"{mention(interaction.user.id)} sits down with {chips(seat.stack)}")
        await self._seats_changed(table)

    async def _sit_out(self, interaction: discord.Interaction, table: Table) -> None:
        await table.sit_out(interaction.user.id)
        await self.answers.send(interaction, "You sit out from the next hand.")
        await self.session(table).publish()

    async def _sit_in(self, interaction: discord.Interaction, table: Table) -> None:
        await table.sit_in(interaction.user.id)
        await self.answers.send(interaction, "You are dealt in from the next hand.")
        await self._seats_changed(table)

    async def _rebuy(self, interaction: discord.Interaction, table: Table, amount: int) -> None:
        seat = await table.rebuy(interaction.user.id, amount)
        await self.answers.send(interaction, f"Your stack is now {chips(seat.stack)}.")
        await self._seats_changed(table)

    async def _leave(self, interaction: discord.Interaction, table: Table, user: int, *, edit: bool = False) -> None:
        cash, outcome = await table.leave(user)
        if cash is not None:
            text = f"You leave with {chips(cash.amount)} chips; your balance is {chips(cash.balance)}."
        else:
            text = "You fold and leave; your chips go back to your balance when this hand ends."
        if edit:
            await self.answers.update(interaction, content=text, view=None)
        else:
            await self.answers.send(interaction, text)
        self.session(table).note(f"{mention(user)} leaves the table")
        await self._after_leave(table, outcome)

    @poker.command(name="join", description="Sit down at this channel's table")
    @app_commands.describe(buy_in="Chips to bring (default: as many as the table allows and you have)")
    async def join(self, interaction: discord.Interaction, buy_in: POSITIVE | None = None) -> None:
        """/poker join"""
        await self._join(interaction, self._table(interaction), buy_in)

    @poker.command(name="leave", description="Leave the table (cashed out now, or at the end of your hand)")
    async def leave(self, interaction: discord.Interaction) -> None:
        """/poker leave"""
        await self._leave(interaction, self._table(interaction), interaction.user.id)

    async def _after_leave(self, table: Table, outcome: Outcome) -> None:
        session = self.session(table)
        if outcome.events:
            await session.show(outcome)
        else:
            await session.publish()

    @poker.command(name="close", extras=PUBLIC_ANSWER, description="Close the table and cash everyone out (host)")
    async def close(self, interaction: discord.Interaction) -> None:
        """/poker close"""
        table = self._host_table(interaction)
        await defer_thinking(interaction)
        session = self.session(table)
        session.cancel_clock()
        cashes = await self.bot.tables.close(interaction.channel_id or 0)
        await session.close()
        self.sessions.pop(table.id, None)
        self.reports.forget_table(table.id)
        lines = [f"{mention(c.user_id)} cashes out {chips(c.amount)}" for c in cashes]
        await respond(interaction, "Table closed.\n" + "\n".join(lines), allowed_mentions=NO_MENTIONS)

    @poker.command(name="sitout", description="Sit out from the next hand")
    async def sitout(self, interaction: discord.Interaction) -> None:
        """/poker sitout"""
        await self._sit_out(interaction, self._table(interaction))

    @poker.command(name="sitin", description="Come back into the game")
    async def sitin(self, interaction: discord.Interaction) -> None:
        """/poker sitin"""
        await self._sit_in(interaction, self._table(interaction))

    @poker.command(name="rebuy", description="Add chips to your stack between hands")
    @app_commands.describe(**describe("poker rebuy"))
    async def rebuy(self, interaction: discord.Interaction, amount: POSITIVE) -> None:
        """/poker rebuy"""
        await self._rebuy(interaction, self._table(interaction), amount)

    @poker.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """/poker hand"""
        table = self._table(interaction)
        await respond(interaction, self.session(table).hand_text(interaction.user.id), ephemeral=True)

    @poker.command(name="rules", description="The rules of a game")
    @app_commands.choices(game=GAME_CHOICES[:-1])
    @app_commands.describe(**describe("poker rules"))
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """/poker rules"""
        page = rules_page(game, card_format=self._format_cards)
        embed = discord.Embed(title=page.title, description=page.summary, colour=discord.Colour.dark_green())
        for section in page.sections:
            embed.add_field(name=section.title, value=section.body, inline=False)
        await respond(interaction, embed=embed, ephemeral=True)

    def _format_cards(self, text: str) -> str:
        return " ".join(self._card_text(card) for card in parse_cards(text))

    @poker.command(name="alerts", description="Turn on or off the DM you get when your turn waits for you")
    @app_commands.describe(on="On: a DM when your turn has waited a few seconds, and before your clock runs out")
    async def alerts(self, interaction: discord.Interaction, on: bool) -> None:
        """/poker alerts"""
        assert interaction.guild_id is not None
        await self.bot.store.set_turn_alerts(interaction.guild_id, interaction.user.id, on)
        text = ("Turn alerts on: I DM you when your turn has waited a few seconds, and before your clock runs out."
                if on else "Turn alerts off: the table message still shows your turn and your clock.")
        await respond(interaction, text, ephemeral=True)

    # ------------------------------------------------------------------ /poker table: the rarely used commands
    # Discord allows 25 subcommands and groups in /poker; these seven share one entry.

    table_group = app_commands.Group(name="table", description="The table: show it again, its settings, chip value; "
                                     "kick, start, pause, resume (host)", parent=poker)

    @table_group.command(name="show", description=COMMAND_HELP["poker table show"])
    async def table_show(self, interaction: discord.Interaction) -> None:
        """/poker table show"""
        table = self._table(interaction)
        old = table.message_id
        await table.remember_message(None)
        await respond(interaction, "Here is the table:", ephemeral=True)
        session = self.session(table)
        await session.publish()
        if old is not None:
            await session.retire(old)

    @table_group.command(name="kick", description="Remove a player from the table (host)")
    @app_commands.describe(**describe("poker table kick"))
    async def kick(self, interaction: discord.Interaction, member: discord.User) -> None:
        """/poker table kick: any user, so that a player who left the server can be removed (cashed out)."""
        table = self._host_table(interaction)
        cash, outcome = await table.kick(member.id)
        when = "now" if cash is not None else "at the end of this hand"
        await self.answers.send(interaction, f"{member.mention} leaves the table; cashed out {when}.",
                                allowed_mentions=discord.AllowedMentions.none())
        self.session(table).note(f"{mention(member.id)} is removed by the host")
        await self._after_leave(table, outcome)

    @table_group.command(name="settings", description="Show this table's settings")
    async def settings(self, interaction: discord.Interaction) -> None:
        """/poker table settings"""
        table = self._table(interaction)
        s = table.settings
        low, high = s.buy_in_range
        game = GAMES[s.game].name if not s.is_dealers_choice else f"Dealer's choice (per {s.choice_per}" + (
            ", the dealer also picks the structure)" if s.dealer_picks_structure else ")")
        text = (f"**{game}**\n{render.stakes_line(s, None if s.is_dealers_choice else GAMES[s.game], sep=chr(10))}\n"
                f"Buy-ins {chips(low)} to {chips(high)} · {s.max_seats} seats · clock {s.clock}s\n"
                f"Host: {mention(table.record.host_id)}")
        await respond(interaction, text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @table_group.command(name="start", description="Start dealing (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """/poker table start"""
        table = self._host_table(interaction)
        await table.start()
        await self.answers.send(interaction, "Shuffle up and deal!", ephemeral=False)  # lost or not, it deals
        await self.session(table).deal()

    @table_group.command(name="pause", description="Stop dealing after this hand (host)")
    async def pause(self, interaction: discord.Interaction) -> None:
        """/poker table pause"""
        table = self._host_table(interaction)
        await table.pause()
        await self.answers.send(interaction, "The table pauses after this hand.")
        session = self.session(table)
        session.note(f"{mention(interaction.user.id)} pauses the table after this hand")
        await session.publish()

    @table_group.command(name="resume", description="Deal again (host)")
    async def resume(self, interaction: discord.Interaction) -> None:
        """/poker table resume"""
        table = self._host_table(interaction)
        await table.resume()
        await self.answers.send(interaction, "Dealing resumes.")
        if table.live is None:
            self.session(table).schedule_deal(0)

    @table_group.command(name="chipvalue", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker table chipvalue"])
    @app_commands.describe(**describe("poker table chipvalue"))
    async def chipvalue(self, interaction: discord.Interaction, value: str | None = None) -> None:
        """/poker table chipvalue"""
        if value is None:
            table = self._table(interaction)
            await respond(interaction, night_views.chip_value_text(table.settings), ephemeral=True)
            return
        table = self._host_table(interaction)
        off = value.strip().lower() in night_views.NO_CHIP_VALUE
        settings = await table.update_settings(chip_value=None if off else value)
        await respond(interaction, night_views.chip_value_text(settings, changed=True))

    # ------------------------------------------------------------------ moves by command (issue 16: _commands.py)

    @poker.command(name="fold", description=COMMAND_HELP["poker fold"])
    async def fold(self, interaction: discord.Interaction) -> None:
        """/poker fold"""
        await self.moves.bet(interaction, "fold")

    @poker.command(name="check", description=COMMAND_HELP["poker check"])
    async def check(self, interaction: discord.Interaction) -> None:
        """/poker check"""
        await self.moves.bet(interaction, "check")

    @poker.command(name="call", description=COMMAND_HELP["poker call"])
    async def call(self, interaction: discord.Interaction) -> None:
        """/poker call"""
        await self.moves.bet(interaction, "call")

    @poker.command(name="bet", description=COMMAND_HELP["poker bet"])
    @app_commands.describe(**describe("poker bet"))
    async def bet(self, interaction: discord.Interaction, amount: str) -> None:
        """/poker bet: the same move as /poker raise."""
        await self.moves.bet(interaction, "raise", amount)

    @poker.command(name="raise", description=COMMAND_HELP["poker raise"])
    @app_commands.describe(**describe("poker raise"))
    async def raise_(self, interaction: discord.Interaction, amount: str) -> None:
        """/poker raise"""
        await self.moves.bet(interaction, "raise", amount)

    @poker.command(name="allin", description=COMMAND_HELP["poker allin"])
    async def allin(self, interaction: discord.Interaction) -> None:
        """/poker allin: typed, it needs no confirmation (the button asks once more: a thumb slips, a command
        is typed)."""
        await self.moves.bet(interaction, "allin")

    @poker.command(name="draw", description=COMMAND_HELP["poker draw"])
    @app_commands.describe(**describe("poker draw"))
    @app_commands.choices(twos=TWOS_CHOICES)
    async def draw(self, interaction: discord.Interaction, cards: str, twos: str | None = None) -> None:
        """/poker draw"""
        await self.moves.draw(interaction, cards, twos)

    @draw.autocomplete("cards")
    async def _draw_choices(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return self.moves.suggestions(interaction, current)

    @poker.command(name="pat", description=COMMAND_HELP["poker pat"])
    async def pat(self, interaction: discord.Interaction) -> None:
        """/poker pat"""
        await self.moves.draw(interaction, None)

    # ------------------------------------------------------------------ the night after the cards (issue 14)
    # Sessions, the chip value, stats, hand stories and exports: each command asks bot.tables.night or the store
    # and shows what comes back with cogs/night_views.py.

    nights = app_commands.Group(name="session", description="Nights at this table: start the next, export one",
                                parent=poker)

    @nights.command(name="new", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker session new"])
    async def session_new(self, interaction: discord.Interaction) -> None:
        """/poker session new"""
        table = self._host_table(interaction)
        ended = await self.bot.store.last_session(table.record.channel_id)
        returned = table.carried_refunds()
        started = await table.new_session()
        await respond(interaction, night_views.new_night_text(ended, started, returned),
                                                allowed_mentions=night_views.NONE)
        await self.session(table).publish()

    @poker.command(name="stats", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker stats"])
    @app_commands.describe(**describe("poker stats"))
    @app_commands.choices(game=GAME_CHOICES[:-1])
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None,
                    game: str | None = None, session: str | None = None) -> None:
        """/poker stats"""
        assert interaction.guild_id is not None
        who = member or interaction.user
        night = await resolve_night(self.bot.store, interaction.guild_id, interaction.channel_id or 0,
                                    session) if session else None
        by_game = await self.bot.store.player_stats(interaction.guild_id, who.id, game=game,
                                                    sessions=night.ids if night else None)
        embed = night_views.stats_embed(who, by_game, night_views.stats_scope(night), game)
        await respond(interaction, embed=embed, allowed_mentions=night_views.NONE)

    @poker.command(name="history", description="Recent hands at this table, told in a few lines, with their files")
    @app_commands.describe(**describe("poker history"))
    async def history(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10] = 3) -> None:
        """/poker history"""
        records = await history_hands(self.bot.store, self.bot.tables, interaction.channel_id or 0, count)
        if not records:
            await respond(interaction, "No hand has been finished at this table yet.", ephemeral=True)
            return
        text, embeds, files = night_views.history_message([(r, _told(r)) for r in records], interaction.user.id)
        await respond(interaction, text, embeds=embeds, files=files, ephemeral=True,
                      allowed_mentions=night_views.NONE)

    @nights.command(name="export", description=COMMAND_HELP["poker session export"])
    @app_commands.describe(**describe("poker session export"))
    async def export(self, interaction: discord.Interaction, session: str | None = None) -> None:
        """/poker session export: the file is written in a worker thread, after acknowledging."""
        assert interaction.guild_id is not None
        night = await resolve_night(self.bot.store, interaction.guild_id, interaction.channel_id or 0, session)
        hands = await self.bot.store.session_hands(night.ids)
        if not hands:
            await respond(interaction, night_views.export_message(night, 0, 0), ephemeral=True)
            return
        await defer_thinking(interaction, ephemeral=True)
        document, skipped = await asyncio.to_thread(night_phhs, hands, interaction.user.id)
        text = night_views.export_message(night, len(hands) - skipped, skipped)
        file = night_views.export_file(document, night) if document else discord.utils.MISSING
        await respond(interaction, text, file=file, ephemeral=True, allowed_mentions=night_views.NONE)

    @stats.autocomplete("session")
    @export.autocomplete("session")
    async def _night_choices(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        return await night_views.session_choices(self.bot.store, interaction, current)


    # ------------------------------------------------- tournaments (issue 15: cogs/tournament_views.py)

    tournament = app_commands.Group(name="tournament", description="Sit-and-go tournaments: one buy-in, blinds "
                                    "rising on a clock", parent=poker)

    @tournament.command(name="create", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament create"])
    @app_commands.choices(game=GAME_CHOICES, structure=STRUCTURE_CHOICES)
    @app_commands.describe(**describe("poker tournament create"))
    async def tournament_create(
        self, interaction: discord.Interaction, game: str, buy_in: tournament_views.BUY_IN,
        starting_chips: tournament_views.STACK, level_minutes: tournament_views.MINUTES, levels: str | None = None,
        payouts: str | None = None, late_registration_levels: tournament_views.LEVELS = 0,
        rebuys: tournament_views.LEVELS = 0, structure: str | None = None,
    ) -> None:
        """/poker tournament create"""
        await tournament_views.create(
            self, interaction, game=game, buy_in=buy_in, starting_chips=starting_chips, level_minutes=level_minutes,
            levels=levels, payouts=payouts, late_registration_levels=late_registration_levels, rebuys=rebuys,
            structure=structure)

    @tournament.command(name="start", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament start"])
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        """/poker tournament start"""
        await tournament_views.start(self, interaction, self._host_table(interaction))

    @tournament.command(name="pause", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament pause"])
    async def tournament_pause(self, interaction: discord.Interaction) -> None:
        """/poker tournament pause"""
        await tournament_views.pause(self, interaction, self._host_table(interaction))

    @tournament.command(name="resume", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament resume"])
    async def tournament_resume(self, interaction: discord.Interaction) -> None:
        """/poker tournament resume"""
        await tournament_views.resume(self, interaction, self._host_table(interaction))

    @tournament.command(name="cancel", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament cancel"])
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        """/poker tournament cancel"""
        await tournament_views.cancel(self, interaction, self._host_table(interaction))

    @tournament.command(name="status", description=COMMAND_HELP["poker tournament status"])
    async def tournament_status(self, interaction: discord.Interaction) -> None:
        """/poker tournament status"""
        await tournament_views.status(self, interaction, self._table(interaction))

    async def tournament_click(self, interaction: discord.Interaction, table_id: int, kind: str) -> None:
        """Register, Unregister or Rebuy on a tournament's message."""
        await tournament_views.click(self, interaction, self._clicked_table(interaction, table_id), kind)

    @commands.Cog.listener("on_ready")
    async def tournament_news(self) -> None:
        """Show every open tournament's news (what happened while the bot was away first)."""
        tournament_views.listen_all(self)


def _told(record: HandRecord) -> Hand | None:
    """The finished hand rebuilt, to be told; None if it cannot be (its file is still attached)."""
    try:
        return rebuild(record)
    except (IllegalAction, ValueError, KeyError, TypeError):
        log.warning("hand %s could not be rebuilt to be told", record.id, exc_info=True)
        return None
