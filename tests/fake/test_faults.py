"""Each fault does what it says, to a plain aiohttp client and to discord.py: closed before the request was
applied (nothing happened) or after (it happened, but the client saw the connection drop), reset, cut short,
late answers (10062), at random with a seed, and RESUMEs refused on the gateway."""

from __future__ import annotations

import asyncio
import errno
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from pokerdev.fakediscord import FakeDiscord, RestCall
from pokerdev.fakediscord.faults import KINDS
from pokerdev.fakediscord.ratelimit import GlobalRate
from tests.e2e.conftest import BotStarter, DiscordErrors

pytestmark = pytest.mark.e2e


async def post(fake: FakeDiscord, channel: str, content: str) -> tuple[int, Any]:
    """POST a message with a plain aiohttp client: (status, body)."""
    url = f"{fake.api_base}/channels/{fake.channel(channel).id}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": content}) as response:
        return response.status, await response.json()


def contents(fake: FakeDiscord, channel: str) -> list[str]:
    return [m.content for m in fake.channel_messages(channel)]


async def test_closed_before_applies_nothing(fake: FakeDiscord) -> None:
    fault = fake.inject("POST /channels/*/messages", connection="closed-before")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await post(fake, "poker", "lost on the way")
    assert contents(fake, "poker") == [] and fault.hits == 1 and fault.exhausted
    [call] = fake.calls
    assert call.fault is fault and call.connection == "closed-before" and call.status is None and not call.answered
    status, body = await post(fake, "poker", "again")  # spent: the next call goes through
    assert status == 200 and body["content"] == "again" and contents(fake, "poker") == ["again"]


async def test_closed_after_applies_the_request_but_the_client_sees_no_answer(fake: FakeDiscord) -> None:
    fake.inject("POST /channels/*/messages", connection="closed-after")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await post(fake, "poker", "sent, unconfirmed")
    assert contents(fake, "poker") == ["sent, unconfirmed"]  # the effect stands
    [call] = fake.calls
    assert call.status == 200 and call.connection == "closed-after" and not call.answered


async def test_reset_applies_nothing(fake: FakeDiscord) -> None:
    fake.inject("/channels/*/messages", connection="reset")
    with pytest.raises(aiohttp.ClientOSError) as reset:
        await post(fake, "poker", "reset")
    assert reset.value.errno == errno.ECONNRESET
    assert contents(fake, "poker") == [] and fake.calls[0].connection == "reset"


async def test_cut_short_applies_the_request_and_truncates_the_answer(fake: FakeDiscord) -> None:
    fake.inject("POST /channels/*/messages", connection="cut-short", times=2)
    with pytest.raises(aiohttp.ClientPayloadError):
        await post(fake, "poker", "half an answer")
    assert contents(fake, "poker") == ["half an answer"]
    message = fake.channel_messages("poker")[0]
    url = f"{fake.api_base}/channels/{message.channel_id}/messages/{message.id}"
    fake.inject("DELETE /channels/*", connection="cut-short")  # a 204 cut short: headers promising a body
    async with aiohttp.ClientSession() as session, session.delete(url) as response:
        with pytest.raises(aiohttp.ClientPayloadError):
            await response.read()
    assert message.deleted


async def test_connection_faults_through_discord_py(fake: FakeDiscord, start_bot: BotStarter) -> None:
    """discord.py does not retry these: the bot sees aiohttp's errors, and must find out what happened."""
    bot = await start_bot(discord.Client(intents=discord.Intents.default()))
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    expected: list[tuple[str, type[Exception], bool]] = [
        ("closed-before", aiohttp.ServerDisconnectedError, False),
        ("closed-after", aiohttp.ServerDisconnectedError, True),
        ("reset", aiohttp.ClientOSError, False),
        ("cut-short", aiohttp.ClientPayloadError, True),
    ]
    for kind, error, applied in expected:
        fake.inject("POST /channels/*/messages", connection=kind)  # type: ignore[arg-type]
        with pytest.raises(error):
            await channel.send(kind)
        assert (kind in contents(fake, "general")) is applied, kind
        sent = await channel.send(f"after {kind}")  # the next call goes through
        assert sent.content == f"after {kind}"
    assert contents(fake, "general") == ["after closed-before", "closed-after", "after closed-after", "after reset",
                                         "cut-short", "after cut-short"]


