"""Cards shown as the bot's own application emojis (pictures from ``bot.content.cardfaces``), text where one is missing.

On start ``CardEmojis.sync`` lists the application's emojis and uploads only the pictures that are missing.
An emoji's name carries its picture's version (``c_As_1a2b3c``: ``bot.content.cardfaces.art_hash``, a hash of what the
picture is drawn from), so a restart with the same drawing draws and uploads nothing, and a new drawing uploads
under new names; emojis of an older drawing are deleted only once every
current picture is uploaded. Nothing here can stop the bot: a failed listing or upload is logged and the cards
concerned stay text (``bot.content.cardfaces.card_text``).

Both decks are kept: the four-colour one (the default) and the two-colour one a player may prefer
(``/poker cards``). Spades, hearts, the jokers and the back are the same picture in both, so one emoji serves
both (81 in all); a sync uploads what either deck lacks and deletes only what neither uses.

Application emojis need no server and no permission; an application may own 2,000 (we use 81).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

import discord
from discord.ext import commands

from bot.content import cardfaces
from bot.poker.cards import Card
from bot.runtime.scheduler import Scheduler

log = logging.getLogger(__name__)

NAME_PREFIX: Final = "c_"
UPLOAD_CONCURRENCY: Final = 2  # uploads at a time: Discord rate-limits emoji creation, discord.py waits out a 429
_OURS: Final = re.compile(r"c_(?:[2-9TJQKA][cdhs]|X[12]|back)_[0-9a-f]{6}")


class AppEmoji(Protocol):
    """What is used of a ``discord.Emoji`` owned by the application."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> int: ...

    async def delete(self, *, reason: str | None = None) -> None: ...


