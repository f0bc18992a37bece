"""Eliminations and places.

A player with no chips at the end of a hand is out. Two or more out in the same hand are placed by the chips
they started that hand with, more chips the better place; players who started it with equal chips share
their places, and the prizes of those places are pooled and split equally, the odd chips one each to them in
seat order from the first seat left of the button (as a split pot's, docs/rules.md section 2.1). Places are counted from
the bottom only when they are asked for, so a late registration after the first eliminations still puts
the first one out last. The last player standing is first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from bot.poker import split_pot


@dataclass(frozen=True, slots=True)
class Placing:
    """A place (1 is the winner) and who holds it: one player, or the players tied for ``place`` and the places
    after it, in seat order from the first seat left of the button of the hand they went out in."""

    place: int
    players: tuple[int, ...]

    @property
    def places(self) -> range:
        """The places the players share."""
        return range(self.place, self.place + len(self.players))


@dataclass(frozen=True, slots=True)
class Standing:
    """Who entered (``players``, in registration order) and who is out: ``out`` lists the groups knocked out,
    first out first; a group of two or more tied and shares its places."""

    players: tuple[int, ...] = ()
    out: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player can enter a tournament only once")
        knocked_out = [player for group in self.out for player in group]
        if any(not group for group in self.out) or len(set(knocked_out)) != len(knocked_out):
            raise ValueError("each player goes out once, in one group")
        if not set(knocked_out) <= set(self.players):
            raise ValueError("only an entrant can go out")

    @property
    def alive(self) -> tuple[int, ...]:
        """The players still in, in registration order."""
        gone = {player for group in self.out for player in group}
        return tuple(player for player in self.players if player not in gone)

    def is_out(self, player: int) -> bool:
        return any(player in group for group in self.out)

    def with_player(self, player: int) -> Standing:
        """The standing with a new entrant."""
        if player in self.players:
            raise ValueError("this player has already entered")
        return Standing((*self.players, player), self.out)

    def without_player(self, player: int) -> Standing:
        """The standing without an entrant who withdrew before going out."""
        if player not in self.players or self.is_out(player):
            raise ValueError("only a player still in can withdraw")
        return Standing(tuple(p for p in self.players if p != player), self.out)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "out": [list(group) for group in self.out]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        return cls(tuple(data["players"]), tuple(tuple(group) for group in data["out"]))


def record_eliminations(
    standing: Standing,
    hand_start_stacks: Mapping[int, int],
    hand_end_stacks: Mapping[int, int],
    seat_order: Sequence[int],
    spared: Collection[int] = (),
) -> Standing:
    """``standing`` after a hand: every player of ``seat_order`` (the hand's players from the first seat left
    of the button) who ends it with no chips is out, those who started it with fewer chips first; except
    the ``spared`` (players who may still rebuy: :func:`knock_out` puts them out later if they do not)."""
    seats = tuple(seat_order)
    if len(set(seats)) != len(seats) or set(seats) != set(hand_start_stacks) or set(seats) != set(hand_end_stacks):
        raise ValueError("the seat order, the starting stacks and the final stacks must list the same players")
    if len(seats) < 2:
        raise ValueError("a hand has at least two players")
    alive = set(standing.alive)
    for player in seats:
        if player not in alive:
            raise ValueError(f"player {player} is not in the tournament any more")
        start, end = hand_start_stacks[player], hand_end_stacks[player]
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (start, end)):
            raise ValueError(f"player {player}'s stacks must be whole numbers of chips, not {start!r} and {end!r}")
        if start == 0:
            raise ValueError(f"player {player} had no chips to play the hand with")
    busted = [player for player in seats if hand_end_stacks[player] == 0]
    if len(busted) == len(seats):
        # Only a pot carried to the next deal (Assassin) can take every chip: docs/rules.md section 22.2 returns carried
        # chips to those who put them in when no deal follows, and the table must do so before asking here.
        raise ValueError("every player of the hand ended it with no chips: return the carried pot first")
    return knock_out(standing, [(player, hand_start_stacks[player]) for player in busted if player not in spared])


def knock_out(standing: Standing, busted: Sequence[tuple[int, int]]) -> Standing:
    """``standing`` with the ``busted`` players of one hand out: (player, chips he started the hand with), in
    seat order from the first seat left of the button. Fewer chips go out first; equal chips tie."""
    by_start = sorted(busted, key=lambda bust: bust[1])  # a stable sort: seat order within a tie
    groups = tuple(tuple(player for player, _ in group) for _, group in groupby(by_start, key=lambda bust: bust[1]))
    return Standing(standing.players, standing.out + groups)


def placings(standing: Standing) -> list[Placing]:
    """The places known so far, best first: the winner once only one player is left, then each group out,
    the last out first."""
    result = []
    place = len(standing.players) + 1
    for group in standing.out:
        place -= len(group)
        result.append(Placing(place, group))
    result.reverse()
    if len(standing.alive) == 1:
        result.insert(0, Placing(1, standing.alive))
    return result


def final_prizes(standing: Standing, prize_amounts: Sequence[int]) -> dict[int, int]:
    """Each entrant's prize (0 out of the money) once one player is left: place ``k`` wins
    ``prize_amounts[k - 1]``; tied players pool their places' prizes and split them equally, the odd chips
    one each in seat order. The prizes sum to ``sum(prize_amounts)`` exactly."""
    if len(standing.alive) != 1:
        raise ValueError(f"the tournament is not over: {len(standing.alive)} players are still in")
    if len(prize_amounts) > len(standing.players):
        raise ValueError(f"{len(prize_amounts)} places paid among {len(standing.players)} players")
    prizes = dict.fromkeys(standing.players, 0)
    for placing in placings(standing):
        pooled = sum(prize_amounts[placing.place - 1: placing.place - 1 + len(placing.players)])
        for player, prize in zip(placing.players, split_pot(pooled, placing.players)):
            prizes[player] = prize
    return prizes
