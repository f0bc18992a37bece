"""Hostile and bad input: random and forged interactions (custom_ids of other tables, hands and seats, stale action
numbers, select values that are not your cards, silly amounts, commands without the permission, commands and
messages in DMs). Each one gets a clear ephemeral answer or is ignored, and none changes a stack, a balance, a
hand or the table message. Then a long random session, after which no player has ever been shown another
player's cards: not in any version of any channel message, DM or ephemeral reply.

Hypothesis runs in a worker thread; each example is a coroutine run on the test's event loop, where the bot and
the fake Discord live.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import string
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.poker import Card, Hand
from bot.tables import stored_hand
from cogs.errors import UNEXPECTED, running_callbacks
from tests.e2e.conftest_bot import MessageRecorder, PokerBotStarter
from tests.e2e.fakediscord import FakeDiscord, StoredMessage
from tests.e2e.players import Players, Turn, bettor, calling_station, carrying

from .conftest import Figures
from .helpers import chips_lost, snapshot

pytestmark = pytest.mark.e2e

USERS = ("owner", "manager", "alice", "bob", "carol", "dave", "erin", "frank")
TABLE_A = ("alice", "bob", "carol")  # #poker, alice hosts: five card draw, in a betting round
TABLE_B = ("dave", "erin")  # #poker-2, dave hosts: Assassin with jokers, at the draw
OUTSIDERS = ("frank",)
AMOUNTS = ["-5", "0", "1e9", "12.5", "½", "99999999999999999999", "", "x" * 4000, "9" * 4000, "١٠٠", "0x20", "20 chips",
           "+20", " 2 0 ", "NaN", "∞", "20\n", "DROP TABLE seats;", "1,000,000", "-0", "19", "1001"]

HYPOTHESIS = settings(max_examples=220, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
                      suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False)


# ------------------------------------------------------------------ running examples on the event loop


class OnLoop:
    """Runs coroutines on the test's event loop from Hypothesis's thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def __call__(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)


@dataclass
class Scene:
    """The two tables as they stand (nothing the examples send may move them)."""

    fake: FakeDiscord
    a: Players
    b: Players
    db: Path
    sources: dict[str, list[StoredMessage]]
    received: set[int]  # interactions the bot received (its on_interaction event)
    view_store: Any  # discord.py's store of component and modal handlers

    def handlers(self) -> set[Any]:
        """The component and modal handlers the bot is running: discord.py's tasks, and the table cog's modal
        submissions (an on_interaction listener, registered before this test's own listener, so it has started
        by the time ``received`` says the interaction arrived)."""
        tasks: set[Any] = self.view_store._ViewStore__tasks
        return {t for t in tasks if not t.done()} | {t for t in running_callbacks() if not t.done()}

    def message(self, players: Players) -> StoredMessage:
        return players.message()

    def state(self) -> tuple[Any, ...]:
        out = []
        for players in (self.a, self.b):
            table = players.table
            live = table.live
            assert live is not None
            out.append((table.id, live.record.id, live.seq, tuple(live.hand.stacks), tuple(live.hand.bets),
                        tuple(live.hand.actions), table.actor(), players.message().edits,
                        tuple((s.user_id, s.stack) for s in table.record.seats)))
        return tuple(out)


async def setup_scene(fake: FakeDiscord, poker_bot: PokerBotStarter, seed: int) -> Scene:
    bot = await poker_bot(seed=seed)
    for user in USERS:  # a turn alert DM is the bot's own doing, not an answer to a forged input: none here
        await bot.store.set_turn_alerts(fake.guild_id, fake.user(user).id, False)
    received: set[int] = set()

    async def on_interaction(interaction: Any) -> None:
        received.add(interaction.id)

    bot.add_listener(on_interaction, "on_interaction")
    a = Players(fake, poker_bot, "poker")
    b = Players(fake, poker_bot, "poker-2")
    await a.open_table("alice", TABLE_A, game="five-card-draw")
    await b.open_table("dave", TABLE_B, game="assassin", jokers=True)
    await a.turn(1)
    await b.play(calling_station, until=lambda t: t.legal.phase == "drawing")
    await fake.settle()
    await fake.quiet(0.1)
    tables = [a.message().snapshot(), b.message().snapshot()]
    other = [m.snapshot() for m in fake.channel_messages("poker") if not m.embeds][-1:]
    sources = {user: [*tables, *other, *(m.snapshot() for m in fake.dms(user)[-1:])] for user in USERS}
    return Scene(fake, a, b, poker_bot.db_path, sources, received, bot._connection._view_store)


