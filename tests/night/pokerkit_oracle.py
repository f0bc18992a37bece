"""pokerkit as the oracle of our hand histories: play a history in pokerkit as written (a test-only dependency;
the tests that import this skip first when pokerkit is missing)."""

from __future__ import annotations

import warnings
from typing import Any

import pokerkit
from pokerkit.state import (
    BringInPosting,
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    Folding,
    StandingPatOrDiscarding,
)

from bot.poker import Acted, Hand, Posted, RoundEnded
from bot.poker.phh import export_phh

BETTING_RULES = (
    "a fixed-limit round of more than four bets and raises",
    "a big blind all in for less than the blind, called in full",
    "a fixed-limit raise after an all-in of less than a bet",
)
"""The house rules of docs/rules.md sections 2.5 and 2.6 that pokerkit plays otherwise, in every game
(``betting_rule``)."""

PLAYER_OPERATIONS = (Folding, CheckingOrCalling, CompletionBettingOrRaisingTo, StandingPatOrDiscarding, BringInPosting)


def play_in_pokerkit(fields: dict[str, Any]) -> tuple[list[int], list[Any]]:
    """pokerkit plays one hand of a .phhs file as written: its final stacks, and the players' moves it added."""
    history = pokerkit.HandHistory(**pokerkit.HandHistory._filter_non_fields(**fields))
    added = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a draw dealing from the reshuffled muck: pokerkit warns
        for state, action in history.state_actions:
            if action is None and state.operations and isinstance(state.operations[-1], PLAYER_OPERATIONS):
                added.append(state.operations[-1])
    return list(state.stacks), added


def pokerkit_state(hand: Hand) -> Any:
    """pokerkit's state after playing our export of ``hand`` as far as it can (ValueError when it cannot)."""
    history = pokerkit.HandHistory.loads(export_phh(hand))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = iter(history)
    return state


def betting_rule(hand: Hand) -> str | None:
    """The rule of ``BETTING_RULES`` this hand met, or None.

    - pokerkit allows four bets and raises a round after the blinds (stud: after the bring-in, the completion
      counted), heads-up too and counting a short all-in as one; docs/rules.md caps full bets (four by default, the
      blind or the completion counted) and not when a round begins with two players;
    - a big blind all in for less: the others call the full big blind here, the all-in amount in pokerkit;
    - fixed limit, after an all-in raise of less than a bet: docs/rules.md completes the bet (or, from half a bet,
      reopens the betting), pokerkit raises by a full bet over the all-in and never reopens.
    """
    fixed = hand.stakes.structure == "fixed-limit"
    big_blind = next((e for e in hand.events if isinstance(e, Posted) and e.kind == "big blind"), None)
    short_blind = big_blind is not None and big_blind.amount < hand.stakes.big_blind
    round_number = raises = level = 0
    short_all_in = False
    for event in hand.events:
        if isinstance(event, RoundEnded):
            round_number, raises, level, short_all_in = round_number + 1, 0, 0, False
        elif isinstance(event, Acted):
            if short_blind and round_number == 0 and event.verb in ("call", "raise"):
                return BETTING_RULES[1]
            if event.verb not in ("bet", "raise", "complete") or not fixed:
                continue
            if short_all_in:
                return BETTING_RULES[2]
            raises += 1
            if raises > 4:
                return BETTING_RULES[0]
            unit = hand.stakes.unit(round_number + 1, hand.game.default_big_bet_round)
            short_all_in = event.amount - max(level, hand.stakes.big_blind if round_number == 0 else 0) < unit
            level = event.amount
    return None
