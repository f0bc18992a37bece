"""Scripted players who play at a table by reading what Discord shows them, as people would.

They know nothing of the bot's insides: whose turn it is, which buttons there are and what a player holds come from
the table message (its embed and components), the draw modal and the dealer's-choice select, as the fake
Discord holds them. The offline demo (``python -m bot demo``) and the load bench (``bench/load.py``) use them.

* :func:`read_screen` turns a table message into a :class:`Screen` (the hand and action number carried by the
  buttons, the player to act named in the Turn field, the dealer's choice, players without chips);
* :class:`TablePlayers` watches one channel's table message and, ``pace`` seconds after each turn starts, makes the
  player to act click a button chosen by a :class:`Policy` (the draw: Stand pat, or Draw… and the cards picked in
  the draw modal; the dealer's choice through the select), and tops up players who ran out of chips.

Usage (``fake`` an :class:`~pokerdev.observed.ObservedFake` with a bot connected)::

    players = TablePlayers(fake, "poker", ["alice", "bob", "carol"], pace=0.0, policy=Policy(random.Random(1)))
    fake.watchers.append(players.watch)
    await players.open_table(game="dealers-choice", small_blind=5, big_blind=10)
    ...
    await players.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .fakediscord import (
    BUTTON,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_UPDATE,
    STRING_SELECT,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    StoredMessage,
)
from .observed import ObservedFake

__all__ = ["Menu", "Policy", "Screen", "TablePlayers", "read_menu", "read_screen"]

log = logging.getLogger(__name__)

ACTION_ID = re.compile(r"pk:turn:(\d+):(\d+):(\d+):([a-z]+)$")
SIZE_ID = re.compile(r"pk:turn:\d+:\d+:\d+:([a-z-]+)$")  # a size of the bet menu (bet-half...)
CHOICE_ID = re.compile(r"pk:choose:(\d+):(\d+)$")  # the table message's Pick the game…
GAME_ID = re.compile(r"pk:game:(\d+):(\d+)(:[a-z0-9-]+)?$")  # the chooser's menu: its games
DEAL_ID = re.compile(r"pk:deal:(\d+):(\d+)(:[a-z0-9-]+){0,2}$")
TOGGLE_ID = re.compile(r"pk:card:\d+:\d+:\d+:\d+:(\d)$")
CONFIRM_ID = re.compile(r"pk:throw:\d+:\d+:\d+:\d+:([01])$")
MENTION = re.compile(r"<@(\d+)>")
SEAT_LINE = re.compile(r"<@(\d+)>\s+([\d,]+)")
PROMPT = re.compile(r"^\*\*<@(\d+)>: (.*?)\*\*", re.MULTILINE)  # the player to act
CHOOSER = re.compile(r"^\*\*<@(\d+)> picks the next game\*\*", re.MULTILINE)
DEAL_SHOWN_WITHIN = 5.0  # seconds a pick may take to show its Deal button (the edit after a deferred answer)

Narrator = Callable[[str, str], None]


@dataclass(frozen=True)
class Screen:
    """What one version of a table message shows."""

    message: StoredMessage
    table_id: int | None = None
    hand_id: int | None = None
    seq: int | None = None
    actor: int | None = None  # named in the bold prompt line
    drawing: bool = False
    buttons: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # kind -> (custom_id, label)
    choice_id: str | None = None  # dealer's choice: the chooser's Pick the game…
    chooser: int | None = None
    broke: tuple[int, ...] = ()  # seated with no chips

    @property
    def key(self) -> tuple[int, int] | None:
        """The moment of the hand the buttons belong to: (hand id, action number)."""
        return (self.hand_id, self.seq) if self.hand_id is not None and self.seq is not None else None


def _description(message: StoredMessage) -> str:
    return str(message.embeds[0].get("description") or "") if message.embeds else ""


def read_screen(message: StoredMessage) -> Screen | None:
    """The table message's state, or None if ``message`` is not a table message (a finished hand's summary)."""
    text = _description(message)
    if not text or not message.custom_ids():
        return None
    buttons: dict[str, tuple[str, str]] = {}
    table_id = hand_id = seq = None
    choice_id: str | None = None
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        found = ACTION_ID.match(custom_id)
        if found and component.get("type") == BUTTON and not component.get("disabled"):
            table_id, hand_id, seq = int(found[1]), int(found[2]), int(found[3])
            buttons[found[4]] = (custom_id, str(component.get("label") or ""))
            continue
        if CHOICE_ID.match(custom_id) and component.get("type") == BUTTON:
            choice_id = custom_id
    prompt = PROMPT.search(text)
    actor = int(prompt[1]) if prompt else None
    drawing = "draw" in buttons or "pat" in buttons
    chooser_line = CHOOSER.search(text)
    chooser = int(chooser_line[1]) if chooser_line else None
    broke = [int(m[1]) for line in text.splitlines()
             if (m := SEAT_LINE.search(line)) and m[2] == "0" and "all in" not in line]
    return Screen(message, table_id, hand_id, seq, actor, drawing, buttons, choice_id, chooser, tuple(broke))


def _menu_of(opened: InteractionRecord) -> Menu | None:
    """The menu that followed the answer to Pick the game…, once it came."""
    return next((m for m in map(read_menu, opened.followups) if m is not None), None)


@dataclass(frozen=True)
class Menu:
    """The dealer's-choice menu the chooser sees (his private message)."""

    message: StoredMessage
    select_id: str
    games: tuple[str, ...]
    game_names: Mapping[str, str]  # value -> label
    deal_id: str | None = None  # the Deal button, once a game is picked


