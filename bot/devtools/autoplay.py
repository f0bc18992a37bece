"""Scripted players who play at a table by reading what Discord shows them, as people would.

They know nothing of the bot's insides: whose turn it is, which buttons there are and what a player holds come from
the table message (its embed and components), the draw modal and the dealer's-choice select, as the fake
Discord holds them. The offline demo (``python -m bot demo``) and the load bench (``bench/load.py``) use them.

* :func:`read_screen` turns a table message into a :class:`Screen` (the hand and action number carried by the
  buttons, the player to act named in the Turn field, the dealer's choice, players without chips);
* :class:`TablePlayers` watches one channel's table message and, ``pace`` seconds after each turn starts, makes the
  player to act click a button chosen by a :class:`Policy` (the draw: Stand pat, or Draw… and the cards picked in
  the draw modal; the dealer's choice through the select), and tops up players who ran out of chips.

Usage (``fake`` an :class:`~bot.devtools.observed.ObservedFake` with a bot connected)::

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
    walk_components,
)
from .observed import ObservedFake

__all__ = ["Policy", "Screen", "TablePlayers", "read_screen"]

log = logging.getLogger(__name__)

ACTION_ID = re.compile(r"pk:a:(\d+):(\d+):(\d+):([a-z]+)$")
CHOICE_ID = re.compile(r"pk:c:(\d+):(\d+)$")
MENTION = re.compile(r"<@(\d+)>")
SEAT_LINE = re.compile(r"<@(\d+)>\s+([\d,]+)")

Narrator = Callable[[str, str], None]


@dataclass(frozen=True)
class Screen:
    """What one version of a table message shows."""

    message: StoredMessage
    table_id: int | None = None
    hand_id: int | None = None
    seq: int | None = None
    actor: int | None = None  # named in the Turn field
    drawing: bool = False
    buttons: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # kind -> (custom_id, label)
    choice_id: str | None = None
    chooser: int | None = None
    games: tuple[str, ...] = ()
    game_names: Mapping[str, str] = field(default_factory=dict)  # value -> label
    broke: tuple[int, ...] = ()  # seated with no chips

    @property
    def key(self) -> tuple[int, int] | None:
        """The moment of the hand the buttons belong to: (hand id, action number)."""
        return (self.hand_id, self.seq) if self.hand_id is not None and self.seq is not None else None


def _fields(message: StoredMessage) -> list[Mapping[str, Any]]:
    return list(message.embeds[0].get("fields") or []) if message.embeds else []


def read_screen(message: StoredMessage) -> Screen | None:
    """The table message's state, or None if ``message`` is not a table message."""
    fields = _fields(message)
    if not fields:
        return None
    buttons: dict[str, tuple[str, str]] = {}
    table_id = hand_id = seq = None
    choice_id: str | None = None
    games: tuple[str, ...] = ()
    names: dict[str, str] = {}
    for component in message.all_components():
        custom_id = str(component.get("custom_id") or "")
        found = ACTION_ID.match(custom_id)
        if found and component.get("type") == BUTTON and not component.get("disabled"):
            table_id, hand_id, seq = int(found[1]), int(found[2]), int(found[3])
            buttons[found[4]] = (custom_id, str(component.get("label") or ""))
            continue
        if CHOICE_ID.match(custom_id) and component.get("type") == STRING_SELECT:
            choice_id = custom_id
            options = component.get("options") or []
            games = tuple(str(o["value"]) for o in options)
            names = {str(o["value"]): str(o.get("label") or o["value"]) for o in options}
    actor = chooser = None
    drawing = False
    broke: list[int] = []
    for fld in fields:
        name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
        mentioned = MENTION.search(value)
        if name.startswith("Turn") and mentioned:
            actor, drawing = int(mentioned[1]), "to draw" in value
        elif name.startswith("Dealer's choice") and mentioned:
            chooser = int(mentioned[1])
        elif name.startswith("Players"):
            broke += [int(m[1]) for line in value.splitlines() if "no chips" in line and (m := MENTION.search(line))]
        elif name.startswith("Seats"):
            broke += [int(m[1]) for line in value.splitlines() if (m := SEAT_LINE.search(line)) and m[2] == "0"]
    return Screen(message, table_id, hand_id, seq, actor, drawing, buttons, choice_id, chooser, games, names,
                  tuple(broke))


