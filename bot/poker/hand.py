"""One hand of any declared game (``bot.poker.games``: draw, flop and stud) as a state machine driven by moves.

The hand walks its game's streets: each deals (hole cards down or up, board
cards, after a burn), or draws, then opens a betting round (left of the big
blind, left of the button, the bring-in, or the best showing hand).

The moves (``bot.poker.moves``) are values: ``Fold()``, ``CheckCall()``,
``BetRaise(to)``, stud's ``BringIn()``, ``Draw(discards, face_up)`` and, only
when a replayed hand reaches the showdown with cards nobody saw,
``Show(cards)``. Their PHH text is accepted as well: ``f``, ``cc``, ``cbr
AMOUNT`` (bet or raise to AMOUNT this round; stud's completion too), ``pb``,
``sd`` (stand pat), ``sd CARDS`` (discard), Assassin's ``sdu CARDS`` (discard,
every two among CARDS face up), ``sm CARDS`` / ``sm`` (show or muck), each
optionally after the player, ``p3 cc``. ``act`` applies a move, ``verify``
raises ``IllegalAction`` with the reason, ``can`` answers yes or no; a refused
move changes nothing.

Seats are numbered from 0, the first seat left of the button; the last seat
is the button (as in a hand history, docs/rules.md section 22.3). The stud games keep the same order: the
last seat is the dealer, whose left breaks ties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal, NamedTuple

from ..i18n.text import ENGLISH, Language, Text, say
from .cards import UNKNOWN, Card, CardError, Deck, format_cards, parse_cards
from .errors import IllegalAction
from .events import (
    Acted,
    BoardDealt,
    Burned,
    Carried,
    Dealt,
    Drew,
    Event,
    HandEnded,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    Returned,
    RoundEnded,
    Shown,
)
from .games import DRAW_LIMITS, STRUCTURES, DrawLimit, Game, Opener, Structure, get_game
from .moves import MAX_CHIPS, BetRaise, BringIn, CheckCall, Draw, Fold, Move, Show, parse_move
from .pots import Pot, build_pots, split_pot
from .rankings import HandValue, Ranking, best_low8, best_omaha, bring_in_value, evaluate, showing_value

__all__ = ["MAX_CHIPS", "Hand", "IllegalAction", "Legal", "Phase", "Stakes", "describe_shown"]

Phase = Literal["betting", "drawing", "showdown", "complete"]
# A move of the other moment: said by the move's refusal and by Legal.refusal_for alike.
_NOT_TIME_TO_BET: Final = Text("it is time to draw, not to bet")
_BETTING_OVER: Final = Text("the betting is over")
_NOT_TIME_TO_DRAW: Final = Text("it is not time to draw: this is a betting round")
_DRAWS_OVER: Final = Text("it is not time to draw: the draws are over")
_HAND_OVER: Final = Text("the hand is over")
_NOBODY_TO_ACT: Final = Text("nobody is to act")
_COMMON_TEXT: Final[dict[str, Move]] = {"cc": CheckCall(), "f": Fold(), "sd": Draw()}
_NOT_A_MOVE: Final = ("a move is Fold(), CheckCall(), BetRaise(to), BringIn(), Draw(discards) or Show(cards), or its "
                      "text")
_SDU_WITHOUT_TWO: Final = "sdu shows twos face up (Assassin), and these cards hold no two"
_FACE_UP_WITHOUT_TWO: Final = Text("you chose to throw twos face up, but the cards you picked hold no two")
_NO_CHIPS_TO_RAISE: Final = Text("you do not have the chips to raise: call all in or fold")
_ONLY_THE_BRING_IN: Final = Text("you have no more than the bring-in: post it, all in")
_EVERYONE_ALL_IN: Final = Text("everyone else is all in: you can only call or fold")
_NO_ONE_CAN_CALL: Final = Text("no one left can call a raise: you can only call or fold")
_NOT_REOPENED: Final = Text("a short all-in did not reopen the betting: you can only call or fold")

def _label(seat: int) -> str:
    """A player as the engine's refusals name him: ``p1`` for seat 0 (as PHH does)."""
    return f"p{seat + 1}"


# An amount refused, in a sentence of its own for each verb (a language cannot slot "bet" or "raise" into one).
_Verb = Literal["bet", "raise", "complete"]
_ONLY: Final[dict[_Verb, Callable[[int], Text]]] = {
    "bet": lambda to: Text("you can only bet to {to}", to=to),
    "raise": lambda to: Text("you can only raise to {to}", to=to),
    "complete": lambda to: Text("you can only complete to {to}", to=to),
}
_ONLY_ALL_IN: Final[dict[_Verb, Callable[[int], Text]]] = {
    "bet": lambda to: Text("you can only bet to {to} (all in)", to=to),
    "raise": lambda to: Text("you can only raise to {to} (all in)", to=to),
    "complete": lambda to: Text("you can only complete to {to} (all in)", to=to),
}
_SMALL_OR_BIG: Final[dict[_Verb, Callable[[int, int], Text]]] = {
    "bet": lambda small, big: Text("you can bet to {small} (the small bet) or {big} (the big bet), nothing between",
                                   small=small, big=big),
    "raise": lambda small, big: Text("you can raise to {small} (the small bet) or {big} (the big bet), nothing "
                                     "between", small=small, big=big),
    "complete": lambda small, big: Text("you can complete to {small} (the small bet) or {big} (the big bet), "
                                        "nothing between", small=small, big=big),
}
_SMALLEST: Final[dict[_Verb, Callable[[int], Text]]] = {
    "bet": lambda to: Text("the smallest bet is to {to}", to=to),
    "raise": lambda to: Text("the smallest raise is to {to}", to=to),
    "complete": lambda to: Text("the smallest complete is to {to}", to=to),
}
_LARGEST: Final[dict[_Verb, Callable[[int], Text]]] = {
    "bet": lambda to: Text("the largest bet is to {to}", to=to),
    "raise": lambda to: Text("the largest raise is to {to}", to=to),
    "complete": lambda to: Text("the largest complete is to {to}", to=to),
}


