"""``python -m bot simulate``: random legal players, and a check of every hand they play.

Outside the engine because it keeps time. ``random_action`` is the random
player (also used by ``bench/bench_play.py`` and the tests):

- facing a bet: fold with probability 0.15, bet or raise with 0.25 when the
  rules allow it, else call;
- not facing a bet: bet with probability 0.25 when allowed, else check;
- the amount: fixed limit's fixed bet, otherwise a random legal amount from
  the minimum to the maximum, biased towards the minimum;
- at a draw: discard a uniformly random 0 to 3 cards (never more than the
  draw limit allows); in Assassin a player who throws twos shows them face up
  (``sdu``) with probability 0.5.

``play_hand`` deals and plays one hand with such players; ``check_hand`` lists
what is wrong with a finished hand (chips created or lost, a card in two
places, a card lost, a wrong hand size, a hand that did not end); ``simulate``
plays a night at a table: the button moves every hand, busted players rebuy,
Assassin's carried pots go into the next deal.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TypeVar

from ..night.phhs import write_phhs
from ..poker import (
    DEALERS_CHOICE,
    GAMES,
    BetRaise,
    BringIn,
    Card,
    CheckCall,
    Draw,
    Fold,
    Game,
    Hand,
    IllegalAction,
    Legal,
    Move,
    Stakes,
    Structure,
    format_cards,
    games_for_players,
    get_structure,
    stakes_for,
)
from ..poker.games import DrawLimit
from ..poker.phh import export_phh

FOLD_PROBABILITY: Final = 0.15
RAISE_PROBABILITY: Final = 0.25
MAX_RANDOM_DISCARDS: Final = 3
FACE_UP_PROBABILITY: Final = 0.5
JOKERS_PROBABILITY: Final = 0.5
SMALL_BLIND: Final = 1
BIG_BLIND: Final = 2
STARTING_STACK: Final = 200
MAX_ACTIONS: Final = 10_000  # far more than any hand needs: a hand still going after this never ends

Policy = Callable[[Hand, random.Random], Move | str]
T = TypeVar("T")


class PlayError(Exception):
    """The engine refused an action that ``legal()`` said was allowed (or a hand did not end)."""

    def __init__(self, hand: Hand, action: Move | str, reason: str) -> None:
        super().__init__(f"{str(action)!r} refused: {reason}")
        self.hand = hand
        self.action = str(action)
        self.reason = reason


# ---------------------------------------------------------------------------------------------------- the policy


def default_stakes(game: Game, structure: Structure | None = None) -> Stakes:
    """Blinds 1/2 in the game's default structure (fixed limit: small bet 2, big bet 4); the stud games ante 1
    and bring in 1 (docs/rules.md section 21.6's one stake for every game)."""
    return stakes_for(game, structure or game.default_structure, SMALL_BLIND, BIG_BLIND)


def raise_amount(legal: Legal, rng: random.Random) -> int:
    """A legal bet or raise: the fixed amount, or from min to max with small amounts more likely."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if hi == lo:
        return lo
    return lo + int((hi - lo + 1) * rng.random() ** 3)


def discard_count(rng: random.Random) -> int:
    """How many cards the random player wants to throw: 0 to 3, uniformly."""
    return int(rng.random() * (MAX_RANDOM_DISCARDS + 1))


def random_cards(cards: Sequence[T], count: int, rng: random.Random) -> list[T]:
    """``count`` of ``cards`` chosen uniformly at random (like ``rng.sample``, with less overhead)."""
    pool = list(cards)
    return [pool.pop(int(rng.random() * len(pool))) for _ in range(count)]


_FOLD: Final = Fold()
_CHECK_OR_CALL: Final = CheckCall()
_STAND_PAT: Final = Draw()
_BRING_IN: Final = BringIn()


def random_decision(hand: Hand, rng: random.Random) -> Move:
    """The random player's move for whoever is to act in ``hand`` (see the module docstring)."""
    legal = hand.legal()
    if legal.phase == "betting":
        if legal.can_bring_in:
            completes = legal.can_raise and rng.random() < RAISE_PROBABILITY
            return BetRaise(raise_amount(legal, rng)) if completes else _BRING_IN
        if legal.call_amount:
            r = rng.random()
            if r < FOLD_PROBABILITY:
                return _FOLD
            if r < FOLD_PROBABILITY + RAISE_PROBABILITY and legal.can_raise:
                return BetRaise(raise_amount(legal, rng))
            return _CHECK_OR_CALL
        if legal.can_raise and rng.random() < RAISE_PROBABILITY:
            return BetRaise(raise_amount(legal, rng))
        return _CHECK_OR_CALL
    if legal.phase == "drawing":
        count = min(discard_count(rng), legal.max_discards, len(legal.hand))
        if not count:
            return _STAND_PAT
        cards = tuple(random_cards(legal.hand, count, rng))
        if legal.face_up_twos and any(c.is_two for c in cards) and rng.random() < FACE_UP_PROBABILITY:
            return Draw(cards, tuple(c for c in cards if c.is_two))
        return Draw(cards)
    return hand.default_action()  # a showdown with unseen cards: never with a shuffled deck


def random_action(hand: Hand, rng: random.Random) -> str:
    """The random player's text action for whoever is to act in ``hand``."""
    return str(random_decision(hand, rng))


def play_hand(
    game: str | Game,
    stakes: Stakes,
    stacks: Sequence[int],
    rng: random.Random,
    *,
    seed: int | None = None,
    carried_in: int = 0,
    jokers: bool = False,
    draw_limit: DrawLimit = "none",
    policy: Policy = random_action,
    max_actions: int = MAX_ACTIONS,
) -> Hand:
    """Deal one hand (deck shuffled by ``seed``, else by a seed drawn from ``rng``) and play it out.

    Raises PlayError if the engine refuses an action the policy chose from
    ``legal()``, or if the hand is still going after ``max_actions`` actions.
    """
    if seed is None:
        seed = rng.getrandbits(64)
    hand = Hand(game, stakes, stacks, seed=seed, carried_in=carried_in, jokers=jokers, draw_limit=draw_limit)
    act = hand.act
    for _ in range(max_actions):
        if hand.actor is None:
            return hand
        action = policy(hand, rng)
        try:
            act(action)
        except IllegalAction as error:
            raise PlayError(hand, action, str(error)) from error
    if hand.actor is not None:
        raise PlayError(hand, "(none)", f"the hand is still going after {max_actions} actions")
    return hand


# ---------------------------------------------------------------------------------------------------- the checks


def stub_cards(hand: Hand) -> list[Card]:
    """The cards still in the stub of a hand dealt from a shuffled deck (the deck's internal order)."""
    deck = hand.deck
    return deck.stub()


def check_hand(hand: Hand) -> list[str]:
    """Everything wrong with a finished hand; an empty list if nothing is.

    Checks that the hand ended, that no chip was created or lost (stacks plus
    the carried pot equal the starting stacks plus the carried-in chips), that
    no stack is negative, that every card of the deck is in exactly one place
    (a live player's hand, the muck or the stub), and that every live player
    holds a full hand (five cards, four in Badugi; six after showing a two face up in Assassin; the hole
    cards of every street dealt in the flop and stud games, whose board holds as many cards as its streets).
    """
    problems: list[str] = []
    if not hand.is_complete:
        problems.append(f"the hand did not end (phase {hand.phase}, actor {hand.actor})")
    before = sum(hand.starting_stacks) + hand.carried_in
    after = sum(hand.stacks) + hand.carried_out
    if after != before:
        problems.append(
            f"chips {'created' if after > before else 'lost'}: {after - before:+d} "
            f"(stacks {hand.starting_stacks} + carried in {hand.carried_in} -> "
            f"stacks {tuple(hand.stacks)} + carried out {hand.carried_out})"
        )
    if any(s < 0 for s in hand.stacks):
        problems.append(f"a negative stack: {tuple(hand.stacks)}")
    problems.extend(_check_cards(hand))
    return problems


def expected_cards(hand: Hand, seat: int) -> int:
    """How many cards a player still in should hold now: a whole draw hand (six after Assassin's face-up two), or
    the hole cards of every street dealt so far (stud's community card is no one's)."""
    game = hand.game
    if game.family == "draw":
        return game.hand_size + (1 if hand.face_up[seat] else 0)
    dealt = sum(len(street.hole) for street in game.streets[:hand.round + 1])
    return dealt - (len(hand.board) if game.is_stud else 0)


def _check_cards(hand: Hand) -> list[str]:
    deck = hand.deck
    places: dict[Card, list[str]] = {}
    for seat in hand.in_hand():
        for card in hand.holes[seat]:
            places.setdefault(card, []).append(f"p{seat + 1}'s hand")
    for card in hand.board:
        places.setdefault(card, []).append("the board")
    for card in deck.muck:
        places.setdefault(card, []).append("the muck")
    stub = stub_cards(hand)
    for card in stub:
        places.setdefault(card, []).append("the stub")
    problems = [f"{card} is in two places at once: {' and '.join(where)}"
                for card, where in places.items() if len(where) > 1]
    missing = deck.universe - places.keys()
    if missing:
        problems.append(f"cards lost (in no hand, muck or stub): {format_cards(sorted(missing, key=str), ' ')}")
    strangers = places.keys() - deck.universe
    if strangers:
        problems.append(f"cards not from this deck: {format_cards(sorted(strangers, key=str), ' ')}")
    if len(stub) != deck.stub_size:
        problems.append(f"the stub holds {len(stub)} cards but the deck counts {deck.stub_size}")
    for seat in hand.in_hand():
        expected = expected_cards(hand, seat)
        if len(hand.holes[seat]) != expected:
            problems.append(f"p{seat + 1} holds {len(hand.holes[seat])} cards, not {expected}")
    if hand.game.family == "flop":
        board = sum(street.board for street in hand.game.streets[:hand.round + 1])
        if len(hand.board) != board:
            problems.append(f"the board holds {len(hand.board)} cards, not {board}")
    return problems


# ------------------------------------------------------------------------------------------------------ a night


@dataclass(frozen=True, slots=True)
class Violation:
    """Something wrong with one hand of a night, and where to find it again."""

    game: str
    hand_number: int  # 1-based, in the night
    seed: int  # the night's seed
    deck_seed: int  # the seed of this hand's deck
    what: str
    actions: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f"{self.game}, hand {self.hand_number} (night seed {self.seed}, deck seed {self.deck_seed})"
        text = f"VIOLATION in {where}: {self.what}"
        if self.actions:
            text += "\n  actions: " + " | ".join(self.actions)
        return text


@dataclass(slots=True)
class Summary:
    """What a night played and found."""

    game: str
    players: int
    seed: int
    hands: int = 0
    elapsed: float = 0.0
    per_game: Counter[str] = field(default_factory=Counter)
    showdowns: int = 0
    carried_pots: int = 0  # hands that ended with chips carried to the next deal
    carried_chips: int = 0  # the most chips carried out of one hand
    reshuffles: int = 0
    rebuys: int = 0
    biggest_pot: int = 0
    biggest_pot_where: str = ""
    violations: list[Violation] = field(default_factory=list)
    histories: list[str] = field(default_factory=list)  # each hand's PHH text, when the night is exported

    @property
    def hands_per_second(self) -> float:
        """Hands played per second of wall time (checks included)."""
        return self.hands / self.elapsed if self.elapsed > 0 else 0.0

    def report(self) -> str:
        """The printed summary, starting with the ``hands/s: N`` line."""
        games = ", ".join(f"{g} {n}" for g, n in sorted(self.per_game.items()))
        lines = [
            f"hands/s: {self.hands_per_second:.0f}",
            f"{self.hands} hands of {self.game}, {self.players} players, seed {self.seed}, "
            f"{self.elapsed:.2f} s",
            f"hands per game: {games}",
            f"showdowns: {self.showdowns}; carried pots: {self.carried_pots} (largest {self.carried_chips} chips); "
            f"reshuffles: {self.reshuffles}; rebuys: {self.rebuys}",
            f"biggest pot: {self.biggest_pot}" + (f" ({self.biggest_pot_where})" if self.biggest_pot_where else ""),
            f"violations: {len(self.violations)}",
        ]
        return "\n".join(lines)


def night_games(game: str, players: int) -> list[Game]:
    """The games a night deals in turn; ValueError with a clear message for bad arguments."""
    if game != DEALERS_CHOICE and game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}, {DEALERS_CHOICE}")
    if players < 2:
        raise ValueError(f"a hand needs at least 2 players, not {players}")
    if game == DEALERS_CHOICE:
        games = games_for_players(players)
        if not games:
            most = max(g.max_players for g in GAMES.values())
            raise ValueError(f"dealer's choice is for 2 to {most} players, not {players}")
        return games
    chosen = GAMES[game]
    if players > chosen.max_players:
        raise ValueError(f"{chosen.name} is for 2 to {chosen.max_players} players, not {players}")
    return [chosen]


