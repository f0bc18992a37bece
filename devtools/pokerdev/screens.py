"""``python -m pokerdev.screens --out docs/screens``: pictures of the bot's real messages on a phone.

The real bot plays a scripted dealer's-choice evening against the loopback fake Discord (``pokerdev.demo.run_demo``,
unchanged: the same bot, players and checks). At chosen moments (a betting turn, the draw picker from Draw… to the
cards it dealt, a turn alert, the showdown with the seat buttons, the chooser's own dealer's-choice menu and its
Deal button, All in's question, a player's DMs…) what one player's phone shows is kept: the channel's messages with
his ephemeral replies, his DMs, the form or menu he has open. A second evening, at a HORSE table dealing one hand of
each game (``--mix``), shows the mixed games: a hold'em turn with its board, a hi-lo pot split, the rotation's
table message, a stud street with the up cards. Once the evenings are over each moment is drawn as HTML
(:mod:`pokerdev.discord_html`) and photographed by headless Chromium (Debian's ``chromium`` package, driven over its
DevTools pipe: no network, no download) at 390 CSS px, a phone's width. The PNGs are numbered by moment and listed
in ``index.md``.

    python -m pokerdev.screens --out DIR [--only draw,showdown] [--seed 4] [--hands 4] [--scale 2]
                                   [--games triple-draw-27,assassin] [--mix horse] [--mix-seed 4] [--html]
    python -m pokerdev.screens --payloads tests/data/screens.json

``--payloads FILE`` writes what each moment shows as the bot sent it (messages, menus, forms), normalised so that
two runs give the same file (:class:`Normalised`), with no browser: tests/devtools/test_screens_unchanged.py
compares it with tests/data/screens.json.

Only the evenings that show the moments asked for are played. The seed fixes the deck, the players' choices and so
the pictures (times are shown on a clock that starts at 21:00). ``--html`` also keeps each page, to open in a
browser. The turn alert's delay is scaled down (from half the clock, at least 15 s, to 0.4 s) as the players' pace
is, and one player waits for it.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import fcntl
import hashlib
import html
import json
import logging
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from . import autoplay, observed
from .autoplay import read_menu, read_screen
from .discord_html import PHONE_HEIGHT, PHONE_WIDTH, Look, modal, page, select_sheet
from .fakediscord import APPLICATION_COMMAND, STRING_SELECT, StoredMessage, walk_components

__all__ = ["MIXED_MOMENTS", "MOMENTS", "Camera", "Chromium", "Normalised", "Shot", "emoji_images", "evenings_for",
           "main", "payloads_of", "payloads_text", "render", "screenshot", "shoot_evening", "shoot_evenings"]

log = logging.getLogger(__name__)

CHROMIUM = "/usr/bin/chromium"
CLOSE_ANSWER = "Done: everyone is cashed out"  # /poker close's answer to the host, under the closed table
CHANNEL = "poker"
SEED = 4  # its evening shows every moment (in the Assassin hand a player holds a two)
KEEP = 30  # channel messages kept per picture: more than a phone's screen holds
GAMES = ("triple-draw-27", "assassin", "badugi", "five-card-draw", "single-draw-a5")
MOMENTS: dict[str, str] = {  # name -> what the picture shows (index.md), in the order of an evening
    "start": "the channel when the host deals the first hand",
    "choice": "the chooser's phone when dealer's choice asks him for the game: Pick the game…",
    "choice-menu": "his dealer's-choice menu (only he sees it) opened, each game with its line",
    "choice-deal": "the game picked in his menu, and the Deal button to deal it",
    "betting": "the phone of the player to act, on the first betting turn",
    "table": "the whole table message at that turn (cropped to its height)",
    "draw": "the phone of the player to draw, on the first draw: Draw… or Stand pat",
    "table-draw": "the whole table message at that draw",
    "draw-picker": "the draw picker he opens with Draw…: his cards as buttons",
    "draw-pick": "the picker with the cards he tapped to throw, before Throw",
    "draw-thrown": "the picker after Throw: what he threw, what he got, his hand now",
    "draw-dm": "his DMs right after the draw",
    "draw-twos": "Assassin's picker with a two marked: face up (+1 card) or face down",
    "alert": "the DM that tells a player who is not looking that it is his turn",
    "betting-3": "a betting turn after the second draw (the big-bet rounds)",
    "showdown": "the channel when the first shown-down hand ends, with the seat buttons (the phone of who drew "
                "the least)",
    "table-showdown": "the whole table message at that moment",
    "rebuy": "the form a player gets with Rebuy… between hands",
    "myhand": "the channel for a player who pressed My hand while another acts",
    "bet-menu": "the menu Raise… (or Bet…) opens in pot and no limit: each size with the total it bets, Other amount…",
    "assassin": "the channel when an Assassin hand ends (the phone of who drew the least)",
    "pile": "the channel at the first turn of the last hand, on the phone of who drew the least",
    "dm": "a player's DMs at the end of the evening",
    "closed": "the channel once the host closed the table",
    "night": "the sign-up message of the next night, planned once the table closed (/poker night plan), with the "
             "players who answered: two seats taken, one on the waiting list, one who can't make it",
    # From here on, the mixed games. The whole menu comes from the dealer's-choice evening above; the rest from a
    # second evening, a HORSE table dealing one hand of each game (hold'em, Omaha hi-lo, razz, stud, stud hi-lo).
    "choice-menu-all": "the whole dealer's-choice menu, every game the table deals, grouped draw, flop, stud (as tall "
                       "as its options: the phone scrolls them)",
    "holdem-turn": "the phone of the player to act on the turn of a hold'em hand: the table message (its board drawn "
                   "large at its top), his cards and the board under it",
    "hilo-split": "the whole table message of a hi-lo showdown whose pot is split: who won the high, who the low",
    "rotation-table": "the whole table message of a HORSE table at the razz hand's first turn: the rotation's line, "
                      "the stud stakes, the bring-in",
    "stud-street": "the phone of the player to act on 5th street of a stud hand: every player's up cards in his line",
}
MIXED_MOMENTS = ("holdem-turn", "hilo-split", "rotation-table", "stud-street")  # the second evening's
MIXES = {"horse": 5, "eight-game": 8}  # the rotations the second evening can play: hands, one of each game
MIX_NAMES = {"horse": "HORSE", "eight-game": "8-game"}
MIX, MIX_SEED = "horse", 4  # its Omaha hi-lo hand is split high and low
ALERT_MARK = "🔔"  # how the bot's turn alert starts
ALERT_AFTER = 0.4  # the turn alert's delay (half the clock, at least 15 s, in the bot), scaled down as the pace is
EMOJI_WAIT = 20.0  # seconds at most the table waits for the bot's card emojis to be uploaded
HOLD = 3.0  # seconds at most a player to act waits for the camera
DANGER = 4  # the button style of a card marked to throw
PICKER_CARD = re.compile(r"pk:card:\d+:\d+:\d+:\d+:\d$")  # a card button of the draw picker
TITLE = re.compile(r"^(.*) · #(\d+)$")  # the table message of a hand: "2-7 Triple Draw · #3"
AWARD = re.compile(r"^(?:🏆|🔁) ", re.M)  # a pot won, or carried: the hand is over
TWO = re.compile(r"c_2[cdhs]_|(?<![0-9])2[♠♥♦♣]")  # a two, as a card emoji's name or in text
OURS = re.compile(r"\d\d-[a-z0-9-]+\.(?:png|html)")  # the files render() writes
SHOWN = re.compile(r"^<@\d+>: ", re.M)  # a hand shown at the showdown
FINAL = re.compile(r" · you (?:won [\d,]+|lost)$")  # a private message's line at the hand's end
HIGH_LOW = (re.compile(r"^🏆 High(?:, [^:]+)?: ", re.M), re.compile(r"^🏆 Low(?:, [^:]+)?: ", re.M))  # halves won
TURN = re.compile(r"· Turn ·")  # a flop game's turn, in the table message's stakes line
FIFTH = re.compile(r"\b5th street\b")
SNOWFLAKE = re.compile(r"(?<!\d)\d{15,20}(?!\d)")  # an id made by the fake (from the time: it changes run to run)
CUSTOM_EMOJI = re.compile(r"<(a?):(\w+):\d+>")  # a custom emoji in text: <:c_As_1f2e:1234…>
DISCORD_TIME = re.compile(r"<t:(-?\d{1,13})(:[tTdDfFR])?>")
MESSAGE_TIMES = {"timestamp": "(sent)", "edited_timestamp": "(edited)"}  # a message's own times, as marks


# ---------------------------------------------------------------------------------------------------- Chromium


class Chromium:
    """A headless Chromium driven over the DevTools pipe (file descriptors 3 and 4): one browser for many pictures.

    Started with everything that would reach the network turned off (the machine has none)."""

    def __init__(self, binary: str = CHROMIUM, *, scale: float = 1.0, timeout: float = 30.0) -> None:
        self.binary, self.scale, self.timeout = binary, scale, timeout
        self._folder = tempfile.TemporaryDirectory(prefix="screens-chromium-")
        self._next_id = 0
        self._buffer = b""
        self._session = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._to_browser = self._from_browser = -1

    def __enter__(self) -> Chromium:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the browser and open one page."""
        command_r, command_w = os.pipe()
        answer_r, answer_w = os.pipe()
        # Above 4, so that the child can move them to 3 and 4 without overwriting one with the other.
        child_r = fcntl.fcntl(command_r, fcntl.F_DUPFD, 10)
        child_w = fcntl.fcntl(answer_w, fcntl.F_DUPFD, 10)
        os.close(command_r)
        os.close(answer_w)

        def pipes_as_3_and_4() -> None:
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        profile = Path(self._folder.name) / "profile"
        args = [self.binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
                "--force-color-profile=srgb", f"--user-data-dir={profile}", "--remote-debugging-pipe",
                f"--window-size={PHONE_WIDTH},{PHONE_HEIGHT}", "about:blank"]
        errors = open(Path(self._folder.name) / "stderr.txt", "wb")  # noqa: SIM115 (kept for the child's life)
        try:
            self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                                             pass_fds=(3, 4), preexec_fn=pipes_as_3_and_4)
        finally:
            errors.close()
            os.close(child_r)
            os.close(child_w)
        self._to_browser, self._from_browser = command_w, answer_r
        targets = self.call("Target.getTargets")["targetInfos"]
        target = next((t["targetId"] for t in targets if t.get("type") == "page"), None)
        if target is None:
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    def close(self) -> None:
        """Stop the browser (the one this object started) and remove its profile."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(Exception):
                self.call("Browser.close", wait=False)
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        for fd in (self._to_browser, self._from_browser):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to_browser = self._from_browser = -1
        self._folder.cleanup()

    # -- the protocol -----------------------------------------------------------------------------------------

    def call(self, method: str, params: Mapping[str, Any] | None = None, *, session: bool = False,
             wait: bool = True) -> dict[str, Any]:
        """Send one DevTools command and return its result (events that arrive meanwhile are dropped)."""
        self._next_id += 1
        command: dict[str, Any] = {"id": self._next_id, "method": method, "params": dict(params or {})}
        if session:
            command["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        if not wait:
            return {}
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"Chromium refused {method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result") or {}
                return result

    def wait_event(self, method: str) -> dict[str, Any]:
        """Wait for an event of the page (``Page.loadEventFired``)."""
        while True:
            event = self._read()
            if event.get("method") == method and event.get("sessionId") == self._session:
                params: dict[str, Any] = event.get("params") or {}
                return params

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError(f"Chromium did not answer within {self.timeout:.0f} s")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium stopped: " + self._stderr_tail())
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def _stderr_tail(self) -> str:
        path = Path(self._folder.name) / "stderr.txt"
        lines = path.read_text(errors="replace").splitlines() if path.exists() else []
        return "\n".join(line for line in lines[-20:] if "dbus" not in line) or "(nothing on stderr)"

    # -- pictures ---------------------------------------------------------------------------------------------

    def screenshot(self, html_page: str, *, height: int | None = None) -> bytes:
        """A PNG of the page at 390 CSS px wide (times ``scale`` in pixels); as tall as the page unless ``height``."""
        path = Path(self._folder.name) / f"page-{self._next_id}.html"
        path.write_text(html_page, encoding="utf-8")
        self._viewport(height or PHONE_HEIGHT)
        self.call("Page.navigate", {"url": path.as_uri()}, session=True)
        self.wait_event("Page.loadEventFired")
        measured = self.call("Runtime.evaluate", {
            "expression": "document.fonts.ready.then(() => Math.ceil(document.body.getBoundingClientRect().height))",
            "awaitPromise": True, "returnByValue": True}, session=True)
        tall = height or max(1, int(measured.get("result", {}).get("value") or PHONE_HEIGHT))
        if tall != (height or PHONE_HEIGHT):
            self._viewport(tall)
        shot = self.call("Page.captureScreenshot", {"format": "png", "fromSurface": True}, session=True)
        path.unlink()
        return base64.b64decode(shot["data"])

    def _viewport(self, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": PHONE_WIDTH, "height": height,
                                                         "deviceScaleFactor": self.scale, "mobile": False},
                  session=True)


def screenshot(html_page: str, *, scale: float = 1.0, height: int | None = None, binary: str = CHROMIUM) -> bytes:
    """One page as a PNG (starts and stops a browser; for many pictures use one :class:`Chromium`)."""
    with Chromium(binary, scale=scale) as browser:
        return browser.screenshot(html_page, height=height)


# ---------------------------------------------------------------------------------------------------- moments


@dataclass
class Shot:
    """What one player's phone showed at one moment: the messages, their files, and what was open over them."""

    name: str
    viewer: int
    title: str  # "#poker", or the DM's other side
    frame: str  # "phone" or "crop"
    payloads: list[dict[str, Any]]
    files: dict[int, bytes]
    now: float  # unix time
    note: str = ""  # what the moment was, for index.md ("hand #1, carol")
    overlay: tuple[str, dict[str, Any], dict[str, list[str]]] | None = None  # "modal", "sheet", "modal+sheet", "whole"