@dataclass(frozen=True, slots=True)
class Stakes:
    """The betting structure and forced bets of a hand.

    ``antes`` gives one ante per seat and overrides ``ante``. In fixed limit
    the small bet defaults to the big blind and the big bet to twice the small
    bet; ``big_bet_round`` is the 1-based betting round where the big bet
    starts (default: the game's). ``raise_cap`` counts bets per round in fixed
    limit, the blind included. ``min_bet`` is the smallest bet in pot and no
    limit (default: the big blind). ``dead_antes``: antes go straight to the
    main pot instead of being matched like bets (PHH's ``ante_trimming_status``
    false); by default they are dead exactly when seats ante different amounts,
    as with a big-blind ante. ``bring_in``: the stud games' bring-in (they have no blinds; their small bet is
    ``small_bet``, or the minimum bet in pot and no limit). ``blinds`` gives one blind per seat instead of
    the small and big blind (a history's lone blind, say); the largest is then ``big_blind``.
    """

    structure: Structure = "fixed-limit"
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    antes: tuple[int, ...] | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    big_bet_round: int | None = None
    raise_cap: int = 4
    min_bet: int | None = None
    dead_antes: bool | None = None
    bring_in: int = 0
    blinds: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise ValueError(f"unknown structure {self.structure!r}; use one of {', '.join(STRUCTURES)}")
        amounts = [self.small_blind, self.big_blind, self.ante, self.bring_in, *(self.antes or ())]
        amounts += [a for a in (self.small_bet, self.big_bet, self.min_bet) if a is not None]
        for amount in amounts:
            if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= MAX_CHIPS:
                raise ValueError(f"stakes must be whole numbers of chips from 0 to {MAX_CHIPS}, not {amount!r}")
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot be larger than the big blind")
        if self.unit(1) <= 0:
            raise ValueError("the stakes need a big blind, a small bet or a minimum bet above zero")
        if not 1 <= self.raise_cap <= 99:
            raise ValueError("the raise cap counts bets per round and must be at least 1")
        if self.big_bet_round is not None and self.big_bet_round < 1:
            raise ValueError("the big bet round is 1-based")
        if self.blinds is not None:
            if any(not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= MAX_CHIPS for b in self.blinds):
                raise ValueError("blinds are whole numbers of chips")
            if max(self.blinds, default=0) != self.big_blind or self.small_blind:
                raise ValueError("with blinds per seat, the big blind is the largest of them and there is no "
                                 "small blind")

    def blind_seats(self, players: int) -> list[tuple[int, str, int]]:
        """(seat, kind, amount) of every blind, in the order they are posted."""
        if self.blinds is not None:
            if len(self.blinds) != players:
                raise ValueError(f"blinds lists {len(self.blinds)} seats for {players} players")
            return [(seat, "big blind" if amount == self.big_blind else "small blind", amount)
                    for seat, amount in enumerate(self.blinds) if amount]
        if not self.big_blind:
            return []
        small_seat, big_seat = (players - 1, 0) if players == 2 else (0, 1)
        return [(small_seat, "small blind", self.small_blind), (big_seat, "big blind", self.big_blind)]

    @property
    def small(self) -> int:
        """Fixed limit's small bet."""
        return self.small_bet if self.small_bet is not None else (self.big_blind or self.min_bet or 0)

    @property
    def big(self) -> int:
        """Fixed limit's big bet."""
        return self.big_bet if self.big_bet is not None else 2 * self.small

    def unit(self, round_number: int, big_bet_round: int = 2) -> int:
        """The fixed-limit bet size, or the pot/no-limit minimum bet, in a 1-based round."""
        if self.structure != "fixed-limit":
            return self.min_bet if self.min_bet is not None else (self.big_blind or self.small)
        start = self.big_bet_round if self.big_bet_round is not None else big_bet_round
        return self.big if round_number >= start else self.small

    def big_bet_from(self, game_default: int) -> int:
        """The 1-based betting round where fixed limit's big bet starts: these stakes', or the game's."""
        return self.big_bet_round or game_default

    def antes_are_dead(self, players: int) -> bool:
        """Whether antes join the main pot as dead money rather than being matched like bets."""
        if self.dead_antes is not None:
            return self.dead_antes
        return len({self.ante_for(i, players) for i in range(players)}) > 1

    def ante_for(self, seat: int, players: int) -> int:
        """The ante posted by ``seat``."""
        if self.antes is not None:
            if len(self.antes) != players:
                raise ValueError(f"antes lists {len(self.antes)} seats for {players} players")
            return self.antes[seat]
        return self.ante


