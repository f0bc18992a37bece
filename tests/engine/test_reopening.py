"""Reopening after short all-ins, judged for each player (docs/rules.md section 2.6, TDA rule 47).

Each test is named after the rule it checks. A player who has acted may raise
again only if the raises since his last action add up to a full raise (no and
pot limit: the last full bet or raise; fixed limit: one bet, an all-in of half
a bet or more counting as a full bet). The hands are played to the round after
the draw, where seat 0 acts first, so that A, B, C... are seats 0, 1, 2...
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.poker import STRUCTURES, Acted, BetRaise, CheckCall, Hand, IllegalAction, Stakes, Structure
from tests.engine.helpers import play


def after_the_draw(structure: Structure, stacks: Sequence[int], blinds: tuple[int, int] = (2, 5)) -> Hand:
    """Single draw, everyone calls the big blind and stands pat: the round after the draw, seat 0 to act.

    ``stacks`` are the chips each seat has left then (the big blind is added)."""
    small, big = blinds
    hand = Hand("single-draw-27", Stakes(structure, small, big), [s + big for s in stacks], seed=1)
    play(hand, *["cc"] * len(stacks), *["sd"] * len(stacks))
    assert hand.phase == "betting" and hand.round == 1 and hand.actor == 0
    return hand


def assert_only_call_or_fold(hand: Hand, player: int, call: int) -> None:
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise) == (player, call, False)
    assert "did not reopen" in legal.why_no_raise
    with pytest.raises(IllegalAction, match="did not reopen"):
        hand.verify(BetRaise(hand.high_bet + 1000))


def assert_may_raise(hand: Hand, player: int, call: int, min_to: int) -> None:
    legal = hand.legal()
    assert (legal.player, legal.call_amount, legal.can_raise, legal.min_raise_to) == (player, call, True, min_to)
    assert hand.can(BetRaise(min_to)) and not hand.can(BetRaise(min_to - 1))


# --- no limit and pot limit -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("structure", ["no-limit", "pot-limit"])
def test_rules_example_the_caller_may_not_raise_the_original_bettor_may(structure: Structure) -> None:
    # Big blind 5: A bets 20, B is all in for 30, C calls 30, D is all in for 40.
    hand = after_the_draw(structure, [500, 30, 500, 40])
    play(hand, "cbr 20", "cbr 30")
    # C, who has not acted, may call the short all-in or raise by the last full raise: to 50 or more.
    assert_may_raise(hand, 2, 30, 50)
    play(hand, "cc", "cbr 40")
    # A faces 20 more, a full raise in total: call, fold or raise (by the last full raise, 20: to 60).
    assert_may_raise(hand, 0, 20, 60)
    play(hand, "cc")
    # C faces only D's 10 more: call or fold, not raise.
    assert_only_call_or_fold(hand, 2, 10)
    play(hand, "cc")
    assert hand.phase == "complete"


def test_three_short_all_ins_in_one_round() -> None:
    # A bets 20; B, D and F go all in 8 more each; C and E call in between; G has not acted.
    hand = after_the_draw("no-limit", [500, 28, 500, 36, 500, 44, 500])
    play(hand, "cbr 20", "cbr 28", "cc", "cbr 36", "cc", "cbr 44")
    assert_may_raise(hand, 6, 44, 64)  # G: the last full raise is still A's 20
    play(hand, "cc")
    assert_may_raise(hand, 0, 24, 64)  # A: 8 + 8 + 8 = 24 since his bet, a full raise
    play(hand, "cc")
    assert_only_call_or_fold(hand, 2, 16)  # C: 8 + 8 since his call
    play(hand, "cc")
    assert_only_call_or_fold(hand, 4, 8)  # E: 8 since his call
    play(hand, "cc")
    assert hand.phase == "complete"


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_for_each_player_on_his_own() -> None:
    # A bets 20, B all in 28, C calls, D all in 36, E calls, F all in 44, G all in 52.
    hand = after_the_draw("no-limit", [500, 28, 500, 36, 500, 44, 52])
    play(hand, "cbr 20", "cbr 28", "cc", "cbr 36", "cc", "cbr 44", "cbr 52")
    assert_may_raise(hand, 0, 32, 72)
    play(hand, "cc")
    assert_may_raise(hand, 2, 24, 72)  # C: 24 since his call, although no single raise was full
    play(hand, "cc")
    assert_only_call_or_fold(hand, 4, 16)


def test_a_full_raise_after_short_all_ins_reopens_for_everyone_and_sets_the_next_minimum() -> None:
    hand = after_the_draw("no-limit", [500, 28, 500, 500])
    play(hand, "cbr 20", "cbr 28", "cc")
    assert_may_raise(hand, 3, 28, 48)
    play(hand, "cbr 60")  # a raise of 32 over B's 28: full, and the next raise is by 32
    assert_may_raise(hand, 0, 40, 92)
    play(hand, "cc")
    assert_may_raise(hand, 2, 32, 92)


def test_pot_limit_caller_facing_a_short_all_in_may_not_raise() -> None:
    hand = after_the_draw("pot-limit", [500, 14, 500])  # pot 15
    play(hand, "cbr 10", "cbr 14", "cc")
    assert_only_call_or_fold(hand, 0, 4)


# --- fixed limit: half a bet ------------------------------------------------------------------------------------------


def after_the_draw_fixed(stacks: Sequence[int]) -> Hand:
    hand = after_the_draw("fixed-limit", stacks, blinds=(1, 2))
    assert hand.stakes.unit(2) == 4  # the big bet after the single draw
    return hand


def test_fixed_limit_all_in_below_half_a_bet_next_player_calls_or_completes_to_the_next_full_bet() -> None:
    hand = after_the_draw_fixed([100, 5, 100])
    play(hand, "cbr 4", "cbr 5")  # B all in for 1 more: less than half a bet
    assert_may_raise(hand, 2, 5, 8)  # C: call 5 or complete to 8
    assert hand.legal().max_raise_to == 8
    play(hand, "cc")
    assert_only_call_or_fold(hand, 0, 1)


def test_fixed_limit_all_in_of_half_a_bet_counts_as_a_full_bet_next_raise_is_all_in_plus_one_bet() -> None:
    hand = after_the_draw_fixed([100, 6, 100])
    play(hand, "cbr 4", "cbr 6")  # B all in for 2 more: half a bet, a full bet
    assert_may_raise(hand, 2, 6, 10)
    assert hand.legal().max_raise_to == 10
    play(hand, "cc")
    assert_may_raise(hand, 0, 2, 10)  # A faces a full bet: the betting is reopened for him


def test_fixed_limit_two_all_ins_below_half_a_bet_do_not_add_up_to_a_bet() -> None:
    # A bets 4, B all in for 5, C all in for 6: each one more than the bet before, less than half a bet.
    hand = after_the_draw_fixed([100, 5, 6, 100])
    play(hand, "cbr 4", "cbr 5", "cbr 6")
    assert_may_raise(hand, 3, 6, 8)  # D completes to the next full bet, 8
    play(hand, "cc")
    assert_only_call_or_fold(hand, 0, 2)  # A: 1 + 1 since his bet, less than one bet


def test_fixed_limit_all_in_below_half_then_one_above_half_reopens() -> None:
    hand = after_the_draw_fixed([100, 5, 7, 100])
    play(hand, "cbr 4", "cbr 5", "cbr 7")  # B: 1 more (short); C: 2 more, half a bet (a full bet)
    assert_may_raise(hand, 3, 7, 11)  # the all-in amount plus one bet
    play(hand, "cc")
    assert_may_raise(hand, 0, 3, 11)  # A: 1 chip and one full bet since his bet


def test_fixed_limit_completing_after_a_short_all_in_is_a_full_raise() -> None:
    hand = after_the_draw_fixed([100, 5, 100, 100])
    play(hand, "cbr 4", "cbr 5", "cc", "cbr 8")  # D completes B's short all-in to 8
    assert_may_raise(hand, 0, 4, 12)
    play(hand, "cc")
    assert_may_raise(hand, 2, 3, 12)  # C called 5; D's completion was a full raise


def test_fixed_limit_a_short_all_in_does_not_count_toward_the_cap() -> None:
    hand = Hand("triple-draw-27", Stakes("fixed-limit", 2, 4), [100, 100, 100, 9, 100], seed=1)  # small bet 4
    play(hand, "cbr 8", "cbr 9", "cbr 12")  # the blind, 8, 12; the all-in for 9 (1 more) is not a bet
    assert_may_raise(hand, 0, 10, 16)
    play(hand, "cbr 16")  # the fourth bet
    assert not hand.legal().can_raise and "capped" in hand.legal().why_no_raise


# --- heads-up and the big blind --------------------------------------------------------------------------------------


@pytest.mark.parametrize("structure", STRUCTURES)
def test_heads_up_the_big_blind_may_raise_a_limp_and_the_limper_may_raise_back(structure: Structure) -> None:
    hand = Hand("single-draw-27", Stakes(structure, 1, 2), [100, 100], seed=1)
    play(hand, "cc")  # the button limps
    legal = hand.legal()
    assert legal.player == 0 and legal.can_raise and legal.min_raise_to == 4  # the big blind has not acted
    play(hand, "cbr 4")
    legal = hand.legal()
    assert legal.player == 1 and legal.can_raise and legal.call_amount == 2


@pytest.mark.parametrize("structure", STRUCTURES)
def test_heads_up_a_short_all_in_raise_can_only_be_called(structure: Structure) -> None:
    hand = Hand("single-draw-27", Stakes(structure, 1, 2), [5, 100], seed=1)  # the big blind has 3 behind
    play(hand, "cbr 4", "cbr 5")  # the big blind all in for 1 more
    legal = hand.legal()
    assert legal.player == 1 and not legal.can_raise and legal.call_amount == 1
    assert "everyone else is all in" in legal.why_no_raise
    play(hand, "cc")
    assert hand.phase == "drawing"  # no more betting: the hand is drawn out


@pytest.mark.parametrize("structure", STRUCTURES)
def test_a_short_all_in_big_blind_the_others_still_match_and_raise_the_full_blind(structure: Structure) -> None:
    hand = Hand("single-draw-27", Stakes(structure, 1, 2), [100, 1, 100], seed=1)  # the big blind has 1 chip
    assert hand.is_all_in(1) and hand.bets[1] == 1
    assert_may_raise(hand, 2, 2, 4)  # call the full blind, or raise by it
    play(hand, "cc")
    assert_may_raise(hand, 0, 1, 4)  # the small blind has not acted
    play(hand, "cc")
    assert hand.phase == "drawing"
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(3, (0, 1, 2)), (2, (0, 2))]


def test_a_short_all_in_big_blind_does_not_reopen_for_a_limper_facing_less_than_a_raise() -> None:
    # Blinds 2/5, the big blind is all in for 3: a limper faces no raise at all when a caller completes.
    hand = Hand("single-draw-27", Stakes("no-limit", 2, 5), [100, 3, 100, 100], seed=1)
    play(hand, "cc", "cc")  # seats 2 and 3 call the full 5
    assert_may_raise(hand, 0, 3, 10)
    play(hand, "cc")
    assert hand.phase == "drawing"  # nobody faces anything: the big blind is all in


# --- the property -----------------------------------------------------------------------------------------------------


class Referee:
    """An independent account of one betting round from the Acted events, in docs/rules.md's own words.

    A raise's size is the chips it adds to the bet; a full raise is one at least the size of the last
    full bet or raise (no and pot limit) or, in fixed limit, a raise to the next full bet or an all-in of
    at least half a bet. What has been raised since a player's action counts each raise's size, a
    fixed-limit full bet counting as one bet.
    """

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.fixed = hand.stakes.structure == "fixed-limit"
        self.seen = 0
        self.start_round()
        self.round = -1

    def start_round(self) -> None:
        hand = self.hand
        self.round = hand.round
        self.unit = hand.stakes.unit(hand.round + 1, hand.game.default_big_bet_round)
        first = hand.round == 0 and hand.stakes.big_blind > 0
        self.bet = max(max(hand.bets), hand.stakes.big_blind) if first else 0
        self.full_level = hand.stakes.big_blind if first else 0  # fixed limit
        self.last_full = self.unit  # no and pot limit: the size of the last full bet or raise
        self.bets = 1 if first else 0
        self.raises: list[int] = []  # what each raise counts towards reopening
        self.acted: dict[int, int] = {}  # player -> how many raises had been made when he last acted

    def follow(self) -> None:
        hand = self.hand
        if hand.round != self.round and hand.phase == "betting":
            self.start_round()
            self.seen = len(hand.events)
            return
        for e in hand.events[self.seen:]:
            if not isinstance(e, Acted) or e.verb == "fold":
                continue
            if e.verb in ("bet", "raise"):
                size = e.amount - self.bet
                if self.fixed:
                    full = e.amount == self.full_level + self.unit or 2 * size >= self.unit
                    self.raises.append(self.unit if full else size)
                    if full:
                        self.full_level, self.bets = e.amount, self.bets + 1
                else:
                    if size >= self.last_full:
                        self.last_full = size
                    self.raises.append(size)
                self.bet = e.amount
            self.acted[e.player] = len(self.raises)
        self.seen = len(hand.events)

    def since(self, player: int) -> list[int]:
        """What each raise since the player's last action counts."""
        return self.raises[self.acted[player]:]

    def raised_since(self, player: int) -> int | None:
        """The raises since the player's last action this round, or None if he has not acted."""
        return sum(self.since(player)) if player in self.acted else None

    def full_raise(self) -> int:
        return self.unit if self.fixed else self.last_full


