"""The table on a phone (issue 13), through Discord: the turn finds its player, the table stays in view, the
labels mean what they do, a draw takes k + 2 taps, the seat buttons, "My hand" between hands, and the cards as the
bot's own emojis (uploaded once)."""

from __future__ import annotations

import asyncio
import importlib
import json
import re

import pytest

from bot.poker import parse_cards
from cogs import render
from cogs.app import PokerBot
from cogs.card_emojis import card_emoji_pictures

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, StoredMessage
from .players import FastClockFor, Players, Turn, calling_station, channel_texts

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")


def alert_dms(fake: FakeDiscord, name: str) -> list[str]:
    return [m.content for m in fake.dms(name) if m.content.startswith(("🔔", "⏰"))]


async def test_your_turn_finds_you_by_dm_and_once_more_before_the_clock(
    fake: FakeDiscord, poker_bot: PokerBotStarter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who is not looking gets a DM when his turn has waited half his clock, and another before his clock
    runs out, each saying what is asked and its cost, the time left, and a link to the table; one who acts at once
    gets none; /poker alerts turns them off."""
    await poker_bot(seed=3)
    # The module the running bot loaded: a bot closed earlier in this process unloaded its extensions, and
    # discord.py then drops their modules from sys.modules, so the next bot imports them afresh.
    alerts = importlib.import_module("cogs.table._alerts")
    monkeypatch.setattr(alerts, "FIRST_AT_LEAST", 0.3)
    monkeypatch.setattr(alerts, "WARN_BEFORE", 0.4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    carol = players.uid("carol")
    monkeypatch.setattr(table, "settings", FastClockFor(table, 1.2, acting={carol}))
    await players.poker("alice", "table start")
    turn = await players.turn(1)
    assert turn.name == "carol"
    first = await fake.wait_for_dm("carol", lambda m: m.content.startswith("🔔"), timeout=3)
    # What is asked, what it costs, and when the clock runs out, as Discord's countdown (the table's): not a
    # number of seconds that is stale once read.
    deadline = r"⏱ <t:\d+:R>"
    assert re.match(rf"🔔 Your turn at <#{players.channel_id}> \(Five Card Draw\): call 10, raise or fold · "
                    rf"{deadline}\n", first.content), first.content
    assert " s left" not in first.content
    assert f"/channels/{fake.guild_id}/{players.channel_id}/{table.message_id}" in first.content  # the table, a tap
    warned = await fake.wait_for_dm("carol", lambda m: m.content.startswith("⏰"), timeout=3)
    assert re.match(rf"⏰ Time runs out <t:\d+:R> at <#{players.channel_id}> \(Five Card Draw\): call 10, raise or "
                    r"fold\n", warned.content), warned.content
    table_clock = re.search(r"<t:(\d+):R>", fake.message(table.message_id or 0).text())
    alert_clock = re.search(r"<t:(\d+):R>", warned.content)
    assert table_clock and alert_clock and table_clock[1] == alert_clock[1]  # the same countdown as the table
    await fake.wait_for(lambda: table.live is not None and table.live.seq == 1, 3, what="the clock to fold carol")
    assert len(alert_dms(fake, "carol")) == 2
    # The others act at once (their clock is 60 s): no alert for them.
    await players.play(calling_station, number=1)
    assert alert_dms(fake, "alice") == [] and alert_dms(fake, "bob") == []
    # Turned off: the clock still runs for her, silently.
    off = await players.poker("carol", "alerts", on=False)
    assert off.ephemeral and off.content.startswith("Turn alerts off")
    assert not await players.bot.store.turn_alerts(fake.guild_id, carol)
    await players.play(calling_station, number=2, idle={"carol"})  # her clock acts for her in hand 2
    seat = table.seat_of(carol)
    assert seat is not None and seat.timeouts == 2 and seat.sitting_out  # two in a row: sat out
    assert len(alert_dms(fake, "carol")) == 2


def bot_messages(fake: FakeDiscord, players: Players) -> list[StoredMessage]:
    """The bot's messages in the table's channel that everyone sees, oldest first."""
    return [m for m in fake.channel_messages(players.channel)
            if m.author.get("id") == str(fake.app_id) and not m.ephemeral]


async def test_the_table_is_always_one_of_the_two_newest_messages_of_the_bot(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """At the start of every turn of a dealer's-choice evening, with players joining, sitting out, pausing and a
    host's kick, the message with the buttons is the bot's newest message in the channel (or the one before);
    each finished hand is one line over the next."""
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    checked = 0
    games = ["triple-draw-27", "assassin", "badugi", "five-card-draw"]
    for number, game in enumerate(games, start=1):
        chooser = players.name(table.chooser() or 0)
        await players.choose(chooser, game)
        if number == 2:
            await players.poker("dave", "join")
            await players.poker("alice", "table pause")
        if number == 3:
            await players.poker("alice", "table resume")
            await players.click_seat("bob", "sit")  # sits out from the next hand
        while True:
            turn = await players._next_turn_or_end(number)
            if turn is None:
                break
            newest = bot_messages(fake, players)[-2:]
            assert turn.message.id in [m.id for m in newest], (number, [m.id for m in newest], turn.message.id)
            checked += 1
            await players.act(calling_station(table.hand, turn.legal), turn=turn)  # type: ignore[arg-type]
        if number == 2:
            await players.poker("alice", "table resume")
    assert checked > 20
    summaries = [m for m in bot_messages(fake, players)  # "Five Card Draw · #1 · 🏆 ..."
                 if m.embeds and re.match(r"[^\n·]+ · #\d+ · ", str(m.embeds[0].get("description", "")))]
    assert len(summaries) >= 3 and all(m.custom_ids() == [] for m in summaries)
    assert all("\n" not in str(m.embeds[0]["description"]) for m in summaries)  # one line each


async def test_labels_mean_what_they_do(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """The button says what a call adds ("Call 5": the chips the small blind taps to put in); the log says the
    street's total he has in after it ("calls 10"), as a raise is logged "raises to 40" (issue 33, item 7: no
    increments mixed with totals); no Fold beside a free Check; all in is two taps, as any size of the bet menu."""
    await poker_bot(seed=8)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, buy_ins={"alice": 300, "bob": 1000, "carol": 1000})
    turn = await players.turn(1)  # carol, the button, faces the big blind
    labels = [b.get("label") for b in turn.message.buttons()]
    assert labels[:5] == ["My hand", "Sit out / in", "Leave", "Fold", "Call 10"]  # the turn's buttons lowest
    await players.act("cc", turn=turn)
    turn = await players.turn(1)  # alice, the small blind: 5 more to call
    assert turn.message.button("Call 5")
    await players.act("cc", turn=turn)
    assert f"· <@{players.uid('alice')}> calls 10" in players.description()  # her 5 blind and the 5 she added
    assert f"<@{players.uid('alice')}> calls 5" not in players.description()
    turn = await players.turn(1)  # bob, the big blind: checking is free, so no Fold
    labels = [b.get("label") for b in turn.message.buttons()]
    assert "Check" in labels and "Fold" not in labels
    await players.act("cc", turn=turn)
    await players.play(calling_station, until=lambda t: t.legal.phase == "betting" and t.name == "alice")
    turn = await players.turn(1)
    asked = await players.open_bet_menu(turn)
    assert asked.message is not None and asked.message.button(f"Bet {turn.legal.all_in_to:,} (all in)")
    assert table.live is not None and table.live.seq == turn.seq  # one tap: nothing happened yet
    all_in = f"pk:turn:{table.id}:{turn.hand_id}:{turn.seq}:bet-allin"
    sure = await fake.reply_to(await fake.click("alice", asked.message, all_in))
    seat = turn.legal.player
    assert sure.content == players.cards(table.live.hand.holes[seat])  # the menu, now her cards (large)
    assert _embed_text(sure.message).startswith(f"#1 · You are all in for {turn.legal.all_in_to:,} · ")
    assert table.live.hand.stacks[seat] == 0 and not sure.components  # no chips behind: no pre-actions


async def test_a_draw_of_k_cards_takes_k_plus_2_taps_and_standing_pat_one(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=12)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="triple-draw-27")
    await players.play(calling_station, until=lambda t: t.legal.phase == "drawing")
    for k in (2, 0, 1):
        turn = await players.turn(1)
        assert turn.legal.phase == "drawing"
        mark = len(fake.interactions)
        await players.draw(turn.legal.hand[:k], turn=turn)
        taps = [r for r in list(fake.interactions.values())[mark:] if r.user.name == turn.name]
        assert len(taps) == (k + 2 if k else 1), [r.payload["data"]["custom_id"] for r in taps]
        assert table.live is not None and table.live.seq == turn.seq + 1
        if k:
            dm = await fake.wait_for_dm(turn.name, lambda m: " of 3: threw " in m.content)
            assert dm.content.startswith("2-7 Triple Draw · #1 at ") and "\ngot " in dm.content, dm.content
            assert f"threw {players.cards(turn.legal.hand[:k])}\n" in dm.content  # the cards tapped


async def test_the_seat_buttons_and_my_hand_between_hands(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """Join, Sit out / in, Rebuy… and Leave are buttons on the table message; My hand shows the last hand when
    none is being played."""
    await poker_bot(seed=14)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    joined = await players.click_seat("dave", "join")
    assert joined.ephemeral and joined.content.startswith("You sit in seat 4 with ")
    out = await players.click_seat("dave", "sit")
    assert out.content == "You are sitting out: no cards from the next hand until you sit in."
    assert table.seat_of(players.uid("dave")).sitting_out
    back = await players.click_seat("dave", "sit")
    assert back.content == "You are in: dealt in from the next hand."
    await players.play(calling_station, number=1)
    await players.turn(2)
    await players.poker("alice", "table pause")  # after this hand
    await players.play(calling_station, number=2)
    assert table.live is None
    last = await players.poker("bob", "hand")
    assert last.ephemeral and last.content.startswith("No hand now. Your last one, Five Card Draw · #2:")
    assert table.last_hand is not None
    seat = table.last_users.index(players.uid("bob"))
    assert players.cards(table.last_hand.holes[seat]) in last.content
    # Rebuy… opens a form with the room left under the table's maximum; Leave asks once more.
    opened = await players.click_seat("carol", "rebuy")
    assert opened.modal is not None and opened.modal["title"] == "Rebuy"
    asked = await players.click_seat("dave", "leave")
    stack = render.chips(table.seat_of(players.uid("dave")).stack)
    assert asked.ephemeral and asked.content == f"Leave the table? You cash out {stack} chips."
    assert asked.message is not None
    left = await fake.reply_to(await fake.click("dave", asked.message, players.seat_button("leaveok")))
    assert left.content.startswith("You leave with ") and table.seat_of(players.uid("dave")) is None


async def test_cards_are_the_bots_own_emojis_uploaded_once(fake: FakeDiscord, start_bot: object, tmp_path: object
                                                           ) -> None:
    """A bot's first start uploads its card pictures (both decks: 81) as application emojis; a restart uploads
    nothing; the DMs and the showdown show cards as those emojis."""
    from pathlib import Path

    assert len(fake.emojis) == 0, [e.name for e in fake.emojis][:3]
    db = Path(str(tmp_path)) / "emojis.db"
    first = PokerBot(db, next_hand_delay=0.01)
    await start_bot(first)  # type: ignore[operator]
    report = await first.card_emojis.start()
    assert report.complete and len(report.uploaded) == len(card_emoji_pictures()) == 81
    assert {e.name for e in fake.emojis} == set(card_emoji_pictures())
    assert all(fake.emoji(name).image == png for name, png in card_emoji_pictures().items())
    await first.close()
    await asyncio.sleep(0.05)
    second = PokerBot(db, next_hand_delay=0.01)
    await start_bot(second)  # type: ignore[operator]
    again = await second.card_emojis.start()
    assert again.uploaded == [] and len(again.present) == 81
    ace = parse_cards("As")[0]
    assert second.card_emojis.card(ace) == f"<:{next(n for n in card_emoji_pictures() if n.startswith('c_As_'))}:" \
        f"{fake.emoji(next(n for n in card_emoji_pictures() if n.startswith('c_As_'))).id}>"
    await second.close()


async def test_every_card_shown_is_a_picture(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=11)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    await players.play(calling_station)
    texts = [m.content for name in PLAYERS for m in fake.dms(name)] + [players.showdown(1)]
    for text in texts:
        refs = fake.emoji_references(text)
        assert refs and all(ref.known for ref in refs), text
    assert not any(" ♠" in t or "T♠" in t for t in channel_texts(fake))


async def test_the_table_is_edited_through_a_clicks_token_not_under_the_global_limit(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """A draw thrown from the picker (its click is on the picker, not on the table) shows the next turn through
    the token of the last click answered on the table message, an interaction endpoint that Discord's global
    rate limit does not count; the channel's own edit route is left for a table with no recent click."""
    await poker_bot(seed=11)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    first = len(fake.rest.calls)
    await players.play(calling_station)  # every player throws two cards from the picker
    hand_message = players.table.message_id
    calls = fake.rest.calls[first:]

    def edits(route: str) -> list[str]:
        return [c.route for c in calls if c.route == route and c.status == 200]

    by_token = edits("PATCH /webhooks/{app_id}/{token}/messages/{message_id}")
    in_channel = [c for c in calls if c.route == "PATCH /channels/{channel_id}/messages/{message_id}"
                  and c.params.get("message_id") == str(hand_message)]
    assert len(by_token) >= len(PLAYERS)  # at least one a draw: the turn after each picker's Throw
    assert len(in_channel) <= 1, [c.path for c in in_channel]  # at most the deal's, before anyone clicked
    assert players.showdown(1)


