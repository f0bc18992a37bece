"""Who could win each pot of a finished hand, worked out from its events alone."""

from __future__ import annotations

from bot.poker import Acted, Hand, Mucked, Posted, Returned, RoundEnded, build_pots


def pot_contenders(hand: Hand) -> list[tuple[int, ...]]:
    """For each pot (main pot first, numbered as ``PotAwarded.pot`` and ``Carried.pot``), the seats still in
    the hand that could win it.

    The chips each seat put in are summed from the events (antes, blinds, each
    round's last bet, uncalled bets returned) and layered into pots the way
    the engine does at the showdown (``bot.poker.build_pots``).
    """
    n = hand.players
    put_in, bets, antes, folded = [0] * n, [0] * n, [0] * n, [False] * n
    for event in hand.events:
        if isinstance(event, Posted):
            if event.kind == "ante":
                put_in[event.player] += event.amount
                antes[event.player] = event.amount
            else:
                bets[event.player] += event.amount
        elif isinstance(event, Acted):
            if event.verb == "fold":
                folded[event.player] = True
            elif event.verb != "check":
                bets[event.player] = event.amount  # the player's whole bet this round
        elif isinstance(event, Returned):
            bets[event.player] -= event.amount
        elif isinstance(event, RoundEnded):
            put_in = [a + b for a, b in zip(put_in, bets)]
            bets = [0] * n
        elif isinstance(event, Mucked):
            folded[event.player] = True
    put_in = [a + b for a, b in zip(put_in, bets)]
    dead = antes if hand.stakes.antes_are_dead(n) else None
    still_in = tuple(seat for seat in range(n) if not folded[seat])
    return [tuple(s for s in pot.eligible if not folded[s]) or still_in for pot in build_pots(put_in, folded, 0, dead)]