async def test_slow_and_failing_calls_are_counted_by_kind(fake: FakeDiscord) -> None:
    slow = fake.inject("POST /channels/*/messages", delay=0.1)
    busy = fake.inject("POST /channels/*/messages", status=503)
    assert (await post(fake, "poker", "slow"))[0] == 200 and slow.kind == "slow"
    assert (await post(fake, "poker", "busy"))[0] == 503 and busy.kind == "503"
    assert fake.faults_hit() == 2 and contents(fake, "poker") == ["slow"]
    with pytest.raises(ValueError, match="one of them"):
        fake.inject("*", status=500, connection="reset")
    with pytest.raises(ValueError, match="needs"):
        fake.inject("*")


class Silent(discord.Client):
    """A bot with one command that answers at once (and one the tests answer by hand)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.failures: list[BaseException] = []

        @self.tree.command(name="hand", description="Your cards")
        async def hand(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("A♠ K♠", ephemeral=True)
            except discord.NotFound as error:
                self.failures.append(error)


async def test_a_late_answer_loses_the_interaction_without_blaming_the_bot(
    fake: FakeDiscord, start_bot: BotStarter, discord_errors: DiscordErrors
) -> None:
    bot = await start_bot(Silent())
    fake.ack_deadline = 0.3
    late = fake.inject("/interactions/*", late=True)
    fake.inject("POST /channels/*", late=True)  # late faults hit interaction callbacks only
    iid = await fake.slash("alice", "hand")
    await fake.wait_for(lambda: bot.failures or None, 2, what="the bot to see 10062")
    [error] = bot.failures
    assert isinstance(error, discord.NotFound) and error.code == 10062 and late.hits == 1
    record = fake.interaction(iid)
    assert record.lost and record.response_type is None and fake.ephemeral_for("alice") == []
    with pytest.raises(AssertionError, match="lost"):
        await fake.reply_to(iid)
    await fake.settle()
    assert fake.take_violations() == []  # the deadline passed, but Discord lost it: no ack-deadline violation
    assert (await post(fake, "poker", "not a callback"))[0] == 200
    answered = await fake.reply_to(await fake.slash("alice", "hand"))
    assert answered.content == "A♠ K♠"


def kinds_seen(fake: FakeDiscord) -> list[str | None]:
    return [c.fault.kind if c.fault else None for c in fake.calls]


async def random_run(seed: int) -> list[str | None]:
    async with FakeDiscord() as fake:
        chaos = fake.inject_random(seed, 0.5, match="POST /channels/*/messages", kinds=("500", "closed-after", "reset"))
        for i in range(30):
            try:
                await post(fake, "poker", f"m{i}")
            except aiohttp.ClientError:
                pass
        assert chaos.hits == sum(chaos.by_kind().values()) == len([k for k in kinds_seen(fake) if k])
        assert 5 < chaos.hits < 25 and set(chaos.by_kind()) == {"500", "closed-after", "reset"}
        applied = [f"m{i}" for i, k in enumerate(kinds_seen(fake)) if k in (None, "closed-after")]
        assert contents(fake, "poker") == applied
        fake.take_violations()
        return kinds_seen(fake)


async def test_random_faults_follow_their_seed() -> None:
    first, again, other = await random_run(7), await random_run(7), await random_run(8)
    assert first == again and first != other


async def test_random_faults_keep_to_their_routes_and_count(fake: FakeDiscord) -> None:
    chaos = fake.inject_random(1, 1.0, match="PATCH /channels/*", times=2)
    assert set(chaos.faults) == set(KINDS)
    for i in range(3):
        assert (await post(fake, "poker", f"m{i}"))[0] == 200  # not a PATCH: untouched
    assert chaos.hits == 0 and fake.faults_hit() == 0
    with pytest.raises(ValueError, match="kinds"):
        fake.inject_random(1, 1.0, kinds=("404",))


class Resumer(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.readies = 0
        self.resumed = asyncio.Event()

    async def on_ready(self) -> None:
        self.readies += 1

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before it identifies again; the fake's test need not."""


