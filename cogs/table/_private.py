"""Each player's one private message at a table, carrying his cards: his hand where he acts, nothing piling up.

Whatever the bot tells a player privately at a table (the answer to his join, My hand, the draw picker and what it
dealt, the dealer's-choice menu, a refusal, All in's question, the answer to a typed move) is his *private message*
there. The next one replaces it: the older one is deleted through its own interaction's token, so a hand leaves one
private message under the table, not a pile that pushes the table off a phone's screen.

While he is in a hand it shows his cards: when nothing else is said, as the message's text, alone, so that Discord
draws the card pictures large (48 px, an emoji-only message), and what they make in a small embed under them; so
too after his move (a bet, a draw: ``after``), with one line in that embed saying what he did, and at the hand's
end (``finished``), saying what he won; under other words (a refusal, a question) in that embed, cards and all. It
is kept current: at each deal it is edited to show his new hand, at each street of a flop or stud game the board,
and when he acts on the table message and it is not under the current table message (a new hand is a new
message), a fresh one is sent under it. So at each of his turns his
cards are right under the table's buttons, with no extra tap. Discord lets a token be used for 15 minutes: an older
private message can no longer be edited or removed and is forgotten (his next tap makes a new one).

Everything here goes through interaction endpoints, which Discord's global rate limit does not count.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Language
from bot.runtime.scheduler import background

from ..language import reader_language
from ..reply import Reply
from ..transport import DISCORD_ERRORS
from ._writer import token_usable

log = logging.getLogger(__name__)

PANEL_COLOUR = discord.Colour.dark_green()


@dataclass(frozen=True, slots=True)
class Cards:
    """A player's hand as his private message shows it: the cards (markup), which hand, and what they make (worded
    in the reader's language by ``caption``, or the same in every language: a str)."""

    hand: int  # the hand's id
    cards: str
    caption: str | Callable[[Language], str]  # "#5 2-7 Triple Draw · Pair of fives (5-5-A-T-9)"

    def caption_in(self, lang: Language) -> str:
        """Which hand and what the cards make, in ``lang``."""
        return self.caption if isinstance(self.caption, str) else self.caption(lang)


@dataclass(frozen=True, slots=True)
class _Message:
    interaction: discord.Interaction  # whose token edits or deletes it
    message_id: int | None  # None: the interaction's original response, id unknown
    followup: bool
    hand: int | None  # the hand whose cards it shows
    turn: Any = None  # a picker or question of the player's turn: the turn it answers, while he may still use it


