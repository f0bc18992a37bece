"""One stake for every game (docs/rules.md section 21.6): the table's blinds, mapped to each game's forced bets."""

from __future__ import annotations

from ..i18n.text import Text
from .games import Game, Structure
from .hand import Stakes


def stud_ante(big_blind: int) -> int:
    """The stud games' ante: a fifth of the big blind, rounded down, at least 1."""
    return max(1, big_blind // 5)


def stud_bring_in(big_blind: int, ante: int) -> int:
    """The stud games' bring-in: a quarter of the big blind, rounded up, at least the ante."""
    return max(ante, -(-big_blind // 4))


def stakes_for(
    game: Game,
    structure: Structure,
    small_blind: int,
    big_blind: int,
    *,
    ante: int = 0,
    stud_ante_amount: int | None = None,
    bring_in: int | None = None,
    raise_cap: int = 4,
    big_bet_round: int | None = None,
) -> Stakes:
    """The stakes of a hand of ``game`` at a table with blinds ``small_blind``/``big_blind``.

    Blind games (draw and flop) play the blinds and ``ante``; in fixed limit they bet the big blind and twice
    it. The stud games, whatever the structure, post an ante of a fifth of the big blind and a bring-in of a
    quarter of it (``stud_ante_amount`` and ``bring_in`` override them), with a small bet of the big blind and
    a big bet of twice it. ``big_bet_round`` (a draw table's option) applies to the draw games only. ValueError
    for stakes no hand can be played with (a bring-in above the small bet or below the ante among them: a ``Text``
    phrase, which a host may read).
    """
    if game.family != "draw":
        big_bet_round = None  # a draw game's table option: the flop and stud games keep their own (section 2)
    if not game.is_stud:
        return Stakes(structure, small_blind, big_blind, ante, raise_cap=raise_cap, big_bet_round=big_bet_round)
    each = stud_ante(big_blind) if stud_ante_amount is None else stud_ante_amount
    post = stud_bring_in(big_blind, each) if bring_in is None else bring_in
    if post > big_blind:
        raise ValueError(Text("the bring-in ({bring_in}) cannot be larger than the small bet ({big_blind}, the big "
                              "blind)", bring_in=post, big_blind=big_blind))
    if post < each:
        raise ValueError(Text("the bring-in ({bring_in}) is at least the ante ({ante})", bring_in=post, ante=each))
    if structure == "fixed-limit":
        return Stakes(structure, 0, 0, each, small_bet=big_blind, big_bet=2 * big_blind, bring_in=post,
                      raise_cap=raise_cap, big_bet_round=big_bet_round)
    return Stakes(structure, 0, 0, each, small_bet=big_blind, min_bet=big_blind, bring_in=post, raise_cap=raise_cap)
