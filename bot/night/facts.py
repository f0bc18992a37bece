"""What each player did in one finished hand: the row the store keeps for ``/poker stats``.

One ``PlayerHandFacts`` per player dealt in, written in the same transaction
as the hand's result, so that a player's stats over any number of hands are
one indexed aggregate query (``bot.night.stats`` reads the sums back). Every
field is a plain int or bool; the columns are ``FACT_COLUMNS``, and
``dataclasses.astuple(facts)`` is the row in that order.

Definitions (the first betting round is the one before the first draw; in a
flop game the one before the flop, in stud third street):

- ``vpip``: called, bet, raised or completed (stud) in the first betting
  round. Posting an ante or a blind is not voluntary, and a big blind who
  checks did not; nor is stud's bring-in, a forced bet: its player played
  the hand only if he then calls or raises a completion.
- ``raised``: bet, raised or completed in the first betting round.
- ``showdown``: still in at the showdown (shown, or mucked in a replay).
- ``won``: received chips from at least one pot (in a hi-lo game, half of a
  pot counts: the high or the low, or a share of either).
- ``won_at_showdown``: received chips from a pot that at least two players
  still in could win at a showdown (a side pot nobody else could win is not).
- ``draws``: draws the player took part in (standing pat counts; a player who
  folds in a draw did not take it); ``cards_drawn``: the cards he threw in
  them (Assassin's extra card for a face-up two is not counted); ``pats``:
  draws where he stood pat.
- ``collected``: every chip he received from the pots of this hand.
- ``net``: his stack after the hand minus before. Chips he put into a pot that
  is carried to the next deal (Assassin) are lost in this hand; carried chips
  he wins count in the hand where he wins them. So the nets of one hand add up
  to the chips carried in minus the chips carried out. Carried chips returned
  to him with the hand's result (a tournament's pot nobody can play) count in
  it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Final

from bot.poker import Acted, Drew, Hand, Mucked, PotAwarded, RoundEnded, Shown

from .pots import pot_contenders


@dataclass(frozen=True, slots=True)
class PlayerHandFacts:
    """One player's facts for one finished hand (see the module docstring for each definition)."""

    user_id: int
    game: str
    seat: int
    dealt: int
    vpip: bool
    raised: bool
    showdown: bool
    won: bool
    won_at_showdown: bool
    draws: int
    cards_drawn: int
    pats: int
    collected: int
    net: int


VOLUNTARY: Final = frozenset({"call", "bet", "raise", "complete"})
"""The first round's voluntary moves (stud's ``bring in`` is forced, like a blind)."""
FACT_COLUMNS: Final = tuple(f.name for f in fields(PlayerHandFacts))


def hand_facts(hand: Hand, users: Sequence[int], *, returned: Mapping[int, int] | None = None) -> list[PlayerHandFacts]:
    """The facts of every player of a finished hand, in seat order; ``users[seat]`` is each seat's user id and
    ``returned`` the carried chips given back to members with the hand's result."""
    if not hand.is_complete:
        raise ValueError("only a finished hand has facts to keep")
    n = hand.players
    if len(users) != n:
        raise ValueError(f"the hand has {n} players but {len(users)} users were given")
    vpip, raised, showdown, won_at_showdown = [False] * n, [False] * n, [False] * n, [False] * n
    draws, cards, pats, collected = [0] * n, [0] * n, [0] * n, [0] * n
    contenders = pot_contenders(hand)
    first_round = True
    for event in hand.events:
        if isinstance(event, RoundEnded):
            first_round = False
        elif isinstance(event, Acted) and first_round and event.verb in VOLUNTARY:
            vpip[event.player] = True
            raised[event.player] |= event.verb != "call"
        elif isinstance(event, Drew):
            draws[event.player] += 1
            cards[event.player] += event.discarded
            pats[event.player] += event.discarded == 0
        elif isinstance(event, Shown | Mucked):
            showdown[event.player] = True
        elif isinstance(event, PotAwarded):
            contested = not event.uncontested and len(contenders[event.pot]) > 1
            for seat, share in zip(event.winners, event.shares):
                collected[seat] += share
                won_at_showdown[seat] |= contested and share > 0
    return [
        PlayerHandFacts(
            user_id=users[seat], game=hand.game.id, seat=seat, dealt=1, vpip=vpip[seat], raised=raised[seat],
            showdown=showdown[seat], won=collected[seat] > 0, won_at_showdown=won_at_showdown[seat],
            draws=draws[seat], cards_drawn=cards[seat], pats=pats[seat], collected=collected[seat],
            net=hand.stacks[seat] - hand.starting_stacks[seat] + (returned or {}).get(users[seat], 0),
        )
        for seat in range(n)
    ]