@settings(max_examples=600, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_player_who_acted_is_offered_a_raise_only_when_the_raises_since_add_up_to_a_full_raise(
    data: st.DataObject,
) -> None:
    structure = data.draw(st.sampled_from(STRUCTURES), label="structure")
    if data.draw(st.booleans(), label="ladder"):
        # Deep stacks between short ones that grow seat by seat: bets, short all-ins and calls in turn.
        players = data.draw(st.integers(4, 7), label="players")
        shorts = iter(sorted(data.draw(st.lists(st.integers(3, 30), min_size=players, max_size=players))))
        stacks = [150 if seat % 2 == 0 else next(shorts) for seat in range(players)]
    else:
        players = data.draw(st.integers(2, 7), label="players")
        stack = st.one_of(st.integers(1, 12), st.integers(8, 30), st.integers(30, 150))
        stacks = data.draw(st.lists(stack, min_size=players, max_size=players), label="stacks")
    games = ["single-draw-27", "single-draw-27", "triple-draw-27"] if players < 7 else ["single-draw-27"]
    game = data.draw(st.sampled_from(games), label="game")
    hand = Hand(game, Stakes(structure, 1, 2, raise_cap=5), stacks, seed=data.draw(st.integers(0, 99)))
    referee = Referee(hand)
    reopened = refused = 0
    while not hand.is_complete:
        referee.follow()
        legal = hand.legal()
        if legal.phase == "drawing":
            hand.act("sd")
            continue
        p = legal.player
        since = referee.raised_since(p)
        chips = hand.bets[p] + hand.stacks[p] > hand.high_bet
        # A raise no one can call is not offered (docs/rules.md section 1.7).
        opponent = any(not hand.folded[i] and hand.bets[i] + hand.stacks[i] > hand.high_bet
                       for i in range(hand.players) if i != p)
        if since is not None and chips and opponent:
            capped = referee.fixed and hand.players > 2 and referee.bets >= 5  # nobody folds here
            if capped:
                assert not legal.can_raise
            else:
                assert legal.can_raise == (since >= referee.full_raise()), (hand.actions, since, referee.full_raise())
                reopened += legal.can_raise and any(r < referee.full_raise() for r in referee.since(p))
                refused += not legal.can_raise and since > 0
        if not legal.can_raise:
            choice = "cc"
        elif legal.min_raise_to == legal.all_in_to:  # a short stack: raising puts him all in
            choice = data.draw(st.sampled_from(["min", "min", "cc"]), label="short")
        else:
            choice = data.draw(st.sampled_from(["cc", "cc", "cc", "min", "max", "other"]), label="deep")
        if choice == "cc":
            hand.act(CheckCall())
        else:
            lo, hi = legal.min_raise_to, legal.max_raise_to
            hand.act(BetRaise({"min": lo, "max": hi}.get(choice) or data.draw(st.integers(lo, hi))))
    event(f"short all-ins added up to reopen for a player: {reopened > 0}")
    event(f"a player held to call by short all-ins: {refused > 0}")
