"""Hands for the night's tests: exact decks, text actions, random finished hands of every game, whole nights."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.poker import DRAW_GAMES, Card, Hand, Stakes, Structure, parse_cards
from bot.poker.cards import new_deck
from bot.tools.simulate import default_stakes, play_hand

FL = Stakes("fixed-limit", 5, 10)  # bets 10/20
NL = Stakes("no-limit", 1, 2)


def stacked(holes: Sequence[str], *later: str) -> list[Card]:
    """A deck that deals seat i the cards ``holes[i]`` (one at a time, clockwise from seat 0), then ``later``
    in order (each draw's burn, then each drawing seat's replacements), then every other card."""
    hands = [parse_cards(h) for h in holes]
    size = len(hands[0])
    order = [hands[seat][k] for k in range(size) for seat in range(len(hands))]
    for chunk in later:
        order += parse_cards(chunk)
    assert len(set(order)) == len(order), "a stacked card appears twice"
    used = set(order)
    return order + [c for c in new_deck() if c not in used]


def play(hand: Hand, *actions: str) -> Hand:
    """Apply the actions in turn and return the hand."""
    for action in actions:
        hand.act(action)
    return hand


def random_stakes(rng: random.Random, game_id: str, players: int) -> Stakes:
    """Any stakes the game can be played with: blinds, antes, a big-blind ante, each structure."""
    structure = rng.choice(["fixed-limit", "pot-limit", "no-limit"])
    game = DRAW_GAMES[game_id]
    kind = rng.choice(["blinds", "blinds", "antes", "big-blind ante"] if not game.is_lowball else ["blinds"])
    if kind == "antes":
        return Stakes(structure, ante=rng.choice([1, 2, 5]), min_bet=4, small_bet=4)  # type: ignore[arg-type]
    if kind == "big-blind ante":
        antes = tuple(2 if seat == 1 else 0 for seat in range(players))
        return Stakes(structure, 1, 2, antes=antes)  # type: ignore[arg-type]
    return Stakes(structure, 1, 2, ante=rng.choice([0, 0, 1]))  # type: ignore[arg-type]


def random_action(hand: Hand, rng: random.Random) -> str:
    """A random legal action for the player to act."""
    legal = hand.legal()
    if legal.phase == "drawing":
        count = rng.randint(0, legal.max_discards)
        cards = rng.sample(list(legal.hand), count)
        if not cards:
            return "sd"
        verb = "sdu" if hand.game.assassin and any(c.is_two for c in cards) and rng.random() < 0.7 else "sd"
        return f"{verb} {''.join(c.code for c in cards)}"
    choices = ["cc", "cc"]
    if legal.call_amount:
        choices.append("f")
    if legal.can_raise:
        choices.append(f"cbr {rng.randint(legal.min_raise_to, legal.max_raise_to)}")
    return rng.choice(choices)


def random_hand(rng: random.Random, *, game_id: str | None = None, carried_in: int = 0) -> Hand:
    """A finished hand of a random game, stakes and stacks, played with random legal actions."""
    game_id = game_id or rng.choice(sorted(DRAW_GAMES))
    players = rng.randint(2, min(6, DRAW_GAMES[game_id].max_players))
    stacks = [rng.choice([3, 20, 60, 200, 1000]) for _ in range(players)]
    if carried_in == 0 and DRAW_GAMES[game_id].assassin and rng.random() < 0.3:
        carried_in = rng.randint(1, 50)
    hand = Hand(game_id, random_stakes(rng, game_id, players), stacks, seed=rng.randrange(2**32),
                carried_in=carried_in)
    while not hand.is_complete:
        hand.act(random_action(hand, rng))
    return hand


@dataclass(frozen=True, slots=True)
class NightHand:
    """A finished hand as the store keeps it (the fields ``bot.night.graph`` reads), with the hand itself."""

    seat_users: tuple[int, ...]
    stacks_before: tuple[int, ...]
    stacks_after: tuple[int, ...] | None
    carried_in: int
    carried_out: int
    hand: Hand


def night(rng: random.Random, hands: int, users: Sequence[int], *, game: str = "five-card-draw",
          structure: Structure = "fixed-limit", buy_in: int = 200) -> list[NightHand]:
    """A session of ``hands`` hands of random players (``bot.tools.simulate``) at one table: the button moves every
    hand, a busted player rebuys ``buy_in`` before the next, Assassin's carried pots go into the next deal."""
    stakes = default_stakes(DRAW_GAMES[game], structure)
    seats = list(users)
    stacks = {user: buy_in for user in users}
    carried = 0
    out: list[NightHand] = []
    for _ in range(hands):
        for user in seats:
            if stacks[user] == 0:
                stacks[user] = buy_in  # a rebuy between hands
        before = tuple(stacks[user] for user in seats)
        hand = play_hand(game, stakes, before, rng, carried_in=carried)
        out.append(NightHand(tuple(seats), before, tuple(hand.stacks), carried, hand.carried_out, hand))
        stacks.update(zip(seats, hand.stacks))
        carried = hand.carried_out
        seats = seats[1:] + seats[:1]  # the button moves one seat clockwise
    return out