class EmojiClient(Protocol):
    """What is used of the ``discord.Client`` (a stub in tests)."""

    async def fetch_application_emojis(self) -> Sequence[AppEmoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> AppEmoji: ...


def emoji_name(key: str, four_colours: bool) -> str:
    """The emoji name of a deck's picture: ``c_<card code or back>_<6 hex digits of its version>``."""
    return f"{NAME_PREFIX}{key}_{cardfaces.art_hash(key, four_colours=four_colours)}"


def _names(four_colours: bool) -> dict[str, str]:
    """The emoji name of each picture of a deck, by key."""
    return {key: emoji_name(key, four_colours) for key in cardfaces.picture_keys()}


def is_card_emoji(name: str) -> bool:
    """True for a name this module gives (of any drawing's version)."""
    return _OURS.fullmatch(name) is not None


@dataclass
class SyncReport:
    """What one ``sync`` did (names of emojis)."""

    present: list[str] = field(default_factory=list)  # already uploaded
    uploaded: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # shown as text until the next start
    deleted: list[str] = field(default_factory=list)  # an older drawing's, or a duplicate

    @property
    def complete(self) -> bool:
        """True when every picture is an emoji."""
        return not self.failed


DECKS: Final = (True, False)  # four colours, two colours


def card_emoji_pictures(four_colours: bool | None = None) -> dict[str, bytes]:
    """Every card picture under the emoji name the bot gives it ({name: PNG}): of one deck, or of both (None)."""
    decks = DECKS if four_colours is None else (four_colours,)
    return {emoji_name(key, four): png for four in decks for key, png in cardfaces.pictures(four).items()}


class CardEmojis:
    """The card pictures as application emojis, and each card's markup (an emoji, or text until one exists)."""

    def __init__(self, client: EmojiClient, *, concurrency: int = UPLOAD_CONCURRENCY) -> None:
        self._client = client
        self._concurrency = concurrency
        self._emojis: dict[bool, dict[str, discord.PartialEmoji]] = {}  # four colours? -> picture key -> emoji
        self.scheduler = Scheduler("card emojis")
        self._started: asyncio.Task[SyncReport] | None = None  # this start's sync, running or done

    # --- markup ---

    def card(self, card: Card, *, four_colours: bool = True) -> str:
        """``<:c_As_1a2b3c:123…>`` once uploaded, else the text form (``A♠︎``, ``10♥️``); an unknown card is the back."""
        emoji = self.partial(card, four_colours=four_colours)
        return str(emoji) if emoji is not None else cardfaces.card_text(card, four_colours=four_colours)

    def two_colours(self, card: Card) -> str:
        """``card`` in the two-colour deck."""
        return self.card(card, four_colours=False)

    def cards(self, seq: Iterable[Card], sep: str = " ", *, four_colours: bool = True) -> str:
        """Several cards, e.g. a hand."""
        return sep.join(self.card(c, four_colours=four_colours) for c in seq)

    def partial(self, card: Card, *, four_colours: bool = True) -> discord.PartialEmoji | None:
        """The card's emoji for a button or a select option, or None while it is not uploaded."""
        return self._emojis.get(four_colours, {}).get(cardfaces.BACK if card.is_unknown else card.code)

    def back(self) -> str:
        """A face-down card (a hidden card, one card of an opponent's hand)."""
        emoji = self._emojis.get(True, {}).get(cardfaces.BACK)
        return str(emoji) if emoji is not None else cardfaces.UNKNOWN_TEXT

    @property
    def ready(self) -> bool:
        """True once every picture of both decks is an emoji."""
        return all(len(self._emojis.get(four, {})) == len(cardfaces.picture_keys()) for four in DECKS)

    # --- start and stop ---

    def start(self) -> asyncio.Task[SyncReport]:
        """Run ``sync`` in the background (cards are text until it is done); call once the client is logged in.

        Returns the one sync of this start, running or done (calling again does not upload twice); a sync that
        was cancelled is run again.
        """
        if self._started is None or self._started.cancelled():
            self._started = self.scheduler.schedule("sync", self.sync())
        return self._started

    def stop(self) -> None:
        """Cancel a sync still running (on shutdown)."""
        self.scheduler.cancel_all()

    async def sync(self) -> SyncReport:
        """Upload the missing pictures, then (only when all are uploaded) delete the older drawings' emojis.

        Never raises, but for cancellation: whatever fails is logged and its cards stay text.
        """
        report = SyncReport()
        try:
            await self._sync(report)
        except Exception:
            log.exception("card emojis: the sync stopped; cards not uploaded are shown as text")
        return report

    async def _sync(self, report: SyncReport) -> None:
        names = {four: _names(four) for four in DECKS}
        wanted = list(dict.fromkeys(name for deck in names.values() for name in deck.values()))
        try:
            existing = await self._client.fetch_application_emojis()
        except Exception as exc:
            log.warning("card emojis: could not list the application's emojis (%r); cards are shown as text", exc)
            report.failed.extend(wanted)
            return
        found: dict[str, AppEmoji] = {}
        for emoji in sorted(existing, key=lambda e: e.id):  # of duplicates, the oldest is kept
            found.setdefault(emoji.name, emoji)
        ready = {name: found[name] for name in wanted if name in found}
        report.present.extend(ready)
        missing = [name for name in wanted if name not in ready]
        if missing:
            # Drawing a deck takes about a second: only a deck with a picture missing, and off the event loop.
            pictures: dict[str, bytes] = {}
            for four, deck in names.items():
                if any(name not in ready for name in deck.values()):
                    drawn = await asyncio.to_thread(cardfaces.pictures, four)
                    pictures.update((deck[key], png) for key, png in drawn.items())
            log.info("card emojis: uploading %d of %d", len(missing), len(wanted))
            ready.update(await self._upload(missing, pictures, report))
        self._emojis = {four: {key: discord.PartialEmoji(name=ready[name].name, id=ready[name].id)
                               for key, name in deck.items() if name in ready} for four, deck in names.items()}
        if report.failed:
            log.warning("card emojis: %d not uploaded (%s); shown as text until the next start",
                        len(report.failed), ", ".join(report.failed))
            return
        kept = {e.id for e in ready.values()}
        for emoji in existing:
            if is_card_emoji(emoji.name) and emoji.id not in kept:
                await self._delete(emoji, report)

    async def _upload(self, names: list[str], pictures: Mapping[str, bytes], report: SyncReport
                      ) -> dict[str, AppEmoji]:
        done: dict[str, AppEmoji] = {}
        gate = asyncio.Semaphore(self._concurrency)
        stopped = False  # a long rate limit: the rest would wait as long

        async def upload(name: str) -> None:
            nonlocal stopped
            async with gate:
                if stopped:
                    report.failed.append(name)
                    return
                try:
                    done[name] = await self._client.create_application_emoji(name=name, image=pictures[name])
                    report.uploaded.append(name)
                except discord.RateLimited as exc:
                    stopped = True
                    report.failed.append(name)
                    log.warning("card emojis: rate limited for %.0f s; not uploading the rest", exc.retry_after)
                except Exception as exc:  # HTTPException, or the network: that card stays text
                    report.failed.append(name)
                    log.warning("card emojis: could not upload %s (%r)", name, exc)

        await asyncio.gather(*(upload(name) for name in names))
        return done

    async def _delete(self, emoji: AppEmoji, report: SyncReport) -> None:
        try:
            await emoji.delete()
            report.deleted.append(emoji.name)
        except discord.DiscordException as exc:
            log.warning("card emojis: could not delete the old emoji %s (%s)", emoji.name, exc)


class CardEmojiCog(commands.Cog):
    """Starts the emoji sync when loaded, cancels it when unloaded; ``emojis`` gives each card's markup."""

    def __init__(self, bot: commands.Bot) -> None:
        self.emojis = CardEmojis(bot)

    async def cog_load(self) -> None:
        self.emojis.start()

    async def cog_unload(self) -> None:
        self.emojis.stop()


async def setup(bot: commands.Bot) -> None:
    """Load as an extension (``cogs.card_emojis``) from ``setup_hook``, after login."""
    await bot.add_cog(CardEmojiCog(bot))
