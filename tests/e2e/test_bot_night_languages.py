"""The night-after commands and the table's own commands answer through the catalogue: with the fake's members and
server speaking the pseudo-language, every answer of /chips results, settle, graph and leaderboard, /poker stats,
history, session export and new, close and the /poker table commands words all its English through the catalogue
(the fake records English outside the pseudo-language's wraps as a bare-text violation), and still reads, once the
wraps are taken out, as the English does."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord, InteractionRecord
from .players import Players, bettor

pytestmark = [pytest.mark.e2e]

PLAYERS = ("alice", "bob", "carol")


@pytest.fixture
def fake_config() -> FakeConfig:
    return FakeConfig(pseudo_locale=True, pseudo_allowed=frozenset({"Five", "Card", "Draw"}))


def bare(fake: FakeDiscord, answers: list[InteractionRecord]) -> list[str]:
    """The bare-text violations of these interactions' answers and follow-ups (the table message, its buttons and
    the players' private messages are the table screen's, checked with it); every violation so far is taken."""
    return [str(v) for v in fake.take_violations("bare-text")
            if v.call is not None and any(a.token in v.call.path for a in answers)]


async def answer(fake: FakeDiscord, user: str, name: str, sub: str, group: str | None = None,
                 **options: object) -> InteractionRecord:
    """A command's answer, a deferred one too."""
    sent = await fake.slash(user, name, subcommand=sub, group=group, options=options, channel="poker")
    return await fake.reply_to(sent, timeout=30.0)


async def test_the_night_commands_answer_through_the_catalogue(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=41)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, chip_value="100 chips = $1")
    await players.play(bettor)
    await players.turn(2)
    paused = await players.poker("alice", "table pause")
    assert paused.content == "The table pauses after this hand."
    await players.play(bettor, number=2)
    await fake.wait_for(lambda: players.table.live is None, what="the table to pause")
    answers: list[InteractionRecord] = []  # (the pause's answer, in a hand, carries alice's cards: the table's)

    async def chips(user: str, sub: str, **options: object) -> InteractionRecord:
        answers.append(await players.chips(user, sub, **options))
        return answers[-1]

    async def poker(user: str, sub: str, **options: object) -> InteractionRecord:
        answers.append(await players.poker(user, sub, **options))
        return answers[-1]

    async def deferred(user: str, name: str, sub: str, group: str | None = None,
                       **options: object) -> InteractionRecord:
        answers.append(await answer(fake, user, name, sub, group, **options))
        return answers[-1]

    results = await chips("dave", "results")
    assert results.content.startswith(f"**Night 1 at <#{players.channel_id}> (running)** · 2 hands · "
                                      "100 chips = $1.00")
    assert (await chips("erin", "settle")).content.startswith("**Settle-up · Night 1 at")
    graph = await deferred("bob", "chips", "graph", member=fake.user("carol"))
    assert graph.followups and "'s line" in graph.followups[0].content
    assert (await chips("bob", "graph", member=fake.user("dave"))).content == (
        f"<@{players.uid('dave')}> played no hand in this night.")
    for period, title in (("tonight", "**Tonight** · Night 1"), ("month", "**This month** · since "),
                          ("all", "**All time** · chips won at tables")):
        assert (await chips("dave", "leaderboard", period=period)).content.startswith(title)
    assert "at tables)" in (await chips("dave", "leaderboard")).content
    stats = await poker("bob", "stats", member=fake.user("alice"))
    assert stats.embeds[0]["title"] == "alice · every game · all time"
    history = await poker("bob", "history")
    assert history.content.startswith("The last 2 hands at this table") and history.embeds
    exported = await deferred("carol", "poker", "export", group="session")
    assert "2 hands in one hand-history file" in exported.followups[0].content
    settings = await poker("carol", "table settings")
    assert settings.content.startswith("**Five Card Draw**") and "clock 60s" in settings.content
    assert (await poker("bob", "table chipvalue")).content == (
        "Here, 100 chips = $1.00: amounts are also shown as money.")
    assert (await poker("alice", "table chipvalue", value="off")).content == "Chips are worth nothing here now."
    assert (await poker("bob", "alerts", on=False)).content.startswith("Turn alerts off")
    assert (await poker("bob", "cards", colours="two")).content.startswith("Your cards in two colours")
    assert (await poker("bob", "rules", game="five-card-draw")).embeds[0]["title"]
    new = await deferred("alice", "poker", "new", group="session")
    assert new.content.startswith("Night 1 is over after")
    closed = await deferred("alice", "poker", "close")
    assert closed.followups[0].content.startswith("Done: everyone is cashed out")
    assert bare(fake, answers) == []