async def test_a_players_private_messages_do_not_pile_up_under_the_table(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """Each player's private replies at the table (the picker, the draw report, My hand, a refusal) replace his
    previous one: through a triple draw hand, after every turn, each player has at most one private message in the
    channel on his screen, and a draw's report is it."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="triple-draw-27")
    draws: dict[str, int] = dict.fromkeys(PLAYERS, 0)
    refused = False
    while True:
        turn = await players.turn(1)
        if turn.legal.phase == "drawing":
            thrown = await players.draw(turn.legal.hand[:1], turn=turn)
            assert thrown.message is not None and "Draw " in _embed_text(thrown.message)  # his cards, a line
            draws[turn.name] += 1
        else:
            await players.act("cc", turn=turn)
        if not refused:  # a click out of turn and My hand: each replaces the player's private message
            now = await players.turn(1)
            other = next(n for n in PLAYERS if n != now.name)
            await players.click_seat(other, "hand")
            wrong = await fake.reply_to(await fake.click(other, now.message, players.button_id(now, "cc")))
            assert wrong.ephemeral and wrong.content == "It is not your turn.", wrong.content
            assert wrong.message is not None and "<:c_" in _embed_text(wrong.message)  # his cards under it
            refused = True

        def one_each() -> bool:
            return all(len([m for m in fake.ephemeral_for(name) if m.channel_id == players.channel_id]) <= 1
                       for name in PLAYERS)

        await fake.wait_for(one_each, 5, what="one private message per player")  # the older one is deleted
        if all(n == 3 for n in draws.values()):
            break


def _embed_text(message: StoredMessage | None) -> str:
    """A message's embed descriptions (a private message shows its words there, under the cards)."""
    if message is None:
        return ""
    return "\n".join(str(e.get("description") or "") for e in message.embeds)


async def test_a_player_sees_his_own_cards_under_the_table_at_his_turn(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """From his first tap on, at each of his turns a player's one private message in the channel shows his cards as
    they are now (the cards alone, drawn large, or under his draw's report, and what they make), with no tap of
    his: updated at a new deal and after his draws, and under the current table message once he has acted in the
    hand."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="triple-draw-27")
    checked = under = 0
    for number in (1, 2):
        acted: set[str] = set()
        turn: Turn | None = await players.turn(number, timeout=10)
        while turn is not None:
            hand = table.hand
            assert hand is not None
            seat = table.engine_seat(turn.user_id)
            assert seat is not None
            name, held = turn.name, players.cards(hand.holes[seat])

            def current(name: str = name, held: str = held) -> StoredMessage | None:
                private = [m for m in fake.ephemeral_for(name) if m.channel_id == players.channel_id]
                shown = len(private) == 1 and (private[0].content == held  # alone, drawn large
                                               or _embed_text(private[0]).startswith(held))  # under a draw's report
                return private[0] if shown else None

            # the answer to his join at first, kept current since (the new deal's cards edited in)
            mine = await fake.wait_for(current, 5, what=f"{name}'s cards in his one private message")
            assert f"#{number} " in _embed_text(mine)
            if turn.name in acted:
                assert mine.id > turn.message.id  # right under the table's buttons
                under += 1
            checked += 1
            if turn.legal.phase == "drawing":
                await players.draw(turn.legal.hand[:2], turn=turn)
            else:
                await players.act("cc", turn=turn)
            acted.add(turn.name)
            turn = await players.next_turn(turn)
    assert checked > 20 and under > 10


async def test_four_colours_by_default_and_two_for_a_player_who_asks(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """The table and everyone's own cards are in four colours (♦ blue, ♣ green); ``/poker cards colours:two``
    draws one player's own cards (his private message, his DMs) in two, remembered across a restart; /poker
    has 25 entries, Discord's limit, with cards in the last."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    poker = fake.global_commands["poker"]
    assert len(poker["options"]) == 25 and any(o["name"] == "cards" for o in poker["options"])
    chose = await players.poker("bob", "cards", colours="two")
    assert chose.ephemeral and chose.content.startswith("Your cards in two colours")
    table = await players.open_table("alice", PLAYERS, game="five-card-draw")
    await players.turn(1)
    emojis = players.bot.card_emojis
    hand = table.hand
    assert hand is not None
    for name in PLAYERS:
        seat = table.engine_seat(players.uid(name))
        assert seat is not None
        held = hand.holes[seat]
        four = name != "bob"
        dealt = await fake.wait_for_dm(name, lambda m: "Five Card Draw" in m.content, timeout=5)
        assert emojis.cards(held, four_colours=four) in dealt.content, name
        mine = await fake.wait_for(lambda name=name: [m for m in fake.ephemeral_for(name)
                                                      if m.channel_id == players.channel_id], 5, what="his cards")
        assert mine[-1].content == emojis.cards(held, four_colours=four), name
        if name == "bob":  # a diamond or a club: a picture that differs between the decks
            assert emojis.cards(held, four_colours=True) != emojis.cards(held, four_colours=False)
    assert await players.bot.store.four_colours(fake.guild_id, players.uid("bob")) is False
    assert await players.bot.store.four_colours(fake.guild_id, players.uid("carol")) is True


async def test_no_limit_buttons_take_two_rows_not_four(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """In no limit the turn has three buttons (Fold, Call, Raise…: the sizes are in the bet menu), so the message
    has the seat row and one row of the turn's buttons, as a phone shows them. Fixed limit keeps one row."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, structure="no-limit")
    turn = await players.turn(1)
    rows = [[c.get("label") for c in row.get("components") or []] for row in turn.message.components]
    assert rows == [["My hand", "Sit out / in", "Leave"], ["Fold", "Call 10", "Raise…"]], rows


async def test_join_is_offered_while_the_table_waits_for_players_not_once_everyone_plays(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """The lobby offers Join (and a table waiting for a second player); once hands are dealt, the page of a hand
    just over does not (everyone who came is seated; a newcomer types /poker join, which still works)."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, start=False)
    lobby = fake.message(table.message_id or 0)
    assert "Join" in [b.get("label") for b in lobby.buttons()]
    await players.poker("alice", "table start")
    await players.play(calling_station, number=1)
    finished = fake.message(table.message_id or 0)
    labels = [b.get("label") for b in finished.buttons()]
    assert "Join" not in labels and "Sit out / in" in labels, labels
    late = await players.poker("dave", "join")
    assert late.content.startswith("You sit in seat 4"), late.content


async def test_a_refused_tap_does_not_take_away_the_picker_in_use(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """A player picking his cards types a move by mistake: the refusal does not delete his open picker (it is put
    aside, and goes once he has drawn), so he throws from it as he meant to, and one private message is left."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="triple-draw-27")
    while (turn := await players.turn(1)).legal.phase != "drawing":
        await players.act("cc", turn=turn)
    opened = await players.open_draw(turn)
    picker = opened.message
    assert picker is not None
    stale = await players.poker(turn.name, "call")
    assert stale.ephemeral and stale.content == "It is time to draw, not to bet."
    await fake.settle()
    assert not fake.message(picker.id).deleted  # still his to use
    toggles, _ = players.picker_buttons(fake.message(picker.id))
    await fake.reply_to(await fake.click(turn.name, fake.message(picker.id), toggles[0]))
    _, confirms = players.picker_buttons(fake.message(picker.id))
    thrown = await fake.reply_to(await fake.click(turn.name, fake.message(picker.id), next(iter(confirms.values()))))
    assert thrown.message is not None and ": you drew 1 " in _embed_text(thrown.message)
    await fake.wait_for(lambda: [m.id for m in fake.ephemeral_for(turn.name) if m.channel_id == players.channel_id]
                        == [picker.id], 5, what="the refusal removed once he drew")


async def test_draw_pressed_twice_leaves_the_newer_picker_working(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """A double tap on Draw… (or a second one after a slow answer): the newer picker replaces the older, its taps
    and Throw work, and one private message is left."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, game="triple-draw-27")
    while (turn := await players.turn(1)).legal.phase != "drawing":
        await players.act("cc", turn=turn)
    first = (await players.open_draw(turn)).message
    second = (await players.open_draw(turn)).message
    assert first is not None and second is not None and first.id != second.id
    for index in range(2):  # two taps: each an edit of the newer picker
        toggles, _confirms = players.picker_buttons(fake.message(second.id))
        tapped = await fake.reply_to(await fake.click(turn.name, fake.message(second.id), toggles[index]))
        assert tapped.response_type == 7
    _, confirms = players.picker_buttons(fake.message(second.id))
    thrown = await fake.reply_to(await fake.click(turn.name, fake.message(second.id), confirms["Throw 2"]))
    assert thrown.message is not None and ": you drew 2 " in _embed_text(thrown.message)
    await fake.wait_for(lambda: [m.id for m in fake.ephemeral_for(turn.name) if m.channel_id == players.channel_id]
                        == [second.id], 5, what="the older picker removed")


async def test_pickers_leave_no_task_behind(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    """discord.py gives every ephemeral view it keeps (a draw picker) a 15-minute timeout task, each holding its
    view and items. The bot's views hold only dynamic items and are stopped before they are sent
    (``cogs.views.dynamic_view``), so after a hand of draws from the picker no such task is left."""
    await poker_bot(seed=11)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    first = len(fake.rest.calls)
    await players.play(calling_station)  # every player throws two cards from the picker
    pickers = [c for c in fake.rest.calls[first:] if c.json and "pk:card:" in json.dumps(c.json)]
    assert len(pickers) >= len(PLAYERS)
    kept = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert kept == [], kept[:3]


async def test_triple_draw_is_one_dm_a_hand_edited_at_each_draw_and_the_cards_once_large(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """Issue 33, items 2 to 4: a hand of triple draw sends each player one DM, the deal's, edited after each of his
    draws (an edit does not buzz) to show his hand then; the picker shows his cards once, as its five buttons in one
    row (pictures, no label), not again in its text; after the throw his private message is his new hand alone
    (drawn large) with one line under it, what he drew and what it makes."""
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="triple-draw-27")

    def hand_dms(name: str) -> list[StoredMessage]:
        return [m for m in fake.dms(name) if not m.content.startswith(("🔔", "⏰"))]

    await fake.wait_for(lambda: all(len(hand_dms(n)) == 1 for n in PLAYERS), 5, what="the deal's DMs")
    dealt = {name: hand_dms(name)[0].id for name in PLAYERS}
    drew = dict.fromkeys(PLAYERS, 0)
    while table.live is not None and table.live.record.number == 1:
        turn = await players.turn(1)
        if turn.legal.phase != "drawing":
            await players.act("cc", turn=turn)
            continue
        picker = (await players.open_draw(turn)).message
        assert picker is not None
        cards = [c for c in picker.buttons() if str(c.get("custom_id")).startswith("pk:card:")]
        rows = [row for row in picker.components if any(c in cards for c in row.get("components") or [])]
        assert len(cards) == 5 and len(rows) == 1 and all(c.get("emoji") and not c.get("label") for c in cards)
        assert "<:c_" not in picker.content and picker.content.startswith("Draw ")  # the cards once: the buttons
        thrown = await players.draw(turn.legal.hand[:2], turn=turn)
        live = table.live
        assert live is not None and thrown.message is not None
        seat = live.users.index(turn.user_id)
        now = players.cards(live.hand.holes[seat])
        assert thrown.content == now  # his new hand alone: drawn large
        line = _embed_text(thrown.message)
        assert "\n" not in line and line.startswith(f"#1 · Draw {len(live.hand.drawn[seat])} of 3: you drew 2 "
                                                    "(the last two)"), line
        drew[turn.name] += 1
        await fake.wait_for(lambda name=turn.name, now=now: f"Now: {now}" in hand_dms(name)[-1].content, 5,
                            what="the deal's DM edited with the draw")
        mine = hand_dms(turn.name)
        assert [m.id for m in mine] == [dealt[turn.name]] and mine[0].edits == drew[turn.name]
    assert sum(drew.values()) >= 3
    assert all(len(hand_dms(name)) == 1 and hand_dms(name)[0].id == dealt[name] for name in PLAYERS)
