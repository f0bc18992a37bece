"""The night after the cards through Discord: /chips results, settle, graph and leaderboard by period, /poker
stats, export, chipvalue and session new, checked against hands played with known seeds (the store audited
after each test by the fixtures)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.night import hand_facts, split_phhs, stats_by_game, stats_lines, total
from bot.poker.phh import replay
from bot.store import HandRecord
from bot.tables import TableSettings
from bot.tables.night import member_phh, rebuild
from bot.tools.replay import replay_command

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, InteractionRecord
from .players import Players, bettor, hand_seeds, simulate

pytestmark = [pytest.mark.e2e, pytest.mark.both_engines]  # the bot on SQLite and on PostgreSQL

PLAYERS = ("alice", "bob", "carol")
PAYMENT = re.compile(r"<@(\d+)> pays <@(\d+)> ([\d,]+) \(\$([\d,]+\.\d\d)\)")
NET = re.compile(r"^<@(\d+)> ([+-][\d,]+) \(([+-]?)\$([\d,]+\.\d\d)\) · (\d+) hands?$")


async def two_hands(fake: FakeDiscord, poker_bot: PokerBotStarter, seed: int, **options: object) -> Players:
    """alice hosts, alice, bob and carol play two hands of Five Card Draw 5/10 with the bettor's policy, and the
    table pauses after the second (so that nothing is being played when the test looks)."""
    await poker_bot(seed=seed)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, **options)
    await players.play(bettor)
    await players.turn(2)
    assert (await players.poker("alice", "table pause")).content == "The table pauses after this hand."
    await players.play(bettor, number=2)
    await fake.wait_for(lambda: players.table.live is None, what="the table to pause")
    return players


async def finished(players: Players) -> list[HandRecord]:
    return [h for h in reversed(await players.bot.store.recent_hands(players.table.id, 10)) if h.status == "complete"]


def nets_of(hands: list[HandRecord]) -> dict[int, int]:
    nets: dict[int, int] = {}
    for hand in hands:
        assert hand.stacks_after is not None
        for user, before, after in zip(hand.seat_users, hand.stacks_before, hand.stacks_after):
            nets[user] = nets.get(user, 0) + after - before
    return nets


async def command(fake: FakeDiscord, user: str, name: str, sub: str, group: str | None = None,
                  timeout: float = 30.0, **options: object) -> InteractionRecord:
    """A command whose answer may be a followup (deferred), waited for longer than a click's."""
    sent = await fake.slash(user, name, subcommand=sub, group=group, options=options, channel="poker")
    return await fake.reply_to(sent, timeout=timeout)


def answer_of(record: InteractionRecord) -> tuple[str, list[object]]:
    """The text and attachments of a deferred answer (its first followup) or of a direct one."""
    message = record.followups[0] if record.followups else record.message
    assert message is not None
    return message.content, list(message.attachments)