@dataclass
class Camera:
    """Watches the fake Discord during the evening and keeps a :class:`Shot` at each moment of :data:`MOMENTS`.

    A few moments need a player to do what the scripted players never do (press My hand, All in, Rebuy…, mark a
    two in Assassin): the camera does it for him, without finishing it (the all-in is not confirmed, the rebuy
    form not sent, the two marked in a second picker that is never thrown), so the hand goes on as it would have.
    While it does, or while a turn alert is on its way, the player to act waits for it (:attr:`holds`).

    ``mix`` (a rotation's id, ``horse``): the second evening, at a table of that rotation, where the camera keeps
    only the moments of :data:`MIXED_MOMENTS` and does nothing for anyone."""

    players: int = 4
    hands: int = 4
    mix: str = ""
    shots: dict[str, Shot] = field(default_factory=dict)
    fake: Any = None
    started: float = field(default_factory=time.time)
    hand: int = 0
    title: str = ""
    draws_seen: dict[int, int] = field(default_factory=dict)  # hand -> draw rounds seen
    holds: dict[tuple[int, int], list[asyncio.Event]] = field(default_factory=dict)  # turn -> what he waits for
    _drawing: bool = False
    _dealt: bool = False  # the host's /poker start was answered
    _picker: int | None = None  # the draw picker followed: its message id
    _pick: Shot | None = None  # that picker's player's screen with the cards he marked so far
    _waits: dict[str, asyncio.Event] = field(default_factory=dict)  # moment -> the player waiting for it
    _dm_after: tuple[int, int] | None = None  # (user, message id): the next DM to him after his draw
    _final_for: int | None = None  # the showdown's viewer: taken again once his private message shows his final hand
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def attach(self, fake: Any) -> None:
        self.fake = fake
        fake.watchers.append(self.watch)

    # -- keeping a moment -------------------------------------------------------------------------------------

    def keep(self, name: str, viewer: int, *, where: str = "channel", frame: str = "phone",
             overlay: tuple[str, dict[str, Any], dict[str, list[str]]] | None = None,
             only: StoredMessage | None = None, replaced: bool = False) -> Shot | None:
        """Keep what ``viewer``'s phone shows now as moment ``name`` (the first time only); ``replaced``: his
        newest private message has just replaced his older one, which the bot deletes a moment later (the picture
        shows that moment)."""
        if name in self.shots:
            return None
        shot = self.snap(name, viewer, where=where, frame=frame, overlay=overlay, only=only, replaced=replaced)
        self.shots[name] = shot
        return shot

    def snap(self, name: str, viewer: int, *, where: str = "channel", frame: str = "phone",
             overlay: tuple[str, dict[str, Any], dict[str, list[str]]] | None = None,
             only: StoredMessage | None = None, replaced: bool = False) -> Shot:
        """What ``viewer``'s phone shows now (kept by :meth:`keep`, or held back for later)."""
        fake = self.fake
        if only is not None:
            shown, title = [only], f"#{CHANNEL}"
        elif where == "dm":
            shown, title = list(fake.dms(viewer)), fake.bot_user.name
        else:
            channel = fake.channel(CHANNEL)
            mine = [m for m in fake.ephemeral_for(viewer) if m.channel_id == channel.id]
            if replaced:
                mine = mine[-1:]
            shown, title = sorted([*fake.channel_messages(channel), *mine], key=lambda m: m.id), f"#{CHANNEL}"
        payloads = self._as_discord_shows(shown)[-KEEP:]
        who = fake.user(viewer).name
        note = f"hand #{self.hand} ({self.title}), {who}" if self.hand else who
        return Shot(name, viewer, title, frame, payloads,
                    {a.id: a.data for m in shown for a in m.attachments}, time.time(), note, overlay)

    def _as_discord_shows(self, shown: Sequence[StoredMessage]) -> list[dict[str, Any]]:
        """The messages' payloads, except that a deferred reply ("thinking…") answered by a followup shows the
        followup in its place: Discord turns the loading message into the first followup; the fake keeps both."""
        def answered(message: StoredMessage) -> int:
            return int((message.interaction_metadata or {}).get("id") or 0)

        replaced: dict[int, StoredMessage] = {}
        for message in shown:
            rec = self.fake.interactions.get(answered(message)) if message.loading else None
            if rec is None or rec.original is not message:
                continue
            # The followup may be the message being created right now, not yet in rec.followups.
            followup = next((m for m in shown if m.id > message.id and answered(m) == rec.id), None)
            if followup is not None:
                replaced[message.id] = followup
        hidden = {m.id for m in replaced.values()}
        out: list[dict[str, Any]] = []
        for message in shown:
            if message.id in hidden:
                continue
            if message.id in replaced:
                out.append({**replaced[message.id].payload(), "id": str(message.id), "timestamp": message.timestamp})
            else:
                out.append(message.payload())
        return out

    # -- what happens -----------------------------------------------------------------------------------------

    def watch(self, message: StoredMessage, created: bool) -> None:
        """A message was created or changed (a watcher of the fake, called before the players see it)."""
        fake = self.fake
        channel = fake.channels.get(message.channel_id)
        if channel is None or message.author.get("id") != str(fake.app_id):
            return
        if self.mix:
            if not channel.is_dm and channel.name == CHANNEL and not message.ephemeral and message.embeds:
                self._mixed(message)
            return
        if channel.is_dm:
            recipient = channel.recipient.id if channel.recipient is not None else None
            if recipient is None or not created:
                return
            if message.content.startswith(ALERT_MARK):
                self.keep("alert", recipient, where="dm")
                self._release("alert")
            if self._dm_after and recipient == self._dm_after[0] and message.id > self._dm_after[1]:
                self.keep("draw-dm", recipient, where="dm")
                self._dm_after = None
            return
        if channel.name != CHANNEL:
            return
        host = fake.user(autoplay_names(self.players)[0]).id
        if message.ephemeral:
            if message.content.startswith(CLOSE_ANSWER):  # the table message says "Table closed" above it
                self.keep("closed", host)
                self.keep("dm", host, where="dm")
            self._ephemeral(message)
            return
        if created and message.content == "Shuffle up and deal!":
            self._dealt = True  # the table message shows it next (the picture waits for it)
        if message.embeds:
            self._table(message, host)

    def _ephemeral(self, message: StoredMessage) -> None:
        """A reply only its player sees: the dealer's-choice menu, the draw picker from opened to the cards it
        dealt."""
        viewer = message.ephemeral_to
        if viewer is None:
            return
        if viewer == self._final_for and message.embeds and FINAL.search(str(message.embeds[0].get("description"))):
            self.shots["showdown"] = self.snap("showdown", viewer)  # his final hand under the showdown
            self._final_for = None
            return
        menu = read_menu(message)
        if menu is not None:
            select_menu = message.component(menu.select_id)
            if select_menu is not None and menu.deal_id is None:
                self.keep("choice-menu", viewer, overlay=("sheet", dict(select_menu), {}))
                whole = self.keep("choice-menu-all", viewer, frame="crop", overlay=("whole", dict(select_menu), {}))
                if whole is not None:  # the menu alone, every option: no message around it
                    whole.payloads, whole.files = [], {}
            if menu.deal_id is not None:
                self.keep("choice-deal", viewer)
            return
        cards = [c for c in message.buttons() if PICKER_CARD.match(str(c.get("custom_id") or ""))]
        if cards:
            if "draw-picker" not in self.shots:
                self._picker = message.id
                self.keep("draw-picker", viewer, replaced=True)
            if message.id == self._picker and any(c.get("style") == DANGER for c in cards):
                self._pick = self.snap("draw-pick", viewer)  # the last one before Throw is kept
            if any("face up" in str(c.get("label") or "") for c in message.buttons()):
                self.keep("draw-twos", viewer)
            return
        if message.id == self._picker and self._pick is not None and "draw-thrown" not in self.shots:
            self.shots.setdefault("draw-pick", self._pick)
            self.keep("draw-thrown", viewer)
            newest = max((m.id for m in self.fake.dms(viewer)), default=0)
            self._dm_after = (viewer, newest)

    def _table(self, message: StoredMessage, host: int) -> None:
        if self._dealt and message.custom_ids():
            self.keep("start", host)
        embed = message.embeds[0]
        found = TITLE.search(str(embed.get("title") or ""))
        if found:
            self.hand, self.title = int(found[2]), found[1]
            if AWARD.search(str(embed.get("description") or "")):
                self._showdown(message, host)
        screen = read_screen(message)
        if screen is None:
            return
        if screen.choice_id is not None and screen.chooser is not None:
            self.keep("choice", screen.chooser)
        if screen.actor is None or not screen.buttons or screen.key is None:
            return
        if screen.drawing:
            if not self._drawing:
                self.draws_seen[self.hand] = self.draws_seen.get(self.hand, 0) + 1
            self._drawing = True
            self.keep("draw", screen.actor)
            self.keep("table-draw", screen.actor, frame="crop", only=message)
            if "Assassin" in self.title and "draw" in screen.buttons and "draw-twos" not in self._waits \
                    and screen.actor != host and self._holds_a_two(screen.actor):
                self._hold(screen.key, "draw-twos")
                self._spawn(self._twos(screen.actor, message, screen.buttons["draw"][0]), "draw-twos")
            return
        self._drawing = False
        self.keep("betting", screen.actor)
        self.keep("table", screen.actor, frame="crop", only=message)
        if self.draws_seen.get(self.hand, 0) >= 1 and "alert" not in self._waits:
            self._hold(screen.key, "alert")  # he waits: the bot tells him by DM that it is his turn
        if self.draws_seen.get(self.hand, 0) >= 2:
            self.keep("betting-3", screen.actor)
        if "raise" in screen.buttons and "bet-menu" not in self._waits:
            self._hold(screen.key, "bet-menu")
            self._spawn(self._bet_menu(screen.actor, message, screen.buttons["raise"][0]), "bet-menu")
        if self.hand == 2 and "myhand" not in self.shots and "myhand" not in self._pending():
            looker = next(u.id for u in self.fake.users.values()
                          if u.name in autoplay_names(self.players) and u.id != screen.actor)
            self._spawn(self._my_hand(looker, message), "myhand")
        if self.hand == self.hands and "pile" not in self.shots:
            self.keep("pile", self._quietest())

    def _mixed(self, message: StoredMessage) -> None:
        """The second evening: a rotation's table message (each game in turn, one hand of each)."""
        embed = message.embeds[0]
        found = TITLE.search(str(embed.get("title") or ""))
        if not found:
            return
        self.hand, self.title = int(found[2]), found[1]
        text = str(embed.get("description") or "")
        if AWARD.search(text):
            if all(half.search(text) for half in HIGH_LOW):
                self.keep("hilo-split", self._quietest(), frame="crop", only=message)
            return
        screen = read_screen(message)
        if screen is None or screen.actor is None or not screen.buttons or screen.key is None:
            return
        if "Razz" in self.title:
            self.keep("rotation-table", screen.actor, frame="crop", only=message)
        if "Hold'em" in self.title and TURN.search(text):
            self._settled(screen.key, "holdem-turn", screen.actor)
        if "Stud" in self.title and FIFTH.search(text):
            self._settled(screen.key, "stud-street", screen.actor)

    def _settled(self, key: tuple[int, int], name: str, viewer: int) -> None:
        """Keep ``viewer``'s phone as ``name`` once the bot is done with this street: each player's private message
        (his cards, the board) is edited just after the table message. The player to act waits for it."""
        if name in self.shots or name in self._waits:
            return
        self._hold(key, name)

        async def settled() -> None:
            try:
                with contextlib.suppress(TimeoutError):
                    await self.fake.quiet(period=0.1, timeout=HOLD / 2)
                self.keep(name, viewer)
            finally:
                self._release(name)

        self._spawn(settled(), name)

    def _quietest(self) -> int:
        """The player with the fewest replies only he sees in the channel: his phone shows the most of it."""
        channel = self.fake.channel(CHANNEL)
        players = [self.fake.user(name) for name in autoplay_names(self.players)]
        quietest = min(players, key=lambda u: sum(m.channel_id == channel.id for m in self.fake.ephemeral_for(u)))
        return int(quietest.id)

    def _showdown(self, message: StoredMessage, host: int) -> None:
        if "Assassin" in self.title:
            self.keep("assassin", self._quietest())
        if len(SHOWN.findall(str(message.embeds[0].get("description") or ""))) >= 2 and "showdown" not in self.shots:
            self._final_for = self._quietest()
            self.keep("showdown", self._final_for)
            self.keep("table-showdown", host, frame="crop", only=message)
            player = next(u.id for u in self.fake.users.values()
                          if u.name in autoplay_names(self.players) and u.id != host)
            self._spawn(self._rebuy(player, message), "rebuy")

    # -- what the camera does for a player ----------------------------------------------------------------------

    def _hold(self, key: tuple[int, int], reason: str) -> None:
        """The player to act at ``key`` waits (at most :data:`HOLD` seconds) until ``reason`` is released."""
        event = asyncio.Event()
        self._waits[reason] = event
        self.holds.setdefault(key, []).append(event)

    def _release(self, reason: str) -> None:
        event = self._waits.get(reason)
        if event is not None:
            event.set()

    def _pending(self) -> set[str]:
        return {t.get_name() for t in self._tasks if not t.done()}

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _my_hand(self, user: int, message: StoredMessage) -> None:
        """A player who is not to act presses My hand; his phone once the bot answered."""
        try:
            button = message.button("My hand")
            iid = await self.fake.click(user, message, str(button["custom_id"]))
            await self.fake.answer(iid)
            self.keep("myhand", user, replaced=True)
        except (LookupError, ValueError, TimeoutError) as error:
            log.warning("no My hand picture: %r", error)

    async def _bet_menu(self, user: int, message: StoredMessage, custom_id: str) -> None:
        """The player to act presses Raise… (or Bet…): his phone with the menu of sizes (he then plays on from the
        table, which still offers his turn)."""
        try:
            iid = await self.fake.click(user, message, custom_id)
            rec = await self.fake.answer(iid)
            if rec.message is not None and rec.ephemeral and rec.message.buttons():
                self.keep("bet-menu", user)
            else:
                log.warning("no bet menu picture: the bot answered %r", rec.content)
        except (LookupError, ValueError, TimeoutError) as error:
            log.warning("no bet menu picture: %r", error)
        finally:
            self._release("bet-menu")

    def _holds_a_two(self, user: int) -> bool:
        """His cards, as the bot last sent them to him this hand, hold a two."""
        heading = f" · #{self.hand} at <#"  # a hand's DM begins "Assassin · #2 at <#…>"
        mine = [m.content for m in self.fake.dms(user) if heading in m.content.partition("\n")[0]]
        if not mine:
            return False
        lines = mine[-1].split("\n")  # its heading, then the cards dealt, or a draw's "Now: ..."
        held = next((line for line in lines if line.startswith("Now: ")), lines[1] if len(lines) > 1 else "")
        return TWO.search(held) is not None

    async def _twos(self, user: int, message: StoredMessage, custom_id: str) -> None:
        """Assassin: before he draws, the player opens a second picker and marks his two, to show the choice it
        offers (face up or down); he then draws with his own picker as he meant to."""
        try:
            iid = await self.fake.click(user, message, custom_id)
            picker = (await self.fake.answer(iid)).message
            two = next((c for c in (picker.buttons() if picker is not None else [])
                        if PICKER_CARD.match(str(c.get("custom_id") or ""))
                        and TWO.search(str((c.get("emoji") or {}).get("name") or c.get("label") or ""))), None)
            if picker is None or two is None:
                log.warning("no picture of the twos: no two in the picker")
                return
            iid = await self.fake.click(user, picker, str(two["custom_id"]))
            await self.fake.answer(iid)  # the picker now asks face up or down: watch() keeps it
        except (LookupError, ValueError, TimeoutError) as error:
            log.warning("no picture of the twos: %r", error)
        finally:
            self._release("draw-twos")

    async def _rebuy(self, user: int, message: StoredMessage) -> None:
        """Between hands a player presses Rebuy… on the hand just over: the form he gets (not sent)."""
        try:
            button = message.button("Rebuy…")
            iid = await self.fake.click(user, message, str(button["custom_id"]))
            rec = await self.fake.answer(iid)
            if rec.modal is not None:
                self.keep("rebuy", user, overlay=("modal", dict(rec.modal), {}))
            else:
                log.warning("no Rebuy picture: the bot answered %r", rec.content)
        except (LookupError, ValueError, TimeoutError) as error:
            log.warning("no Rebuy picture: %r", error)


