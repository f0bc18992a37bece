"""``python -m bot demo``: watch the bot deal a few hands (dealer's choice, HORSE, any game), with no token and no
network.

The real bot (``PokerBot``, its cogs, its store on a temporary SQLite file) runs against the loopback fake Discord
of the tests (``pokerdev``), on 127.0.0.1. Scripted players (``pokerdev.autoplay``) open a table, join it
and play from what Discord shows them: the table message's buttons, the draw modal, the dealer's-choice select.
The transcript interleaves, in time order, what the channel shows (the table message, rendered as text, and the
bot's posts), what each player receives by DM, what only he sees (ephemeral replies), and what each player does.

    python -m bot demo [--game horse] [--hands 5] [--seed 1] [--players 4] [--pace 0.05] [--full]

``--game``: a game id, ``dealers-choice`` (the default), or a rotation (``horse``, ``eight-game``), each game of
a rotation dealt for one hand (``make demo``: a HORSE orbit, one hand of each of its five games).

By default an update of the table message prints only what changed (new lines of its action log, the pot, whose
turn); the whole table is printed at each new hand and at its end, or at every update with ``--full``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.content.cardfaces import card_text
from bot.poker import Card

__all__ = ["Entry", "Transcript", "demo_command", "run_demo"]

PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
CARD_EMOJI = re.compile(r"<:c_([2-9TJQKA][cdhs]|X[12])_[0-9a-f]{6}:\d+>")
DM_HAND = re.compile(r" · #(\d+) at <#")  # a hand's DM begins with its heading: "2-7 Double Draw · #3 at <#…>"
# A hand's own message once it is over: its showdown (a pot won or carried).
SHOWDOWN = re.compile(r"^(?:▌ )?(?:🏆|🔁 (?:The|Main|Side))", re.MULTILINE)
WIDTH = 16  # the "where" column


@dataclass(frozen=True)
class Entry:
    """One line (or block) of the transcript."""

    at: float  # seconds since the demo started
    where: str  # "#poker", "DM alice", "only alice"
    who: str  # "pokerbot", "table", or the player who acts
    text: str
    kind: str  # "table" (the table message), "post" (a bot message in the channel), "dm", "ephemeral", "act"
    hand: int = 0  # the hand being played, as the table message showed it last (0 before the first)

    def render(self) -> str:
        head = f"{self.at:7.2f}s  {self.where:<{WIDTH}} {self.who:>8} │ "
        lines = self.text.splitlines() or [""]
        pad = " " * (len(head) - 2) + "│ "
        return "\n".join([head + lines[0], *(pad + line for line in lines[1:])])


@dataclass
class Transcript:
    """What the channel, the DMs and the players' private replies showed, in time order."""

    names: Mapping[int, str] = field(default_factory=dict)  # user and channel ids -> names
    channel: str = "#poker"  # where the players' actions are shown
    full: bool = False
    echo: Callable[[str], None] | None = None
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what the fake Discord would have refused, if anything
    started: float = field(default_factory=time.monotonic)
    hand: int = 0
    _shown: dict[int, list[str]] = field(default_factory=dict)  # the table message's last version, as lines
    _titles: dict[int, str] = field(default_factory=dict)

    # ------------------------------------------------------------------ recording

    def add(self, where: str, who: str, text: str, kind: str, hand: int | None = None) -> None:
        entry = Entry(round(time.monotonic() - self.started, 2), where, who, text, kind,
                      self.hand if hand is None else hand)
        self.entries.append(entry)
        if self.echo is not None:
            self.echo(entry.render())

    def act(self, player: str, what: str) -> None:
        """A player did something (a narrator for :class:`~pokerdev.autoplay.TablePlayers`)."""
        self.add(self.channel, player, what, "act")

    def message(self, message: Any, created: bool, *, channel_name: str | None, dm_to: str | None,
                bot_id: str) -> None:
        """A message was created or changed (a watcher of the fake Discord)."""
        if message.ephemeral_to is not None:
            owner = self.names.get(message.ephemeral_to, str(message.ephemeral_to))
            if message.content and not message.loading:
                self.add(f"only {owner}", "pokerbot", self.plain(message.content), "ephemeral")
            return
        if message.author.get("id") != bot_id:
            return
        if dm_to is not None:  # its heading names its hand (it may come before the table shows that hand)
            heading = DM_HAND.search(message.content.partition("\n")[0])
            self.add(f"DM {dm_to}", "pokerbot", self.plain(message.content), "dm",
                     int(heading[1]) if heading else None)
            return
        where = f"#{channel_name}"
        if message.embeds:
            self._table(where, message, created)
        elif message.content and not message.loading:
            self.add(where, "pokerbot", self.plain(message.content), "post")

    def _table(self, where: str, message: Any, created: bool) -> None:
        embed = message.embeds[0]
        title = str(embed.get("title") or "")
        found = re.search(r"· #(\d+)$", title)
        if found:
            self.hand = int(found[1])
        lines = self.embed_lines(embed)
        before = self._shown.get(message.id)
        new_title = self._titles.get(message.id) != title
        self._shown[message.id], self._titles[message.id] = lines, title
        if created or self.full or new_title or before is None:
            self.add(where, "table", "\n".join(lines), "table")
            return
        changed = self.changes(before, lines)
        if changed:
            self.add(where, "table", "\n".join(changed), "table")

    # ------------------------------------------------------------------ rendering

    def plain(self, text: str) -> str:
        """Discord markup as a reader sees it: mentions as names, no bold, a clock as the seconds it has left."""
        text = CARD_EMOJI.sub(lambda m: card_text(Card(m[1])), text)  # the bot's card pictures, as text here
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        text = re.sub(r"<#(\d+)>", lambda m: "#" + self.names.get(int(m[1]), m[1]), text)
        text = re.sub(r"<t:(\d+):R>", lambda m: f"{max(0, round(int(m[1]) - time.time()))} s left", text)
        text = re.sub(r"<t:(\d+)(?::\w)?>", lambda m: time.strftime("%H:%M", time.localtime(int(m[1]))), text)
        return text.replace("**", "")

    def embed_lines(self, embed: Mapping[str, Any]) -> list[str]:
        """An embed as text: the title, the description, then each field's name and its value indented."""
        lines = [f"▌ {self.plain(str(embed.get('title') or ''))}"]
        if embed.get("description"):
            lines += [f"▌ {line}" for line in self.plain(str(embed["description"])).splitlines()]
        for fld in embed.get("fields") or []:
            value = self.plain(str(fld.get("value") or "")).splitlines()
            name = self.plain(str(fld.get("name") or ""))
            if len(value) == 1 and fld.get("inline"):
                lines.append(f"  {value[0]}" if value[0].startswith(name) else f"  {name}: {value[0]}")
            else:
                lines.append(f"  {name}:")
                lines += [f"    {line}" for line in value]
        return lines

    @staticmethod
    def changes(before: Sequence[str], after: Sequence[str]) -> list[str]:
        """The lines of a table update worth reading: new lines of the hand's log, the pot, whose turn, the
        showdown."""
        log_before = [line for line in before if line.startswith("▌ · ")]
        log_after = [line for line in after if line.startswith("▌ · ")]
        overlap = next((k for k in range(len(log_before), -1, -1)
                        if log_before[len(log_before) - k:] == log_after[:k]), 0)
        out = [line[2:].strip() for line in log_after[overlap:]]
        for line in after:
            text = line[2:].strip() if line.startswith("▌ ") else line.strip()
            if line not in before and (text.startswith(("Pot ", "Main ", "Side ", "🏆", "🔁", "Board: "))
                                       or re.match(r"@\S+: ", text) or " picks the next game" in text):
                out.append(text)
        return out

    # ------------------------------------------------------------------ reading

    def text(self) -> str:
        return "\n".join(e.render() for e in self.entries)

    def showdowns(self) -> list[Entry]:
        """The first showdown shown of each hand."""
        seen: dict[int, Entry] = {}
        for entry in self.entries:
            if entry.kind == "table" and SHOWDOWN.search(entry.text) and entry.hand not in seen:
                seen[entry.hand] = entry
        return list(seen.values())


