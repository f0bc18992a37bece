"""pokerkit plays the hand histories the bot exports, as written (docs/rules.md section 22.3; README "Hand histories").

Nights of each game with a standard PHH code (fixed-limit 2-7 triple draw ``F2L3D``, no-limit 2-7 single draw
``N2L1D``, fixed-limit Badugi ``FB``) are dealt as a table deals them, every house option at its default
(``TableSettings`` with blinds 1/2 and nothing else, buy-ins drawn from the default range, a busted player buying
in again, the button moving every hand), and played by the random players of ``bot.tools.simulate``. Each hand is kept
as the table keeps it (``export_phh`` with the players and the hand's id) and exported as
``/poker session export`` gives it to a member (``bot.tables.night.night_phhs``: the cards he saw). pokerkit's
``HandHistory.loads_all`` reads every file and plays every hand with no line moved, to the file's
``finishing_stacks``.

Three rules of docs/rules.md are played otherwise by pokerkit, whatever the options; a hand that meets one of them is
counted, not played (``pokerkit_plays_otherwise``), and the tests at the end show each difference on one hand.
"""

from __future__ import annotations

import random

import pytest

from bot.night.phhs import read_phhs, write_phhs
from bot.poker import GAMES, Hand, Stakes
from bot.poker.phh import export_phh
from bot.store import HandRecord
from bot.tables import TableSettings
from bot.tables.night import night_phhs
from bot.tools.simulate import play_hand
from tests.engine.helpers import play, stacked

pokerkit = pytest.importorskip("pokerkit")
from tests.night.pokerkit_oracle import BETTING_RULES, betting_rule, play_in_pokerkit, pokerkit_state  # noqa: E402  (after the skip)

STANDARD = {"triple-draw-27": "F2L3D", "single-draw-27": "N2L1D", "badugi": "FB"}
NIGHTS = range(5)  # two to six players
HANDS = 60  # a night: 300 hands of each game
HOUSE_RULES = BETTING_RULES


def table_night(game_id: str, night: int) -> tuple[list[Hand], list[HandRecord]]:
    """A night at one table with the house options at their defaults, each hand kept as the table keeps it."""
    rng = random.Random(f"{game_id} {night}")
    game = GAMES[game_id]
    settings = TableSettings(game_id, small_blind=1, big_blind=2)
    low, high = settings.buy_in_range
    users = [1000 + seat for seat in range(2 + night % (min(6, game.max_players) - 1))]
    stacks = {user: rng.randint(low, high) for user in users}
    hands, records = [], []
    for number in range(1, HANDS + 1):
        for user in users:
            stacks[user] = stacks[user] or rng.randint(low, high)  # busted: he buys in again
        before = tuple(stacks[user] for user in users)
        hand = play_hand(game, settings.stakes_for(game), before, rng, **settings.hand_options(game))
        phh = export_phh(hand, players=[str(user) for user in users], _hand_id=number)
        hands.append(hand)
        records.append(HandRecord(number, 1, number, game_id, {}, 0, tuple(users), before, 0, "complete",
                                  tuple(hand.stacks), 0, {}, phh, None, 0.0, 0.0, tuple(hand.actions), 1))
        stacks.update(zip(users, hand.stacks))
        users = users[1:] + users[:1]  # the button moves one seat clockwise
    return hands, records


def pokerkit_plays_otherwise(hand: Hand) -> str | None:
    """The rule of docs/rules.md this hand met that pokerkit plays otherwise (one of ``HOUSE_RULES``), or None."""
    return betting_rule(hand)