def autoplay_names(players: int) -> tuple[str, ...]:
    from .demo import PLAYER_NAMES

    return PLAYER_NAMES[:players]


def _camera_fake(camera: Camera) -> type[observed.ObservedFake]:
    """The demo's fake Discord, unchanged but for the camera watching it."""

    class WatchedFake(observed.ObservedFake):
        def __init__(self, config: Any = None, *, lean: bool = False) -> None:
            super().__init__(config, lean=lean)
            camera.attach(self)

    return WatchedFake


def _held_players(camera: Camera) -> type[autoplay.TablePlayers]:
    """The demo's players, who wait for the camera on the turns it holds."""

    class HeldPlayers(autoplay.TablePlayers):
        async def open_table(self, *, start: bool = True, **settings: Any) -> None:
            # The bot uploads its card pictures as it starts; a table opened at once would deal its first hand
            # in the text fallback. A real table opens long after: wait for them, as a host would not notice.
            from cogs.card_emojis import card_emoji_pictures

            wanted = len(card_emoji_pictures())
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(lambda: len(self.fake.emojis) >= wanted, EMOJI_WAIT, what="card emojis")
                await self.fake.quiet(period=0.1)
            await super().open_table(start=start, **settings)

        async def command(self, user: Any, command: str, sub: str, *, group: str | None = None,
                          **options: Any) -> Any:
            record = await super().command(user, command, sub, group=group, **options)
            if (command, group, sub) == ("poker", None, "close") and not camera.mix:
                await self.fake.reply_to(record.id, followups=1)
                await plan_next_night(self.fake, camera)
            return record

        async def _wait_pace(self, key: tuple[int, int]) -> None:
            await super()._wait_pace(key)
            for event in camera.holds.pop(key, []):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), HOLD)

    return HeldPlayers