async def test_a_refused_resume_makes_the_bot_identify_afresh(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await start_bot(Resumer())
    refusals = fake.refuse_resumes(times=1)
    await fake.drop_gateway()  # resumable: the bot tries to RESUME, and is refused
    await fake.wait_for(lambda: len(fake.identify_payloads) == 2 and fake.connected(), 15, what="a new IDENTIFY")
    assert refusals.refused == 1 == fake.refused_resumes and fake.resumes == 0
    await fake.wait_for(lambda: bot.readies == 2 or None, 5, what="READY again")
    await fake.drop_gateway()  # the refusal is spent: this one resumes
    await asyncio.wait_for(bot.resumed.wait(), 10)
    assert fake.resumes == 1 and refusals.refused == 1 and len(fake.identify_payloads) == 2


def test_resume_refusals_by_chance_follow_their_seed() -> None:
    fake = FakeDiscord()
    some = fake.refuse_resumes(None, chance=0.5, seed=3)
    decisions = [some.refuse() for _ in range(40)]
    again = FakeDiscord().refuse_resumes(None, chance=0.5, seed=3)
    assert decisions == [again.refuse() for _ in range(40)] and 5 < sum(decisions) < 35


def test_a_call_cut_says_so() -> None:
    call = RestCall(0, "POST", "/channels/1/messages", {}, 0.5, status=200, connection="closed-after")
    assert "200 (closed-after)" in str(call) and not call.answered


async def test_the_global_rate_is_counted_not_enforced(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel('poker').id}/typing"
    async with aiohttp.ClientSession() as session:
        for _ in range(55):
            async with session.post(url) as response:
                assert response.status == 204  # never refused
        async with session.post(f"{fake.api_base}/interactions/1/x/callback", json={"type": 1}) as response:
            assert response.status == 404
    assert [v.kind for v in fake.take_violations()] == ["unknown-interaction"]
    assert (fake.global_rate.counted, fake.global_rate.exempt) == (55, 1)


def test_the_global_rate_is_fifty_a_second_in_a_sliding_window() -> None:
    """Interaction answers are exempt; the 51st call within a second is one Discord would have refused."""
    rate = GlobalRate()
    typing = RestCall(0, "POST", "/channels/1/typing", {}, 0.0)
    for i in range(60):
        rate.count(typing, 10.0 + i * 0.01)  # 60 calls in 0.6 s
    rate.count(RestCall(0, "POST", "/interactions/1/t/callback", {}, 0.0), 10.6)
    rate.count(RestCall(0, "PATCH", "/webhooks/1/t/messages/@original", {}, 0.0), 10.6)
    assert (rate.counted, rate.exempt, rate.peak_per_second, rate.over_limit) == (60, 2, 60, 10)
    rate.count(typing, 11.55)  # the first 56 have left the window
    assert rate.over_limit == 10 and len(rate.window) == 5
    old = rate.reset()
    assert (old.counted, old.over_limit, rate.counted, rate.peak_per_second) == (61, 10, 0, 0)


async def test_answering_again_after_a_lost_answer_is_not_blamed(fake: FakeDiscord, start_bot: BotStarter) -> None:
    """The callback went through but its answer was lost: asking again gets 40060, which is how a bot finds out,
    and no violation. Without the fault, a second response is the bot's bug."""
    await start_bot(discord.Client(intents=discord.Intents.default()))  # answers nothing by itself
    first, second = [fake.interaction(await fake.slash("alice", "hand")) for _ in range(2)]
    fake.inject("POST /interactions/*", connection="closed-after", times=1)

    async def answer(record: Any) -> int:
        url = f"{fake.api_base}/interactions/{record.id}/{record.token}/callback"
        body = {"type": 4, "data": {"content": "A♠ K♠"}}
        async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
            return response.status

    with pytest.raises(aiohttp.ServerDisconnectedError):
        await answer(first)
    assert first.response_type == 4 and first.content == "A♠ K♠"
    assert await answer(first) == 400 and fake.take_violations() == []
    assert await answer(second) == 204 and await answer(second) == 400  # 204: no ?with_response
    assert [v.kind for v in fake.take_violations()] == ["already-acknowledged"]