# ------------------------------------------------------------------ what the bot may answer


@dataclass
class Outcome:
    kind: str
    answer: str | None  # the ephemeral text, or None if the input was ignored


async def answer_of(scene: Scene, iid: int) -> Outcome:
    """The bot's answer to a hostile interaction: it must be ephemeral and clear, or nothing at all. A click or
    modal is ignored when the bot received it and every handler it started is done with no answer sent."""
    fake = scene.fake
    rec = fake.interactions[iid]
    if rec.type in (3, 5):
        await fake.wait_for(lambda: iid in scene.received, 10, what="the bot to receive the interaction")
        await fake.wait_for(lambda: not scene.handlers(), 10, what="the bot's handlers to finish")
        if rec.response_type is None:
            await fake.quiet(0.02)
            assert rec.response_type is None
            return Outcome("ignored", None)
    got = await fake.reply_to(iid, timeout=10)
    text = got.followups[-1].content if got.followups else got.content
    ephemeral = got.followups[-1].ephemeral if got.followups else got.ephemeral
    assert got.response_type in (4, 5) and ephemeral, (got, text)
    assert text.strip() and text != UNEXPECTED, text
    return Outcome("answered", text)


async def send_ignored(scene: Scene, make: Callable[[], Coroutine[Any, Any, int]]) -> Outcome:
    iid = await make()
    scene.fake.interactions[iid].expect_ack = False  # answered or not: checked below
    return await answer_of(scene, iid)


# ------------------------------------------------------------------ strategies


def custom_id_ints(scene: Scene) -> st.SearchStrategy[int]:
    a, b = scene.a.table, scene.b.table
    assert a.live is not None and b.live is not None
    known = [a.id, b.id, a.live.record.id, b.live.record.id, a.live.seq, b.live.seq, max(0, a.live.seq - 1),
             b.live.seq + 1, 0]
    return st.one_of(st.sampled_from(known), st.integers(0, 2**64))


def ids_near(scene: Scene, players: Players) -> st.SearchStrategy[tuple[int, int, int]]:
    """(table, hand, action number) of a custom_id: mostly this table's, with one or more of them wrong."""
    table = players.table
    assert table.live is not None
    here = (table.id, table.live.record.id, table.live.seq)
    near = st.tuples(st.sampled_from([table.id, table.id, table.id, scene.a.table.id, scene.b.table.id, 0]),
                     st.sampled_from([here[1], here[1], here[1] - 1, here[1] + 1, 0]),
                     st.sampled_from([here[2], here[2], max(0, here[2] - 1), here[2] + 1, here[2] + 7]))
    anywhere = st.tuples(custom_id_ints(scene), custom_id_ints(scene), custom_id_ints(scene))
    return st.one_of(near, near, anywhere)


def source_messages(scene: Scene, user: str) -> list[StoredMessage]:
    """Messages a forged click may come from: both table messages, another message of the channel, the user's DM
    with his cards (as they were when the examples began: what Hypothesis draws from must not change)."""
    return scene.sources[user]


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}


def select(custom_id: str, values: list[str]) -> dict[str, Any]:
    options = [{"label": "forged", "value": v or "-"} for v in dict.fromkeys(values)] or [{"label": "x", "value": "x"}]
    return {"type": 3, "custom_id": custom_id, "options": options[:25], "min_values": 0, "max_values": 25}


def is_legal_action(scene: Scene, message: StoredMessage, user: str, table: int, hand: int, seq: int,
                    kind: str) -> bool:
    for players in (scene.a, scene.b):
        t = players.table
        if message.channel_id != players.channel_id or t.live is None:
            continue
        if (table, hand, seq) == (t.id, t.live.record.id, t.live.seq) and scene.fake.user(user).id == t.actor():
            return kind in ("fold", "cc", "min", "pot", "max", "amount", "draw", "pat", "allin", "allinok")
    return False