async def plan_next_night(fake: Any, camera: Camera) -> None:
    """The table closed: the server's owner plans the next night in the channel (two seats fewer than players),
    the players answer it (the last one can't make it), and its sign-up message is kept as the moment "night"."""
    names = autoplay_names(camera.players)
    options = {"when": "in 23 hours", "game": "dealers-choice", "small_blind": 5, "big_blind": 10, "buy_in": 500,
               "seats": max(2, len(names) - 2), "notes": "Alice hosts: doors open at 19:30, bring snacks."}
    planned = await fake.reply_to(await fake.slash("owner", "poker", group="night", subcommand="plan", options=options,
                                                   channel=CHANNEL), followups=1)
    message = planned.message
    if message is None or not message.buttons():
        log.warning("no picture of a planned night: the bot answered %r", planned.content)
        return
    for k, name in enumerate(names):
        label = "Can't make it" if k == len(names) - 1 else "I'm in"
        shown = fake.message(message.id)
        await fake.reply_to(await fake.click(name, shown, str(shown.button(label)["custom_id"])), followups=1)
    await fake.quiet(period=0.1)
    shot = camera.keep("night", fake.user(names[-2]).id, frame="crop", only=fake.message(message.id))
    if shot is not None:
        shot.note = f"planned by the owner; {names[-2]} is on the waiting list"


