"""Tests of the fake Discord itself, driven through the real discord.py by a tiny throwaway bot."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands

from .conftest import BotStarter, DiscordErrors
from .fakediscord import FakeDiscord, MessageFlag, RateLimitModel, patch_discord

pytestmark = pytest.mark.e2e

PHH = b'variant = "F2L3D"\nantes = [0, 0, 0]\n'


class BuyIn(discord.ui.Modal, title="Buy in"):
    amount: discord.ui.TextInput[BuyIn] = discord.ui.TextInput(label="Amount", custom_id="amount", max_length=6)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"bought in for {self.amount.value}", ephemeral=True)
        await interaction.user.send(f"You bought in for {self.amount.value}")


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []

    @discord.ui.button(label="Join", style=discord.ButtonStyle.green, custom_id="harness:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"players: {', '.join(self.players)}", view=self)

    @discord.ui.button(label="Buy in", custom_id="harness:buyin")
    async def buyin(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        await interaction.response.send_modal(BuyIn())

    @discord.ui.select(
        custom_id="harness:stakes",
        options=[discord.SelectOption(label="1/2", value="1/2"), discord.SelectOption(label="2/5", value="2/5")],
    )
    async def stakes(self, interaction: discord.Interaction, select: discord.ui.Select[TableView]) -> None:
        await interaction.response.send_message(f"stakes {select.values[0]}", ephemeral=True)


class HarnessBot(discord.Client):
    """A toy bot using every kind of answer the real bot will use."""

    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(intents=intents or discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.results: dict[str, Any] = {}
        self.resumed = asyncio.Event()
        self.seen: list[discord.Message] = []
        self.tree.add_command(self._poker())
        self.tree.add_command(self._chips())

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    def _poker(self) -> app_commands.Group:
        poker = app_commands.Group(name="poker", description="Poker tables")
        bot = self

        @poker.command(name="create", description="Open a table")
        @app_commands.choices(
            structure=[app_commands.Choice(name=s, value=s) for s in ("fixed-limit", "pot-limit", "no-limit")]
        )
        async def create(
            interaction: discord.Interaction,
            game: str,
            small_blind: app_commands.Range[int, 1, 1000],
            big_blind: int,
            structure: str = "fixed-limit",
            jokers: bool = False,
        ) -> None:
            await interaction.response.send_message(
                f"{game} {structure} {small_blind}/{big_blind} jokers={jokers}", view=TableView()
            )

        @poker.command(name="hand", description="Your cards")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("A♠ K♠ Q♠ J♠ T♠", ephemeral=True)

        @poker.command(name="slow", description="Deferred answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await asyncio.sleep(0.05)
            await interaction.edit_original_response(content="done thinking")

        @poker.command(name="late", description="Answers after a delay")
        async def late(interaction: discord.Interaction, seconds: float) -> None:
            await asyncio.sleep(seconds)
            await interaction.response.send_message("too late")

        @poker.command(name="post", description="Channel messages: send, edit, delete")
        async def post(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            kept = await interaction.channel.send("version 1")
            await kept.edit(content="version 2", embed=discord.Embed(title="Table", description="3 seats"))
            gone = await interaction.channel.send("temporary")
            await gone.delete()
            bot.results["post"] = (kept.id, gone.id)
            await interaction.response.send_message("posted", ephemeral=True)

        @poker.command(name="dm", description="Send me a DM")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("your cards: 2♣ 3♦ 4♥ 5♠ 7♣")
            except discord.Forbidden as error:
                bot.results["dm_error"] = error
                await interaction.response.send_message(f"DMs closed ({error.code})", ephemeral=True)
                return
            await interaction.response.send_message("sent", ephemeral=True)

        @poker.command(name="biglabel", description="Tries a button label that is too long")
        async def biglabel(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="x" * 81, custom_id="harness:long"))
            try:
                await interaction.response.send_message("long", view=view)
            except discord.HTTPException as error:
                bot.results["label_error"] = error
                await interaction.response.send_message("fallback", ephemeral=True)

        @poker.command(name="history", description="Attach a PHH file")
        async def history(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("last hand", file=discord.File(io.BytesIO(PHH), "hand-1.phh"))
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("also here", file=discord.File(io.BytesIO(PHH * 2), "hand-2.phh"))

        @poker.command(name="buyin", description="Opens a modal")
        async def buyin(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(BuyIn())

        @poker.command(name="boom", description="Raises")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

        @poker.command(name="followup", description="Answer, then a followup")
        async def followup(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            await interaction.followup.send("second, private", ephemeral=True)

        return poker

    def _chips(self) -> app_commands.Group:
        chips = app_commands.Group(name="chips", description="Chip bank")
        config = app_commands.Group(name="config", description="Settings", parent=chips)

        @chips.command(name="give", description="Give chips")
        async def give(interaction: discord.Interaction, member: discord.Member, amount: int) -> None:
            kind = type(member).__name__
            await interaction.response.send_message(f"{interaction.user.name} gives {amount} to {member.name} ({kind})")

        @config.command(name="banker", description="Set the banker role")
        async def banker(interaction: discord.Interaction, role: discord.Role) -> None:
            allowed = interaction.permissions.manage_guild
            await interaction.response.send_message(f"banker={role.name} allowed={allowed}", ephemeral=True)

        return chips


async def started(start_bot: BotStarter) -> HarnessBot:
    return await start_bot(HarnessBot())


# ---------------------------------------------------------------------------------------------------------------


def test_patch_points_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails loudly if discord.py moves the attributes the fake patches (pin discord.py to 2.7.x)."""
    assert discord.__version__.startswith("2.7."), discord.__version__
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert discord.asset.Asset.BASE == "https://cdn.discordapp.com"
    assert isinstance(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)
    import discord.webhook.async_ as webhooks

    # interaction callbacks and followups go through the same Route, so one patch covers them
    assert webhooks.Route is discord.http.Route  # type: ignore[attr-defined]
    server = FakeDiscord()
    server.port = 4321
    patch_discord(monkeypatch, server)
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:4321/api/v10/users/@me"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:4321/"
    assert discord.asset.Asset.BASE == "http://127.0.0.1:4321"  # emoji images and attachments from the fake's CDN