class Policy:
    """How the scripted players play: mostly check and call, sometimes bet the minimum or the pot, fold a
    little (``fold`` of the calls), throw zero to three cards at random, pick a random game."""

    def __init__(self, rng: random.Random, *, fold: float = 0.12, bet: float = 0.2) -> None:
        self.rng, self.fold, self.bet = rng, fold, bet

    def betting(self, buttons: Mapping[str, tuple[str, str]]) -> str:
        """The kind of button to click: ``fold``, ``cc``, ``min`` or ``pot``."""
        roll = self.rng.random()
        checking = buttons.get("cc", ("", ""))[1].startswith("Check")
        if not checking and "fold" in buttons and roll < self.fold:
            return "fold"
        roll = self.rng.random()
        if "min" in buttons and roll < self.bet:
            return "pot" if "pot" in buttons and roll < self.bet / 5 else "min"
        return "cc"

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
        ``buy_in`` chips), then /poker start."""
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
        """/poker start by the host; the players play from then on (or, ``play`` False, once :meth:`play`)."""
        self.active = play
        started = await self.command(self.players[0], "poker", "start")
        if started.late:  # the bot was too busy to answer in time; the table was started all the same
            log.warning("#%s: /poker start was answered late", self.channel.name)
        elif started.content != "Shuffle up and deal!":
            raise RuntimeError(f"#{self.channel.name}: /poker start answered {started.content!r}")

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
        elif screen.choice_id is not None and screen.chooser in self.by_id and screen.games:
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

    async def _send(self, sending: Any) -> InteractionRecord | None:
        """Send a click or select (None if the screen changed first: nothing was sent); its answered record."""
        try:
            iid = await sending
        except ValueError:  # the message no longer shows that component: a newer screen is coming
            self.counts.stale += 1
            return None
        self.counts.interactions += 1
        rec = await self.fake.answer(iid)
        if self.forget and rec.response_type in (CALLBACK_UPDATE, CALLBACK_DEFERRED_UPDATE):
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
            self._took(rec, key)
        except (TimeoutError, LookupError, RuntimeError) as error:
            log.warning("#%s: %s's turn failed: %r", self.channel.name, user.name, error)
            self._failed(key)

    async def _draw(self, user: FakeUser, screen: Screen, key: tuple[int, int]) -> None:
        """Stand pat with the table's button, or open the draw modal, pick the cards in its select and submit."""
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
        opened = await self._send(self.fake.click(user, screen.message, custom_id))
        modal = opened.modal if opened is not None else None
        if opened is None or modal is None:
            self._took(opened, key)
            return
        fields = walk_components(modal.get("components") or [])
        select = next((c for c in fields if c.get("type") == STRING_SELECT), None)
        if select is None:
            self._took(None, key)
            return
        codes = [str(o["value"]) for o in select.get("options") or []]
        throw = self.policy.discards(codes, min(count, int(select.get("max_values") or 0)))
        self._say(user, "throws " + (" ".join(_pretty(c) for c in throw) or "nothing"))
        rec = await self._send(self.fake.submit_modal(user, str(modal["custom_id"]), {str(select["custom_id"]): throw}))
        if self._took(rec, key):
            self.counts.draws += 1
            self.counts.picks += bool(throw)
        if self.forget:
            self.fake.forget(opened.id)

    async def _choose(self, screen: Screen, fingerprint: int) -> None:
        assert screen.chooser is not None and screen.choice_id is not None
        user = self.by_id[screen.chooser]
        try:
            await asyncio.sleep(self.pace)
            if not self.active:
                return
            game = self.policy.game(screen.games)
            self._say(user, f"chooses {screen.game_names.get(game, game)}")
            rec = await self._send(self.fake.select(user, screen.message, screen.choice_id, [game]))
            if self._took(rec, None):
                return
        except (TimeoutError, LookupError, RuntimeError) as error:
            log.warning("#%s: %s's choice failed: %r", self.channel.name, user.name, error)
        self._choosing = False
        with contextlib.suppress(ValueError):
            self._chosen.remove(fingerprint)  # not taken: poke() tries again

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


def _fingerprint(message: StoredMessage) -> int:
    return hash(json.dumps(message.embeds, sort_keys=True))


SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _pretty(code: str) -> str:
    """``Ah`` as ``A♥`` (``X1``/``X2``, jokers, as they are)."""
    return code[:-1] + SUITS.get(code[-1], code[-1]) if len(code) == 2 and code[0] != "X" else code
