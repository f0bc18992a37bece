"""What one player reads at a table, in his own language: with the fake's members speaking the pseudo-language,
every text of his private answers (the bet menu and its form, All in's question, the draw picker, his cards after
a move, his pre-actions, My hand, Leave's question, sit out and in, the rebuy form, the dealer's-choice menu, the
refusals of typed moves) comes through the catalogue (the fake records English outside the pseudo-language's
wraps as a bare-text violation); and who reads what: a player whose Discord speaks another language than his
neighbour's reads his answers in his, the neighbour in his own."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from bot.poker import GAMES

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord
from .players import Players

pytestmark = [pytest.mark.e2e]

PLAYERS = ("alice", "bob", "carol")
GAME_WORDS = frozenset(word for game in GAMES.values() for word in re.findall(r"[A-Za-z][A-Za-z']+", game.name))
PSEUDO = FakeConfig(pseudo_locale=True, pseudo_allowed=GAME_WORDS)
# bob's Discord speaks the pseudo-language; the server and everyone else English (no check: the wraps stay).
BOB_PSEUDO = FakeConfig(users=tuple(dataclasses.replace(user, locale="qps") if user.name == "bob" else user
                                    for user in FakeConfig().users))
TABLE_MESSAGE = re.compile(r'"pk:seat:\d+:(hand|join|sit|rebuy|leave)"')  # only the table message has these


@pytest.fixture
def fake_config(request: pytest.FixtureRequest) -> FakeConfig:
    config: FakeConfig = request.param
    return config


async def private_bare(fake: FakeDiscord) -> list[str]:
    """The bare-text violations of the answers one player reads (every violation so far is taken, once the bot is
    quiet): those of the table message (whose bodies carry its seat buttons), of the channel's posts and of DMs are
    the table screen's and the dealer's, checked with them."""
    await fake.quiet()
    return [str(v) for v in fake.take_violations("bare-text")
            if v.call is not None and v.call.path.startswith(("/interactions/", "/webhooks/"))
            and not TABLE_MESSAGE.search(json.dumps(v.call.json, ensure_ascii=False))]


@pytest.mark.parametrize("fake_config", [PSEUDO], indirect=True)
async def test_a_players_answers_come_through_the_catalogue(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS, structure="no-limit")
    turn = await players.turn(1)
    others = [name for name in PLAYERS if name != turn.name]
    # The fake takes the wraps out: the tests read the English, and any bare English is a violation.
    menu = await players.open_bet_menu(turn)
    assert menu.content == "Raise how much? Pot 15, 10 to call."
    assert (await players.poker(turn.name, "check")).content == (
        "You cannot check: you face a bet of 10. Call it, raise, or fold.")
    assert (await players.poker(turn.name, "draw", cards="Ks")).content.endswith(
        "Call 10 (`/poker call`), raise (`/poker raise`) or fold (`/poker fold`).")
    assert (await players.poker(turn.name, "bet", amount="-5")).content == (
        "An amount cannot be negative: give a whole number of chips, from 20 to 1,000.")
    refused = await players.bet_amount("many", turn)
    assert refused.content == "“many” is not an amount: give a whole number of chips, from 20 to 1,000."
    await players.click_seat(others[0], "hand")
    leave = await players.click_seat(others[0], "leave")
    assert leave.content.startswith("Leave the table? You fold this hand and cash out ")
    assert (await players.click_seat(others[1], "sit")).content == (
        "You are sitting out: no cards from the next hand until you sit in.")
    assert (await players.click_seat(others[1], "sit")).content == "You are in: dealt in from the next hand."
    await players.act("cbr 22", turn)
    turn = await players.turn(1)
    while turn.legal.phase == "betting":
        await players.act("cc", turn)
        turn = await players.turn(1)
    picker = await players.open_draw(turn)
    assert picker.content.startswith("Draw 1 of 1 · tap the cards to throw")
    await players.draw(list(turn.legal.hand[:2]), turn=turn)
    turn = await players.turn(1)
    assert (await players.poker(turn.name, "pat")).content.startswith(players.cards(turn.legal.hand))
    turn = await players.turn(1)
    await players.act("sd", turn)
    turn = await players.turn(1)
    assert (await players.poker(turn.name, "allin")).content == f"You are all in for {turn.legal.all_in_to:,}."
    assert await private_bare(fake) == []


@pytest.mark.parametrize("fake_config", [PSEUDO], indirect=True)
async def test_the_choosers_menu_comes_through_the_catalogue(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=5)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice", dealer_picks_structure=True)
    await fake.wait_for(players.choice_button, what="the dealer's choice button")
    chooser = players.name(table.chooser() or 0)
    menu, parts = await players.open_menu(chooser)
    assert "pick the next game" in menu.content and parts["deal"]["label"] == "Pick a game first"
    await players.choose(chooser, "badugi", "pot-limit")
    assert await private_bare(fake) == []


@pytest.mark.languages  # bob alone speaks the pseudo-language: the others, and the server, English
@pytest.mark.parametrize("fake_config", [BOB_PSEUDO], indirect=True)
async def test_each_player_reads_his_answers_in_his_own_language(fake: FakeDiscord,
                                                                  poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=4)
    players = Players(fake, poker_bot)
    await players.poker("alice", "create", game="five-card-draw", small_blind=5, big_blind=10, structure="no-limit")
    joined = {name: (await players.poker(name, "join")).content for name in PLAYERS}
    assert joined["bob"] == "⟦You sit in seat 2 with 1,000 chips.⟧" and joined["alice"].startswith("You sit in seat")
    await players.poker("alice", "table start")
    turn = await players.turn(1)
    asked = {}
    for name in ("alice", "bob"):
        answer = await players.poker(name, "check") if name == turn.name else await players.click_seat(name, "leave")
        asked[name] = answer.content
    wrapped = {name: content.startswith("⟦") for name, content in asked.items()}
    assert wrapped == {"alice": False, "bob": True}, asked
    bob_buttons = [str(c.get("label")) for c in fake.ephemeral_for("bob")[-1].buttons()]
    assert bob_buttons and all(label.startswith("⟦") for label in bob_buttons), bob_buttons