async def run_demo(hands: int = 3, seed: int = 1, players: int = 4, *, full: bool = False,
                   echo: Callable[[str], None] | None = None, timeout: float = 120.0,
                   next_hand_delay: float = 0.3, pace: float = 0.05, game: str = "dealers-choice") -> Transcript:
    """Play ``hands`` hands of ``game`` (dealer's choice; a rotation: one hand of each game) at one table of
    ``players`` scripted players; the transcript.

    Each player acts ``pace`` seconds after his turn starts. Once the last hand's showdown is posted the players
    stop, and the host closes the table (everyone is cashed out)."""
    import discord
    import discord.gateway
    import discord.http

    from cogs.app import PokerBot

    from .autoplay import Policy, TablePlayers
    from .fakediscord import FakeConfig, UserSpec
    from .launch import point_at
    from .observed import ObservedFake

    if not 2 <= players <= len(PLAYER_NAMES):
        raise ValueError(f"the demo seats 2 to {len(PLAYER_NAMES)} players")
    names = PLAYER_NAMES[:players]
    config = FakeConfig(channels=("poker",), users=(UserSpec("owner"), *(UserSpec(n) for n in names)))
    fake = ObservedFake(config)
    transcript = Transcript(full=full, echo=echo)
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    with tempfile.TemporaryDirectory(prefix="poker-demo-") as folder:
        await fake.start()
        bot: PokerBot | None = None
        runner: asyncio.Task[None] | None = None
        table: TablePlayers | None = None
        try:
            point_at(fake.port)
            transcript.names = {**{u.id: u.name for u in fake.users.values()},
                                **{c.id: c.name for c in fake.channels.values()}}
            bot_id = str(fake.app_id)

            def watch(message: Any, created: bool) -> None:
                channel = fake.channels.get(message.channel_id)
                if channel is None:
                    return
                dm_to = channel.recipient.name if channel.is_dm and channel.recipient is not None else None
                transcript.message(message, created, channel_name=channel.name, dm_to=dm_to, bot_id=bot_id)
                if table is not None:
                    if len(transcript.showdowns()) >= hands:
                        table.active = False  # that was the last hand: nobody picks or plays another
                    table.watch(message, created)

            fake.watchers.append(watch)
            bot = PokerBot(Path(folder) / "demo.db", rng=random.Random(seed), next_hand_delay=next_hand_delay)
            bot._connection.guild_ready_timeout = 0.05
            runner = asyncio.create_task(bot.start("demo-token-not-a-real-one"))
            ready = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({runner, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if runner in done:
                    runner.result()
                raise RuntimeError("the bot did not start")
            await fake.wait_for(lambda: fake.global_commands, 10, what="the bot's commands")
            table = TablePlayers(fake, "poker", names, pace=pace, buy_in=1000, narrate=transcript.act,
                                 policy=Policy(random.Random(seed), fold=0.05, bet=0.25))
            rotation: dict[str, Any] = {"hands_per_game": 1} if game in ("horse", "eight-game") else {}
            await table.open_table(game=game, small_blind=5, big_blind=10, max_buy_in=1000, **rotation)
            await fake.wait_for(lambda: len(transcript.showdowns()) >= hands, timeout,
                                what=f"{hands} hands", poll=0.05)
            await table.stop()
            await fake.quiet(period=0.2)
            closed = await table.command(names[0], "poker", "close")
            await fake.reply_to(closed.id, followups=1)
            await fake.quiet(period=0.2)
            transcript.problems = [str(v) for v in fake.verify()]
        finally:
            if table is not None:
                await table.stop()
            if bot is not None:
                await bot.close()
            if runner is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(runner, 10)
            await fake.stop()
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    return transcript


def demo_command(hands: int = 3, seed: int = 1, players: int = 4, full: bool = False, verbose: bool = False,
                 pace: float = 0.05, game: str = "dealers-choice") -> int:
    """``python -m bot demo``: print the transcript as the demo plays; the exit status."""
    logging.basicConfig(level=logging.INFO if verbose else logging.CRITICAL, stream=sys.stderr)
    for name in ("discord", "bot", "cogs"):
        logging.getLogger(name).setLevel(logging.INFO if verbose else logging.CRITICAL)
    print(f"Offline demo: the real bot against a fake Discord on 127.0.0.1 (no token, no network); "
          f"{players} players, {hands} hands of {game}, seed {seed}.\n")
    try:
        transcript = asyncio.run(run_demo(hands, seed, players, full=full, echo=print, pace=pace, game=game))
    except (RuntimeError, TimeoutError, ValueError) as error:
        print(f"The demo stopped: {error}", file=sys.stderr)
        return 1
    shown = len(transcript.showdowns())
    print(f"\n{shown} hand{'s' if shown != 1 else ''} played; the table was closed and everyone cashed out.")
    for problem in transcript.problems:
        print(f"Discord would have refused: {problem}", file=sys.stderr)
    return 1 if transcript.problems else 0
