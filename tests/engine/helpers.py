"""Helpers shared by the engine tests: stacked decks, playing actions, a snapshot of everything an action changes."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from bot.poker import Card, Hand, Move, parse_cards
from bot.poker.cards import new_deck


def stacked(holes: Sequence[str], *later: str, tail: Sequence[str] = (), jokers: bool = False) -> list[Card]:
    """An exact deck order: the five-card hands of each seat, dealt one at a time
    clockwise from seat 0, then the ``later`` cards in order (burns and
    replacements), then every other card of the deck in a fixed order, then
    ``tail`` (cards dealt after the stub runs out, i.e. from the reshuffled muck)."""
    hands = [parse_cards(h) for h in holes]
    assert all(len(h) == 5 for h in hands), hands
    order = [hands[seat][k] for k in range(5) for seat in range(len(hands))]
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