def read_menu(message: StoredMessage) -> Menu | None:
    """The chooser's menu, or None if ``message`` is not one (a refusal, his cards)."""
    select_id: str | None = None
    games: tuple[str, ...] = ()
    names: dict[str, str] = {}
    deal_id: str | None = None
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        if GAME_ID.match(custom_id) and component.get("type") == STRING_SELECT:
            select_id = custom_id
            options = component.get("options") or []
            games = tuple(str(o["value"]) for o in options)
            names = {str(o["value"]): str(o.get("label") or o["value"]) for o in options}
        if DEAL_ID.match(custom_id) and component.get("type") == BUTTON and not component.get("disabled"):
            deal_id = custom_id
    return Menu(message, select_id, games, names, deal_id) if select_id is not None and games else None


class Policy:
    """How the scripted players play: mostly check and call, sometimes bet the minimum or the pot, fold a
    little (``fold`` of the calls), throw zero to three cards at random, pick a random game."""

    def __init__(self, rng: random.Random, *, fold: float = 0.12, bet: float = 0.2) -> None:
        self.rng, self.fold, self.bet = rng, fold, bet

    def betting(self, buttons: Mapping[str, tuple[str, str]]) -> str:
        """The kind of button to click: ``fold``, ``cc``, ``min`` or ``pot``; in stud, ``bringin`` (or ``min``,
        the completion) for the player who brings in."""
        if "bringin" in buttons:
            return "min" if "min" in buttons and self.rng.random() < self.bet else "bringin"
        roll = self.rng.random()
        checking = buttons.get("cc", ("", ""))[1].startswith("Check")
        if not checking and "fold" in buttons and roll < self.fold:
            return "fold"
        roll = self.rng.random()
        if "raise" in buttons and roll < self.bet:  # pot and no limit: Raise… opens the menu of sizes
            return "raise"
        if "min" in buttons and roll < self.bet:
            return "pot" if "pot" in buttons and roll < self.bet / 5 else "min"
        return "cc"

    def size(self, sizes: Sequence[str]) -> str:
        """Which size of the bet menu to tap (its button's name): mostly the smallest, sometimes ½ pot or the pot."""
        roll = self.rng.random()
        for name, share in (("pot", 0.1), ("bet-half", 0.3)):
            if name in sizes and roll < share:
                return name
        return "bet-min" if "bet-min" in sizes else sizes[0]

    def draw_count(self) -> int:
        """How many cards to throw, zero to three (zero: stand pat), decided before looking at the draw form."""
        return self.rng.randint(0, 3)

    def discards(self, codes: Sequence[str], count: int) -> list[str]:
        """Which ``count`` of the cards ``codes`` to throw."""
        return self.rng.sample(list(codes), min(count, len(codes)))

    def game(self, games: Sequence[str]) -> str:
        return self.rng.choice(list(games))