async def test_results_settle_up_and_graph_of_a_night_with_a_chip_value(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    players = await two_hands(fake, poker_bot, 41, chip_value="100 chips = $1")
    hands = await finished(players)
    assert [h.number for h in hands] == [1, 2]
    first = simulate(TableSettings(game="five-card-draw", small_blind=5, big_blind=10), "five-card-draw",
                     [1000] * 3, hand_seeds(41, 1)[0], bettor)
    assert list(hands[0].stacks_after or ()) == first.stacks  # the hand the seed deals, played as the engine says
    nets = nets_of(hands)
    assert nets == {players.uid(n): s - 1000 for n, s in players.stacks().items()} and len(set(nets.values())) > 1

    results = await players.chips("dave", "results")
    header, *lines = results.content.splitlines()
    assert header == f"**Night 1 at <#{players.channel_id}> (running)** · 2 hands · 100 chips = $1.00"
    shown = {}
    for line in lines:
        match = NET.match(line)
        assert match, line
        user, chips, minus, dollars = int(match[1]), int(match[2].replace(",", "")), match[3], match[4]
        assert f"{minus}{dollars}" == f"{chips / 100:+,.2f}".replace("+0.00", "0.00") and match[5] == "2"
        shown[user] = chips
    assert shown == nets and list(shown.values()) == sorted(nets.values(), reverse=True)

    settle = await players.chips("erin", "settle")
    text = settle.content
    assert text.startswith("**Settle-up · Night 1 at") and not settle.ephemeral
    payments = PAYMENT.findall(text)
    assert 1 <= len(payments) <= len(PLAYERS) - 1
    square = dict(nets)
    for payer, payee, chips, dollars in payments:
        amount = int(chips.replace(",", ""))
        assert payer != payee and float(dollars.replace(",", "")) == amount / 100
        square[int(payer)] += amount
        square[int(payee)] -= amount
    assert set(square.values()) == {0}
    assert "Nets: " in text

    graph = await command(fake, "bob", "chips", "graph")
    content, files = answer_of(graph)
    [png] = files
    assert png.filename == "night-1.png" and png.data.startswith(b"\x89PNG\r\n\x1a\n")  # type: ignore[attr-defined]
    finish = sorted(nets, key=lambda u: (-nets[u], u))
    words = ", ".join(f"{players.name(u)} {nets[u]:+,}" for u in finish)
    assert png.description == f"Chips won over 2 hands: {words}"  # type: ignore[attr-defined]
    assert content.startswith("**Night 1 at")
    alone = await command(fake, "bob", "chips", "graph", member=fake.user("carol"))
    content, [only] = answer_of(alone)
    carol = players.uid("carol")
    assert only.description == f"Chips won over 2 hands: carol {nets[carol]:+,}"  # type: ignore[attr-defined]
    assert f"<@{carol}>'s line" in content
    nobody = await players.chips("bob", "graph", member=fake.user("dave"))
    assert nobody.ephemeral and nobody.content == f"<@{players.uid('dave')}> played no hand in this night."


async def test_stats_export_and_a_new_night(fake: FakeDiscord, poker_bot: PokerBotStarter, tmp_path: Path) -> None:
    players = await two_hands(fake, poker_bot, 42)
    hands = await finished(players)
    facts = [f for hand in hands for f in hand_facts(rebuild(hand), hand.seat_users)]  # worked out again
    alice = players.uid("alice")
    expected = stats_by_game(f for f in facts if f.user_id == alice)
    assert expected["five-card-draw"].hands == 2

    stats = await players.poker("bob", "stats", member=fake.user("alice"))
    [embed] = stats.embeds
    assert stats.ephemeral  # the asker's: the channel holds the table message
    assert embed["title"] == "alice · every game · all time"
    assert embed["description"] == "\n".join(stats_lines(total(expected.values())))
    mine = await players.poker("alice", "stats", game="five-card-draw", session="current")
    assert mine.embeds[0]["title"] == "alice · Five Card Draw · night 1"
    assert mine.embeds[0]["description"] == embed["description"]
    other_game = await players.poker("alice", "stats", game="assassin")
    assert other_game.embeds[0]["description"] == "No hands yet"

    exported = await command(fake, "carol", "poker", "export", group="session")
    content, [file] = answer_of(exported)
    assert exported.followups[0].ephemeral and file.filename == "night-1.phhs"  # type: ignore[attr-defined]
    assert "2 hands in one hand-history file" in content and "python -m bot replay night-1.phhs" in content
    document = file.data.decode()  # type: ignore[attr-defined]
    texts = split_phhs(document)
    carol = players.uid("carol")
    assert texts == [member_phh(hand, carol) for hand in hands]  # as carol saw them: the showdowns and her cards
    for text, hand in zip(texts, hands):
        seat = hand.seat_users.index(carol) + 1
        assert next(a for a in rebuild(hand).history if a.startswith(f"d dh p{seat} ")) in text
    assert [replay(text).stacks for text in texts] == [list(hand.stacks_after or ()) for hand in hands]
    path = tmp_path / "night-1.phhs"
    path.write_text(document, encoding="utf-8")
    assert replay_command(str(path)) == 0

    refused = await command(fake, "bob", "poker", "new", group="session")
    assert refused.ephemeral and refused.content == "Only the table's host (or someone with Manage Server) can do that."
    new = await command(fake, "alice", "poker", "new", group="session")
    assert new.content == ("Night 1 is over after 2 hands: `/chips settle session:1` settles it.\n"
                           "**Night 2** starts now at this table: results, settle-up and stats count from here.")
    assert players.stacks() == {n: 1000 + nets_of(hands)[players.uid(n)] for n in PLAYERS}  # still seated
    empty = await players.chips("dave", "results")
    assert empty.content == f"**Night 2 at <#{players.channel_id}> (running)**: no hand has been finished yet."
    no_graph = await players.chips("dave", "graph")
    assert no_graph.ephemeral and no_graph.content == empty.content
    again = await players.chips("dave", "results", session="1")
    assert again.content.startswith(f"**Night 1 at <#{players.channel_id}>** · 2 hands")
    this_night = await players.poker("alice", "stats", session="current")
    assert this_night.embeds[0]["description"] == "No hands yet"
    choices = await fake.reply_to(await fake.autocomplete("alice", "chips", "session", subcommand="settle",
                                                          options={"session": ""}, channel="poker"))
    assert [c["value"] for c in choices.choices or []] == ["2", "1"]
    assert (choices.choices or [])[1]["name"].startswith("Night 1 · #poker · ")
    since = await players.chips("dave", "settle", session="since 2000-01-01")
    assert since.content.startswith("**Settle-up · Every night since 2000-01-01 (2 nights)** · 2 hands")
    unknown = await players.chips("dave", "settle", session="friday")
    assert unknown.ephemeral and unknown.content.startswith("“friday” is not a night")


async def test_leaderboards_by_period_and_the_chip_value(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    players = await two_hands(fake, poker_bot, 43)
    nets = nets_of(await finished(players))
    ranked = sorted(nets, key=lambda u: (-nets[u], u))

    def board_nets(text: str) -> list[tuple[int, int]]:
        return [(int(m[1]), int(m[2].replace(",", ""))) for m in re.finditer(r"<@(\d+)> ([+-][\d,]+)", text)]

    tonight = await players.chips("dave", "leaderboard", period="tonight")
    assert tonight.content.startswith(f"**Tonight** · Night 1 at <#{players.channel_id}> (running)")
    assert board_nets(tonight.content) == [(u, nets[u]) for u in ranked]
    elsewhere = await fake.reply_to(await fake.slash("dave", "chips", subcommand="leaderboard",
                                                     options={"period": "tonight"}, channel="general"))
    assert elsewhere.content.startswith("**Tonight** · this server's 1 night of the last 12 hours")
    for period, title in (("month", "**This month** · since "), ("all", "**All time**")):
        board = await players.chips("dave", "leaderboard", period=period)
        assert board.content.startswith(title) and board_nets(board.content) == [(u, nets[u]) for u in ranked]
    balances = await players.chips("dave", "leaderboard")
    assert "at tables" in balances.content and "chips won" not in balances.content  # the default: balances

    shown = await players.poker("bob", "table chipvalue")
    assert shown.ephemeral and shown.content.startswith("This table has no chip value")
    refused = await players.poker("bob", "table chipvalue", value="1 = $1")
    assert refused.content == "Only the table's host (or someone with Manage Server) can do that."
    bad = await players.poker("alice", "table chipvalue", value="lots")
    assert bad.ephemeral and bad.content.startswith("Write the chip value like")
    set_ = await players.poker("alice", "table chipvalue", value="1 = 0.05€")
    assert set_.content == "From now on, 1 chip = 0.05€: amounts are also shown as money."
    tonight = await players.chips("dave", "leaderboard", period="tonight")
    best = ranked[0]
    assert f"<@{best}> {nets[best]:+,} (+{nets[best] * 5 / 100:,.2f}€)" in tonight.content
    off = await players.poker("alice", "table chipvalue", value="off")
    assert off.content == "Chips are worth nothing here now."
    created = await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", channel="poker-2", options={
        "game": "five-card-draw", "small_blind": 1, "big_blind": 2, "chip_value": "free"}))
    assert created.ephemeral and created.content.startswith("Write the chip value like")
