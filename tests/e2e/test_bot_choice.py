"""Dealer's choice through the fake Discord: the table message offers one button, Pick the game…, that only the
chooser may use; his menu is his private message; picking changes only that menu; Deal deals it."""

from __future__ import annotations

import pytest

from bot.poker import Hand, Legal

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station, carrying

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
SELECTS = (3, 5, 6, 7, 8)  # Discord's select menu component types
NOT_UNDER_THE_GLOBAL_LIMIT = ("/interactions/", "/webhooks/")  # the interaction endpoints


def folding_to_the_blind(hand: Hand, legal: Legal) -> str:
    """Everyone folds to the big blind (a fold win, quickly)."""
    return "f" if legal.phase == "betting" and not legal.can_check else "cc"


async def test_the_table_between_hands_shows_only_the_choosers_button(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """Nobody sees a menu he may not use: the table message has no select, one Pick the game… button and the line
    naming the chooser; anyone else tapping it is told whose choice it is, and nothing changes."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    message, button = await fake.wait_for(players.choice_button, what="the dealer's choice button")
    chooser = players.name(table.chooser() or 0)
    assert not [c for c in message.all_components() if c.get("type") in SELECTS]
    assert [b.get("label") for b in message.buttons() if str(b.get("custom_id")).startswith("pk:choose:")] == \
        ["Pick the game…"]
    assert f"**<@{players.uid(chooser)}> picks the next game**" in message.text()
    await fake.quiet()
    before, edits = message.snapshot(), message.edits
    for other in (n for n in PLAYERS if n != chooser):
        refused = await fake.reply_to(await fake.click(other, message, str(button["custom_id"])))
        assert refused.ephemeral and refused.content.startswith(f"It is <@{players.uid(chooser)}>'s choice."), \
            refused.content
        assert not refused.components  # no menu for him
    await fake.quiet()
    shown = fake.message(message.id)
    assert shown.edits == edits and shown.state() == before.state() and table.live is None
    await players.poker("alice", "table pause")


async def test_the_chooser_picks_and_deals_in_his_own_menu(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The chooser's tap opens his menu privately (a second tap replaces it, nothing piles up); a pick changes his
    menu only (no call under Discord's global limit); Deal deals that game, and his menu becomes his cards."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    message, _ = await fake.wait_for(players.choice_button, what="the dealer's choice button")
    chooser = players.name(table.chooser() or 0)
    first, _ = await players.open_menu(chooser)
    menu, parts = await players.open_menu(chooser)
    await fake.wait_for(lambda: fake.message(first.id).deleted, what="the first menu replaced by the second")
    assert menu.ephemeral_to == players.uid(chooser) and "pick the next game" in menu.content
    assert parts["deal"].get("disabled") and parts["deal"]["label"] == "Pick a game first"
    await fake.quiet()
    table_edits, calls = fake.message(message.id).edits, len(fake.calls)
    picked = await fake.reply_to(await fake.select(chooser, menu, str(parts["game"]["custom_id"]), ["badugi"]))
    assert picked.response_type == 7 and table.live is None  # his menu, shown again: nothing dealt yet
    parts = players.menu_parts(fake.message(menu.id))
    assert [o["value"] for o in parts["game"]["options"] if o.get("default")] == ["badugi"]
    assert not parts["deal"].get("disabled") and parts["deal"]["label"] == "Deal Badugi"
    await fake.quiet()
    assert fake.message(message.id).edits == table_edits  # the table message is not touched by a pick
    assert all(any(p in c.path for p in NOT_UNDER_THE_GLOBAL_LIMIT) for c in fake.calls[calls:]), \
        [str(c) for c in fake.calls[calls:]]
    calls = len(fake.calls)
    dealt = await fake.reply_to(await fake.click(chooser, menu, str(parts["deal"]["custom_id"])))
    assert dealt.response_type in (6, 7), dealt.content
    assert table.live is not None and table.live.hand.game.id == "badugi" and table.live.record.number == 1
    turn = await players.turn(1)
    assert "Badugi" in str(turn.message.embeds[0].get("title")) and not players.choice_button()
    await fake.wait_for(lambda: f"<@{players.uid(chooser)}> chose Badugi" in fake.message(turn.message.id).text(),
                        what="the table saying who chose the game")
    # The table message showed the new hand through the token of the tap on Pick the game… (answered with the
    # table), not by a channel edit under Discord's global limit.
    assert not [str(c) for c in fake.calls[calls:] if c.method == "PATCH" and c.channel_id == players.channel_id]

    def cards_shown() -> bool:
        mine = fake.message(menu.id)
        return not mine.deleted and not mine.components and "Badugi · #1 · " in mine.text()

    await fake.wait_for(cards_shown, what="the chooser's menu replaced by his cards")
    await players.play(calling_station, number=1)


async def test_a_menu_of_an_earlier_hand_is_refused(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """A menu kept from an earlier hand deals nothing: its Deal and its picks are refused, at the next choice as
    during the hand."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    await fake.wait_for(players.choice_button, what="the dealer's choice button")
    chooser = players.name(table.chooser() or 0)
    menu = await players.pick(chooser, "five-card-draw")
    old = fake.message(menu.id).snapshot()  # what his phone showed before he pressed Deal
    old_parts = players.menu_parts(old)
    dealt = await fake.reply_to(await fake.click(chooser, old, str(old_parts["deal"]["custom_id"])))
    assert dealt.response_type in (6, 7) and table.live is not None
    during = await fake.reply_to(await fake.click(chooser, old, str(old_parts["deal"]["custom_id"]), force=True))
    assert during.ephemeral and during.content.startswith("That menu is from an earlier hand; use the current one.")
    await players.play(folding_to_the_blind, number=1)
    await fake.wait_for(players.choice_button, what="the next choice")
    for custom_id, kind in ((old_parts["deal"]["custom_id"], "click"), (old_parts["game"]["custom_id"], "select")):
        sent = await (fake.click(chooser, old, str(custom_id), force=True) if kind == "click" else
                      fake.select(chooser, old, str(custom_id), ["badugi"], force=True))
        refused = await fake.reply_to(sent)
        assert refused.ephemeral and refused.content.startswith(
            "That menu is from an earlier hand; use the current one."), refused.content
    assert table.live is None and table.hands_dealt == 1
    await players.poker("alice", "table pause")


async def test_the_choice_works_after_a_restart(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The bot restarts while the table waits for the dealer's choice: the button on the table message and the
    menu it opens work as before (they carry what they need in their custom_ids)."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    await fake.wait_for(players.choice_button, what="the dealer's choice button")
    chooser = players.name(table.chooser() or 0)
    menu = await players.pick(chooser, "single-draw-a5")
    await fake.quiet()
    await poker_bot.restart()
    deal = players.menu_parts(fake.message(menu.id))["deal"]  # the menu opened before the restart
    dealt = await fake.reply_to(await fake.click(chooser, menu, str(deal["custom_id"])))
    assert dealt.response_type in (6, 7), dealt.content
    assert players.table.live is not None and players.table.live.hand.game.id == "single-draw-a5"
    await players.play(folding_to_the_blind, number=1)
    await poker_bot.restart()
    await players.choose(players.name(players.table.chooser() or 0), "badugi")  # the table's button, restarted
    assert players.table.live is not None and players.table.live.hand.game.id == "badugi"
    await players.play(folding_to_the_blind, number=2)


async def test_a_forged_menu_deals_nothing(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """What the menu's custom_ids carry is checked by the table like a pick: a game nobody may deal or an unknown
    structure is refused (or shown as no pick), and nothing is dealt."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", dealer_picks_structure=True)
    chooser = players.name(table.chooser() or 0)
    menu, parts = await players.open_menu(chooser)
    number = str(parts["deal"]["custom_id"]).split(":")[3]
    structure = f"pk:structure:{table.id}:{number}:no-such-game"
    shown = await fake.reply_to(await fake.select(chooser, carrying(menu, {
        "type": 3, "custom_id": structure, "options": [{"label": "Pot limit", "value": "pot-limit"}]}), structure,
        ["pot-limit"], force=True))
    assert shown.response_type == 7, shown.content  # his menu, with no game picked
    parts = players.menu_parts(fake.message(menu.id))
    assert parts["deal"].get("disabled") and parts["deal"]["label"] == "Pick a game first"
    for carried, refusal in ((":no-such-game", "no-such-game"), (":badugi:no-such", "The structure must be one of")):
        deal = f"pk:deal:{table.id}:{number}{carried}"
        refused = await fake.reply_to(await fake.click(chooser, carrying(menu, {
            "type": 2, "style": 3, "label": "Deal", "custom_id": deal}), deal, force=True))
        assert refused.ephemeral and refusal in refused.content, refused.content
    assert table.live is None and table.hands_dealt == 0
    await players.poker("alice", "table pause")