def simulate(
    game: str,
    players: int,
    hands: int,
    seed: int,
    *,
    structure: Structure | None = None,
    stop_at_first: bool = True,
    export: bool = False,
) -> Summary:
    """Play ``hands`` hands of ``game`` (or dealer's choice) with random players, checking each one.

    One ``random.Random(seed)`` drives everything (each deck's seed is drawn
    from it). ``structure`` overrides the games' default structures. Raises
    ValueError for bad arguments; violations are collected in the summary
    (the night stops after the first bad hand unless ``stop_at_first`` is off). With ``export``, every hand
    played is kept as a PHH text in ``Summary.histories``, in the order played.
    """
    games = night_games(game, players)
    if hands < 0:
        raise ValueError(f"the number of hands cannot be negative, not {hands}")
    rng = random.Random(seed)
    summary = Summary(game, players, seed)
    stakes = {g.id: default_stakes(g, structure) for g in games}
    stacks = [STARTING_STACK] * players
    table_chips = sum(stacks)  # every chip at the table, the carried pot included
    carried = 0
    start = time.perf_counter()
    for number in range(1, hands + 1):
        current = games[(number - 1) % len(games)]
        for seat, stack in enumerate(stacks):
            if stack == 0:
                stacks[seat] = STARTING_STACK
                table_chips += STARTING_STACK
                summary.rebuys += 1
        jokers = current.assassin and rng.random() < JOKERS_PROBABILITY
        deck_seed = rng.getrandbits(64)
        problems: list[str] = []
        hand: Hand | None = None
        try:
            hand = play_hand(current, stakes[current.id], stacks, rng, seed=deck_seed, carried_in=carried,
                             jokers=jokers)
        except PlayError as error:
            problems.append(f"the engine refused a legal action {error.action!r}: {error.reason}")
            hand = error.hand
        except (IllegalAction, ValueError) as error:  # the deal itself failed
            problems.append(f"the hand could not be dealt: {error}")
        if hand is not None:
            problems.extend(check_hand(hand))
            if sum(hand.stacks) + hand.carried_out != table_chips:
                problems.append(
                    f"the table holds {sum(hand.stacks) + hand.carried_out} chips, "
                    f"not the {table_chips} bought in (rebuys included)"
                )
        summary.hands = number
        summary.per_game[current.id] += 1
        if problems:
            actions = tuple(hand.history) if hand is not None else ()
            summary.violations.extend(
                Violation(current.id, number, seed, deck_seed, what, actions) for what in problems
            )
            if stop_at_first:
                break
        if hand is None:
            continue
        if export:
            summary.histories.append(export_phh(hand, hand=number))
        summary.showdowns += bool(hand.shown)
        summary.reshuffles += hand.deck.reshuffles
        if hand.carried_out:
            summary.carried_pots += 1
            summary.carried_chips = max(summary.carried_chips, hand.carried_out)
        pot = hand.pot_total
        if pot > summary.biggest_pot:
            summary.biggest_pot = pot
            summary.biggest_pot_where = f"hand {number}, {current.id}"
        carried = hand.carried_out
        stacks = hand.stacks[1:] + hand.stacks[:1]  # the button moves one seat clockwise
        table_chips = sum(stacks) + carried
    summary.elapsed = time.perf_counter() - start
    return summary