# ------------------------------------------------------------------ the property test


async def test_forged_and_random_interactions_change_nothing(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    scene = await setup_scene(fake, poker_bot, seed=301)
    run = OnLoop(asyncio.get_running_loop())
    tried: dict[str, int] = {}
    answers: dict[str, int] = {}
    state = scene.state()
    stored = snapshot(scene.db)

    async def check(kind: str, outcome: Outcome) -> None:
        await fake.quiet(0.02)
        assert scene.state() == state, (kind, outcome)
        assert snapshot(scene.db) == stored, (kind, outcome)
        tried[kind] = tried.get(kind, 0) + 1
        answers[outcome.answer or "(ignored)"] = answers.get(outcome.answer or "(ignored)", 0) + 1

    # Each kind draws its input here, in Hypothesis's thread (the tables do not move), and returns the coroutine
    # that sends it and checks the outcome on the event loop.
    Plan = Coroutine[Any, Any, None]

    def forged_button(data: st.DataObject) -> Plan:
        user = data.draw(st.sampled_from(USERS))
        message = data.draw(st.sampled_from(source_messages(scene, user)))
        players = scene.b if message.channel_id == scene.b.channel_id else scene.a
        table, hand, seq = data.draw(ids_near(scene, players))
        kinds = ["fold", "cc", "min", "pot", "max", "amount", "draw", "pat", "hand", "allin", "allinok"]
        kind = data.draw(st.one_of(st.sampled_from(kinds), st.text(string.ascii_lowercase, min_size=1, max_size=12)))
        if is_legal_action(scene, message, user, table, hand, seq, kind):
            kind = "nonsense"
        custom_id = f"pk:turn:{table}:{hand}:{seq}:{kind}"
        lying = data.draw(st.booleans())
        source = carrying(message, button(custom_id)) if lying else message

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.click(user, source, custom_id, force=True))
            if lying or custom_id in message.custom_ids():
                assert outcome.kind == "answered", custom_id  # a button the bot could have made is answered
            await check("forged table button" + (" (forged message)" if lying else ""), outcome)

        return go()

    def forged_picker(data: st.DataObject) -> Plan:
        """A draw picker's card toggle (``pk:d``) or Throw (``pk:e``) for another table, hand, moment or player,
        or with a mask of cards the hand does not have; the actor's own Throw now is given an impossible mask."""
        user = data.draw(st.sampled_from(USERS))
        message = data.draw(st.sampled_from(source_messages(scene, user)))
        players = scene.b if message.channel_id == scene.b.channel_id else scene.a
        table, hand, seq = data.draw(ids_near(scene, players))
        mask = data.draw(st.one_of(st.integers(0, 31), st.integers(32, 2**20)))
        if is_legal_action(scene, message, user, table, hand, seq, "draw"):
            mask |= 1 << 9  # (a real Throw now would draw: not hostile)
        if data.draw(st.booleans()):
            custom_id, what = f"pk:card:{table}:{hand}:{seq}:{mask}:{data.draw(st.integers(0, 9))}", "forged card tap"
        else:
            custom_id, what = f"pk:throw:{table}:{hand}:{seq}:{mask}:{data.draw(st.sampled_from('01'))}", "forged Throw"
        source = carrying(message, button(custom_id)) if data.draw(st.booleans()) else message

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.click(user, source, custom_id, force=True))
            await check(what, outcome)

        return go()

    def forged_deal_or_seat(data: st.DataObject) -> Plan:
        """Deal (``pk:g``) of a menu that is not up, or a seat button (``pk:t``) of a table that is not here."""
        user = data.draw(st.sampled_from(USERS))
        message = data.draw(st.sampled_from(source_messages(scene, user)))
        here = {scene.a.table.id, scene.b.table.id}
        table = data.draw(custom_id_ints(scene).filter(lambda t: t not in here))
        if data.draw(st.booleans()):
            number = data.draw(custom_id_ints(scene))
            picked = data.draw(st.sampled_from(["", ":five-card-draw", ":assassin:pot-limit", ":no-such:x", ":x"]))
            custom_id, what = f"pk:deal:{data.draw(st.sampled_from([*here, table]))}:{number}{picked}", "forged Deal"
        else:
            kind = data.draw(st.one_of(st.sampled_from(["hand", "join", "sit", "rebuy", "leave"]),
                                       st.text(string.ascii_lowercase, min_size=1, max_size=12)))
            custom_id, what = f"pk:seat:{table}:{kind}", "seat button of another table"
        source = carrying(message, button(custom_id)) if data.draw(st.booleans()) else message

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.click(user, source, custom_id, force=True))
            await check(what, outcome)

        return go()

    def garbage_id(data: st.DataObject) -> Plan:
        user = data.draw(st.sampled_from(USERS))
        message = data.draw(st.sampled_from(source_messages(scene, user)))
        custom_id = data.draw(st.one_of(
            st.text(max_size=100).filter(lambda s: not re.match(r"pk:(turn|game):\d", s)),
            st.builds(lambda t, k: f"pk:turn:{t}:1:1:{k}", st.integers(-5, -1), st.sampled_from(["cc", "fold"])),
            st.builds(lambda s: f"pk:turn:{s}", st.text(string.printable, max_size=40)),
        )) or "x"
        source = carrying(message, button(custom_id[:100])) if data.draw(st.booleans()) else message

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.click(user, source, custom_id[:100], force=True))
            await check("malformed custom_id", outcome)

        return go()

    def forged_choice(data: st.DataObject) -> Plan:
        """The dealer's-choice button, or a pick in its menu (with what the menu carries), while no choice is up."""
        user = data.draw(st.sampled_from(USERS))
        table = data.draw(custom_id_ints(scene))
        number = data.draw(st.one_of(st.just(1), custom_id_ints(scene)))
        values = data.draw(st.lists(st.one_of(st.sampled_from(["five-card-draw", "assassin", "triple-draw-27"]),
                                              st.text(max_size=20)), max_size=2))
        carried = data.draw(st.sampled_from(["", ":pot-limit", ":default", ":badugi", ":zz"]))
        kind = data.draw(st.sampled_from(["game", "structure", "choose"]))
        message = data.draw(st.sampled_from(source_messages(scene, user)))
        if kind == "choose":
            custom_id = f"pk:choose:{table}:{number}"
            source = carrying(message, button(custom_id))
        else:
            custom_id = f"pk:{kind}:{table}:{number}{carried}"
            source = carrying(message, select(custom_id, values))

        async def go() -> None:
            if kind == "choose":
                outcome = await send_ignored(scene, lambda: fake.click(user, source, custom_id, force=True))
            else:
                outcome = await send_ignored(scene, lambda: fake.select(user, source, custom_id, values, force=True))
            assert outcome.kind == "answered", custom_id
            await check("dealer's choice out of turn", outcome)

        return go()

    def bad_amount(data: st.DataObject) -> Plan:
        a = scene.a
        turn = a._turn_now(1)
        assert turn is not None
        legal = turn.legal
        text = data.draw(st.one_of(st.sampled_from(AMOUNTS), st.text(max_size=30),
                                   st.integers(-10**30, 10**30).map(str)))
        digits = text.strip().replace(",", "").replace("_", "")
        if digits.isascii() and digits.isdigit() and legal.min_raise_to <= int(digits) <= legal.max_raise_to:
            text = f"{legal.max_raise_to + 1}"

        async def go() -> None:
            menu = (await a.open_bet_menu(turn)).message  # Raise…, then Other amount… in its menu
            assert menu is not None
            opened = await fake.reply_to(await fake.click(turn.name, menu, a.button_id(turn, "amount", menu)))
            assert opened.modal is not None
            [field] = _inputs(opened.modal)
            iid = await fake.submit_modal(turn.name, str(opened.modal["custom_id"]), {field: text}, force=True)
            outcome = await answer_of(scene, iid)
            assert outcome.kind == "answered", text
            await check("modal amount", outcome)

        return go()

    def forged_modal(data: st.DataObject) -> Plan:
        user = data.draw(st.sampled_from(USERS))
        a = scene.a.table
        assert a.live is not None
        custom_id = data.draw(st.sampled_from([f"pk:amount:{a.id}:{a.live.record.id}:{a.live.seq}", "pk:amount:1:1:1",
                                               "amount", "x"]))
        text = data.draw(st.sampled_from(AMOUNTS))
        legal = a.legal()
        digits = text.strip().replace(",", "").replace("_", "")
        if legal is not None and fake.user(user).id == a.actor() and digits.isascii() and digits.isdigit() \
                and legal.min_raise_to <= int(digits) <= legal.max_raise_to:
            text = f"{legal.max_raise_to + 1}"  # a modal is recognised by its custom_id: this one would bet

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.submit_modal(user, custom_id, {"amount": text},
                                                                         force=True))
            await check("amount modal never shown", outcome)

        return go()

    def no_permission(data: st.DataObject) -> Plan:
        channel, hosts = data.draw(st.sampled_from([("poker", ("alice",)), ("poker-2", ("dave",))]))
        user = data.draw(st.sampled_from([u for u in USERS if u not in hosts and u not in ("owner", "manager")]))
        group, sub, options = data.draw(st.sampled_from([
            ("table", "start", {}), ("table", "pause", {}), ("table", "resume", {}), (None, "close", {}),
            ("table", "kick", {"member": fake.user("bob")}), ("table", "kick", {"member": fake.user("erin")}),
        ]))
        dm = data.draw(st.booleans())

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.slash(user, "poker", subcommand=sub, group=group,
                                                                  options=options, channel=channel, dm=dm,
                                                                  force=True))
            assert outcome.kind == "answered"
            await check("host command without permission" + (" (from a DM)" if dm else ""), outcome)

        return go()

    def refused_command(data: st.DataObject) -> Plan:
        user = data.draw(st.sampled_from(USERS))
        seated = {"poker": TABLE_A, "poker-2": TABLE_B}
        channel = data.draw(st.sampled_from(["poker", "poker-2"]))
        choices: list[tuple[str, str, dict[str, Any]]] = [
            ("chips", "grant", {"member": fake.user("frank"), "amount": data.draw(st.integers(-10, 10**13))}),
            ("chips", "remove", {"member": fake.user("bob"), "amount": data.draw(st.integers(-10, 10**13))}),
            ("chips", "give", {"member": fake.user(user), "amount": 5}),  # to himself
            ("chips", "give", {"member": fake.user("bob"), "amount": data.draw(st.integers(10**9, 10**15))}),
            ("chips", "give", {"member": fake.user("bob"), "amount": data.draw(st.integers(-10**6, 0))}),
            ("poker", "create", {"game": "five-card-draw", "small_blind": 5, "big_blind": 10}),
        ]
        if user in seated[channel]:
            choices += [("poker", "join", {}), ("poker", "rebuy", {"amount": 100})]
        else:
            choices += [("poker", "leave", {}), ("poker", "sitout", {}), ("poker", "sitin", {})]
        command, sub, options = data.draw(st.sampled_from(choices))
        if command == "chips" and sub in ("grant", "remove") and user in ("owner", "manager"):
            user = "frank"
        dm = data.draw(st.booleans())

        async def go() -> None:
            outcome = await send_ignored(scene, lambda: fake.slash(user, command, subcommand=sub, options=options,
                                                                  channel=channel, dm=dm, force=True))
            assert outcome.kind == "answered"
            await check(f"refused /{command} command" + (" (from a DM)" if dm else ""), outcome)

        return go()

    def dm_to_the_bot(data: st.DataObject) -> Plan:
        user = data.draw(st.sampled_from(USERS))
        text = data.draw(st.one_of(st.text(min_size=1, max_size=200),
                                   st.sampled_from([f"<@{fake.app_id}> help", f"<@{fake.app_id}> poker join",
                                                    "!poker", "/poker start", "give me chips"])))

        async def go() -> None:
            mark = fake.mark()
            await fake.post_as(user, fake.dm_channel(user), text)
            await fake.quiet(0.05)
            assert fake.calls[mark:] == [], fake.calls[mark:]  # ignored: not even an answer
            await check("message to the bot in DMs", Outcome("ignored", None))

        return go()

    kinds = [forged_button, forged_picker, forged_deal_or_seat, garbage_id, forged_choice, bad_amount,
             forged_modal, no_permission, refused_command, dm_to_the_bot]

    @HYPOTHESIS
    @given(st.data())
    def one_input(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(kinds))
        run(kind(data))

    await asyncio.to_thread(one_input)
    total = sum(tried.values())
    assert total == HYPOTHESIS.max_examples and len(tried) >= len(kinds), tried
    assert UNEXPECTED not in answers
    # The game still goes on: both hands play to their ends.
    await scene.a.play(calling_station, number=1)
    await scene.b.play(calling_station, number=1)
    figures["hostile inputs tried"] += total
    figures["hostile inputs answered"] += total - answers.get("(ignored)", 0)
    figures["chips lost"] += await chips_lost(scene.db, fake.guild_id)