def _scripted_policy(games: Sequence[str]) -> type[autoplay.Policy]:
    """The demo's players, who pick the games of ``games`` in turn when dealer's choice offers them."""
    wanted = list(games)

    class ScriptedPolicy(autoplay.Policy):
        def game(self, offered: Sequence[str]) -> str:
            while wanted:
                pick = wanted.pop(0)
                if pick in offered:
                    return pick
            return super().game(offered)

    return ScriptedPolicy


def shoot_evening(*, seed: int = SEED, hands: int = 4, players: int = 4, games: Sequence[str] = GAMES,
                  pace: float = 0.05, mix: str = "") -> tuple[Camera, Any]:
    """Play the demo's evening with a camera on it; the camera (its shots) and the transcript. ``mix``: the
    second evening instead, at a table of that rotation (``horse``) dealing one hand of each game."""
    from cogs.table import _alerts

    from . import demo

    if mix and mix not in MIXES:
        raise ValueError(f"no mixed evening of {mix!r}: {', '.join(MIXES)}")
    camera = Camera(players=players, hands=hands, mix=mix)
    with mock.patch.object(observed, "ObservedFake", _camera_fake(camera)), \
            mock.patch.object(autoplay, "Policy", _scripted_policy(games)), \
            mock.patch.object(autoplay, "TablePlayers", _held_players(camera)), \
            mock.patch.object(_alerts, "FIRST_AT_LEAST", ALERT_AFTER), \
            mock.patch.object(_alerts, "FIRST_SHARE", 0.0):
        transcript = asyncio.run(demo.run_demo(hands, seed, players, pace=pace, game=mix or "dealers-choice"))
    if transcript.problems:
        raise RuntimeError("the fake Discord saw calls Discord would refuse: " + "; ".join(transcript.problems))
    return camera, transcript