class PrivateMessages:
    """The private message of each player at one table (see the module docstring). ``cards_of`` gives a player's
    hand as it is now, None when he has none (not dealt in, folded, no hand being played); ``controls_of`` the buttons
    shown with his cards when they are shown again (a deal, a street: his pre-actions, labelled in his language),
    None for none. What a private message says is in its reader's language: the answer's (``Reply.language``), or,
    when it is edited without an answer (a deal, a street), that of the interaction whose token edits it."""

    def __init__(self, cards_of: Callable[[int], Cards | None], turn_of: Callable[[int], Any] = lambda user: None,
                 controls_of: Callable[[int, Language], discord.ui.View | None] = lambda user, lang: None) -> None:
        self._cards_of = cards_of
        self._turn_of = turn_of  # the turn ``user`` is to play now (None: not his turn)
        self._controls_of = controls_of
        self._by_user: dict[int, _Message] = {}
        self._aside: dict[int, _Message] = {}  # sent while his picker was in use: goes once it is not
        self._finals: dict[int, asyncio.Task[None]] = {}  # a finished hand's cards being shown: before the next deal

    # ------------------------------------------------------------------ what is sent

    def follow(self, reply: Reply) -> None:
        """Make the private answers through ``reply`` this table's (dressed, and replacing the previous one)."""
        reply.private = self

    def language_of(self, user: int, fallback: Language) -> Language:
        """The language of ``user``'s private message: his client's, as the interaction whose token edits it
        showed it; ``fallback`` when he has none."""
        mine = self._by_user.get(user)
        return reader_language(mine.interaction) if mine is not None else fallback

    def fields(self, user: int, note: str | None, *, lang: Language) -> dict[str, Any] | None:
        """The message of ``user``'s cards under ``note`` (content, embed), in ``lang``, or None when he holds
        none."""
        held = self._cards_of(user)
        if held is None:
            return None
        caption = held.caption_in(lang)
        if note:
            return {"content": note,
                    "embed": discord.Embed(description=f"{held.cards}\n{caption}", colour=PANEL_COLOUR)}
        return {"content": held.cards, "embed": discord.Embed(description=caption, colour=PANEL_COLOUR)}

    def after(self, user: int, caption: str, *, lang: Language) -> dict[str, Any] | None:
        """The message of ``user``'s cards once he has moved (a bet, a draw): the cards alone as its text, so that
        Discord draws them large, ``caption`` under them (what he did, what they make), and his pre-action buttons
        in ``lang`` if he may choose ahead now (no ``view`` key otherwise); None when he holds no cards."""
        held = self._cards_of(user)
        if held is None:
            return None
        shown: dict[str, Any] = {"content": held.cards,
                                 "embed": discord.Embed(description=caption, colour=PANEL_COLOUR)}
        controls = self._controls_of(user, lang)
        if controls is not None:
            shown["view"] = controls
        return shown

    def dress(self, reply: Reply, content: str | None, fields: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """A private answer with the player's cards above it, if he holds some and it has no buttons or embeds of
        its own."""
        if fields.get("view") is not None:
            reply.controls = True  # a picker or a question: kept while his turn lasts
        if any(fields.get(k) for k in ("view", "embed", "embeds", "file", "files")):
            return content, fields
        panel = self.fields(reply.user, content, lang=reply.language)
        if panel is None:
            return content, fields
        return panel.pop("content"), {**fields, **panel}

    def sent(self, reply: Reply, message_id: int | None, *, followup: bool) -> None:
        """A private message went to the interaction's user: it is his now; his previous one is deleted. A picker
        or question of his turn that he may still be using is not, unless the new one is a picker too (Draw…
        pressed twice: the newer serves): the new message is put aside, deleted with the next one (a stray command
        refused while he picks his cards does not take the picker away)."""
        user = reply.user
        held = self._cards_of(user)
        turn = self._turn_of(user) if reply.controls else None
        reply.controls = False
        new = _Message(reply.interaction, message_id, followup, held.hand if held is not None else None, turn)
        old = self._by_user.get(user)
        same = old is not None and _same(old, new)
        aside = self._aside.get(user)
        if aside is not None and _same(aside, new):  # (edited again)
            if not _older(new, aside):
                self._aside[user] = new
            return
        if old is not None and _older(new, old):  # a slow answer to an older click: the newer one stays his
            if not same:
                self._spawn(self._delete(new))
            return
        in_use = old is not None and old.turn is not None and old.turn == self._turn_of(user)
        if not same and in_use and new.turn is None:  # a newer picker replaces an older one
            if aside is not None and _older(new, aside):
                self._spawn(self._delete(new))
                return
            self._replace_aside(user, new)
            return
        self._by_user[user] = new
        if old is not None and not same:
            self._spawn(self._delete(old))
        if new.turn is None:
            self._replace_aside(user, None)

    def updated(self, reply: Reply, *, controls: bool) -> None:
        """A click on a private message was answered by editing it (the picker; ``controls``: still with buttons):
        the click's token is its newest."""
        message = reply.interaction.message
        if message is not None and message.flags.ephemeral:
            if controls:
                reply.controls = True
            self.sent(reply, message.id, followup=False)

    def _replace_aside(self, user: int, new: _Message | None) -> None:
        old = self._aside.pop(user, None)
        if new is not None:
            self._aside[user] = new
        if old is not None:
            self._spawn(self._delete(old))

    # ------------------------------------------------------------------ kept current

    async def deal(self, users: list[int]) -> None:
        """A hand was dealt: each player's private message shows his new cards (where its token still works); what
        was put aside goes."""
        for user in users:
            self._replace_aside(user, None)
        await asyncio.gather(*(self._show_cards(user) for user in users))

    def refresh(self, users: list[int]) -> None:
        """A street was dealt (a flop game's board, a stud card): each player's private message is edited to show his
        hand as it is now, in the background (the table's answer does not wait for it); a picker or question he
        may still be using is left as it is."""
        for user in users:
            if not self._in_use(user):
                self._spawn(self._show_cards(user, keep_controls=True))

    def _in_use(self, user: int) -> bool:
        """Whether ``user``'s private message is a picker or question of his turn that he may still be using."""
        mine = self._by_user.get(user)
        return mine is not None and mine.turn is not None and mine.turn == self._turn_of(user)

    async def under_table(self, reply: Reply, table_message: int | None,
                          caption: Callable[[], str | None] = lambda: None) -> None:
        """``reply``'s interaction, a click on the table message, was answered with the table: the player's cards
        are put under it, unless his private message is already there (it shows them large: no call is spent on
        saying more); with a ``caption`` (what his move did, asked only if they are sent), in the form of
        ``after``."""
        user = reply.user
        if self._cards_of(user) is None or not token_usable(reply.interaction):  # (a token is not used later when
            return  # the writer may not either: TOKEN_REUSE)
        mine = self._by_user.get(user)
        if mine is not None and token_usable(mine.interaction) and mine.message_id is not None \
                and table_message is not None and mine.message_id > table_message:
            return
        self.follow(reply)
        words = caption()
        shown = self.after(user, words, lang=reply.language) if words else None
        if shown is None:
            await reply.send(None)
            return
        await reply.send(shown.pop("content"), **shown)

    def finished(self, final: dict[int, tuple[str, str]]) -> None:
        """A hand is over: each player still in it sees his final hand in his private message, in the background,
        ``final[user]``: his cards alone (drawn large) and the words under them (what it makes, what he won)."""
        for user, (cards, caption) in final.items():
            panel = {"content": cards, "embed": discord.Embed(description=caption, colour=PANEL_COLOUR)}
            task = background(self._edit(user, panel, None), name=f"final hand of {user}")
            task.add_done_callback(functools.partial(self._final_shown, user))
            self._finals[user] = task

    def _final_shown(self, user: int, task: asyncio.Task[None]) -> None:
        if self._finals.get(user) is task:
            del self._finals[user]

    async def _show_cards(self, user: int, *, keep_controls: bool = False) -> None:
        """Edit ``user``'s private message to show his cards; with ``keep_controls``, not if it has become (since
        this was asked) a picker or question of his turn: his click that opened it came after the street dealt."""
        final = self._finals.pop(user, None)
        if final is not None:  # the last hand's end, shown first: a new hand's cards are not overwritten by it
            await asyncio.wait([final])
        mine = self._by_user.get(user)
        if mine is None:  # (nothing to edit)
            return
        lang = reader_language(mine.interaction)
        panel = self.fields(user, None, lang=lang)
        if panel is None:
            return
        if keep_controls and self._in_use(user):
            return
        await self._edit(user, panel, self._controls_of(user, lang))

    async def _edit(self, user: int, panel: dict[str, Any], view: discord.ui.View | None) -> None:
        """Edit ``user``'s private message, where its token still works, to ``panel`` and ``view``."""
        mine = self._by_user.get(user)
        if mine is None or not token_usable(mine.interaction):
            return
        held = self._cards_of(user)
        try:
            if mine.followup and mine.message_id is not None:
                await mine.interaction.followup.edit_message(mine.message_id, view=view, **panel)
            else:
                await mine.interaction.edit_original_response(view=view, **panel)
        except DISCORD_ERRORS as error:
            log.info("could not show user %s his cards in his private message (%r)", user, error)
            return
        if self._by_user.get(user) is mine:
            self._by_user[user] = _Message(mine.interaction, mine.message_id, mine.followup,
                                           held.hand if held is not None else None)

    # ------------------------------------------------------------------ removed

    async def _delete(self, old: _Message) -> None:
        if not token_usable(old.interaction):
            return
        try:
            if old.followup and old.message_id is not None:
                await old.interaction.followup.delete_message(old.message_id)
            else:
                await old.interaction.delete_original_response()
        except DISCORD_ERRORS as error:
            log.info("could not remove the private message of interaction %s (%r)", old.interaction.id, error)

    @staticmethod
    def _spawn(work: Coroutine[Any, Any, None]) -> None:
        background(work, name="a private message")

    async def clear(self) -> None:
        """The table closed: every player's private message goes (its cards and reports are of no use now)."""
        gone, self._by_user = [*self._by_user.values(), *self._aside.values()], {}
        self._aside = {}
        await asyncio.gather(*(self._delete(old) for old in gone))


def _older(new: _Message, old: _Message) -> bool:
    """``new`` answers a click that reached Discord before ``old``'s did (interaction ids are snowflakes, in the
    order Discord received the interactions): the order of the clicks, not of their answers, decides which message
    is the player's current one."""
    return new.interaction.id < old.interaction.id


def _same(old: _Message, new: _Message) -> bool:
    if old.message_id is not None and old.message_id == new.message_id:
        return True
    return old.interaction.id == new.interaction.id and not old.followup and not new.followup