@dataclass
class Counts:
    """What a table's players did."""

    decisions: int = 0  # bets, calls, folds, checks, draws and games chosen that the bot took
    interactions: int = 0  # every click, select and command sent (a draw is two or three)
    refused: int = 0  # answered with an error instead of taking the action
    stale: int = 0  # the screen changed before the click (nothing sent)
    draws: int = 0  # draw decisions (Stand pat: one click; Draw…: the click, then the modal submitted)
    picks: int = 0  # of them, with cards thrown (through the modal)
    rebuys: int = 0


class TablePlayers:
    """The players of one channel's table, playing from what the table message shows."""

    def __init__(self, fake: ObservedFake, channel: FakeChannel | str | int, players: Sequence[FakeUser | str], *,
                 pace: float = 0.0, policy: Policy | None = None, buy_in: int = 500,
                 narrate: Narrator | None = None, forget: bool = False, banker: str | None = None) -> None:
        self.fake = fake
        self.channel = fake.channel(channel)
        self.players = [fake.user(p) for p in players]
        self.by_id = {p.id: p for p in self.players}
        self.pace = pace
        self.policy = policy or Policy(random.Random(0))
        self.buy_in = buy_in
        self.narrate = narrate
        self.forget = forget  # drop each answered interaction from the fake (long runs)
        self.banker = banker or fake.user(fake.owner_id).name
        self.counts = Counts()
        self.refusals: Counter[str] = Counter()  # what the bot answered to refused clicks
        self.latest: Screen | None = None
        self.active = False
        self._last_key: tuple[int, int] = (-1, -1)
        self._chosen: deque[int] = deque(maxlen=4)  # the choice screens acted on
        self._choosing = False  # a pick is on its way or was taken, and no hand was shown since
        self._rebuying: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.turn_started: dict[tuple[int, int], float] = {}

    # ------------------------------------------------------------------ setting up

    async def command(self, user: FakeUser | str, command: str, sub: str, *, group: str | None = None,
                      **options: Any) -> InteractionRecord:
        """A slash command in the table's channel; its answered record."""
        who = self.fake.user(user)
        shown = " ".join(f"{k}:{v.name if isinstance(v, FakeUser) else v}" for k, v in options.items())
        self._say(who, f"/{command} {group + ' ' if group else ''}{sub}{' ' + shown if shown else ''}")
        iid = await self.fake.slash(who, command, subcommand=sub, group=group, options=options,
                                    channel=self.channel)
        self.counts.interactions += 1
        rec = await self.fake.answer(iid)
        if self.forget:
            self.fake.forget(iid)
        return rec

    async def open_table(self, *, start: bool = True, **settings: Any) -> None:
        """/poker create by the first player (``settings`` are its options), /poker join by every player (with
        ``buy_in`` chips), then /poker table start."""
        host = self.players[0]
        created = await self.command(host, "poker", "create", **settings)
        if not created.content.startswith("Table open"):
            raise RuntimeError(f"#{self.channel.name}: /poker create answered {created.content!r}")
        for player in self.players:
            joined = await self.command(player, "poker", "join", buy_in=self.buy_in)
            if not joined.content.startswith("You sit in seat"):
                raise RuntimeError(f"#{self.channel.name}: /poker join answered {joined.content!r}")
        if start:
            await self.start()

    async def start(self, *, play: bool = True) -> None:
        """/poker table start by the host; the players play from then on (or, ``play`` False, once :meth:`play`)."""
        self.active = play
        started = await self.command(self.players[0], "poker", "start", group="table")
        if started.late:  # the bot was too busy to answer in time; the table was started all the same
            log.warning("#%s: /poker table start was answered late", self.channel.name)
        elif started.content != "Shuffle up and deal!":
            raise RuntimeError(f"#{self.channel.name}: /poker table start answered {started.content!r}")

    def play(self) -> None:
        """Start playing (after ``start(play=False)``): act on what the table shows now."""
        self.active = True
        self.poke()

    async def stop(self) -> None:
        """Stop playing (turns being taken are cancelled)."""
        self.active = False
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ watching

    def watch(self, message: StoredMessage, created: bool = False) -> None:
        """A message changed: if it is this table's message, act on what it shows (a watcher of the fake)."""
        if message.channel_id != self.channel.id or message.ephemeral:
            return
        if message.author.get("id") != str(self.fake.app_id):
            return
        screen = read_screen(message)
        if screen is not None:
            self.latest = screen
            self._react(screen)

    def poke(self) -> None:
        """Look at the table message again (a turn missed, or an action refused, is taken again)."""
        if self.latest is not None:
            screen = read_screen(self.latest.message)
            if screen is not None:
                self._react(screen)

    def _react(self, screen: Screen) -> None:
        if not self.active:
            return
        for user_id in screen.broke:
            if user_id in self.by_id and user_id not in self._rebuying:
                self._rebuying.add(user_id)
                self._spawn(self._rebuy(self.by_id[user_id]))
        key = screen.key
        if key is not None:
            self._choosing = False  # a hand is on: the next choice screen is a new choice
            if key > self._last_key and screen.actor in self.by_id and screen.buttons:
                self._last_key = key
                self.turn_started.setdefault(key, asyncio.get_running_loop().time())
                self._spawn(self._turn(screen, key))
        elif screen.choice_id is not None and screen.chooser in self.by_id:
            # A choice screen carries no hand number: it is known by what it shows. The same screen again is the
            # same choice (an older edit landing late, just before the bot shows the table again).
            # A person does not pick again while his pick is on its way, or once it was taken.
            fingerprint = _fingerprint(screen.message)
            if fingerprint not in self._chosen and not self._choosing:
                self._chosen.append(fingerprint)
                self._choosing = True
                self._spawn(self._choose(screen, fingerprint))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _failed(self, key: tuple[int, int] | None) -> None:
        """The turn was not taken: let :meth:`poke` try it again."""
        if key is not None and self._last_key == key:
            self._last_key = (key[0], key[1] - 1)

    def _say(self, user: FakeUser, what: str) -> None:
        if self.narrate is not None:
            self.narrate(user.name, what)

    # ------------------------------------------------------------------ acting

    async def _wait_pace(self, key: tuple[int, int]) -> None:
        if self.pace > 0:
            started = self.turn_started.pop(key, None)
            loop = asyncio.get_running_loop()
            wait = self.pace - (loop.time() - started) if started is not None else self.pace
            if wait > 0:
                await asyncio.sleep(wait)
        else:
            self.turn_started.pop(key, None)

    async def _send(self, sending: Any, *, keep: list[int] | None = None) -> InteractionRecord | None:
        """Send a click or select (None if the screen changed first: nothing was sent); its answered record.
        With ``keep`` the record is not forgotten yet (its ephemeral message is still being used): its id is
        added to ``keep``."""
        try:
            iid = await sending
        except ValueError:  # the message no longer shows that component: a newer screen is coming
            self.counts.stale += 1
            return None
        self.counts.interactions += 1
        rec = await self.fake.answer(iid)
        if keep is not None:
            keep.append(iid)
        elif self.forget and rec.response_type in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            self.fake.forget(iid)
        return rec

    def _took(self, rec: InteractionRecord | None, key: tuple[int, int] | None) -> bool:
        if rec is None:
            self._failed(key)
            return False
        if rec.response_type in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            self.counts.decisions += 1
            return True
        self.counts.refused += 1
        self.refusals[rec.content[:80]] += 1
        log.info("#%s: refused: %s", self.channel.name, rec.content)
        self._failed(key)
        return False

    async def _turn(self, screen: Screen, key: tuple[int, int]) -> None:
        assert screen.actor is not None
        user = self.by_id[screen.actor]
        try:
            await self._wait_pace(key)
            if not self.active:
                return
            if "draw" in screen.buttons:
                await self._draw(user, screen, key)
                return
            kind = self.policy.betting(screen.buttons)
            custom_id, label = screen.buttons[kind]
            self._say(user, f"clicks {label}")
            rec = await self._send(self.fake.click(user, screen.message, custom_id))
            if kind == "raise" and rec is not None and rec.message is not None:
                rec = await self._size(user, rec.message)
            self._took(rec, key)
        except (TimeoutError, LookupError, RuntimeError) as error:
            log.warning("#%s: %s's turn failed: %r", self.channel.name, user.name, error)
            self._failed(key)

    async def _size(self, user: FakeUser, menu: StoredMessage) -> InteractionRecord | None:
        """In the bet menu Raise… opened (his private message): tap a size."""
        sizes = {found[1]: (str(c.get("custom_id")), str(c.get("label") or "")) for c in menu.all_components()
                 if (found := SIZE_ID.match(str(c.get("custom_id") or ""))) and found[1] != "amount"}
        if not sizes:
            return None
        custom_id, label = sizes[self.policy.size(list(sizes))]
        self._say(user, f"taps {label}")
        return await self._send(self.fake.click(user, menu, custom_id))

    async def _draw(self, user: FakeUser, screen: Screen, key: tuple[int, int]) -> None:
        """Stand pat with the table's button, or open the draw picker, tap the cards to throw and Throw them."""
        count = self.policy.draw_count()
        if count == 0 or "draw" not in screen.buttons:
            custom_id, label = screen.buttons["pat"]
            self._say(user, f"clicks {label}")
            rec = await self._send(self.fake.click(user, screen.message, custom_id))
            if self._took(rec, key):
                self.counts.draws += 1
            return
        custom_id, label = screen.buttons["draw"]
        self._say(user, f"clicks {label}")
        used: list[int] = []  # the picker's interactions: forgotten once it is done with
        try:
            await self._pick(user, screen, key, count, used)
        finally:
            if self.forget:
                for iid in used:
                    self.fake.forget(iid)

    async def _pick(self, user: FakeUser, screen: Screen, key: tuple[int, int], count: int, used: list[int]
                    ) -> None:
        opened = await self._send(self.fake.click(user, screen.message, screen.buttons["draw"][0]), keep=used)
        picker = opened.message if opened is not None else None
        if opened is None or picker is None or not _toggles(picker):
            self._took(opened, key)
            return
        cards = sorted(_toggles(picker))
        throw = self.rng_cards(cards, count)
        for index in throw:
            tapped = await self._send(self.fake.click(user, picker, _toggles(picker)[index]), keep=used)
            if tapped is None or tapped.response_type != CALLBACK_UPDATE:
                self._took(tapped, key)
                return
            picker = self.fake.message(picker.id)
        confirms = _confirms(picker)
        if not confirms:
            self._took(None, key)
            return
        self._say(user, f"throws {len(throw)}")
        rec = await self._send(self.fake.click(user, picker, confirms[0]), keep=used)
        if self._took(rec, key):
            self.counts.draws += 1
            self.counts.picks += bool(throw)

    def rng_cards(self, indexes: Sequence[int], count: int) -> list[int]:
        """Which cards of the picker (by index) to throw."""
        return sorted(self.policy.rng.sample(list(indexes), min(count, len(indexes))))

    async def _choose(self, screen: Screen, fingerprint: int) -> None:
        assert screen.chooser is not None and screen.choice_id is not None
        user = self.by_id[screen.chooser]
        used: list[int] = []  # the menu's interactions: forgotten once it is done with
        try:
            await asyncio.sleep(self.pace)
            if not self.active:
                return
            if await self._pick_game(user, screen, used):
                return
        except (TimeoutError, LookupError, RuntimeError) as error:
            log.warning("#%s: %s's choice failed: %r", self.channel.name, user.name, error)
        finally:
            if self.forget:
                for iid in used:
                    self.fake.forget(iid)
        self._choosing = False
        with contextlib.suppress(ValueError):
            self._chosen.remove(fingerprint)  # not taken: poke() tries again

    async def _pick_game(self, user: FakeUser, screen: Screen, used: list[int]) -> bool:
        """Open the menu (Pick the game…), pick a game in it, then press Deal: True once the deal was taken."""
        assert screen.choice_id is not None
        self._say(user, "clicks Pick the game…")
        opened = await self._send(self.fake.click(user, screen.message, screen.choice_id), keep=used)
        if opened is None or opened.response_type not in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            self._took(opened, None)  # refused: counted, and tried again
            return False
        # The click is answered with the table; the menu follows.
        menu = await self.fake.wait_for(lambda: _menu_of(opened), DEAL_SHOWN_WITHIN, what="the chooser's menu")
        game = self.policy.game(menu.games)
        self._say(user, f"chooses {menu.game_names.get(game, game)}")
        rec = await self._send(self.fake.select(user, menu.message, menu.select_id, [game]), keep=used)
        if rec is None or rec.response_type not in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
            self._took(rec, None)
            return False
        # The pick is shown in the answer itself, or (a deferred update) by the edit that follows: then the
        # menu's Deal button confirms it.
        shown = await self.fake.wait_for(lambda: self._deal_shown(menu.message.id), DEAL_SHOWN_WITHIN,
                                         what="the Deal button after a pick")
        assert shown.deal_id is not None
        self._say(user, "clicks Deal")
        rec = await self._send(self.fake.click(user, shown.message, shown.deal_id), keep=used)
        return self._took(rec, None)

    def _deal_shown(self, message_id: int) -> Menu | None:
        shown = read_menu(self.fake.message(message_id))
        return shown if shown is not None and shown.deal_id is not None else None

    async def _rebuy(self, user: FakeUser) -> None:
        """A player out of chips: the banker grants him a buy-in and he buys in again."""
        try:
            await self.command(self.banker, "chips", "grant", member=user, amount=self.buy_in)
            rec = await self.command(user, "poker", "rebuy", amount=self.buy_in)
            if rec.content.startswith("Your stack is now"):
                self.counts.rebuys += 1
        except (TimeoutError, LookupError, RuntimeError, ValueError) as error:
            log.warning("#%s: %s could not rebuy: %r", self.channel.name, user.name, error)
        finally:
            self._rebuying.discard(user.id)


def _toggles(picker: StoredMessage) -> dict[int, str]:
    """A draw picker's card buttons, by card index."""
    found = {}
    for component in picker.buttons():
        custom_id = str(component.get("custom_id") or "")
        match = TOGGLE_ID.match(custom_id)
        if match and not component.get("disabled"):
            found[int(match[1])] = custom_id
    return found


def _confirms(picker: StoredMessage) -> list[str]:
    """A draw picker's confirmations, face up first (Assassin's twos)."""
    found = [(match[1], str(c.get("custom_id"))) for c in picker.buttons()
             if (match := CONFIRM_ID.match(str(c.get("custom_id") or "")))]
    return [custom_id for _, custom_id in sorted(found, reverse=True)]


def _fingerprint(message: StoredMessage) -> int:
    return hash(json.dumps(message.embeds, sort_keys=True))


SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _pretty(code: str) -> str:
    """``Ah`` as ``A♥`` (``X1``/``X2``, jokers, as they are)."""
    return code[:-1] + SUITS.get(code[-1], code[-1]) if len(code) == 2 and code[0] != "X" else code
