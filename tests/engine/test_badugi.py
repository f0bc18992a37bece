"""Badugi, the twelfth game (docs/rules.md section 13): the ranking, the game, its histories, pokerkit as the oracle."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from itertools import combinations, permutations
from typing import Any

import pytest

from bot.poker import (
    DRAW_GAMES,
    STRUCTURES,
    CardError,
    Dealt,
    Hand,
    HandValue,
    PotAwarded,
    RoundEnded,
    Stakes,
    Structure,
    evaluate,
    games_for_players,
    parse_cards,
)
from bot.poker.cards import STANDARD_DECK
from bot.poker.phh import export_phh, parse_phh, replay
from bot.poker.rankings import BADUGI
from tests.engine.helpers import best_to_worst as ranked_best_to_worst
from tests.engine.helpers import of, play, play_randomly, stacked, to_showdown, with_actions
from tests.engine.helpers import value as ranked

FL = Stakes("fixed-limit", 1, 2)
FOUR_CARD_HANDS = 270_725


def value(text: str) -> HandValue:
    return ranked("badugi", text)


def best_to_worst(*hands: str) -> bool:
    return ranked_best_to_worst("badugi", hands)


# --- the ranking: docs/rules.md section 13.3 ---------------------------------------------------------------------


def test_four_three_two_ace_is_the_best_hand() -> None:
    best = value("4s3h2dAc")
    assert best.describe() == "Badugi (4-3-2-A)" and best.category == BADUGI and best.ranks == (4, 3, 2, 1)
    assert all(evaluate("badugi", cards) <= best for cards in combinations(STANDARD_DECK[:20], 4))


def test_lower_from_the_top_wins_six_four_three_ace_beats_six_five_two_ace() -> None:
    assert best_to_worst("6s4h3dAc", "6s5h2dAc", "7s3h2dAc", "8s7h6d5c", "KsQhJdTc")


def test_any_badugi_beats_every_three_card_hand_three_beat_two_two_beat_one() -> None:
    assert best_to_worst("KsQhJdTc", "3s2hAdAc", "KsQhJdJc", "2s2hAdAc", "KsKhKdQs", "AsKsQsJs", "KsKhKdKc")
    assert value("3s2hAdAc").describe() == "Three-card hand (3-2-A)"
    assert value("KsKhQsQd").describe() == "Two-card hand (K-Q)"


def test_a_hand_plays_its_largest_set_of_different_suits_and_ranks_the_lowest_if_several() -> None:
    assert value("7c5d2h2c").describe() == "Three-card hand (7-5-2)"  # 2c clashes with 7c: 7-5-2 with 2h
    assert value("2s3s4d7h").describe() == "Three-card hand (7-4-2)"  # 2s or 3s: the lower set plays
    assert value("Kc2c3c4c").describe() == "One-card hand (2)"  # one suit: the lowest card
    assert value("AsAhAdAc").describe() == "One-card hand (A)"
    assert value("8s8h5d5c").describe() == "Two-card hand (8-5)"
    assert value("9s8h2d3d").describe() == "Three-card hand (9-8-2)"


def test_suits_never_rank_and_never_break_ties() -> None:
    hand = parse_cards("9s7h2dAs")
    for order in permutations("cdhs"):
        rename = dict(zip("cdhs", order, strict=True))
        assert evaluate("badugi", [parse_cards(c.code[0] + rename[c.suit])[0] for c in hand]) == value("9s7h2dAs")
    assert value("4s3h2dAc") == value("4h3s2cAd") and hash(value("4s3h2dAc")) == hash(value("4h3s2cAd"))


def test_five_or_more_cards_play_the_best_four() -> None:
    assert value("Ac2d3h4s5c").describe() == "Badugi (4-3-2-A)"
    rng = random.Random(4)
    for _ in range(200):
        six = rng.sample(STANDARD_DECK, 6)
        assert evaluate("badugi", six) == max(evaluate("badugi", four) for four in combinations(six, 4))


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("4s3h2d", ValueError, "at least four cards, not 3"),
        ("4s3h2d??", CardError, "unknown card"),
        ("4s3h2dX1", CardError, "without jokers"),
        ("4s3h2d4s", CardError, "same card twice"),
        ("4s3h2d4s5c", CardError, "same card twice"),
    ],
)
def test_evaluate_refuses_what_is_not_a_badugi_hand(cards: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        value(cards)


def test_badugi_values_do_not_compare_with_other_rankings() -> None:
    with pytest.raises(TypeError):
        _ = value("4s3h2dAc") < evaluate("ace-to-five", parse_cards("5s4h3d2cAs"))


def test_every_four_card_hand_is_ordered_exactly_as_pokerkit_orders_badugi_hands() -> None:
    """All 270,725 four-card hands against pokerkit's ``BadugiHand.from_game`` (its ace-to-five badugi).

    pokerkit takes 40 microseconds a hand, so it is asked once per class of hands that differ only by a
    renaming of the suits (its ranking, like ours, never looks at which suit is which: the samples below
    check it on the real thing), and our evaluation is asked for every hand.
    """
    pokerkit = pytest.importorskip("pokerkit")
    theirs_of_class: dict[tuple[int, ...], Any] = {}
    pairs: set[tuple[int, int]] = set()
    deck = {card: pokerkit.Card.clean(card.code)[0] for card in STANDARD_DECK}
    count = 0
    for four in combinations(STANDARD_DECK, 4):
        masks = [0, 0, 0, 0]
        for card in four:
            masks["cdhs".index(card.suit)] |= 1 << card.rank
        key = tuple(sorted(masks))
        theirs = theirs_of_class.get(key)
        if theirs is None:
            theirs = theirs_of_class[key] = pokerkit.BadugiHand.from_game([deck[c] for c in four])
        pairs.add((evaluate("badugi", four).strength, theirs.entry.index))
        count += 1
    assert count == FOUR_CARD_HANDS
    # One pokerkit value per value of ours and the other way round, in the same order (pokerkit's low
    # hands: a smaller index is better).
    ours = sorted(pairs)
    assert len({o for o, _ in ours}) == len({t for _, t in ours}) == len(ours)
    assert [t for _, t in ours] == sorted((t for _, t in ours), reverse=True)
    rng = random.Random(10)
    for four in rng.sample(list(combinations(STANDARD_DECK, 4)), 3000):
        theirs = pokerkit.BadugiHand.from_game([deck[c] for c in four])
        ours_value = evaluate("badugi", four)
        assert (ours_value.strength, theirs.entry.index) in pairs, four


def test_pokerkit_compares_greater_for_the_better_badugi_as_we_assume() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    better, worse = pokerkit.BadugiHand.from_game("6s4h3dAc"), pokerkit.BadugiHand.from_game("6s5h2dAc")
    assert better > worse and better.entry.index < worse.entry.index
    assert value("6s4h3dAc") > value("6s5h2dAc")


# --- the game: docs/rules.md sections 13, 2.2 and 2.6 -------------------------------------------------------------


def test_badugi_is_the_twelfth_game_triple_draw_with_four_cards_fixed_limit_six_players() -> None:
    game = DRAW_GAMES["badugi"]
    assert list(DRAW_GAMES)[-1] == "badugi" and len(DRAW_GAMES) == 12
    assert (game.name, game.hand_size, game.draws, game.betting_rounds, game.ranking) == (
        "Badugi", 4, 3, 4, "badugi")
    assert (game.default_structure, game.max_players, game.is_lowball, game.default_big_bet_round) == (
        "fixed-limit", 6, True, 3)
    assert not game.allows_draw_limit and not game.assassin
    assert game in games_for_players(6) and game not in games_for_players(7)


def test_the_deal_is_four_cards_one_at_a_time_clockwise_from_left_of_the_button() -> None:
    hand = Hand("badugi", FL, [100] * 3, deck=stacked(["As 2h 3d 4c", "Ks Qh Jd Tc", "5s 6h 7d 8c"]))
    assert [e.cards for e in of(hand.events, Dealt)] == [tuple(parse_cards(h)) for h in (
        "As 2h 3d 4c", "Ks Qh Jd Tc", "5s 6h 7d 8c")]
    assert hand.deck.deal(1) == parse_cards("2c")  # the deal took the first twelve cards of the stacked order


def test_small_bet_for_the_first_two_rounds_big_bet_for_the_last_two() -> None:
    hand = Hand("badugi", FL, [100] * 2, seed=3)
    sizes: dict[int, int] = {}
    while not hand.is_complete:
        if hand.phase == "drawing":
            hand.act("sd")
            continue
        sizes.setdefault(hand.round, hand.legal().min_raise_to)
        hand.act("cc")
    assert sizes == {0: 4, 1: 2, 2: 4, 3: 4}  # a raise to two small bets over the blind; then 2, 4, 4


def test_each_player_discards_zero_to_four_cards_and_draws_as_many() -> None:
    hand = Hand("badugi", FL, [100] * 2, deck=stacked(["As 2h 3d 4c", "Ks Qh Jd Tc"], "5s", "6h 7d 8c 9s"))
    play(hand, "cc", "cc")
    legal = hand.legal()
    assert legal.max_discards == 4 and len(legal.hand) == 4
    assert not hand.can("sd Ks")  # not his card
    events = play(hand, "sd As 2h 3d 4c")
    assert hand.holes[0] == parse_cards("6h 7d 8c 9s") and of(events, Dealt)[0].cards == tuple(hand.holes[0])
    play(hand, "sd")
    assert hand.round == 1 and hand.phase == "betting"


def test_a_badugi_beats_three_cards_at_the_showdown_and_the_lowest_badugi_wins() -> None:
    hand = Hand("badugi", FL, [100] * 3, deck=stacked(["Ks Qh Jd Tc", "3s 2h Ad Ac", "7s 5h 4d 3c"]))
    events = to_showdown(hand)
    assert [(e.winners, e.amount) for e in of(events, PotAwarded)] == [((2,), 6)]
    shown = {e.player: e.description for e in hand.events if type(e).__name__ == "Shown"}
    assert shown == {0: "Badugi (K-Q-J-T)", 1: "Three-card hand (3-2-A)", 2: "Badugi (7-5-4-3)"}


def test_equal_badugis_split_suits_never_break_ties() -> None:
    hand = Hand("badugi", FL, [100] * 2, deck=stacked(["7s 5h 4d 3c", "7h 5s 4c 3d"]))
    events = to_showdown(hand)
    assert [(e.winners, e.shares) for e in of(events, PotAwarded)] == [((0, 1), (2, 2))]


def test_the_stub_runs_out_and_the_muck_is_reshuffled_as_in_rule_one() -> None:
    hand = Hand("badugi", Stakes("fixed-limit", 1, 2), [100] * 6, seed=2)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd " + "".join(c.code for c in legal.hand) if legal.phase == "drawing" else "cc")
    assert hand.deck.reshuffles >= 1
    assert all(len(hand.holes[i]) == 4 for i in hand.in_hand())


# --- hand histories: FB, PB, NB ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("structure", "code"), [("fixed-limit", "FB"), ("pot-limit", "PB"), ("no-limit", "NB")])
def test_badugi_histories_use_the_codes_fb_pb_nb_and_replay_exactly(structure: Structure, code: str) -> None:
    for seed in range(12):
        hand = play_randomly(Hand("badugi", Stakes(structure, 1, 2), [60] * 4, seed=seed), seed)
        text = export_phh(hand)
        assert text.startswith(f'variant = "{code}"')
        assert sum(a.startswith("d dh p1 ") for a in hand.history[:4]) == 1
        again = replay(text)
        assert (again.stacks, again.history, again.actions) == (hand.stacks, hand.history, hand.actions)
        assert parse_phh(text).game is DRAW_GAMES["badugi"]


def test_a_badugi_history_with_five_cards_in_a_hand_is_refused() -> None:
    hand = play_randomly(Hand("badugi", FL, [60] * 2, seed=1), 1)
    history = list(hand.history)
    history[0] += "Kd" if "Kd" not in "".join(history[:2]) else "Qd"
    with pytest.raises(ValueError, match="a hand starts with four"):
        replay(with_actions(export_phh(hand), history))


def test_seeded_badugi_hands_through_both_engines_have_the_same_pots() -> None:
    """Our FB exports read by pokerkit's HandHistory (``FixedLimitBadugi``): the pot after every betting
    round, every pot awarded (who gets what) and the final stacks agree, hand by hand."""
    pokerkit = pytest.importorskip("pokerkit")
    from pokerkit.state import BetCollection, ChipsPushing

    checked = showdowns = side_pots = reshuffled = 0
    for seed in range(120):
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        stacks = [2 * rng.randint(8, 120) for _ in range(n)]
        stakes = Stakes("fixed-limit", 2, 4, raise_cap=5)
        hand = play_randomly(Hand("badugi", stakes, stacks, seed=seed), seed, pokerkit_safe=True, raise_rate=0.35)
        text = export_phh(hand)
        history = pokerkit.HandHistory.loads(text)
        pots_before_paying: list[tuple[int, tuple[int, ...]]] = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a reshuffled stub: pokerkit deals from its muck
            for state, _ in history.state_actions:
                if not any(isinstance(op, ChipsPushing) for op in state.operations):
                    pots_before_paying = [(p.amount, tuple(p.player_indices)) for p in state.pots]
        assert list(state.stacks) == hand.stacks, (seed, text)
        # The pot after every betting round that moved chips. (The round where all but one fold is left
        # out: pokerkit hands back the whole uncalled bet and collects the rest, we return only the part
        # nobody called; the stacks agree.)
        contested = bool(hand.shown)
        ours = _distinct([e.pot for e in hand.events if isinstance(e, RoundEnded)])
        theirs, total = [], 0
        for op in state.operations:
            if isinstance(op, BetCollection):
                total += sum(op.bets)
                theirs.append(total)
        theirs = _distinct(theirs)
        if not contested:
            ours, theirs = ours[:-1], theirs[:-1]
        assert theirs == ours, (seed, ours, theirs)
        if contested:
            # The main and side pots (amount, who may win each), and what each player wins at the showdown.
            assert [(p.amount, p.eligible) for p in hand.pots()] == pots_before_paying, seed
            ours_won = Counter({i: 0 for i in range(n)})
            for e in of(hand.events, PotAwarded):
                ours_won.update(dict(zip(e.winners, e.shares, strict=True)))
            theirs_won = Counter({i: 0 for i in range(n)})
            for op in state.operations:
                if isinstance(op, ChipsPushing):
                    theirs_won.update(dict(enumerate(op.amounts)))
            assert ours_won == theirs_won, (seed, ours_won, theirs_won)
            side_pots += len(pots_before_paying) > 1
        checked += 1
        showdowns += len(hand.shown) > 1
        reshuffled += hand.deck.reshuffles > 0
    assert checked == 120 and showdowns >= 30 and side_pots >= 5 and reshuffled >= 3


def _distinct(pots: list[int]) -> list[int]:
    """The pot totals with repeats dropped (a round of checks moves no chips)."""
    return [p for k, p in enumerate(pots) if k == 0 or p != pots[k - 1]]


@pytest.mark.parametrize("structure", STRUCTURES)
def test_badugi_plays_in_every_structure_to_the_end(structure: Structure) -> None:
    for seed in range(20):
        hand = play_randomly(Hand("badugi", Stakes(structure, 1, 2), [40, 80, 120, 30], seed=seed), seed)
        assert hand.is_complete and sum(hand.stacks) == 270