@pytest.mark.slow
@pytest.mark.parametrize("night", NIGHTS)
@pytest.mark.parametrize("game_id", sorted(STANDARD))
def test_pokerkit_plays_every_hand_we_export_as_written_to_its_finishing_stacks(game_id: str, night: int) -> None:
    hands, records = table_night(game_id, night)
    kept = read_phhs(write_phhs([record.phh or "" for record in records]))  # every card, as the table keeps it
    member = records[0].seat_users[night % len(records[0].seat_users)]
    as_seen = {  # /poker session export as a player of the night saw it, and as a bystander
        who: read_phhs(night_phhs(records, who)[0]) for who in (member, 1)}
    met: dict[str, int] = dict.fromkeys(HOUSE_RULES, 0)
    for number, hand in enumerate(hands, 1):
        fields = kept[str(number)]
        assert fields["variant"] == STANDARD[game_id] and fields["finishing_stacks"] == hand.stacks
        rule = pokerkit_plays_otherwise(hand)
        if rule is not None:
            met[rule] += 1
            continue
        for version in (fields, as_seen[member if number % 2 else 1][str(number)]):
            stacks, added = play_in_pokerkit(version)
            assert (stacks, added) == (hand.stacks, []), (number, version)  # every move read as ours, no more
    assert sum(met.values()) <= HANDS // 10, met  # rare spots, not a way round the check


def test_the_nights_hold_heads_up_play_all_ins_showdowns_and_reshuffles() -> None:
    seen = dict.fromkeys(("heads-up", "all in", "showdown", "reshuffled"), 0)
    for game_id in STANDARD:
        for night in NIGHTS:
            for hand in table_night(game_id, night)[0]:
                seen["heads-up"] += hand.players == 2
                seen["all in"] += 0 in hand.stacks
                seen["showdown"] += len(hand.shown) > 1
                seen["reshuffled"] += hand.deck.reshuffles > 0
    assert seen["heads-up"] >= 150 and seen["all in"] >= 100 and seen["showdown"] >= 500, seen
    assert seen["reshuffled"] >= 10, seen


# --- where pokerkit plays the house rules otherwise --------------------------------------------------------------



def test_pokerkit_caps_a_heads_up_round_that_the_house_rules_leave_uncapped() -> None:
    # docs/rules.md section 2.5: the cap does not apply when a round begins with two players; pokerkit allows four bets
    # and raises.
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [200, 200], seed=4)
    play(hand, "cc", "cc", "sd", "sd", "cc", "cc", "sd", "sd", "cc", "cbr 4", "cbr 8", "cbr 12", "cbr 16", "cbr 20")
    play(hand, "cc", "sd", "sd", "cc", "cc")
    assert hand.is_complete and pokerkit_plays_otherwise(hand) == HOUSE_RULES[0]
    with pytest.raises(ValueError, match="Unable to repair"):
        pokerkit_state(hand)


def test_pokerkit_has_a_short_big_blind_called_for_what_he_has_where_the_house_rules_call_the_full_blind() -> None:
    deck = stacked(["7s5d4h3c2s", "KdQcJh9s8d", "8h6d4s3d2h"])
    hand = Hand("single-draw-27", Stakes("no-limit", 1, 2), [100, 1, 100], deck=deck)  # the big blind has 1
    play(hand, "cc", "cc", "sd", "sd", "sd", "cc", "cc")  # both call the full big blind, 2: a side pot of 2
    assert hand.is_complete and hand.stacks == [103, 0, 98]
    assert pokerkit_plays_otherwise(hand) == HOUSE_RULES[1]
    assert list(pokerkit_state(hand).stacks) == [102, 0, 99]  # pokerkit: a call of 1 each, no side pot


def test_pokerkit_raises_a_short_fixed_limit_all_in_by_a_full_bet_where_the_house_rules_complete_the_bet() -> None:
    # docs/rules.md section 2.6: A bets 4, B is all in for 5, C calls 5 or raises to 8. pokerkit: C raises to 9.
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 1, 2), [100, 7, 100], seed=18)
    play(hand, "cc", "cc", "cc", "sd", "sd", "sd", "cc", "cc", "cc", "sd", "sd", "sd", "cbr 4", "cbr 5", "cbr 8")
    while not hand.is_complete:
        hand.act("sd" if hand.phase == "drawing" else "cc")
    assert pokerkit_plays_otherwise(hand) == HOUSE_RULES[2]
    with pytest.raises(ValueError, match="Unable to repair"):
        pokerkit_state(hand)