def simulate_command(game: str, players: int, hands: int, seed: int, structure: str | None = None,
                     export: str | None = None) -> int:
    """``python -m bot simulate``: print ``hands/s: N`` and a summary; 0 if every hand was right.

    ``structure`` (``fixed``, ``pot``, ``no`` or their long names) overrides each game's default; ``export``
    names a ``.phhs`` file that receives every hand played, in order. Bad arguments exit 2 with a message; any
    violation is printed with its game, hand number and seeds, and exits 1.
    """
    if hands < 1:
        print(f"simulate: error: --hands must be at least 1, not {hands}", file=sys.stderr)
        return 2
    try:
        chosen = get_structure(structure) if structure is not None else None
        summary = simulate(game, players, hands, seed, structure=chosen, export=export is not None)
    except ValueError as error:
        print(f"simulate: error: {error}", file=sys.stderr)
        return 2
    print(summary.report())
    if export is not None:
        try:
            Path(export).write_text(write_phhs(summary.histories), encoding="utf-8")
        except OSError as error:
            print(f"simulate: error: cannot write {export}: {error}", file=sys.stderr)
            return 2
        print(f"exported {len(summary.histories)} hands to {export}")
    for violation in summary.violations:
        print(violation, file=sys.stderr)
    return 1 if summary.violations else 0
