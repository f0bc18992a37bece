"""Helpers shared by the engine tests: stacked decks, playing actions, a snapshot of everything an action changes."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from bot.poker import Card, Hand, HandValue, Move, evaluate, parse_cards
from bot.poker.cards import new_deck


def stacked(holes: Sequence[str], *later: str, tail: Sequence[str] = (), jokers: bool = False) -> list[Card]:
    """An exact deck order: the hands of each seat (five cards, four in Badugi), dealt one at a time
    clockwise from seat 0, then the ``later`` cards in order (burns and
    replacements), then every other card of the deck in a fixed order, then
    ``tail`` (cards dealt after the stub runs out, i.e. from the reshuffled muck)."""
    hands = [parse_cards(h) for h in holes]
    size = len(hands[0])
    assert size in (4, 5) and all(len(h) == size for h in hands), hands
    order = [hands[seat][k] for k in range(size) for seat in range(len(hands))]
    for chunk in later:
        order += parse_cards(chunk)
    assert len(set(order)) == len(order), "a stacked card appears twice"
    used = set(order)
    order += [c for c in new_deck(jokers) if c not in used]
    return order + parse_cards(" ".join(tail))


def play(hand: Hand, *actions: Move | str) -> list[Any]:
    """Apply the actions in turn; return every event they caused."""
    events: list[Any] = []
    for action in actions:
        events += hand.act(action)
    return events


def to_showdown(hand: Hand, limit: int = 200) -> list[Any]:
    """Check or call every bet and stand pat at every draw until the hand ends."""
    events: list[Any] = []
    while not hand.is_complete and limit:
        events += hand.act("sd" if hand.phase == "drawing" else "cc")
        limit -= 1
    assert hand.is_complete
    return events


def of(events: Sequence[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def snapshot(hand: Hand) -> dict[str, Any]:
    """Everything an action could change, the deck included."""
    return {
        "stacks": list(hand.stacks),
        "bets": list(hand.bets),
        "contributed": list(hand.contributed),
        "folded": list(hand.folded),
        "actor": hand.actor,
        "phase": hand.phase,
        "round": hand.round,
        "draw": hand.draw_number,
        "holes": [list(h) for h in hand.holes],
        "face_up": [list(f) for f in hand.face_up],
        "history": list(hand.history),
        "actions": list(hand.actions),
        "events": list(hand.events),
        "payouts": list(hand.payouts),
        "carried_out": hand.carried_out,
        "legal": hand.legal() if hand.actor is not None else None,
        "stub": hand.deck.stub_size,
        "unseen": sorted(c.code for c in hand.deck.unseen()),
        "muck": list(hand.deck.muck),
        "reshuffles": hand.deck.reshuffles,
        # and every attribute, private ones included, so that nothing escapes
        "hand": {k: copy.deepcopy(v) for k, v in vars(hand).items() if k not in ("deck", "game", "stakes")},
        "deck": {k: copy.deepcopy(v) for k, v in vars(hand.deck).items() if k != "_rng"},
        "rng": hand.deck._rng.getstate() if hand.deck._rng is not None else None,
    }


def choose(
    hand: Hand, rng: random.Random, *, pokerkit_safe: bool = False, raise_rate: float = 0.3, face_up_rate: float = 0.6
) -> str:
    """A legal action picked by ``rng``: draws of any size (Assassin's face-up twos included), bets of all sizes.

    ``pokerkit_safe`` avoids the spots where pokerkit's rules differ from ours (tests/night/
    test_pokerkit_plays_our_exports.py shows each): raising after a fixed-limit all-in for less than a bet
    (docs/rules.md completes the bet, or from half a bet reopens; pokerkit raises a full bet over it and never
    reopens), and a fifth bet or raise in a round (pokerkit allows four after the blind, heads-up too).
    """
    legal = hand.legal()
    if legal.phase == "drawing":
        cards = list(legal.hand)
        limit = legal.max_discards
        if legal.face_up_twos and rng.random() < face_up_rate:
            twos = list(legal.face_up_twos)[: min(limit, 3)]
            others = [c for c in cards if c not in twos]
            extra = rng.sample(others, rng.randint(0, min(3 - len(twos), len(others))))
            return "sdu " + "".join(c.code for c in twos + extra)
        count = rng.randint(0, limit)
        if count == 4 and hand.draw_limit == "3-or-4-with-ace":
            ace = next(c for c in cards if c.rank == 14)
            return "sd " + "".join(c.code for c in cards if c is not ace)
        return "sd " + "".join(c.code for c in rng.sample(cards, count))
    r = rng.random()
    can_raise = legal.can_raise
    if pokerkit_safe:
        high = max(hand.bets)
        unit = hand.stakes.unit(hand.round + 1, hand.game.default_big_bet_round)
        if hand.stakes.structure == "fixed-limit":
            can_raise = can_raise and high % unit == 0 and legal.min_raise_to <= 3 * unit
    if can_raise and r < raise_rate:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        return f"cbr {rng.choice([lo, lo, (lo + hi) // 2, hi])}"
    if not legal.can_check and r > 0.8:
        return "f"
    return "cc"


def play_randomly(
    hand: Hand, seed: int, *, pokerkit_safe: bool = False, raise_rate: float = 0.3, face_up_rate: float = 0.6
) -> Hand:
    rng = random.Random(seed)
    while not hand.is_complete:
        hand.act(choose(hand, rng, pokerkit_safe=pokerkit_safe, raise_rate=raise_rate, face_up_rate=face_up_rate))
    return hand


def with_actions(text: str, actions: list[str]) -> str:
    """The document with its actions replaced (a JSON list of strings is a TOML array)."""
    edited, count = re.subn(r"(?ms)^actions = \[.*?\]$", lambda _: "actions = " + json.dumps(actions), text)
    assert count == 1
    return edited


def deal_after_each_discard(actions: list[str]) -> list[str]:
    """The same history in the bot's older layout: each player's replacements right after his own discard
    (as the dealer serves them), where the standard writes every discard of the draw round first."""
    out: list[str] = []
    started = False
    for action in actions:
        words = action.split()
        if words[0] == "d" and started:
            k = max(i for i, a in enumerate(out) if a.split()[0] == words[2] and a.split()[1] in ("sd", "sdu"))
            while k + 1 < len(out) and out[k + 1].startswith(f"d dh {words[2]} "):
                k += 1
            out.insert(k + 1, action)
            continue
        started = started or words[0] != "d"
        out.append(action)
    return out


# --- rankings


def value(ranking: str, text: str) -> HandValue:
    return evaluate(ranking, parse_cards(text))


def beats(ranking: str, better: str, worse: str) -> bool:
    return value(ranking, better) > value(ranking, worse) and value(ranking, worse) < value(ranking, better)


def ties(ranking: str, one: str, other: str) -> bool:
    return value(ranking, one) == value(ranking, other)


def best_to_worst(ranking: str, hands: Sequence[str]) -> bool:
    values = [value(ranking, h) for h in hands]
    return all(a > b for a, b in pairwise(values))