@dataclass(slots=True)
class Legal:
    """What the player to act may do now, so that a UI builds moves without knowing the rules.

    Betting: ``call_amount`` (what a call puts in; all in when it is the whole
    stack, ``call_is_all_in``), ``can_check``, ``can_raise`` (with the reason
    in ``why_no_raise`` when not), ``is_bet`` (a bet, not a raise), the range
    ``min_raise_to`` to ``max_raise_to`` of ``BetRaise(to)`` (equal when only
    one amount is allowed, as in fixed limit), ``pot_raise_to`` (the pot-sized
    bet or raise clamped to that range: a shortcut for a button) and
    ``all_in_to`` (the player's bet if he puts every chip in). ``can_fold``:
    folding is allowed (in a draw too). Drawing: ``max_discards``,
    ``max_needs_ace`` (the largest draw only when the card kept is an ace),
    ``face_up_twos`` (Assassin: the twos and jokers that may go face up, all
    those thrown together). ``hand``: the player's cards, in the order dealt.
    ``up``: those of them dealt face up (stud), ``board``: the board (flop
    games; stud's community card when the deck runs out). Stud's third
    street: ``bring_in_player`` must bring in; when he is to act,
    ``can_bring_in`` (``BringIn()`` posts ``bring_in_amount``) and the range
    above is the completion (``is_completion``: a bet to the small bet in
    fixed limit). In fixed limit ``min_raise_to`` and ``max_raise_to`` are the
    only two amounts allowed when they differ (stud's open pair option);
    ``any_amount``: any total between them may be bet (pot and no limit).
    ``call_to`` (the bet a call matches) and ``pot_after_call`` (the pot once
    the player has called) size the fractional pot bets (``pot_fraction_to``).
    """

    player: int
    phase: Phase
    call_amount: int = 0
    can_check: bool = False
    can_raise: bool = False
    is_bet: bool = False
    min_raise_to: int = 0
    max_raise_to: int = 0
    pot_raise_to: int = 0
    max_discards: int = 0
    face_up_twos: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    can_fold: bool = False
    call_is_all_in: bool = False
    all_in_to: int = 0
    why_no_raise: str = ""
    max_needs_ace: bool = False
    up: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()
    bring_in_player: int | None = None
    can_bring_in: bool = False
    bring_in_amount: int = 0
    is_completion: bool = False
    any_amount: bool = False
    call_to: int = 0
    pot_after_call: int = 0

    def pot_fraction_to(self, fraction: Fraction) -> int:
        """The bet or raise of ``fraction`` of the pot, as the total to bet to: a call, then that part of the pot
        once called (½ pot over a bet of 10 into 25: 10 + 35 / 2, rounded down to the chip, 27), clamped to
        ``min_raise_to``..``max_raise_to``; the whole pot is ``pot_raise_to``. Where the pot does not size the
        bets (fixed limit) or no raise is allowed, ``pot_raise_to``."""
        if not self.can_raise or not self.any_amount:
            return self.pot_raise_to
        to = self.call_to + fraction.numerator * self.pot_after_call // fraction.denominator
        return min(self.max_raise_to, max(self.min_raise_to, to))

    def refusal_for(self, phase: Phase) -> str | None:
        """Why a move of ``phase`` (a bet or a draw) cannot be made now, the words the move itself would be refused
        with (in English: ``refused_for`` gives them to be worded); None when the hand is at that phase."""
        refused = self.refused_for(phase)
        return None if refused is None else str(refused)

    def refused_for(self, phase: Phase) -> Text | None:
        """``refusal_for``'s words as a ``Text``, the phrase a refusal of the move carries."""
        if self.phase == phase:
            return None
        if phase == "drawing":
            return _NOT_TIME_TO_DRAW if self.phase == "betting" else _DRAWS_OVER
        return _NOT_TIME_TO_BET if self.phase == "drawing" else _BETTING_OVER

    def all_in(self) -> Move:
        """The move that puts every chip in: a bet or raise to ``all_in_to``, or a call when calling takes every
        chip and no raise is allowed."""
        if not self.can_raise and self.call_is_all_in:
            return CheckCall()
        return BetRaise(self.all_in_to)

    def draw(self, cards: Sequence[Card], *, face_up: bool = False) -> Draw:
        """A draw of ``cards``; with ``face_up`` (Assassin) every two among them that may go face up does (all
        together, as the rules want): an IllegalAction when none of them may. The rest is checked when it is
        played."""
        thrown = tuple(cards)
        twos = self.face_up_among(thrown) if face_up else ()
        if face_up and not twos:
            raise IllegalAction(_FACE_UP_WITHOUT_TWO)
        return Draw(thrown, face_up=twos)

    def face_up_among(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The cards among ``cards`` that may be thrown face up (Assassin's twos and jokers): throwing any asks
        the player whether they go face up."""
        return tuple(c for c in cards if c in self.face_up_twos)

    def moves(self) -> tuple[Move, ...]:
        """The one-click moves, in button order: fold (only when facing a bet), check or call, then the
        smallest, the pot-sized and the largest bet or raise (each once); stand pat in a draw; muck at a
        replayed showdown; the bring-in and the completion for the player who brings in. Any other amount or
        discard is built as ``BetRaise(to)`` or ``Draw(cards)``."""
        if self.phase == "drawing":
            return (Draw(),)
        if self.phase != "betting":
            return (Show(None),)
        moves: list[Move]
        if self.can_bring_in:
            moves = [BringIn()]
        else:
            moves = [Fold()] if self.call_amount else []
            moves.append(CheckCall())
        if self.can_raise:
            for amount in (self.min_raise_to, self.pot_raise_to, self.max_raise_to):
                if self.min_raise_to <= amount <= self.max_raise_to and BetRaise(amount) not in moves:
                    moves.append(BetRaise(amount))
        return tuple(moves)


class _DrawPlan(NamedTuple):
    """A checked draw, ready to deal."""

    player: int
    cards: tuple[Card, ...]
    remaining: list[Card]
    revealed: list[Card]
    dealing: int  # cards to deal: one per discard, plus Assassin's extra card
    held: list[Card]  # the cards in players' hands, when the deal may reshuffle


class Hand:
    """One hand: deal, bet, draw, show down, pay out. See the module docstring."""

    def __init__(
        self,
        game: str | Game,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        seed: int | None = None,
        deck: Sequence[Card] | str | None = None,
        carried_in: int = 0,
        jokers: bool = False,
        draw_limit: DrawLimit = "none",
        open_pair: bool = False,
    ) -> None:
        self.game = game if isinstance(game, Game) else get_game(game)
        self.stakes = stakes
        n = len(stacks)
        if not 2 <= n <= self.game.max_players:
            raise ValueError(f"{self.game.name} is for 2 to {self.game.max_players} players, not {n}")
        for stack in stacks:
            if not isinstance(stack, int) or isinstance(stack, bool) or not 0 < stack <= MAX_CHIPS:
                raise ValueError(f"every starting stack must be a whole number of chips above zero, not {stack!r}")
        if not isinstance(carried_in, int) or carried_in < 0:
            raise ValueError("carried chips must be a whole number, zero or more")
        if jokers and not self.game.assassin:
            raise ValueError("jokers are an Assassin option")
        if draw_limit not in DRAW_LIMITS:
            raise ValueError(f"unknown draw limit {draw_limit!r}; use one of {', '.join(DRAW_LIMITS)}")
        if draw_limit != "none" and not self.game.allows_draw_limit:
            raise ValueError("a draw limit is an option of Five Card Draw and Assassin only")
        if self.game.is_stud:
            if stakes.big_blind or stakes.small_blind:
                raise ValueError("the stud games have no blinds: give antes and a bring-in")
            if stakes.bring_in <= 0:
                raise ValueError("the stud games need a bring-in")
        else:
            if stakes.bring_in:
                raise ValueError("a bring-in is a stake of the stud games only")
            if open_pair:
                raise ValueError("the open pair option is Seven Card Stud's")
            if stakes.big_blind == 0 and stakes.small_blind == 0 and self.game.is_lowball:
                raise ValueError("lowball games are played with blinds")
            if stakes.big_blind == 0 and not any(stakes.ante_for(i, n) for i in range(n)):
                raise ValueError("a hand needs blinds or antes")
        if open_pair and not (self.game.offers_open_pair and stakes.structure == "fixed-limit"):
            raise ValueError("the open pair option is fixed-limit Seven Card Stud's")
        self.jokers = jokers
        self.draw_limit: DrawLimit = draw_limit
        self.open_pair = open_pair
        self._draw_game = self.game.family == "draw"
        self.players = n
        self.starting_stacks = tuple(stacks)
        self.carried_in = carried_in
        if isinstance(deck, str):
            deck = parse_cards(deck)
        self.deck = Deck(seed=seed, order=deck, jokers=jokers) if deck is not None else Deck(seed=seed, jokers=jokers)
        self._given_order: tuple[Card, ...] | None = tuple(deck) if deck is not None else None
        self.seed = seed

        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contributed = [0] * n
        self.folded = [False] * n
        self._live = n
        self.holes: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[Card]] = [[] for _ in range(n)]  # the cards of each hand dealt face up (stud)
        self.board: list[Card] = []
        self.bring_in_player: int | None = None  # stud's third street: who brings in
        self.drawn: list[list[int]] = [[] for _ in range(n)]  # cards drawn at each draw, per player
        self.face_up: list[list[Card]] = [[] for _ in range(n)]
        self.events: list[Event] = []
        self.history: list[str] = []  # the PHH actions, dealing included, each draw's discards before its deals
        self.actions: list[str] = []  # the players' actions only: the log a seed replays
        self.phase: Phase = "betting"
        self.round = 0  # 0-based betting round
        self.draw_number = 0  # 0-based draw in progress (or next)
        self.actor: int | None = None
        self.payouts = [0] * n
        self.carried_out = 0
        self.winners: set[int] = set()
        self.shown: dict[int, HandValue | None] = {}

        # Betting-round state.
        self._high = 0  # the bet to match
        self._full_level = 0  # fixed limit: the level of the last full bet (an all-in of half a bet or more counts)
        self._min_raise = 0  # no and pot limit: the size of the last full bet or raise (the smallest raise)
        self._bet_count = 0  # fixed limit: full bets this round
        # Reopening is judged for each player (docs/rules.md section 2.6, TDA rule 47): ``_raised`` adds up every
        # raise this round (fixed limit: a full bet counts one bet, a short all-in its chips) and
        # ``_acted_at[p]`` is its value when p last acted (None: not yet). p may raise again only if
        # the raises since then add up to a full raise.
        self._raised = 0
        self._capped = True  # whether the raise cap applies this round
        self._acted_at: list[int | None] = [None] * n
        self._last_aggressor: int | None = None
        self._pending_show: list[int] = []
        self._deals_at: int | None = None  # where this draw round's first replacement line is in ``history``
        self._dead: list[int] | None = [0] * n if stakes.antes_are_dead(n) else None
        self._bring_in_due = False  # the bring-in player has not yet brought in or completed
        self._completion_open = False  # stud: the bring-in stands and nobody has completed yet
        self._open_pair_round = False  # fixed-limit stud's fourth street with an open pair (table option)

        self._post_forced_bets()
        self._begin_street(0)

    # ------------------------------------------------------------------ queries

    @property
    def is_complete(self) -> bool:
        """True once every pot is paid (or carried)."""
        return self.phase == "complete"

    @property
    def big_bet_round(self) -> int:
        """The 1-based betting round where fixed limit's big bet starts."""
        return self.stakes.big_bet_from(self.game.default_big_bet_round)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, carried chips included."""
        return sum(self.contributed) + self.carried_in

    @property
    def high_bet(self) -> int:
        """The bet to match this round."""
        return self._high

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand now."""
        return build_pots(self.contributed, self.folded, self.carried_in, self._dead)

    def in_hand(self) -> list[int]:
        """Seats not folded, in seat order."""
        return [i for i in range(self.players) if not self.folded[i]]

    def is_all_in(self, player: int) -> bool:
        """True if the player is still in with no chips behind."""
        return not self.folded[player] and self.stacks[player] == 0

    def legal(self) -> Legal:
        """What the player to act may do; IllegalAction if nobody is to act."""
        p = self.actor
        if p is None:
            raise IllegalAction(_HAND_OVER if self.is_complete else _NOBODY_TO_ACT)
        if self.phase == "drawing":
            hand = tuple(self.holes[p])
            twos = tuple(c for c in hand if c.is_two) if self.game.assassin else ()
            limit = self._max_discards(hand)
            return Legal(p, "drawing", max_discards=limit, face_up_twos=twos, hand=hand, can_fold=True,
                         max_needs_ace=self.draw_limit == "3-or-4-with-ace" and limit == 4)
        if self.phase == "showdown":
            return Legal(p, "showdown", hand=tuple(self.holes[p]), up=tuple(self.up[p]), board=tuple(self.board))
        stack, bet, high = self.stacks[p], self.bets[p], self._high
        call = min(self._match(p) - bet, stack)
        lo, hi, reason = self._raise_range(p)
        why = "" if reason is None else str(reason)
        pot = min(hi, max(lo, high + self.pot_total + high - bet)) if hi else 0
        any_amount = hi > 0 and self.stakes.structure != "fixed-limit"
        if self._draw_game:
            # Positional, in field order (this is called for every decision).
            return Legal(p, "betting", call, call == 0, hi > 0, high == 0, lo, hi, pot, 0, (), tuple(self.holes[p]),
                         True, call == stack, bet + stack, why, any_amount=any_amount, call_to=high,
                         pot_after_call=self.pot_total + high - bet)
        bringing = self._bring_in_due and p == self.bring_in_player
        if self.stakes.structure == "fixed-limit":
            pot = hi  # only the amounts given are bets here: the open pair's small or big bet
        return Legal(p, "betting", call, call == 0 and not bringing, hi > 0, high == 0 and not self._completion_open,
                     lo, hi, pot, 0, (), tuple(self.holes[p]), not bringing, call == stack, bet + stack, why,
                     up=tuple(self.up[p]), board=tuple(self.board), bring_in_player=self.bring_in_player,
                     can_bring_in=bringing, bring_in_amount=min(self.stakes.bring_in, stack) if bringing else 0,
                     is_completion=self._completion_open or bringing, any_amount=any_amount, call_to=high,
                     pot_after_call=self.pot_total + high - bet)

    def up_cards(self, player: int) -> tuple[Card, ...]:
        """The player's cards dealt face up (stud), which everyone sees, also once he has folded."""
        return tuple(self.up[player])

    def default_action(self) -> Move:
        """The clock's move: check if possible, else fold; stand pat in a draw; muck at a replayed showdown."""
        if self.phase == "drawing":
            return Draw()
        if self.phase == "showdown":
            return Show(None)
        if self._bring_in_due and self.actor == self.bring_in_player:
            return BringIn()
        return CheckCall() if self.legal().can_check else Fold()

    def value_of(self, player: int) -> HandValue | None:
        """The player's best hand under the game's ranking, the high in a hi-lo game (None with unknown cards or
        before he has a whole hand)."""
        game = self.game
        if game.family != "draw":
            return self._best(player, game.ranking)
        cards = self.holes[player]
        if any(c.is_unknown for c in cards) or len(cards) < game.hand_size:
            return None
        try:
            return evaluate(game.ranking, cards)
        except CardError:
            return None  # five twos and jokers: no ranking has such a hand, and it is assassinated anyway

    def low_value_of(self, player: int) -> HandValue | None:
        """Hi-lo games: the player's best eight-or-better low, None if he has none (or it is not a hi-lo game)."""
        return self._best(player, "eight-or-better") if self.game.hi_lo else None

    def _best(self, player: int, ranking: Ranking) -> HandValue | None:
        """The best hand of the player's cards and the board under ``ranking`` (Omaha: two plus three); None with
        unknown cards, too few of them, or no qualifying eight-or-better low."""
        cards, board = self.holes[player], self.board
        if any(c.is_unknown for c in cards) or any(c.is_unknown for c in board):
            return None
        if self.game.omaha:
            return best_omaha(ranking, cards, board) if len(board) >= 3 else None
        every = [*cards, *board]
        if len(every) < 5:
            return None
        return best_low8(every) if ranking == "eight-or-better" else evaluate(ranking, every)

    def is_assassinated(self, player: int) -> bool:
        """Assassin: the player's hand holds a two (or a joker)."""
        return self.game.assassin and any(c.is_two for c in self.holes[player])

    # ------------------------------------------------------------------ moves

    def act(self, move: Move | str) -> list[Event]:
        """Apply one move, or its PHH text (see the module docstring); return the events it caused.

        An illegal move raises IllegalAction with the reason and changes nothing.
        """
        if isinstance(move, str):
            move = _COMMON_TEXT.get(move) or parse_move(move)
        if self._given_order is None:
            return self._apply(move)
        # A given deck order (a replay) may refuse a burn or a card only once the move is under way. Such a
        # refusal is rare, so nothing is saved before the move: the hand is dealt again up to here instead.
        done = len(self.actions)
        try:
            return self._apply(move)
        except IllegalAction:
            self.__dict__ = self._again(done).__dict__
            raise

    def verify(self, move: Move | str) -> None:
        """Raise IllegalAction with the reason unless ``act(move)`` would succeed now; change nothing."""
        if isinstance(move, str):
            move = parse_move(move)
        if self._given_order is not None:
            self._again(len(self.actions))._apply(move)  # the given cards decide too: try it on a copy
            return
        if isinstance(move, CheckCall):
            self._verify_not_bringing_in(self._betting_player(move.player))
        elif isinstance(move, Draw):
            self._verify_draw(move)
        elif isinstance(move, BetRaise):
            self._verify_raise(self._betting_player(move.player), move.to)
        elif isinstance(move, Fold):
            self._verify_fold(move.player)
        elif isinstance(move, Show):
            self._verify_show(move)
        elif isinstance(move, BringIn):
            self._verify_bring_in(move.player)
        else:
            raise IllegalAction(_NOT_A_MOVE)

    def _again(self, actions: int) -> Hand:
        """The hand dealt again from its given deck order, with its first ``actions`` actions played."""
        again = Hand(self.game, self.stakes, self.starting_stacks, deck=self._given_order, carried_in=self.carried_in,
                     jokers=self.jokers, draw_limit=self.draw_limit, open_pair=self.open_pair)
        for action in self.actions[:actions]:
            again.act(action)
        return again

    def _apply(self, move: Move) -> list[Event]:
        """Check the move, then play it: the checks come first, so a refused move changes nothing
        (a shuffled deck never refuses a card; a given order is handled by ``act``)."""
        if type(move) is CheckCall:
            p = self.actor  # the common case first: no player named, a betting round
            if move.player is not None or p is None or self.phase != "betting" or self._bring_in_due:
                p = self._betting_player(move.player)
                self._verify_not_bringing_in(p)
            return self._check_or_call(p)
        if type(move) is Draw:
            return self._draw(self._verify_draw(move))
        if type(move) is BetRaise:
            p = self._betting_player(move.player)
            self._verify_raise(p, move.to)
            return self._bet_or_raise_to(p, move.to)
        if isinstance(move, Fold):
            return self._fold(self._verify_fold(move.player))
        if isinstance(move, Show):
            return self._show(self._verify_show(move), move.cards)
        if isinstance(move, BringIn):
            return self._bring_in(self._verify_bring_in(move.player))
        raise IllegalAction(_NOT_A_MOVE)

    def can(self, move: Move | str) -> bool:
        """True if ``act(move)`` would succeed now. ``can(Fold(player=p))`` asks whether a leaving
        player can be folded now (he is in the hand, not all in, and it is a betting round or a draw)."""
        try:
            self.verify(move)
        except IllegalAction:
            return False
        return True

    # The moves as methods (the same checks).

    def fold(self, player: int | None = None) -> list[Event]:
        """Fold the player to act, or, out of turn, a player who leaves the table."""
        return self.act(Fold(player=player))

    def check_or_call(self) -> list[Event]:
        """Check, or call the bet (all in for less if the stack is short)."""
        return self.act(CheckCall())

    def discard(self, cards: Sequence[Card] | str, *, face_up: bool = False) -> list[Event]:
        """Stand pat (no cards) or discard ``cards`` and receive replacements at once.

        With ``face_up`` (Assassin's ``sdu``), every two or joker among the cards is
        shown to the table and earns one extra card.
        """
        if isinstance(cards, str):
            return self.act(("sdu " if face_up else "sd ") + cards)
        twos = tuple(c for c in cards if c.is_two)
        if face_up and not twos:
            raise IllegalAction(_SDU_WITHOUT_TWO)
        return self.act(Draw(tuple(cards), twos if face_up else ()))

    def show(self, player: int, cards: Sequence[Card] | None) -> list[Event]:
        """At a replayed showdown with unseen cards: show the hand, or muck it (``None``)."""
        return self.act(Show(None if cards is None else tuple(cards), player=player))

    # ------------------------------------------------------------------ checks (they change nothing)

    def _check_seat(self, player: object) -> int:
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.players:
            shown = f"p{player + 1}" if isinstance(player, int) else repr(player)
            raise IllegalAction(f"there is no player {shown} in this hand")
        return player

    def _turn(self, player: int | None) -> int:
        """The player to act; IllegalAction if ``player`` names someone else."""
        if player is not None and self._check_seat(player) != self.actor:
            raise IllegalAction(self._not_your_turn(player))
        return self._actor_or_raise()

    def _betting_player(self, player: int | None) -> int:
        p = self._turn(player)
        if self.phase != "betting":
            raise IllegalAction(_NOT_TIME_TO_BET if self.phase == "drawing" else _BETTING_OVER)
        return p

    def _verify_fold(self, player: int | None) -> int:
        p = self._actor_or_raise() if player is None else self._check_seat(player)
        if self.phase not in ("betting", "drawing"):
            raise IllegalAction(_HAND_OVER if self.is_complete else Text("there is nothing to fold now"))
        if self.folded[p]:
            raise IllegalAction(Text("{player} has already folded", player=_label(p)))
        if self.stacks[p] == 0:
            raise IllegalAction(Text("{player} is all in and stays in the hand to the showdown", player=_label(p)))
        if player is None:
            self._verify_not_bringing_in(p)  # he brings in; named, he is folded as he leaves the table
        return p

    def _verify_not_bringing_in(self, p: int) -> None:
        """The player who brings in posts the bring-in or completes (docs/rules.md section 18.2): nothing else."""
        if self._bring_in_due and p == self.bring_in_player:
            post = min(self.stakes.bring_in, self.stacks[p])
            raise IllegalAction(Text("{player} brings in: post the bring-in of {bring_in} or complete to {to}",
                                     player=_label(p), bring_in=post, to=self._completion_to(p)))

    def _completion_to(self, p: int) -> int:
        lo, _, _ = self._raise_range(p)
        return lo

    def _verify_bring_in(self, player: int | None) -> int:
        p = self._betting_player(player)
        if not (self._bring_in_due and p == self.bring_in_player):
            if not self.game.is_stud:
                raise IllegalAction(Text("there is no bring-in in {game}", game=self.game.name))
            if self.game.ranking == "high":
                raise IllegalAction(Text("only the player with the lowest up card brings in, as third street's "
                                         "betting opens"))
            raise IllegalAction(Text("only the player with the highest up card brings in, as third street's "
                                     "betting opens"))
        return p

    def _verify_raise(self, p: int, amount: object) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction("a bet is a whole number of chips")
        lo, hi, why = self._raise_range(p)
        if why is not None:
            raise IllegalAction(why)
        word: _Verb = "complete" if self._completion_open or self._bring_in_due else "bet" if self._high == 0 \
            else "raise"
        if lo == hi and amount != lo:
            all_in = lo == self.bets[p] + self.stacks[p]
            raise IllegalAction((_ONLY_ALL_IN if all_in else _ONLY)[word](lo))
        if self.stakes.structure == "fixed-limit" and amount not in (lo, hi):
            raise IllegalAction(_SMALL_OR_BIG[word](lo, hi))
        if amount < lo:
            raise IllegalAction(_SMALLEST[word](lo))
        if amount > hi:
            raise IllegalAction(_LARGEST[word](hi))

    def _verify_draw(self, move: Draw) -> _DrawPlan:
        p = self._turn(move.player)
        if self.phase != "drawing":
            raise IllegalAction(_NOT_TIME_TO_DRAW if self.phase == "betting" else _DRAWS_OVER)
        cards = move.discards
        hand = self.holes[p]
        remaining = list(hand)
        revealed: list[Card] = []
        for k, card in enumerate(cards):
            if card in remaining:
                remaining.remove(card)
                continue
            if not isinstance(card, Card):
                raise IllegalAction("discards are cards: read text with parse_cards, or give the text to act()")
            if not card.is_unknown and card in cards[:k]:
                raise IllegalAction(Text("{cards} lists a card twice", cards=format_cards(cards)))
            if UNKNOWN in remaining and self._could_be_unseen(card):
                remaining.remove(UNKNOWN)  # a replayed hand names a card nobody saw
                revealed.append(card)
            else:
                raise IllegalAction(Text("you do not hold {card}", card=str(card)))
        limit = self._max_discards(tuple(hand))
        if len(cards) > limit or (self.draw_limit == "3-or-4-with-ace" and len(cards) == 4
                                  and not (remaining and remaining[0].rank == 14)):
            raise IllegalAction(self._why_too_many(len(cards), limit))
        face_up = move.face_up
        if face_up:
            if not self.game.assassin:
                raise IllegalAction(Text("only Assassin discards twos face up"))
            twos = [c for c in cards if c.is_two]
            if len(face_up) != len(twos) or set(face_up) != set(twos):
                raise IllegalAction(Text("the twos go face up all together: list every two (and joker) you throw, "
                                         "and nothing else"))
        count = len(cards) + (1 if face_up else 0)
        held: list[Card] = []
        if self.deck.stub_size < count:  # only a reshuffle needs to know the held cards
            held = [c for i in range(self.players) if i != p and not self.folded[i] for c in self.holes[i]]
            held += remaining
        return _DrawPlan(p, cards, remaining, revealed, count, held)

    def _verify_show(self, move: Show) -> int:
        player = self._actor_or_raise() if move.player is None else self._check_seat(move.player)
        if self.phase != "showdown" or player not in self._pending_show:
            raise IllegalAction(f"p{player + 1} has nothing to show now")
        cards = move.cards
        if cards is not None:
            hand = self.holes[player]
            known = [c for c in hand if not c.is_unknown]
            if len(cards) != len(hand) or any(c not in cards for c in known) or len(set(cards)) != len(cards):
                raise IllegalAction(f"p{player + 1} holds {format_cards(hand)}, not {format_cards(cards)}")
            for card in cards:
                if card not in known and not self._could_be_unseen(card):
                    raise IllegalAction(f"{card} cannot be in p{player + 1}'s hand")
        return player

    # ------------------------------------------------------------------ moves applied (checked before)

    def _fold(self, p: int) -> list[Event]:
        """A folded player's hand goes to the muck; if one player is left he wins."""
        mark = len(self.events)
        self.folded[p] = True
        self._live -= 1
        self.deck.discard(self.holes[p])
        self._log(f"p{p + 1} f")
        self.events.append(Acted(p, "fold", self.bets[p], False))
        betting = self.phase == "betting"
        if self._live == 1:
            if betting:
                self._end_betting_round()
            else:
                self._settle()
        elif self._bring_in_due and p == self.bring_in_player:
            # He left before bringing in: the bring-in falls to the next lowest up card (razz: the highest).
            self._bring_in_due = False
            self.bring_in_player = None
            self._open_betting(self._find_bring_in())
        elif p == self.actor:
            if betting:
                self._advance(p)
            else:
                self._next_drawer(p)
        elif betting and self.actor is not None and not self._needs_to_act(self.actor):
            self._advance(self.actor)
        return self.events[mark:]

    def _check_or_call(self, p: int) -> list[Event]:
        mark = len(self.events)
        call = min(self._match(p) - self.bets[p], self.stacks[p])
        self._put_in(p, call)
        self._acted_at[p] = self._raised
        self._log(f"p{p + 1} cc")
        self.events.append(Acted(p, "call" if call else "check", self.bets[p], self.stacks[p] == 0, call))
        self._advance(p)
        return self.events[mark:]

    def _bet_or_raise_to(self, p: int, amount: int) -> list[Event]:
        mark = len(self.events)
        # Over a bring-in, the first full bet is the completion, counted from nothing (docs/rules.md section 18.2).
        completing = self._completion_open or self._bring_in_due
        increment = amount - (0 if completing else self._high)
        verb: Literal["bet", "raise", "complete"] = (
            "complete" if completing and amount >= self.stakes.small else "bet" if self._high == 0 else "raise")
        self._bring_in_due = False
        if self.stakes.structure == "fixed-limit":
            # A raise to the next full bet is a full bet; so is an all-in raise of half a bet or more
            # (docs/rules.md section 2.6). A smaller all-in counts only its chips.
            if self._open_pair_round and amount - self._full_level == self.stakes.big:
                self._round_unit = self._min_raise = self.stakes.big
            unit = self._round_unit
            full = amount >= self._full_level + unit or 2 * increment >= unit
            if full:
                self._bet_count += 1
                self._full_level = amount
                self._raised += unit
            else:
                self._raised += increment
        else:
            full = increment >= self._min_raise
            if full:
                self._min_raise = increment
            self._raised += increment
        self._completion_open = completing and not full  # a short all-in over the bring-in leaves it to complete
        self._last_aggressor = p
        added = amount - self.bets[p]
        self._put_in(p, added)
        self._high = amount
        self._acted_at[p] = self._raised
        self._log(f"p{p + 1} cbr {amount}")
        self.events.append(Acted(p, verb, amount, self.stacks[p] == 0, added))
        self._advance(p)
        return self.events[mark:]

    def _draw(self, plan: _DrawPlan) -> list[Event]:
        p, cards, count = plan.player, plan.cards, plan.dealing
        mark = len(self.events)
        served: list[Card] = []
        if count:
            reshuffles = self.deck.reshuffles
            try:
                served = self.deck.deal(count, excluded=cards, held=plan.held, revealed=plan.revealed)
            except CardError as error:
                raise IllegalAction(error.args[0]) from None
            if self.deck.reshuffles != reshuffles:
                self.events.append(Reshuffled(self.deck.last_reshuffle))
        self.deck.discard(cards)
        twos = tuple(c for c in cards if c.is_two) if count > len(cards) else ()
        self.holes[p] = plan.remaining + served
        self.drawn[p].append(len(cards))
        self.face_up[p].extend(twos)
        self._log(f"p{p + 1} {'sdu' if twos else 'sd'}{' ' + format_cards(cards) if cards else ''}")
        if served:
            if self._deals_at is None:
                self._deals_at = len(self.history)
            self.history.append(f"d dh p{p + 1} {format_cards(served)}")
            self.events.append(Dealt(p, tuple(served)))
        self.events.append(Drew(p, self.draw_number, len(cards), twos, len(served)))
        self._next_drawer(p)
        return self.events[mark:]

    def _show(self, player: int, cards: tuple[Card, ...] | None) -> list[Event]:
        mark = len(self.events)
        if cards is None:
            self._pending_show.remove(player)
            self.folded[player] = True
            self._live -= 1
            self._log(f"p{player + 1} sm")
            self.events.append(Mucked(player))
        else:
            known = [c for c in self.holes[player] if not c.is_unknown]
            for card in cards:
                if card not in known:
                    self.deck.reveal(card)
            self.holes[player] = list(cards)
            self._pending_show.remove(player)
            self.actions.append(f"p{player + 1} sm {format_cards(cards)}")
        self.actor = self._pending_show[0] if self._pending_show else None
        if not self._pending_show:
            self._settle()
        return self.events[mark:]

    # ------------------------------------------------------------------ dealing

    def _post_forced_bets(self) -> None:
        n = self.players
        for seat in range(n):
            ante = min(self.stakes.ante_for(seat, n), self.stacks[seat])
            if ante:
                self.stacks[seat] -= ante
                self.contributed[seat] += ante
                if self._dead is not None:
                    self._dead[seat] = ante
                self.events.append(Posted(seat, "ante", ante))
        self._big_blind_seat = 0
        for seat, kind, blind in self.stakes.blind_seats(n):
            amount = min(blind, self.stacks[seat])
            if kind == "big blind":
                self._big_blind_seat = seat
            if amount:
                self._put_in(seat, amount)
                self.events.append(Posted(seat, kind, amount))  # type: ignore[arg-type]

    def _begin_street(self, index: int) -> None:
        """Deal street ``index`` (docs/rules.md sections 2.2, 14.1 and 18.1), then draw or open its betting round."""
        street = self.game.streets[index]
        if street.draw:
            self._begin_draw()
            return
        self.round = index
        dealt_to = self.in_hand()
        burn = street.burn
        community = False
        if street.shared_when_short:
            # Running out of cards: no burn, then one card in the middle for everyone (docs/rules.md section 18.3).
            need = len(dealt_to) * len(street.hole)
            burn = burn and self.deck.stub_size >= need + 1
            community = self.deck.stub_size < need
        try:
            if burn:
                self.deck.burn()
                self.events.append(Burned(self.draw_number, index))
            if community:
                self._deal_board(index, 1)
            elif street.hole:
                self._deal_holes(index, dealt_to, street.hole)
            if street.board:
                self._deal_board(index, street.board)
        except CardError as error:
            raise IllegalAction(error.args[0]) from None
        self._begin_betting(street.opener)

    def _deal_holes(self, index: int, seats: list[int], faces: tuple[bool, ...]) -> None:
        """One card at a time to each seat in turn, as many rounds as ``faces`` has entries."""
        count = len(seats)
        cards = self.deck.deal(len(faces) * count)
        any_up = any(faces)
        for k, seat in enumerate(seats):
            mine = cards[k::count]
            up = tuple(card for card, face_up in zip(mine, faces) if face_up) if any_up else ()
            self.holes[seat].extend(mine)
            self.up[seat].extend(up)
            self.history.append(f"d dh p{seat + 1} {format_cards(mine)}")
            self.events.append(Dealt(seat, tuple(mine), up))

    def _deal_board(self, index: int, count: int) -> None:
        cards = self.deck.deal(count)
        self.board.extend(cards)
        self.history.append(f"d db {format_cards(cards)}")
        self.events.append(BoardDealt(index, tuple(cards), tuple(self.board)))

    # ------------------------------------------------------------------ betting

    def _begin_betting(self, opener: Opener = "button") -> None:
        self.phase = "betting"
        self._deals_at = None
        n = self.players
        self._acted_at = [None] * n
        self._raised = 0
        self._last_aggressor = None
        self._bet_count = 0
        self._capped = self.stakes.structure == "fixed-limit" and self._live > 2
        self._round_unit = self.stakes.unit(self.round + 1, self.game.default_big_bet_round)
        self._min_raise = self._round_unit
        self._bring_in_due = self._completion_open = self._open_pair_round = False
        self._high = 0
        self._full_level = 0
        start = 0
        if opener == "blinds" and self.stakes.big_blind:
            self._high = max(max(self.bets), self.stakes.big_blind)
            self._full_level = self.stakes.big_blind
            self._bet_count = 1
            start = (self._big_blind_seat + 1) % n
        elif opener == "bring-in":
            start = self._find_bring_in()
        elif opener == "best-showing":
            start = self._best_showing()
            self._open_pair_round = self.open_pair and self.round == 1 and self._has_open_pair()
        self._open_betting(start)

    def _open_betting(self, start: int) -> None:
        """The first player from ``start`` clockwise who must act; the round ends at once if nobody must (no
        bring-in then)."""
        self.actor = None
        if self._round_done():
            self._bring_in_due = False
            self.bring_in_player = None
            self._end_betting_round()
            return
        self.actor = self._next_to_act(start - 1)
        if self.actor is None:
            self._end_betting_round()

    def _find_bring_in(self) -> int:
        """Who brings in: the lowest up card (razz: the highest) among the players who still have chips."""
        low = self.game.ranking != "high"
        # A replayed up card nobody saw (??) cannot be the lowest: the history says who brought in.
        able = [i for i in self.in_hand() if self.stacks[i] > 0 and self.up[i] and not self.up[i][-1].is_unknown]
        if not able:
            return 0
        seat = max(able, key=lambda i: bring_in_value(self.up[i][-1], low))
        self.bring_in_player = seat
        self._bring_in_due = True
        return seat

    def _best_showing(self) -> int:
        """Who opens from fourth street: the best showing hand of up cards; ties go to the first clockwise from
        the dealer's left (docs/rules.md section 18.1)."""
        low = self.game.ranking != "high"
        best = -1
        best_value: tuple[int, ...] = ()
        for seat in self.in_hand():
            if any(c.is_unknown for c in self.up[seat]):
                continue  # a replayed hand nobody saw: the history says who acts
            value = showing_value(self.up[seat], low)
            if best < 0 or value > best_value:
                best, best_value = seat, value
        return max(best, 0)

    def _has_open_pair(self) -> bool:
        return any(len({c.rank for c in self.up[i]}) < len(self.up[i]) for i in self.in_hand())

    def _needs_to_act(self, seat: int) -> bool:
        if self.folded[seat] or self.stacks[seat] == 0:
            return False
        if self.bets[seat] >= self._high and self._acted_at[seat] is not None:
            return False  # he has matched every bet and acted
        covered = self._all_in_against(seat)
        if covered is not None:
            # No one acts against all-ins alone (docs/rules.md section 1.7): only to match the largest of them.
            return self.bets[seat] < covered
        return self.bets[seat] < self._high or self._acted_at[seat] is None

    def _all_in_against(self, seat: int) -> int | None:
        """The largest bet this round of the seat's opponents still in when every one of them is all in;
        None while one of them still has chips."""
        largest = 0
        for i in range(self.players):
            if i != seat and not self.folded[i]:
                if self.stacks[i]:
                    return None
                largest = max(largest, self.bets[i])
        return largest

    def _match(self, seat: int) -> int:
        """The bet the seat must match to stay in: the bet to match, or, when every opponent still in is all
        in, the largest of their bets (a short all-in big blind is then matched, not the full blind)."""
        covered = self._all_in_against(seat)
        return self._high if covered is None else covered

    def _round_done(self) -> bool:
        return not any(self._needs_to_act(i) for i in range(self.players))

    def _next_to_act(self, after: int) -> int | None:
        n = self.players
        for step in range(1, n + 1):
            seat = (after + step) % n
            if self._needs_to_act(seat):
                return seat
        return None

    def _advance(self, after: int) -> None:
        if self._live == 1:
            self._end_betting_round()
            return
        nxt = self._next_to_act(after)
        if nxt is None:
            self._end_betting_round()
        else:
            self.actor = nxt

    def _raise_range(self, p: int) -> tuple[int, int, Text | None]:
        """(smallest, largest) total bet the player may raise to, or (0, 0, why he may not raise)."""
        stack_to = self.bets[p] + self.stacks[p]
        if stack_to <= self._high:
            return 0, 0, _NO_CHIPS_TO_RAISE
        if self._bring_in_due and p == self.bring_in_player and stack_to <= self.stakes.bring_in:
            return 0, 0, _ONLY_THE_BRING_IN
        if not any(not self.folded[i] and self.bets[i] + self.stacks[i] > self._high
                   for i in range(self.players) if i != p):
            # A raise no one can call is not offered (docs/rules.md section 1.7).
            if self._all_in_against(p) is not None:
                return 0, 0, _EVERYONE_ALL_IN
            return 0, 0, _NO_ONE_CAN_CALL
        fixed = self.stakes.structure == "fixed-limit"
        if fixed and self._capped and self._bet_count >= self.stakes.raise_cap:
            return 0, 0, Text("the betting is capped at {cap} bets this round", cap=str(self.stakes.raise_cap))
        acted = self._acted_at[p]
        if acted is not None and self._raised - acted < self._min_raise:
            # Less than a full raise since he acted: short all-ins do not reopen the betting for him.
            return 0, 0, _NOT_REOPENED
        if fixed:
            target = min(self._full_level + self._round_unit, stack_to)
            if self._open_pair_round and self._round_unit < self.stakes.big:
                # The open pair: the small bet or the big bet (docs/rules.md section 18.4).
                return target, min(self._full_level + self.stakes.big, stack_to), None
            return target, target, None
        # Over a bring-in the smallest bet is the completion, to the small bet.
        high = 0 if self._completion_open or self._bring_in_due else self._high
        lo = high + self._min_raise if high else self._min_raise
        hi = stack_to
        lo = min(lo, stack_to)
        if self.stakes.structure == "pot-limit":
            call = self._high - self.bets[p]
            # The minimum bet is always allowed, even when the pot is smaller.
            hi = min(hi, max(lo, self._high + self.pot_total + call))
        return lo, hi, None

    def _put_in(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        self.contributed[seat] += amount

    def _bring_in(self, p: int) -> list[Event]:
        mark = len(self.events)
        amount = min(self.stakes.bring_in, self.stacks[p])
        self._bring_in_due = False
        self._put_in(p, amount)
        # A bring-in all in for less is called in full, as a short big blind is (docs/rules.md section 1.7).
        self._high = max(self._high, self.bets[p], self.stakes.bring_in)
        if self.stakes.bring_in >= self.stakes.small:
            # A bring-in as large as the small bet is the first bet itself: nothing is left to complete.
            self._full_level = self._high
            self._bet_count = 1
        else:
            self._completion_open = True
        self._acted_at[p] = self._raised
        self._log(f"p{p + 1} pb")
        self.events.append(Acted(p, "bring in", self.bets[p], self.stacks[p] == 0, amount))
        self._advance(p)
        return self.events[mark:]

    def _end_betting_round(self) -> None:
        self.actor = None
        self._bring_in_due = self._completion_open = False
        self._return_uncalled()
        self.bets = [0] * self.players
        self.events.append(RoundEnded(self.round, self.pot_total))
        if self._live == 1:
            self._settle()
        elif self.round + 1 < len(self.game.streets):
            self._begin_street(self.round + 1)
        else:
            self._begin_showdown()

    def _return_uncalled(self) -> None:
        top = max(range(self.players), key=lambda i: (self.bets[i], -i))
        others = max((self.bets[i] for i in range(self.players) if i != top), default=0)
        excess = self.bets[top] - others
        if excess > 0 and not self.folded[top]:
            self.bets[top] -= excess
            self.contributed[top] -= excess
            self.stacks[top] += excess
            self.events.append(Returned(top, excess))

    # ------------------------------------------------------------------ drawing

    def _begin_draw(self) -> None:
        self.phase = "drawing"
        self.draw_number = sum(1 for street in self.game.streets[:self.round + 1] if street.draw)
        held = [c for i in self.in_hand() for c in self.holes[i]]
        reshuffles = self.deck.reshuffles
        try:
            self.deck.burn(held=held)
        except CardError as error:
            raise IllegalAction(error.args[0]) from None
        if self.deck.reshuffles != reshuffles:
            self.events.append(Reshuffled(self.deck.last_reshuffle))
        self.events.append(Burned(self.draw_number, self.round + 1))
        self.actor = None
        self._next_drawer(-1)

    def _next_drawer(self, after: int) -> None:
        for seat in range(after + 1, self.players):
            if not self.folded[seat]:
                self.actor = seat
                return
        self.actor = None
        self.round += 1
        self._begin_betting()

    def _max_discards(self, hand: tuple[Card, ...]) -> int:
        if self.draw_limit == "none":
            return len(hand)
        if self.draw_limit == "3-or-4-with-ace" and any(c.rank == 14 for c in hand):
            return 4
        return 3

    def _why_too_many(self, count: int, limit: int) -> Text:
        if self.draw_limit == "3":
            return Text("this table's draw limit is three cards, not {count}", count=str(count))
        if self.draw_limit == "3-or-4-with-ace":
            return Text("this table's draw limit is three cards, or four if the card you keep is an ace")
        return Text("you hold {limit} cards and cannot discard {count}", limit=str(limit), count=str(count))

    # ------------------------------------------------------------------ showdown

    def _begin_showdown(self) -> None:
        self.phase = "showdown"
        self._pending_show = [i for i in self.in_hand() if any(c.is_unknown for c in self.holes[i])]
        if self._pending_show:
            self.actor = self._pending_show[0]
        else:
            self._settle()

    def _settle(self) -> None:
        """Pay every pot, split high and low in a hi-lo game, or carry it (Assassin); the hand is then complete."""
        self.actor = None
        contenders = self.in_hand()
        showdown = len(contenders) > 1
        values: dict[int, HandValue | None] = {}
        lows: dict[int, HandValue | None] = {}
        if showdown:
            for seat in self._show_order(contenders):
                value = self.value_of(seat)
                values[seat] = value
                low = lows[seat] = self.low_value_of(seat)
                dead = self.is_assassinated(seat)
                self.shown[seat] = value
                self.history.append(f"p{seat + 1} sm {format_cards(self.holes[seat])}")
                cards = tuple(self.holes[seat])
                self.events.append(Shown(seat, cards, _shown_words(cards, dead, value, ENGLISH), dead,
                                         low.dashed() if low is not None else "", value))
        pots = self.pots()
        for index in reversed(range(len(pots))):  # the last side pot first, down to the main pot
            pot = pots[index]
            eligible = [i for i in pot.eligible if not self.folded[i]] or contenders
            if len(eligible) == 1:
                self._award(index, pot.amount, eligible, uncontested=not showdown)
                continue
            live = [i for i in eligible if not self.is_assassinated(i)]
            if not live:
                self.carried_out += pot.amount
                self.events.append(Carried(index, pot.amount, pot.paid_in, index == 0 and self.carried_in > 0))
                continue
            best = max(values[i] for i in live)  # type: ignore[type-var]
            high_winners = [i for i in live if values[i] == best]
            qualified = [i for i in live if lows.get(i) is not None]
            if not qualified:
                self._award(index, pot.amount, high_winners, uncontested=False)
                continue
            # Hi-lo: the high half takes the odd chip (docs/rules.md section 16.2).
            low_best = max(lows[i] for i in qualified)  # type: ignore[type-var]
            low_half = pot.amount // 2
            self._award(index, pot.amount - low_half, high_winners, uncontested=False, half="high")
            self._award(index, low_half, [i for i in qualified if lows[i] == low_best], uncontested=False,
                        half="low")
        for seat in range(self.players):
            self.stacks[seat] += self.payouts[seat]
        self.bets = [0] * self.players
        self.phase = "complete"
        self.events.append(HandEnded(tuple(self.stacks), self.carried_out))

    def _show_order(self, contenders: list[int]) -> list[int]:
        """The last player to bet or raise in the last round shows first, then clockwise (seat order otherwise)."""
        aggressor = self._last_aggressor
        if aggressor is None or aggressor not in contenders:
            return contenders
        k = contenders.index(aggressor)
        return contenders[k:] + contenders[:k]

    def _award(self, index: int, amount: int, winners: list[int], *, uncontested: bool,
               half: Literal["", "high", "low"] = "") -> None:
        shares = split_pot(amount, winners)
        for seat, share in zip(winners, shares, strict=True):
            self.payouts[seat] += share
            self.winners.add(seat)
        self.events.append(PotAwarded(index, amount, tuple(winners), tuple(shares), uncontested, half))

    # ------------------------------------------------------------------ helpers

    def _log(self, action: str) -> None:
        self.actions.append(action)
        if self._deals_at is None:
            self.history.append(action)
        else:
            # A draw round is written as the standard writes it (docs/rules.md section 22.3): every discard (or fold)
            # of the round in draw order, then the replacements in the same order.
            self.history.insert(self._deals_at, action)
            self._deals_at += 1

    def _actor_or_raise(self) -> int:
        if self.actor is None:
            raise IllegalAction(_HAND_OVER if self.is_complete else _NOBODY_TO_ACT)
        return self.actor

    def _could_be_unseen(self, card: Card) -> bool:
        """A replay names a card that a hand held unseen: it must not be known to be anywhere else."""
        if not isinstance(card, Card) or not self.deck.could_be_hidden(card):
            return False
        return not any(card in self.holes[i] for i in range(self.players) if not self.folded[i])

    def _not_your_turn(self, player: int) -> Text:
        if self.folded[player]:
            return Text("{player} has folded", player=_label(player))
        if self.actor is None:
            return _HAND_OVER if self.is_complete else _NOBODY_TO_ACT
        return Text("it is {actor}'s turn, not {player}'s", actor=_label(self.actor), player=_label(player))


def describe_shown(shown: Shown, *, lang: Language = ENGLISH) -> str:
    """What a hand shown at the showdown makes (``Shown.description``, which is English) worded in ``lang``:
    ``Pair of sixes``, ``Assassinated (2s 2h)``, ``unknown`` (cards that cannot be valued)."""
    return _shown_words(shown.cards, shown.assassinated, shown.value, lang)


def _shown_words(cards: Sequence[Card], assassinated: bool, value: HandValue | None, lang: Language) -> str:
    if assassinated:
        return say(lang, "Assassinated ({twos})", twos=" ".join(c.code for c in cards if c.is_two))
    return value.describe(lang=lang) if value is not None else say(lang, "unknown")