# ---------------------------------------------------------------------------------------------------- pictures


def emoji_images(fake: Any) -> dict[int, bytes]:
    """The application emojis the fake holds (``fake.emojis``: each with the image uploaded for it), id -> image."""
    out: dict[int, bytes] = {}
    for emoji in getattr(fake, "emojis", None) or ():
        image = getattr(emoji, "image", None)
        if isinstance(image, bytes) and image:
            out[int(emoji.id)] = image
    return out


def command_names(fake: Any) -> dict[int, str]:
    """Interaction id -> the slash command as the reply's header shows it (``/poker join``)."""
    out: dict[int, str] = {}
    for rec in fake.interactions.values():
        if rec.type != APPLICATION_COMMAND:
            continue
        data = rec.payload.get("data") or {}
        words, options = [str(data.get("name") or "")], data.get("options") or []
        while options and int(options[0].get("type") or 0) in (1, 2):  # subcommand group, subcommand
            words.append(str(options[0].get("name")))
            options = options[0].get("options") or []
        out[rec.id] = "/" + " ".join(words)
    return out


def page_of(shot: Shot, fake: Any, started: float) -> str:
    """The HTML page of one moment."""
    names = {**{u.id: u.name for u in fake.users.values()}, **{c.id: c.name for c in fake.channels.values()},
             **{r.id: r.name for r in fake.roles.values()}}
    look = Look(names=names, viewer=shot.viewer, now=shot.now, start=started, emojis=emoji_images(fake),
                files=shot.files, commands=command_names(fake), bot_ids=frozenset({fake.app_id}))
    overlay = ""
    if shot.overlay is not None:
        kind, data, values = shot.overlay
        if kind in ("sheet", "whole"):
            overlay = select_sheet(data, look, whole=kind == "whole")
        else:
            overlay = modal(data, look, app=fake.bot_user.name, values=values if kind == "modal" else None)
            if kind == "modal+sheet":
                picked = next((c for c in walk_components(data.get("components") or [])
                               if c.get("type") == STRING_SELECT), None)
                if picked is not None:
                    overlay += select_sheet(picked, look, chosen=values.get(str(picked.get("custom_id")), []))
    return page(shot.payloads, look, title=shot.title, frame=shot.frame, overlay=overlay)


