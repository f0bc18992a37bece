"""What one table's messages show: the table message (the writer's ``Surface``: its embed, its components, its
clock), this hand's log, the turn alerts' words, and the channel's other lines (the openers removed at the deal, a
line posted, a closed or moved table message). What each player sees of his own cards is ``_own_cards``'s.

It decides nothing: it shows the table as it is and the clock as it runs (``_clock``), and says when a turn is on
screen (``turn_shown``: the dealer starts its clock then). The message's components (the buttons and menus) are made
by a function the registry gives it (``Components``: ``cogs.table._controls.view``), so that this module imports
none of them.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, Text, say
from bot.night.story import listed
from bot.runtime.scheduler import Scheduler
from bot.tables import Outcome, Table
from cogs.language import table_language
from cogs.render import CardText, channel_mention, mention

from ..transport import DISCORD_ERRORS
from . import _screen, _text
from ._alerts import AlertText
from ._clock import Turn, TurnClock
from ._writer import Rendered, token_usable

log = logging.getLogger(__name__)

Components = Callable[[Table, _screen.Screen], discord.ui.View]  # the table message's buttons and menus
# Each permission as Discord's channel settings name it.
NEEDED_PERMISSIONS = {"view_channel": Text("View Channel"), "send_messages": Text("Send Messages"),
                      "embed_links": Text("Embed Links")}


@dataclass(frozen=True, slots=True)
class _Shown:
    turn: Turn | None
    deadline: float | None


class TablePresenter:
    """What one table's messages show; the ``Surface`` its writer draws from."""

    def __init__(self, bot: discord.Client, table: Table, clock: TurnClock, scheduler: Scheduler, *,
                 components: Components, is_open: Callable[[], bool], turn_shown: Callable[[Turn, float], None],
                 card: CardText = card_text) -> None:
        self.bot = bot
        self.table = table
        self.clock = clock
        self.scheduler = scheduler  # its table's: an opener's removal stops with the table
        self.components = components
        self._is_open = is_open
        self._turn_shown = turn_shown
        self.card = card  # a card in the table message (everyone's: four colours)
        self.recent: list[str] = []  # this hand's public lines (as many as the screen shows)
        self.show_finished = False  # between hands: the page shows the hand just over
        self.openers: list[discord.Interaction] = []  # "Table open…", "Shuffle up and deal!": gone at the deal

    @property
    def language(self) -> Language:
        """What everyone at the table reads the table's messages in (``cogs.language.table_language``)."""
        return table_language(self.bot, self.table)

    # ------------------------------------------------------------------ the writer's Surface

    @property
    def channel_id(self) -> int:
        """The table's channel."""
        return self.table.record.channel_id

    @property
    def message_id(self) -> int | None:
        """The table message, if posted."""
        return self.table.message_id

    async def remember_message(self, message_id: int | None) -> None:
        """Store the table message's id."""
        await self.table.remember_message(message_id)

    @property
    def message_nonce(self) -> str | None:
        """The nonce of a table message being posted."""
        return self.table.message_nonce

    async def remember_post(self, nonce: str) -> None:
        """Store the nonce of the table message about to be posted."""
        await self.table.remember_post(nonce)

    def is_open(self) -> bool:
        """False once the table is closed or the bot is stopping."""
        return self._is_open()

    def render(self) -> Rendered:
        """The table message as the table is now; its clock as it will run once shown."""
        turn = self.turn()
        deadline = self.clock.deadline_for(turn) if turn is not None else None
        screen = self.screen(deadline)
        return Rendered(_screen.embed(self.table, screen), self.components(self.table, screen), _Shown(turn, deadline),
                        _screen.board_content(self.table, screen))

    def shown(self, token: Any) -> None:
        """A rendering is on screen: if it shows the turn to play now, the dealer starts its clock (if not running)."""
        if not isinstance(token, _Shown) or token.turn is None or token.deadline is None:
            return
        if token.turn == self.turn():
            self._turn_shown(token.turn, token.deadline)

    def permission_text(self, *, lang: Language) -> str:
        """What to grant the bot so that it can show a table in the channel, in ``lang`` (the reader's)."""
        missing = list(NEEDED_PERMISSIONS.values())
        channel = self.bot.get_channel(self.channel_id)
        if isinstance(channel, discord.abc.GuildChannel) and channel.guild.me is not None:
            perms = channel.permissions_for(channel.guild.me)
            lacking = [label for name, label in NEEDED_PERMISSIONS.items() if not getattr(perms, name)]
            missing = lacking or missing
        names = listed([f"**{m.worded(lang)}**" for m in missing], lang=lang)
        return say(lang, "I cannot post the table in {channel}: please grant me {permissions} in that channel "
                         "(Edit Channel → Permissions), then use `/poker table show`.",
                   channel=channel_mention(self.channel_id), permissions=names)

    # ------------------------------------------------------------------ the table message

    def turn(self) -> Turn | None:
        """The moment on the clock now: the player to act, or the dealer's choice (its menu on screen)."""
        table = self.table
        step = table.next()
        if step.kind == "act" and step.user is not None and table.live is not None:
            return Turn("act", step.user, table.live.record.id, table.live.seq)
        if step.kind == "choose" and step.user is not None and not self.show_finished:  # the menu is on screen
            return Turn("choose", step.user, 0, self.choice_number())
        return None

    def turn_of(self, user: int) -> Turn | None:
        """The turn ``user`` is to play now, if it is his."""
        turn = self.turn()
        return turn if turn is not None and turn.user == user else None

    def choice_number(self) -> int:
        """Tells one dealer's-choice menu from the next: the button's seat and the table's hand count."""
        return (self.table.record.button or 0) * 1000 + self.table.hands_dealt

    def screen(self, deadline: float | None = None) -> _screen.Screen:
        """What the message shows besides the table."""
        lang = self.language
        notices = [say(lang, "⚠ {who} gets no DMs: press **My hand** to see your cards.", who=mention(s.user_id))
                   for s in self.table.record.seats if s.dms_closed]
        return _screen.Screen(recent=tuple(self.recent), deadline=deadline, choice_number=self.choice_number(),
                              card=self.card, notices=notices, show_finished=self.show_finished, language=lang)

    def note(self, line: str) -> None:
        """Add a line to this hand's log."""
        self.recent.append(line)
        del self.recent[:-_screen.MAX_LOG_LINES]

    def log_events(self, outcome: Outcome) -> None:
        """The public lines of an outcome's events, into the log (in the table's language)."""
        game = outcome.hand.game if outcome.hand is not None else None
        lang = self.language
        for event in outcome.events:
            if game is not None and _text.starts_street(event, game):
                self.recent.clear()  # a new street: the log keeps its lines only
            line = _text.event_line(event, outcome.users, self.card, game, lang=lang)
            if line:
                self.note(line)

    def new_page(self) -> discord.Embed | None:
        """The next hand (or the dealer's choice) starts a page of its own, with an empty log: the summary of the
        hand just over, to reduce its page to, if the page showed it."""
        summary = None
        if self.show_finished:
            summary = _screen.summary_embed(self.table, lang=self.language)
            self.show_finished = False
        self.recent.clear()
        return summary

    def closed_embed(self, results: Sequence[str]) -> discord.Embed:
        """The table message once the table is closed (with the hand it was showing, and the night's ``results``)."""
        lang = self.language
        last = _screen.summary_embed(self.table, lang=lang) if self.show_finished else None
        return _screen.closed_embed(last, _screen.closing_line(self.table, results=bool(results), lang=lang), results,
                                    lang=lang)

    def moved_embed(self) -> discord.Embed:
        """An older table message, once a new one is posted: a link to it."""
        record = self.table.record
        return _screen.moved_embed(record.guild_id, record.channel_id, self.message_id, lang=self.language)

    def link(self) -> str:
        """A link to the table message."""
        record = self.table.record
        return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{self.message_id}"

    def alert_texts(self, turn: Turn, deadline: float, *, lang: Language = ENGLISH) -> tuple[AlertText, AlertText]:
        """The DMs of ``turn``'s alerts (see ``_alerts``) in ``lang`` (his): his turn, then his clock about to run
        out."""
        if turn.kind == "act":
            legal = self.table.legal()
            asked = _screen.asked(legal, lang=lang) if legal is not None else say(lang, "your move")
        else:
            asked = say(lang, "pick the next game")
        game = self.table.hand.game.name if self.table.hand is not None else say(lang, "Dealer's choice")
        where = f"<#{self.channel_id}> ({game})"
        link = self.link()
        # The time left as Discord's relative timestamp, which counts down as the table's clock does (a number of
        # seconds written when the DM is sent would be stale when it is read).
        ends = f"<t:{int(deadline)}:R>"
        turn_text = say(lang, "🔔 Your turn at {where}: {asked} · ⏱ {ends}", where=where, asked=asked, ends=ends)
        late_text = say(lang, "⏰ Time runs out {ends} at {where}: {asked}", ends=ends, where=where, asked=asked)
        return (lambda left: f"{turn_text}\n{link}", lambda left: f"{late_text}\n{link}")

    # ------------------------------------------------------------------ the channel's other messages

    def keep_opener(self, interaction: discord.Interaction) -> None:
        """``interaction`` was answered in the channel with what only matters until the first deal (the table's
        opening, the host's start): its answer goes once a hand is dealt, so that the channel holds the table."""
        self.openers.append(interaction)

    def remove_openers(self) -> None:
        """A hand is dealt: the openers' answers go (in the background)."""
        openers, self.openers = self.openers, []
        for interaction in openers:
            if token_usable(interaction):  # (an answer older than its token stays: nothing else removes it)
                self._remove_later(interaction)

    def _remove_later(self, interaction: discord.Interaction) -> None:
        async def remove() -> None:
            try:
                await interaction.delete_original_response()
            except DISCORD_ERRORS as error:
                log.info("could not remove the answer to interaction %s (%r)", interaction.id, error)

        self.scheduler.schedule(("removal", interaction.id), remove())

    async def post(self, text: str) -> None:
        """Post a line in the table's channel; a failure is logged, not raised."""
        channel = self.bot.get_partial_messageable(self.channel_id)
        nonce = secrets.token_hex(12)  # tried again, the line is not posted twice
        try:
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
        except DISCORD_ERRORS as error:
            log.warning("could not post in channel %s (%r)", self.channel_id, error)
