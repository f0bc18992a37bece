"""A German server with a French member (issue 34): the table everyone reads is in German, with German numbers
(1.000); the French member's own answers are in French, with French numbers (1 000); an English member's in
English; the host turns the table to French with /poker table language, and back to the server's."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import pytest

from bot.i18n import say, say_n
from bot.i18n.catalogue import language

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord, StoredMessage
from .players import Players

pytestmark = [pytest.mark.e2e, pytest.mark.languages]

GERMAN, FRENCH, ENGLISH = language("de"), language("fr"), language("en")
NARROW_SPACE = "\u202f"  # French groups thousands with a narrow no-break space: 1 000


@pytest.fixture
def fake_config() -> FakeConfig:
    users = tuple(dataclasses.replace(user, locale="fr") if user.name == "carol" else user
                  for user in FakeConfig().users)
    return FakeConfig(locale="de", users=users)


def picture(fake: FakeDiscord, viewer: str, name: str, *, frame: str, private: bool = True) -> None:
    """With LANGUAGE_SCREENS=DIR (docs/screens), what ``viewer``'s phone shows now (``private``: with his own
    answers), photographed into DIR/name: ``LANGUAGE_SCREENS=docs/screens pytest tests/e2e/test_languages.py``."""
    folder = os.environ.get("LANGUAGE_SCREENS")
    if not folder:
        return
    from pokerdev.discord_html import Look, page
    from pokerdev.screens import command_names, emoji_images, screenshot

    who = fake.user(viewer)
    names = {**{u.id: u.name for u in fake.users.values()}, **{c.id: c.name for c in fake.channels.values()}}
    shown = [m for m in fake.visible_to(who) if not m.deleted and m.channel_id == fake.channel("poker").id
             and (private or m.ephemeral_to is None)]
    look = Look(names=names, viewer=who.id, now=time.time(), emojis=emoji_images(fake),
                commands=command_names(fake), bot_ids=frozenset({fake.app_id}))
    html = page([m.payload() for m in shown[-3:]], look, title="#poker", frame=frame)
    Path(folder, name).write_bytes(screenshot(html, scale=2))


def labels(message: StoredMessage) -> set[str]:
    return {str(c.get("label")) for row in message.components for c in row.get("components", []) if c.get("label")}


def description(message: StoredMessage) -> str:
    return str(message.embeds[0].get("description") or "") if message.embeds else ""


async def test_a_german_table_with_a_french_member(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=3)
    players = Players(fake, poker_bot)
    created = await players.poker("alice", "create", game="five-card-draw", small_blind=5, big_blind=10,
                                  max_buy_in=1000)
    assert not created.ephemeral and "Table open" not in created.content  # the channel's: German

    # Each member's own answer is in his language, with his numbers.
    carol = await players.poker("carol", "join", buy_in=1000)
    assert carol.ephemeral
    assert carol.content == say_n(FRENCH, "You sit in seat {seat} with {count} chip.",
                                  "You sit in seat {seat} with {count} chips.", count=1000, seat="1")
    assert f"1{NARROW_SPACE}000" in carol.content and "You sit" not in carol.content
    bob = await players.poker("bob", "join", buy_in=1000)
    assert bob.content == "You sit in seat 2 with 1,000 chips."  # bob's Discord speaks English
    alice = await players.poker("alice", "join", buy_in=1000)
    assert alice.content == "You sit in seat 3 with 1,000 chips."

    # What everyone reads is in the server's language: German, with German numbers.
    started = await players.poker("alice", "table start")
    assert started.content == say(GERMAN, "Shuffle up and deal!") != "Shuffle up and deal!"
    turn = await players.turn(1)
    shown = labels(turn.message)
    assert say(GERMAN, "My hand") in shown and "My hand" not in shown
    assert "1.000" in description(turn.message) and "1,000" not in description(turn.message)
    mine = await players.poker("carol", "hand")  # her cards, beside the German table, in French
    assert mine.ephemeral and say(FRENCH, "My hand") != "My hand"
    await fake.settle()
    picture(fake, "alice", "31-german-table.png", frame="crop", private=False)
    picture(fake, "carol", "32-french-player.png", frame="phone")

    # The same refusal, to each in his own language.
    waiting = [name for name in ("carol", "bob") if name != turn.name]
    if len(waiting) == 2:
        french, english = (await players.poker("carol", "fold")), (await players.poker("bob", "fold"))
        assert french.ephemeral and english.ephemeral and french.content != english.content

    # The host turns the table to French: the table message follows; each member's answers stay in his language.
    switched = await players.poker("alice", "table language", language="fr")
    assert not switched.ephemeral and "Français" in switched.content
    await fake.wait_for(lambda: say(FRENCH, "My hand") in labels(players.message()), 5,
                        what="the table message in French")
    settings = await players.poker("bob", "table settings")
    assert "Buy-ins" in settings.content  # bob reads English still
    await players.poker("alice", "table language", language="server")
    await fake.wait_for(lambda: say(GERMAN, "My hand") in labels(players.message()), 5,
                        what="the table message in German again")
