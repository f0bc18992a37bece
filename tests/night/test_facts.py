"""Per-player facts of finished hands: known hands, and invariants over random hands of every game."""

from __future__ import annotations

import random
from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.night.facts import FACT_COLUMNS, PlayerHandFacts, hand_facts
from bot.night.pots import pot_contenders
from bot.poker import Hand, PotAwarded

from .hands import FL, random_hand
from .known import (
    ANN,
    BOB,
    CAT,
    assassin_carry,
    assassin_wins_the_carry,
    big_blind_checks,
    everyone_folds_to_a_raise,
    heads_up_triple_draw,
    three_way_side_pot,
)

# The facts as (vpip, raised, showdown, won, won_at_showdown, draws, cards_drawn, pats, collected, net).
Row = tuple[bool, bool, bool, bool, bool, int, int, int, int, int]


def rows(hand: Hand) -> dict[int, Row]:
    users = [ANN, BOB, CAT][:hand.players]
    out: dict[int, Row] = {}
    for facts in hand_facts(hand, users):
        assert (facts.dealt, facts.game, users[facts.seat]) == (1, hand.game.id, facts.user_id)
        out[facts.user_id] = (facts.vpip, facts.raised, facts.showdown, facts.won, facts.won_at_showdown,
                              facts.draws, facts.cards_drawn, facts.pats, facts.collected, facts.net)
    return out


def test_heads_up_raiser_and_caller_both_played_and_the_last_bet_took_it() -> None:
    assert rows(heads_up_triple_draw()) == {
        ANN: (True, False, False, True, False, 2, 2, 1, 60, 30),  # called the raise: played, did not raise
        BOB: (True, True, False, False, False, 2, 2, 0, 0, -30),  # folded to the last bet after two draws
    }


def test_a_side_pot_nobody_else_could_win_is_not_won_at_showdown() -> None:
    assert rows(three_way_side_pot()) == {
        ANN: (True, True, True, True, True, 1, 0, 1, 150, 100),  # all in, stood pat, full house: the main pot
        BOB: (True, False, True, True, False, 1, 3, 0, 140, 20),  # the side pot after cat folded: no contest
        CAT: (True, True, False, False, False, 1, 3, 0, 0, -120),
    }


def test_blinds_who_fold_did_not_play_and_a_lone_raiser_wins_uncontested() -> None:
    assert rows(everyone_folds_to_a_raise()) == {
        ANN: (False, False, False, False, False, 0, 0, 0, 0, -5),
        BOB: (False, False, False, False, False, 0, 0, 0, 0, -10),
        CAT: (True, True, False, True, False, 0, 0, 0, 25, 15),
    }


def test_a_big_blind_who_checks_did_not_play_but_the_small_blind_who_completes_did() -> None:
    assert rows(big_blind_checks()) == {
        ANN: (False, False, True, True, True, 1, 0, 1, 20, 10),
        BOB: (True, False, True, False, False, 1, 0, 1, 0, -10),
    }


def test_chips_put_into_a_carried_pot_are_lost_in_that_hand_and_won_in_the_next() -> None:
    carry = assassin_carry()
    assert rows(carry) == {
        ANN: (False, False, True, False, False, 1, 2, 0, 0, -2),  # threw 2 (2♣ face up): 3 received, 2 drawn
        BOB: (True, False, True, False, False, 1, 0, 1, 0, -2),
    }
    assert sum(f.net for f in hand_facts(carry, [ANN, BOB])) == -carry.carried_out
    after = assassin_wins_the_carry()
    assert rows(after) == {
        ANN: (False, False, True, True, True, 1, 0, 1, 28, 16),  # the pot of 28 holds the 4 carried chips
        BOB: (True, False, True, False, False, 1, 0, 1, 0, -12),
    }
    assert sum(f.net for f in hand_facts(after, [ANN, BOB])) == after.carried_in


def test_the_columns_are_plain_values_in_field_order() -> None:
    facts = hand_facts(heads_up_triple_draw(), [ANN, BOB])[0]
    assert FACT_COLUMNS[:3] == ("user_id", "game", "seat")
    assert len(astuple(facts)) == len(FACT_COLUMNS)
    assert all(isinstance(value, int | str) for value in astuple(facts))


def test_only_a_finished_hand_with_a_user_per_seat_has_facts() -> None:
    live = Hand("triple-draw-27", FL, [100, 100], seed=1)
    with pytest.raises(ValueError, match="finished"):
        hand_facts(live, [ANN, BOB])
    with pytest.raises(ValueError, match="2 players but 3 users"):
        hand_facts(heads_up_triple_draw(), [ANN, BOB, CAT])


# ---------------------------------------------------------------------------------------------- random hands


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_pot_contenders_from_the_events_match_the_engines_pots(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    engine = [tuple(s for s in pot.eligible if not hand.folded[s]) or tuple(hand.in_hand()) for pot in hand.pots()]
    assert pot_contenders(hand) == engine


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_facts_agree_with_the_hand(seed: int) -> None:
    hand = random_hand(random.Random(seed))
    facts: list[PlayerHandFacts] = hand_facts(hand, [1000 + seat for seat in range(hand.players)])
    awarded = sum(e.amount for e in hand.events if isinstance(e, PotAwarded))
    assert sum(f.collected for f in facts) == awarded
    assert sum(f.net for f in facts) == hand.carried_in - hand.carried_out
    assert [f.collected for f in facts] == hand.payouts
    for f in facts:
        assert f.won == (f.collected > 0)
        assert not f.raised or f.vpip
        assert not f.won_at_showdown or (f.won and f.showdown)
        assert 0 <= f.pats <= f.draws <= hand.game.draws
        assert f.cards_drawn <= f.draws * len(hand.holes[f.seat])  # a hand never shrinks
        assert f.showdown == (f.seat in hand.shown)