async def test_login_guild_and_intents(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    assert bot.user is not None and bot.user.id == fake.app_id
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    assert [c.name for c in guild.text_channels] == ["poker", "poker-2", "general"]
    assert {r.name for r in guild.roles} >= {"@everyone", "Staff", "Banker"}
    assert guild.me.guild_permissions.send_messages and not guild.me.guild_permissions.manage_guild
    assert guild.get_member(fake.user("alice").id) is None  # no members intent: members come with interactions
    intents = int(fake.identify_payloads[0]["intents"])
    assert intents & (1 << 1 | 1 << 8 | 1 << 15) == 0


async def test_privileged_intent_is_refused(fake: FakeDiscord, start_bot: BotStarter) -> None:
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await start_bot(HarnessBot(intents=discord.Intents.all()))


async def test_slash_with_subcommand_options_then_button_clicks(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    iid = await fake.slash(
        "alice",
        "poker",
        subcommand="create",
        options={"game": "2-7 triple draw", "small_blind": 1, "big_blind": 2, "structure": "pot-limit", "jokers": True},
    )
    reply = await fake.reply_to(iid)
    assert reply.content == "2-7 triple draw pot-limit 1/2 jokers=True"
    assert not reply.ephemeral and reply.response_type == 4
    options = fake.interaction(iid).payload["data"]["options"][0]
    assert options["type"] == 1 and [o["type"] for o in options["options"]] == [3, 4, 4, 3, 5]
    table = fake.channel_messages("poker")[-1]
    assert table is reply.message and table.custom_ids() == ["harness:join", "harness:buyin", "harness:stakes"]

    click = await fake.click("alice", table, "harness:join")
    answer = await fake.reply_to(click)
    assert answer.response_type == 7 and answer.message is table
    assert fake.interaction(click).payload["message"]["id"] == str(table.id)  # = the callback's response_message_id
    await fake.reply_to(await fake.click("bob", table, table.button("Join")["custom_id"]))
    assert table.content == "players: alice, bob" and table.edits == 2
    assert [m.content for m in fake.channel_messages("poker")] == ["players: alice, bob"]


async def test_ephemeral_reply_and_select(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    hand = await fake.reply_to(await fake.slash("carol", "poker", subcommand="hand"))
    assert hand.ephemeral and hand.flags & MessageFlag.EPHEMERAL and hand.content.startswith("A♠")
    assert fake.channel_messages("poker") == [] and fake.ephemeral_for("carol") == [hand.message]
    assert hand.message not in fake.visible_to("dave")

    create = {"game": "badugi", "small_blind": 1, "big_blind": 2}
    table = (await fake.reply_to(await fake.slash("carol", "poker", subcommand="create", options=create))).message
    assert table is not None
    picked = await fake.reply_to(await fake.select("dave", table, "harness:stakes", ["2/5"]))
    assert picked.content == "stakes 2/5" and picked.ephemeral
    with pytest.raises(ValueError, match="no option"):
        await fake.select("dave", table, "harness:stakes", ["9/9"])


async def test_modal_submit_then_dm(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    create = {"game": "badugi", "small_blind": 1, "big_blind": 2}
    table = (await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", options=create))).message
    assert table is not None
    opened = await fake.reply_to(await fake.click("alice", table, "harness:buyin"))
    assert opened.response_type == 9 and opened.modal is not None and opened.modal["title"] == "Buy in"
    with pytest.raises(ValueError, match="at most 6"):
        await fake.submit_modal("alice", None, {"amount": "1234567"})
    submitted = await fake.submit_modal("alice", None, {"amount": "200"})
    assert fake.interaction(submitted).payload["message"]["id"] == str(table.id)  # opened from a component
    assert (await fake.reply_to(submitted)).content == "bought in for 200"
    dm = await fake.wait_for_dm("alice")
    assert dm.content == "You bought in for 200"
    assert fake.dm_channel("alice").id == dm.channel_id  # one stable DM channel per user
    # a modal opened by a slash command, submitted by its custom_id
    opened = await fake.reply_to(await fake.slash("bob", "poker", subcommand="buyin"))
    assert opened.modal is not None
    await fake.reply_to(await fake.submit_modal("bob", opened.modal["custom_id"], {"amount": "50"}))
    assert (await fake.wait_for_dm("bob")).content == "You bought in for 50"


async def test_dm_to_closed_dms_is_50007(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    assert (await fake.reply_to(await fake.slash("bob", "poker", subcommand="dm"))).content == "sent"
    fake.close_dms("bob")
    reply = await fake.reply_to(await fake.slash("bob", "poker", subcommand="dm"))
    assert reply.content == "DMs closed (50007)"
    error = bot.results["dm_error"]
    assert isinstance(error, discord.Forbidden) and error.code == 50007 and error.status == 403
    assert len(fake.dms("bob")) == 1
    assert [c.status for c in fake.calls_to("POST", f"/channels/{fake.dm_channel('bob').id}/messages")] == [200, 403]


async def test_channel_edit_and_delete_are_reflected(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    await fake.reply_to(await fake.slash("alice", "poker", subcommand="post", channel="poker-2"))
    kept_id, gone_id = bot.results["post"]
    [kept] = fake.channel_messages("poker-2")
    assert kept.id == kept_id and kept.content == "version 2" and kept.embeds[0]["title"] == "Table"
    assert [h["content"] for h in kept.history] == ["version 1", "version 2"]
    assert fake.message(gone_id).deleted and len(fake.channel_messages("poker-2", include_deleted=True)) == 2
    channel = bot.get_channel(fake.channel("poker-2").id)
    assert isinstance(channel, discord.TextChannel)
    assert (await channel.fetch_message(kept_id)).content == "version 2"
    with pytest.raises(discord.NotFound) as missing:
        await channel.fetch_message(gone_id)
    assert missing.value.code == 10008
    await fake.delete_message(kept)  # a moderator deletes it
    assert fake.channel_messages("poker-2") == []


async def test_deferral_then_edit_of_original(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    iid = await fake.slash("erin", "poker", subcommand="slow")
    reply = await fake.reply_to(iid)
    assert reply.response_type == 5 and reply.content == "done thinking"
    assert reply.ephemeral and reply.message is not None and not reply.message.loading
    assert reply.ack_latency is not None and reply.ack_latency < 0.5


async def test_followup_is_kept_with_its_interaction(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    reply = await fake.reply_to(await fake.slash("erin", "poker", subcommand="followup"), followups=1)
    assert reply.content == "first" and [(m.content, m.ephemeral) for m in reply.followups] == [
        ("second, private", True)
    ]
    assert [m.content for m in fake.channel_messages("poker")] == ["first"]


async def test_too_long_label_is_rejected_with_400(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="biglabel"))
    assert reply.content == "fallback"
    error = bot.results["label_error"]
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    assert "data.components.0.components.0.label" in error.text
    [violation] = fake.take_violations("invalid-form-body")
    assert "80 or fewer" in violation.detail


def _button(label: str, custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _select(options: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(options)]}


LIMITS: dict[str, tuple[dict[str, Any], str]] = {
    "six rows": ({"components": [_row(_button("b", f"b{i}")) for i in range(6)]}, "components"),
    "six buttons": ({"components": [_row(*(_button("b", f"b{i}") for i in range(6)))]}, "components.0.components"),
    "26 options": ({"components": [_row(_select(26))]}, "components.0.components.0.options"),
    "81-char label": ({"components": [_row(_button("x" * 81, "b"))]}, "components.0.components.0.label"),
    "101-char custom_id": ({"components": [_row(_button("b", "c" * 101))]}, "components.0.components.0.custom_id"),
    "2001-char content": ({"content": "x" * 2001}, "content"),
    "duplicate custom_id": ({"components": [_row(_button("a", "b"), _button("c", "b"))]}, "components.0.components.1"),
    "select beside a button": ({"components": [_row(_select(2), _button("b", "b"))]}, "components.0.components"),
}


@pytest.mark.parametrize("case", LIMITS)
async def test_limits_answer_400_50035(fake: FakeDiscord, case: str) -> None:
    body, where = LIMITS[case]
    url = f"{fake.api_base}/channels/{fake.channel('poker').id}/messages"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "x", **body}) as response:
        assert response.status == 400 and response.content_type == "application/json"
        error = await response.json()
    assert error["code"] == 50035 and error["message"] == "Invalid Form Body"
    node = error["errors"]
    for key in where.split("."):
        node = node[key]
    assert node.get("_errors") or any("_errors" in v for v in node.values())
    assert [v.kind for v in fake.take_violations()] == ["invalid-form-body"]
    assert fake.channel_messages("poker") == []


async def test_late_acknowledgement_is_detected(
    fake: FakeDiscord, start_bot: BotStarter, discord_errors: DiscordErrors
) -> None:
    await started(start_bot)
    fake.ack_deadline = 0.2  # Discord's is 3 s; a small one keeps the test fast
    iid = await fake.slash("alice", "poker", subcommand="late", options={"seconds": 0.3})
    with pytest.raises(AssertionError, match=r"not acknowledged within 0\.2s"):
        await fake.reply_to(iid)
    await fake.wait_for(lambda: fake.interaction(iid).late or None, 2)
    [violation] = fake.take_violations("ack-deadline")
    assert "acknowledged after 0.3" in violation.detail and violation.interaction_id == iid
    latency = fake.interaction(iid).ack_latency
    assert latency is not None and 0.3 <= latency < 1.0
    [logged] = discord_errors.take("Unknown interaction")  # discord.py raised NotFound 10062 in the command
    assert logged.exc_info is not None and isinstance(logged.exc_info[1], app_commands.CommandInvokeError)


async def test_unacknowledged_interaction_is_detected(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    fake.ack_deadline = 0.1
    reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="hand"))
    assert reply.message is not None
    await fake.click("alice", reply.message, "nobody:handles:this", force=True)  # a forged click: nobody answers
    await fake.settle()
    [violation] = fake.take_violations()
    assert violation.kind == "ack-deadline" and "not acknowledged within 0.1s" in violation.detail
    ignored = await fake.click("alice", reply.message, "nobody:handles:this", force=True, expect_ack=False)
    await fake.settle()
    assert fake.interaction(ignored).response_type is None and fake.take_violations() == []


async def test_second_response_is_40060(
    fake: FakeDiscord, start_bot: BotStarter, discord_errors: DiscordErrors
) -> None:
    await started(start_bot)
    iid = await fake.slash("alice", "poker", subcommand="hand")
    await fake.reply_to(iid)
    await fake.resend(iid)  # the same interaction delivered twice: the toy bot answers it twice
    call = await fake.wait_for_call(lambda c: c.interaction_id == iid and c.status == 400)
    assert call.response["code"] == 40060
    assert [v.kind for v in fake.take_violations()] == ["already-acknowledged"]
    assert discord_errors.take("already been acknowledged")


async def test_injected_429_is_retried(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    channel_post = fake.inject("POST /channels/*/messages", status=429, retry_after=0.05)
    callback = fake.inject("POST /interactions/*/callback", status=429, retry_after=0.05)
    reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="post"))
    assert reply.content == "posted" and channel_post.hits == 1 and callback.hits == 1
    statuses = [
        (c.method, c.route.split("/")[1], c.status) for c in fake.calls if c.route.startswith(("POST /ch", "POST /in"))
    ]
    assert statuses[:2] == [("POST", "channels", 429), ("POST", "channels", 200)]
    assert statuses[-2:] == [("POST", "interactions", 429), ("POST", "interactions", 200)]
    limited = next(c for c in fake.calls if c.status == 429)
    assert limited.response == {"message": "You are being rate limited.", "retry_after": 0.05, "global": False}
    assert len(fake.channel_messages("poker")) == 1


async def test_injected_500_and_delay(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    fake.inject(lambda c: c.method == "POST" and c.channel_id == channel.id, status=503, times=1)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("hello")
    slow = fake.inject("/channels/*/messages", delay=0.2)
    started_at = time.monotonic()
    await channel.send("hello again")
    assert time.monotonic() - started_at >= 0.2 and slow.hits == 1
    assert [m.content for m in fake.channel_messages("general")] == ["hello again"]


async def test_rate_limit_model_makes_discord_py_wait(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    fake.rate_limit = RateLimitModel(limit=2, period=0.3)
    channel = bot.get_channel(fake.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    started_at = time.monotonic()
    for i in range(5):
        await channel.send(f"message {i}")
    assert time.monotonic() - started_at >= 0.6  # 5 messages at 2 per 0.3 s
    assert [m.content for m in fake.channel_messages("poker")] == [f"message {i}" for i in range(5)]
    ok = next(c for c in fake.calls if c.ok and c.route == "POST /channels/{channel_id}/messages")
    assert ok.channel_id == channel.id
    # the headers discord.py reads were sent; it paced itself instead of hitting 429s
    assert all(c.status in (200, 429) for c in fake.calls_to("POST", "/channels/*/messages"))


async def test_file_uploads_are_kept(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="history"))
    assert reply.message is not None
    [attachment] = reply.message.attachments
    assert (attachment.filename, attachment.data) == ("hand-1.phh", PHH)
    later = await fake.wait_for_message("poker", lambda m: m.content == "also here")
    assert [(a.filename, a.data) for a in later.attachments] == [("hand-2.phh", PHH * 2)]
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == PHH


async def test_command_sync_is_stored_and_types_options(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    synced = await bot.tree.sync()
    assert {c.name for c in synced} == {"poker", "chips"}
    assert "poker create" in fake.command_paths() and "chips config banker" in fake.command_paths()
    bot.tree.copy_global_to(guild=discord.Object(fake.guild_id))
    await bot.tree.sync(guild=discord.Object(fake.guild_id))
    assert fake.command_paths(guild=True) == fake.command_paths(guild=False)
    iid = await fake.slash("alice", "poker", subcommand="hand")
    assert fake.interaction(iid).payload["data"]["guild_id"] == str(fake.guild_id)
    await fake.reply_to(iid)
    with pytest.raises(ValueError, match="unknown option"):
        await fake.slash(
            "alice", "poker", subcommand="create", options={"game": "x", "small_blind": 1, "big_blind": 2, "seats": 4}
        )
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash("alice", "poker", subcommand="create", options={"game": "x"})
    with pytest.raises(ValueError, match="not one of the choices"):
        await fake.slash(
            "alice",
            "poker",
            subcommand="create",
            options={"game": "x", "small_blind": 1, "big_blind": 2, "structure": "spread"},
        )
    with pytest.raises(ValueError, match="below the minimum"):
        await fake.slash("alice", "poker", subcommand="create", options={"game": "x", "small_blind": 0, "big_blind": 2})
    with pytest.raises(TypeError, match="is an integer"):
        await fake.slash(
            "alice", "poker", subcommand="create", options={"game": "x", "small_blind": "1", "big_blind": 2}
        )
    with pytest.raises(ValueError, match="no subcommand"):
        await fake.slash("alice", "poker", subcommand="nope")


async def test_members_roles_and_permissions_in_interactions(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    give = await fake.reply_to(
        await fake.slash("alice", "chips", subcommand="give", options={"member": fake.user("bob"), "amount": 25})
    )
    assert give.content == "alice gives 25 to bob (Member)"
    data = fake.interaction(give.id).payload["data"]
    assert str(fake.user("bob").id) in data["resolved"]["members"]
    banker = fake.role("Banker")
    as_manager = await fake.slash("manager", "chips", group="config", subcommand="banker", options={"role": banker})
    assert (await fake.reply_to(as_manager)).content == "banker=Banker allowed=True"
    as_alice = await fake.slash("alice", "chips", group="config", subcommand="banker", options={"role": banker})
    assert (await fake.reply_to(as_alice)).content == "banker=Banker allowed=False"
    nested = fake.interaction(as_alice).payload["data"]["options"][0]
    assert nested["type"] == 2 and nested["options"][0]["type"] == 1 and nested["options"][0]["options"][0]["type"] == 8


async def test_slash_from_a_dm(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    iid = await fake.slash("dave", "poker", subcommand="hand", dm=True)
    reply = await fake.reply_to(iid)
    assert reply.channel_id == fake.dm_channel("dave").id and "member" not in reply.payload
    assert reply.content.startswith("A♠")


async def test_gateway_drop_is_resumed(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    await fake.drop_gateway()
    iid = await fake.slash("alice", "poker", subcommand="hand")  # buffered, replayed on RESUME
    await asyncio.wait_for(bot.resumed.wait(), 5)
    assert (await fake.reply_to(iid)).content.startswith("A♠") and fake.resumes == 1


async def test_exceptions_in_callbacks_are_caught(
    fake: FakeDiscord, start_bot: BotStarter, discord_errors: DiscordErrors
) -> None:
    await started(start_bot)
    fake.ack_deadline = 0.1
    await fake.slash("alice", "poker", subcommand="boom")
    await fake.settle()
    [record] = discord_errors.take("kaboom")
    assert record.name == "discord.app_commands.tree"
    assert [v.kind for v in fake.take_violations()] == ["ack-deadline"]


async def test_expired_token_and_followup_before_ack_are_violations(fake: FakeDiscord, start_bot: BotStarter) -> None:
    await started(start_bot)
    iid = await fake.slash("alice", "poker", subcommand="hand")
    reply = await fake.reply_to(iid)
    fake.expire_tokens(iid)
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{reply.token}/messages/@original"
    async with aiohttp.ClientSession() as session, session.patch(url, json={"content": "x"}) as response:
        assert response.status == 401 and (await response.json())["code"] == 50027
    assert [v.kind for v in fake.take_violations()] == ["expired-token"]
    assert reply.message is not None
    pending = fake.interaction(await fake.click("alice", reply.message, "x", force=True, expect_ack=False))
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{pending.token}"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "x"}) as response:
        assert response.status == 404 and (await response.json())["code"] == 10015
    assert [v.kind for v in fake.take_violations()] == ["followup-before-ack"]


async def test_user_messages_and_guild_changes_reach_the_bot(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await started(start_bot)
    await fake.post_as("alice", "general", "hello table")
    await fake.post_as("alice", fake.dm_channel("alice"), "hi bot")
    own = await bot.get_channel(fake.channel("general").id).send("from the bot")  # type: ignore[union-attr]
    await fake.wait_for(lambda: len(bot.seen) == 3 or None)
    # no message-content intent: other users' guild messages arrive without content; DMs and own messages keep it
    assert [(m.author.name, m.content) for m in bot.seen] == [
        ("alice", ""),
        ("alice", "hi bot"),
        ("pokerbot", own.content),
    ]
    assert isinstance(bot.seen[1].channel, discord.DMChannel)
    fake.add_channel("poker-3")
    fake.add_role("Dealer")
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    await fake.wait_for(
        lambda: {"poker-3"} <= {c.name for c in guild.text_channels} and guild.get_role(fake.role("Dealer").id)
    )


async def test_missing_send_permission_is_403_50013(fake: FakeDiscord, start_bot: BotStarter) -> None:
    fake.channel("poker-2").bot_can_send = False
    bot = await started(start_bot)
    channel = bot.get_channel(fake.channel("poker-2").id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).send_messages
    with pytest.raises(discord.Forbidden) as denied:
        await channel.send("hello")
    assert denied.value.code == 50013
    iid = await fake.slash("alice", "poker", subcommand="hand", channel="poker-2")
    assert not discord.Permissions(int(fake.interaction(iid).payload["app_permissions"])).send_messages
    await fake.reply_to(iid)  # interaction responses still work without the permission


INNER_TESTS = """
    from tests.e2e.test_fakediscord import HarnessBot


    async def test_late_ack_not_taken(fake, start_bot):
        await start_bot(HarnessBot())
        fake.ack_deadline = 0.1
        await fake.slash("alice", "poker", subcommand="late", options={"seconds": 0.15})


    async def test_exception_not_taken(fake, start_bot):
        await start_bot(HarnessBot())
        await fake.reply_to(await fake.slash("alice", "poker", subcommand="followup"))
        await fake.slash("alice", "poker", subcommand="boom", expect_ack=False)
        await fake.settle(0.3)


    async def test_spec_violation_not_taken(fake, start_bot):
        import discord

        bot = await start_bot(HarnessBot())
        try:
            await bot.get_channel(fake.channel("general").id).send(embed=discord.Embed(colour=0x1000000))
        except discord.HTTPException:
            pass


    async def test_clean(fake, start_bot):
        await start_bot(HarnessBot())
        await fake.reply_to(await fake.slash("alice", "poker", subcommand="hand"))
"""


def test_fixtures_fail_a_test_that_breaks_the_rules(tmp_path: Path) -> None:
    """The guards work end to end: a late acknowledgement, a swallowed exception and a body the OpenAPI
    specification refuses each fail their test."""
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER_TESTS))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.e2e.conftest", "-c", str(root / "pyproject.toml")]
    command += ["--rootdir", str(root), "-p", "no:cacheprovider", "-n", "0", str(tmp_path / "test_inner.py")]
    env = {**os.environ, "PYTHONPATH": str(root)}
    run = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=60, check=False)
    out = run.stdout + run.stderr
    assert "4 passed" in out and "3 errors" in out, out
    assert "test_late_ack_not_taken - Failed: the fake Discord saw problems" in out, out
    assert "test_exception_not_taken - Failed: errors were logged" in out, out
    assert "test_spec_violation_not_taken - Failed: the fake Discord saw problems" in out, out
    assert "invalid-form-body: embeds.0.color: Value should be less than or equal to 16777215" in out, out
    assert (
        "(/poker late) from alice was not acknowledged within 0.1s" in out
        and "errors were logged" in out
        and "kaboom" in out
    ), out