def render(camera: Camera | Sequence[Camera], out: Path, *, only: Sequence[str] = (), scale: float = 1.0,
           keep_html: bool = False, binary: str = CHROMIUM, evening: str = "", mixed: str = "",
           ) -> list[tuple[str, str]]:
    """Photograph the shots of the camera (or cameras: the first that kept a moment gives it) into ``out``
    (``NN-name.png``) and write ``index.md``; (file, line) each. Without ``only``, pictures of an earlier run that
    this one did not take are removed. ``evening``, ``mixed``: what the two evenings played, for index.md."""
    out.mkdir(parents=True, exist_ok=True)
    cameras = [camera] if isinstance(camera, Camera) else list(camera)
    order = list(MOMENTS)
    holder = {n: next(c for c in cameras if n in c.shots) for n in order if any(n in c.shots for c in cameras)}
    chosen = [n for n in order if n in holder and (not only or n in only)]
    listed: list[tuple[str, str]] = []
    written: set[str] = set()
    with Chromium(binary, scale=scale) as browser:
        for name in chosen:
            held = holder[name]
            shot = held.shots[name]
            html_page = page_of(shot, held.fake, held.started)
            stem = f"{order.index(name) + 1:02d}-{name}"
            if keep_html:
                (out / f"{stem}.html").write_text(html_page, encoding="utf-8")
                written.add(f"{stem}.html")
            height = None if shot.frame == "crop" else PHONE_HEIGHT
            (out / f"{stem}.png").write_bytes(browser.screenshot(html_page, height=height))
            written.add(f"{stem}.png")
            listed.append((f"{stem}.png", f"{MOMENTS[name]} — {shot.note}"))
    if not only:
        for old in out.iterdir():
            if OURS.fullmatch(old.name) and old.name not in written:
                old.unlink()
    played = f"a scripted dealer's-choice evening{f' ({evening})' if evening else ''}"
    if mixed:
        played = f"{played}, then a {mixed}," if evening else f"a scripted {mixed}"
    lines = ["# Screens", "",
             f"Rendered from the bot's real messages, not drawn by hand: the real bot played {played} against the "
             "loopback fake Discord, and each picture "
             "is what one player's phone showed at that moment, drawn at phone width (390 CSS px) in Discord's mobile "
             "dark theme and photographed by headless Chromium. Regenerate with "
             "`.venv/bin/python -m pokerdev.screens --out docs/screens` (see README.md).", ""]
    lines += [f"- [`{file}`]({file}): {line}" for file, line in listed]
    lines += ["", "## The pictures", ""]
    lines += [f'<img src="{file}" width="260" alt="{html.escape(line, quote=True)}">' for file, line in listed]
    (out / "index.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return listed


# ---------------------------------------------------------------------------------------------------- payloads


class Normalised:
    """One evening's JSON made the same from run to run: snowflakes (which hold the time they were made) become the
    names of what they stand for (``alice``, ``poker``, a card emoji's name) or, for messages and interactions, a
    number in the order they first appear (``id1``, ``id2``…); a custom emoji in text drops its id
    (``<:c_As_1f2e:>``); a Discord timestamp (``<t:…:R>``) becomes its distance from the moment, to the minute
    (``<t:now+1m:R>``: a turn's deadline is the time it was shown plus the clock, in fractions of a second); a
    message's own times become marks (``"(edited)"``), as the clock the pictures show them on starts at 21:00."""

    def __init__(self, fake: Any) -> None:
        self.names: dict[str, str] = {str(fake.app_id): "app", str(fake.guild.id): "guild"}
        for user in fake.users.values():
            self.names[str(user.id)] = user.name
        for role in fake.roles.values():
            self.names.setdefault(str(role.id), role.name)
        for channel in fake.channels.values():
            recipient = channel.recipient.name if channel.is_dm and channel.recipient is not None else ""
            self.names[str(channel.id)] = f"dm-{recipient}" if channel.is_dm else channel.name
        for emoji in getattr(fake, "emojis", None) or ():
            self.names[str(emoji.id)] = emoji.name
        self.numbered: dict[str, str] = {}

    def value(self, data: Any, now: float, key: str = "") -> Any:
        """``data`` (a payload, or any part of one) normalised; ``now``: the moment's unix time."""
        if isinstance(data, dict):
            return {SNOWFLAKE.sub(lambda m: self._name(m[0]), k): self.value(v, now, k) for k, v in data.items()}
        if isinstance(data, (list, tuple)):
            return [self.value(v, now) for v in data]
        if key in MESSAGE_TIMES:
            return MESSAGE_TIMES[key] if data else data
        if isinstance(data, str):
            text = CUSTOM_EMOJI.sub(r"<\1:\2:>", data)
            text = DISCORD_TIME.sub(lambda m: f"<t:{_from_now(int(m[1]) - now)}{m[2] or ''}>", text)
            return SNOWFLAKE.sub(lambda m: self._name(m[0]), text)
        if isinstance(data, int) and not isinstance(data, bool) and SNOWFLAKE.fullmatch(str(data)):
            return self._name(str(data))  # an emoji's id, as discord.py sends it in a component
        return data

    def _name(self, snowflake: str) -> str:
        if snowflake in self.names:
            return self.names[snowflake]
        return self.numbered.setdefault(snowflake, f"id{len(self.numbered) + 1}")


def _from_now(seconds: float) -> str:
    """``now+1m``, ``now+23h00m``, ``now-2m``: ``seconds`` to the nearest minute."""
    minutes = round(seconds / 60)
    hours, rest = divmod(abs(minutes), 60)
    return f"now{'-' if minutes < 0 else '+'}{f'{hours}h{rest:02d}m' if hours else f'{rest}m'}"


def payloads_of(cameras: Sequence[Camera], *, only: Sequence[str] = ()) -> dict[str, Any]:
    """Moment -> what it shows, from the payloads the bot sent (what :func:`render` draws, with no browser):
    whose phone, its title and frame, the messages, the form or menu open over them, the files' digests;
    normalised (:class:`Normalised`), so that the same evenings give the same dictionary."""
    out: dict[str, Any] = {}
    for name in MOMENTS:
        held = next((c for c in cameras if name in c.shots), None)
        if held is None or (only and name not in only):
            continue
        shot, normal = held.shots[name], Normalised(held.fake)
        overlay = None
        if shot.overlay is not None:
            kind, data, values = shot.overlay
            overlay = {"kind": kind, "data": normal.value(data, shot.now), "values": normal.value(values, shot.now)}
        out[name] = {
            "viewer": normal.value(str(shot.viewer), shot.now), "title": shot.title, "frame": shot.frame,
            "note": shot.note, "messages": normal.value(shot.payloads, shot.now), "overlay": overlay,
            "files": {normal.value(str(k), shot.now): hashlib.sha256(v).hexdigest() for k, v in shot.files.items()},
        }
    return out


def payloads_text(cameras: Sequence[Camera], *, only: Sequence[str] = ()) -> str:
    """:func:`payloads_of` as the text of ``tests/data/screens.json``."""
    return json.dumps(payloads_of(cameras, only=only), indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------------- command


def evenings_for(moments: Sequence[str]) -> tuple[bool, bool]:
    """Which evenings show ``moments``: (the dealer's-choice evening, the mixed one); only those are played."""
    return any(n not in MIXED_MOMENTS for n in moments), any(n in MIXED_MOMENTS for n in moments)


def shoot_evenings(moments: Sequence[str] = tuple(MOMENTS), *, seed: int = SEED, hands: int = 4, players: int = 4,
                   games: Sequence[str] = GAMES, mix: str = MIX, mix_seed: int = MIX_SEED,
                   pace: float = 0.05) -> list[Camera]:
    """Play the evenings that show ``moments`` (:func:`evenings_for`), each with its camera; the cameras."""
    first, second = evenings_for(moments)
    cameras: list[Camera] = []
    if first:
        random.seed(seed)  # nothing should use the global generator; if something does, it repeats too
        cameras.append(shoot_evening(seed=seed, hands=hands, players=players, games=games, pace=pace)[0])
    if second:
        random.seed(mix_seed)
        cameras.append(shoot_evening(seed=mix_seed, hands=MIXES[mix], players=players, mix=mix, pace=pace)[0])
    return cameras


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, play the evening, write the pictures; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m pokerdev.screens", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="folder for the PNGs and index.md")
    parser.add_argument("--payloads", type=Path, help="file for what each moment shows as the bot sent it, as "
                        "normalised JSON (tests/data/screens.json; needs no browser)")
    parser.add_argument("--only", default="", help="comma-separated moments: " + ", ".join(MOMENTS))
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed of the deck and the players (default {SEED}: "
                        "an evening that shows every moment)")
    parser.add_argument("--hands", type=int, default=4, help="hands to play (default 4)")
    parser.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    parser.add_argument("--games", default=",".join(GAMES), help="the games the choosers pick, in turn")
    parser.add_argument("--mix", default=MIX, choices=list(MIXES),
                        help=f"the rotation of the second evening, one hand of each game (default {MIX})")
    parser.add_argument("--mix-seed", type=int, default=MIX_SEED, help=f"its seed (default {MIX_SEED}: its Omaha "
                        "hi-lo pot is split high and low)")
    parser.add_argument("--scale", type=float, default=1.0, help="device pixels per CSS px (default 1: 390 px wide)")
    parser.add_argument("--html", action="store_true", help="also keep each page as HTML")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the browser (default {CHROMIUM})")
    args = parser.parse_args(argv)
    only = [n for n in args.only.split(",") if n]
    unknown = [n for n in only if n not in MOMENTS]
    if unknown:
        parser.error(f"unknown moment {', '.join(unknown)}; the moments are {', '.join(MOMENTS)}")
    if args.out is None and args.payloads is None:
        parser.error("nothing to write: give --out, --payloads or both")
    if args.out is not None and not shutil.which(args.chromium):
        print(f"{args.chromium} not found: install Debian's chromium package (apt-get install chromium)",
              file=sys.stderr)
        return 2
    if args.out is not None and shutil.which("fc-list") and "Noto Color Emoji" not in subprocess.run(
            ["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout:
        print("no emoji font: emoji will show as boxes (apt-get install fonts-noto-color-emoji)", file=sys.stderr)
    wanted = only or list(MOMENTS)
    games = [g for g in args.games.split(",") if g]
    cameras = shoot_evenings(wanted, seed=args.seed, hands=args.hands, players=args.players, games=games,
                             mix=args.mix, mix_seed=args.mix_seed)
    first, second = evenings_for(wanted)
    evening = (f"seed {args.seed}, {args.hands} hands, {args.players} players, the choosers picking "
               f"{', '.join(games)}") if first else ""
    mixed = (f"{MIX_NAMES[args.mix]} evening (seed {args.mix_seed}, one hand of each game, {args.players} players)"
             if second else "")
    if args.payloads is not None:
        args.payloads.write_text(payloads_text(cameras, only=only), encoding="utf-8")
        print(f"{args.payloads}: what each moment shows, as the bot sent it")
    if args.out is not None:
        listed = render(cameras, args.out, only=only, scale=args.scale, keep_html=args.html, binary=args.chromium,
                        evening=evening, mixed=mixed)
        for file, line in listed:
            print(f"{args.out / file}: {line}")
    missed = [n for n in wanted if not any(n in c.shots for c in cameras)]
    if missed:
        print(f"not seen this evening: {', '.join(missed)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    for quiet in ("discord", "bot", "cogs"):  # the command's output alone (not in main: a test keeps its logs)
        logging.getLogger(quiet).setLevel(logging.CRITICAL)
    sys.exit(main())