def _inputs(modal: dict[str, Any]) -> list[str]:
    from tests.e2e.fakediscord import TEXT_INPUT, walk_components

    return [str(c["custom_id"]) for c in walk_components(modal.get("components", [])) if c.get("type") == TEXT_INPUT]


# ------------------------------------------------------------------ nobody sees another player's cards


@dataclass(frozen=True)
class PrivateVersion:
    at: float
    user_id: int
    channel_id: int
    text: str
    kind: str  # "dm" or "ephemeral"


class PrivateLog(MessageRecorder):
    """Every version of every DM and ephemeral reply, with its recipient and the wall-clock time it was written."""

    def __init__(self, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
        self.versions: list[PrivateVersion] = []
        super().__init__(fake, monkeypatch)

    def _record(self, message: StoredMessage) -> None:
        channel = self.fake.channels.get(message.channel_id)
        if channel is None:
            return
        if channel.is_dm and channel.recipient is not None:
            self.versions.append(PrivateVersion(time.time(), channel.recipient.id, channel.id, message.text(), "dm"))
        elif message.ephemeral_to is not None:
            self.versions.append(PrivateVersion(time.time(), message.ephemeral_to, channel.id, message.text(),
                                                "ephemeral"))


@dataclass(frozen=True)
class Holdings:
    """One stored hand, replayed: the cards each player held at some point, and the cards shown face up."""

    hand_id: int
    channel_id: int
    started_at: float
    ended_at: float | None
    own: dict[int, frozenset[str]]  # user id -> card codes he held (dealt, drawn, thrown)
    public: frozenset[str]


def holdings(db: Path) -> list[Holdings]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        channels = {r["id"]: r["channel_id"] for r in con.execute("SELECT id, channel_id FROM tables")}
        out = []
        for row in con.execute("SELECT * FROM hands ORDER BY id").fetchall():
            actions = [r[0] for r in con.execute("SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq",
                                                 (row["id"],))]
            hand = stored_hand(row["game"], json.loads(row["settings"]), json.loads(row["stacks_before"]),
                               row["seed"], row["carried_in"])
            users = json.loads(row["seats"])
            own: dict[int, set[str]] = {u: set() for u in users}

            def note(hand: Hand = hand, own: dict[int, set[str]] = own, users: list[int] = users) -> None:
                for seat, cards in enumerate(hand.holes):
                    own[users[seat]] |= {c.code for c in cards}

            note()
            for action in actions:
                hand.act(action)
                note()
            public = frozenset(c.code for cards in hand.face_up for c in cards)
            out.append(Holdings(row["id"], channels[row["table_id"]], row["started_at"], row["ended_at"],
                                {u: frozenset(c) for u, c in own.items()}, public))
        return out
    finally:
        con.close()


# A card as the bot may write it: its card emoji, or text (``A♠️``, ``10♥️``, the older ``T♥``, a joker's code).
CARD = re.compile(r"<:c_([2-9TJQKA][cdhs]|X[12])_[0-9a-f]{6}:\d+>|(?<![0-9A-Za-z])(10|[2-9TJQKA])([♣♦♥♠])|(X[12])")
SYMBOL = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def cards_in(text: str) -> set[str]:
    found = set()
    for emoji, rank, suit, joker in CARD.findall(text):
        found.add(emoji or joker or ("T" if rank == "10" else rank) + SYMBOL[suit])
    return found


def private_leaks(hands: list[Holdings], versions: list[PrivateVersion]) -> list[str]:
    """Private versions (DMs, ephemeral replies) showing a card the recipient did not hold. A version may belong
    to any hand of its table live around the moment it was written (a DM of a draw can land just after the hand
    ended); it must show only cards its recipient held in one of them (or cards thrown face up)."""
    problems = []
    for version in versions:
        shown = cards_in(version.text)
        if not shown:
            continue
        mentioned = re.search(r"<#(\d+)>", version.text)
        channel = int(mentioned[1]) if version.kind == "dm" and mentioned else version.channel_id
        candidates = [h for h in hands if h.channel_id == channel and h.started_at - 0.5 <= version.at
                      and (h.ended_at is None or version.at <= h.ended_at + 2.0)]
        if not any(shown <= (h.own.get(version.user_id, frozenset()) | h.public) for h in candidates):
            problems.append(f"{version.kind} to {version.user_id} showed {sorted(shown)}: {version.text[:200]!r}")
    return problems


def card_code(card: Card) -> str:
    return card.code


async def random_session(players: Players, hands: int, rng: random.Random, onlookers: tuple[str, ...]) -> int:
    """Play ``hands`` hands with random moves; between moves, people ask for their hand ("My hand", /poker hand)."""
    fake = players.fake
    clicks = 0
    for _ in range(hands):
        turn: Turn | None = await players.turn(timeout=10)
        number = turn.number
        while turn is not None:
            hand = players.table.hand
            assert hand is not None
            if rng.random() < 0.4:  # someone looks at his cards (or tries to)
                who = rng.choice(onlookers)
                if rng.random() < 0.5:
                    await fake.reply_to(await fake.click(who, turn.message, players.seat_button("hand")))
                else:
                    await players.poker(who, "hand")
                clicks += 1
            policy = rng.choice([calling_station, bettor, calling_station])
            action = policy(hand, turn.legal)
            if turn.legal.phase == "betting" and turn.legal.call_amount and rng.random() < 0.1:
                action = "f"
            await players.act(action, turn=turn)
            clicks += 1
            seq = turn.seq

            def moved(seq: int = seq, number: int = number) -> Turn | bool | None:
                table = players.table
                if table.live is None or table.live.record.number != number:
                    return True
                now = players._turn_now(number)
                return now if now is not None and now.seq != seq else None

            after = await fake.wait_for(moved, 10, what="the next turn")
            turn = after if isinstance(after, Turn) else None
    return clicks


async def test_nobody_ever_sees_another_players_cards(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures, monkeypatch: pytest.MonkeyPatch
) -> None:
    private = PrivateLog(fake, monkeypatch)
    await poker_bot(seed=302)
    a = Players(fake, poker_bot, "poker")
    b = Players(fake, poker_bot, "poker-2")
    fake.close_dms("carol")  # she reads her cards with "My hand" only
    await a.open_table("alice", ("alice", "bob", "carol", "manager"), game="triple-draw-27")
    await b.open_table("dave", ("dave", "erin", "frank"), game="assassin", jokers=True)
    rng = random.Random(302)
    clicks = await asyncio.gather(random_session(a, 15, random.Random(rng.random()), USERS),
                                  random_session(b, 15, random.Random(rng.random()), USERS))
    await a.poker("alice", "table pause")
    await b.poker("dave", "table pause")
    await fake.settle()
    await fake.quiet(0.2)
    hands = holdings(poker_bot.db_path)
    assert len(hands) >= 30
    leaks = private_leaks(hands, private.versions)
    assert not leaks, "\n".join(leaks)
    shown = [v for v in private.versions if cards_in(v.text)]
    assert len(shown) > 100 and {v.kind for v in shown} == {"dm", "ephemeral"}
    # The check itself catches a leak: the same versions, each sent to another player, are refused.
    swapped = [PrivateVersion(v.at, next(u for u in h.own if u != v.user_id), v.channel_id, v.text, v.kind)
               for v in shown[:20] for h in hands if h.channel_id == v.channel_id and v.user_id in h.own
               and h.started_at <= v.at <= (h.ended_at or float("inf"))][:10]
    assert len(private_leaks(hands, swapped)) == len(swapped) > 0
    figures["private messages checked for other players' cards"] += len(private.versions)
    figures["random-session clicks"] += sum(clicks)
