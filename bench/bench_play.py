"""Play speed: random hands per second, our engine against pokerkit's class for each game, in the same run.

Both engines are driven by the random player of ``bot.tools.simulate`` (fold 0.15
and raise 0.25 facing a bet, bet 0.25 otherwise; pot and no limit: a random
amount from the smallest to the largest legal one, small amounts likelier;
stud's bring-in: complete with 0.25, else bring in; draws: discard 0 to 3
random cards), six-handed, every hand from fresh stacks of 200, with the
stakes of ``default_stakes``: blinds 1/2 (stud: ante 1, bring-in 1), fixed
limit's small bet 2 and big bet 4, pot and no limit's smallest bet 2, each
game in its default structure, measured one after the other in the same run.
Pokerkit plays with every step but the players' decisions automated. Ours is
timed twice: the text actions (as ``simulate`` and the replays play) and the
same moves as values (``Hand.act(BetRaise(4))``, as the table layer plays).

    python bench/bench_play.py [--game GAME|draw|flop-stud|all] [--hands N] [--seed S] [--rounds R] [--profile]
    python bench/bench_play.py --game flop-stud --hands 1500     # the figures of the flop and stud games

``--game`` takes a game id, ``draw`` (triple-draw-27 and badugi; ``both`` is
the same), ``flop-stud`` (the seven flop and stud games) or ``all`` (the
default). Each engine plays ``--hands`` hands of each game (default: 3,000 of
a draw game, 600 of a flop or stud game, where pokerkit plays only 15 to 90
hands a second) in ``--rounds`` interleaved rounds, the best round counting.
Pokerkit's class for each game:

=============== ============================================================
triple-draw-27  ``FixedLimitDeuceToSevenLowballTripleDraw``
badugi          ``FixedLimitBadugi``
holdem          ``NoLimitTexasHoldem``
omaha           ``PotLimitOmahaHoldem``
omaha-hilo      fixed-limit Omaha hi-lo made of pokerkit's own parts
                (``FixedLimitPokerMixin``, ``OmahaHoldemMixin``, ``Holdem``;
                ``OmahaHoldemHand``, ``OmahaEightOrBetterLowHand``): pokerkit
                0.7.7's ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter``
                derives from ``PotLimitPokerMixin`` and so bets pot limit with
                no raise cap, not fixed limit (``--named-o8`` benches it anyway)
big-o           pokerkit has no Big O class: pot-limit five-card Omaha hi-lo
                made the same way (``PotLimitPokerMixin``, ``OmahaHoldemMixin``,
                ``UnfixedLimitHoldem`` with five hole cards; pokerkit's Omaha
                hands play exactly two of however many hole cards)
stud            ``FixedLimitSevenCardStud``
stud-hilo       ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``
razz            ``FixedLimitRazz``
=============== ============================================================

The targets: at least 5 times pokerkit's hands per second for the draw games
(issues 2 and 10), at least 3 times for the flop and stud games. Differences
the engines cannot share: pokerkit's fixed-limit cap is four raises after the
blind (five bets on the first round of a blind game), ours is four bets with
the blind counted (docs/rules.md sections 2.5 and 18.4; in stud neither counts the bring-in);
the average actions per hand are printed so the work per hand can be
compared. ``bench/compare_before.py`` compares our draw games' figures with
an older tree's.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.poker import GAMES, Game, Hand
from bot.tools.simulate import (
    FOLD_PROBABILITY,
    RAISE_PROBABILITY,
    STARTING_STACK,
    default_stakes,
    discard_count,
    play_hand,
    random_cards,
    random_decision,
)

GAME: Final = GAMES["triple-draw-27"]
BENCHED: Final = {
    "triple-draw-27": "FixedLimitDeuceToSevenLowballTripleDraw",
    "badugi": "FixedLimitBadugi",
    "holdem": "NoLimitTexasHoldem",
    "omaha": "PotLimitOmahaHoldem",
    "omaha-hilo": "fixed-limit Omaha hi-lo of its parts",
    "big-o": "pot-limit five-card Omaha hi-lo of its parts",
    "stud": "FixedLimitSevenCardStud",
    "stud-hilo": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
    "razz": "FixedLimitRazz",
}
"""Pokerkit's class for each game benched (see the module docstring for the two made of pokerkit's parts)."""
NAMED_O8: Final = "FixedLimitOmahaHoldemHighLowSplitEightOrBetter"  # pot limit in pokerkit 0.7.7: --named-o8
DRAW_BENCHED: Final = ("triple-draw-27", "badugi")
FLOP_STUD_BENCHED: Final = ("holdem", "omaha", "omaha-hilo", "big-o", "stud", "stud-hilo", "razz")
PLAYERS: Final = 6
DRAW_HANDS: Final = 3000  # hands per engine by default
FLOP_STUD_HANDS: Final = 600
TARGET_RATIO: Final = 5.0
NEW_GAMES_TARGET_RATIO: Final = 3.0


def target_ratio(game: Game) -> float:
    """The target of ``game``'s ratio: 5x for the draw games, 3x for the flop and stud games."""
    return TARGET_RATIO if game.family == "draw" else NEW_GAMES_TARGET_RATIO


@dataclass(frozen=True, slots=True)
class PlayBench:
    """The figures of one run."""

    game: Game
    hands: int
    ours_hands_per_second: float  # through the text actions, as ``simulate`` plays
    ours_methods_hands_per_second: float  # the same decisions as move values
    pokerkit_hands_per_second: float
    ours_actions_per_hand: float
    pokerkit_actions_per_hand: float
    pokerkit_class: str = ""

    @property
    def ratio(self) -> float:
        """Our hands per second (text actions) over pokerkit's: the figure the target applies to."""
        return self.ours_hands_per_second / self.pokerkit_hands_per_second

    @property
    def methods_ratio(self) -> float:
        """Our hands per second with move values (as pokerkit is driven by method calls) over pokerkit's."""
        return self.ours_methods_hands_per_second / self.pokerkit_hands_per_second

    def report(self) -> str:
        """The printed figures."""
        target = target_ratio(self.game)
        verdict = "ok" if self.ratio >= target else "BELOW TARGET"
        return "\n".join([
            f"six-handed {self.game.default_structure} {self.game.name}, random players, {self.hands} hands each "
            f"(best round), pokerkit's {self.pokerkit_class or BENCHED[self.game.id]}",
            f"ours (text actions):  {self.ours_hands_per_second:8,.0f} hands/s  "
            f"({self.ours_actions_per_hand:.1f} actions/hand)",
            f"ours (move values):   {self.ours_methods_hands_per_second:8,.0f} hands/s",
            f"pokerkit:             {self.pokerkit_hands_per_second:8,.0f} hands/s  "
            f"({self.pokerkit_actions_per_hand:.1f} actions/hand)",
            f"ratio (text actions): {self.ratio:8.1f}x  (target >= {target:.0f}x: {verdict})",
            f"ratio (move values):  {self.methods_ratio:8.1f}x",
        ])


def play_hand_by_moves(rng: random.Random, game: Game = GAME) -> Hand:
    """One hand of ours driven by the same decisions as move values, not their text."""
    hand = Hand(game, default_stakes(game), [STARTING_STACK] * PLAYERS, seed=rng.getrandbits(64))
    while hand.actor is not None:
        hand.act(random_decision(hand, rng))
    return hand


def run_ours(hands: int, seed: int, *, methods: bool = False, game: Game = GAME) -> tuple[float, float]:
    """Play ``hands`` hands with our engine (text actions, or move values); (hands per second, actions per hand)."""
    rng = random.Random(seed)
    stakes = default_stakes(game)
    stacks = [STARTING_STACK] * PLAYERS
    actions = 0
    start = time.perf_counter()
    for _ in range(hands):
        hand = play_hand_by_moves(rng, game) if methods else play_hand(game, stakes, stacks, rng)
        if not hand.is_complete:
            raise RuntimeError("a hand did not end")
        actions += len(hand.actions)
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / hands


def _pokerkit_automations(game: Game = GAME) -> tuple[Any, ...]:
    from pokerkit import Automation

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    if game.family == "draw":
        return automations
    return (*automations, Automation.BOARD_DEALING, Automation.RUNOUT_COUNT_SELECTION)


def _pokerkit_games() -> dict[str, Any]:
    """Pokerkit's two games made of its own parts: fixed-limit Omaha hi-lo and pot-limit Big O."""
    from pokerkit import (
        FixedLimitPokerMixin,
        Holdem,
        OmahaEightOrBetterLowHand,
        OmahaHoldemHand,
        OmahaHoldemMixin,
        PotLimitPokerMixin,
        UnfixedLimitHoldem,
    )

    class FixedLimitOmahaHiLo(FixedLimitPokerMixin, OmahaHoldemMixin, Holdem):
        hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)

    class PotLimitBigO(PotLimitPokerMixin, OmahaHoldemMixin, UnfixedLimitHoldem):
        hole_dealing_count = 5
        hand_types = (OmahaHoldemHand, OmahaEightOrBetterLowHand)

    return {"omaha-hilo": FixedLimitOmahaHiLo, "big-o": PotLimitBigO}


_MADE: dict[str, Any] = {}


def pokerkit_state_factory(game: Game, automations: tuple[Any, ...], *, named_o8: bool = False
                           ) -> Callable[[], Any]:
    """A function creating a new pokerkit state of ``game`` with our default stakes, six players of 200."""
    import pokerkit

    stakes = default_stakes(game)
    stacks = (STARTING_STACK,) * PLAYERS
    if game.id in ("omaha-hilo", "big-o") and not (named_o8 and game.id == "omaha-hilo"):
        if not _MADE:
            _MADE.update(_pokerkit_games())
        made = _MADE[game.id]
        if game.default_structure == "fixed-limit":
            poker = made(automations, True, 0, (stakes.small_blind, stakes.big_blind), stakes.small, stakes.big)
        else:
            poker = made(automations, True, 0, (stakes.small_blind, stakes.big_blind), stakes.unit(1))
        return lambda: poker(stacks, PLAYERS)
    cls = getattr(pokerkit, NAMED_O8 if named_o8 and game.id == "omaha-hilo" else BENCHED[game.id])
    if game.is_stud:
        args: tuple[Any, ...] = (stakes.ante, stakes.bring_in, stakes.small, stakes.big)
    elif game.family == "draw" or game.default_structure == "fixed-limit":
        args = (0, (stakes.small_blind, stakes.big_blind), stakes.small, stakes.big)
    else:
        args = (0, (stakes.small_blind, stakes.big_blind), stakes.unit(1))
    return lambda: cls.create_state(automations, True, *args, stacks, PLAYERS)


def _pokerkit_amount(state: Any, rng: random.Random) -> int:
    """A bet or raise of the random player in pot or no limit, as ``bot.tools.simulate.raise_amount`` draws it."""
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    if hi == lo:
        return int(lo)
    return int(lo + int((hi - lo + 1) * rng.random() ** 3))


def play_pokerkit_hand(rng: random.Random, automations: tuple[Any, ...], game: Game = GAME,
                       new_state: Callable[[], Any] | None = None) -> tuple[Any, int]:
    """One pokerkit hand driven by the simulate policy; (the final state, the number of decisions)."""
    state = (new_state or pokerkit_state_factory(game, automations))()
    fixed = game.default_structure == "fixed-limit"
    stud = game.is_stud
    actions = 0
    while state.status:
        actions += 1
        if state.actor_index is not None:
            if stud and state.can_post_bring_in():
                if rng.random() < RAISE_PROBABILITY and state.can_complete_bet_or_raise_to():
                    state.complete_bet_or_raise_to(None if fixed else _pokerkit_amount(state, rng))
                else:
                    state.post_bring_in()
                continue
            can_raise = state.can_complete_bet_or_raise_to()
            if state.checking_or_calling_amount:
                r = rng.random()
                if r < FOLD_PROBABILITY:
                    state.fold()
                elif r < FOLD_PROBABILITY + RAISE_PROBABILITY and can_raise:
                    # fixed limit: the one legal amount
                    state.complete_bet_or_raise_to(None if fixed else _pokerkit_amount(state, rng))
                else:
                    state.check_or_call()
            elif can_raise and rng.random() < RAISE_PROBABILITY:
                state.complete_bet_or_raise_to(None if fixed else _pokerkit_amount(state, rng))
            else:
                state.check_or_call()
            continue
        drawer = state.stand_patter_or_discarder_index if game.family == "draw" else None
        if drawer is None:
            raise RuntimeError("pokerkit waits for a step that is not automated")
        hole = list(state.hole_cards[drawer])
        count = min(discard_count(rng), len(hole))
        state.stand_pat_or_discard(random_cards(hole, count, rng))
    if sum(state.stacks) != STARTING_STACK * PLAYERS:
        raise RuntimeError(f"pokerkit lost chips: {state.stacks}")
    return state, actions


def run_pokerkit(hands: int, seed: int, game: Game = GAME, *, named_o8: bool = False) -> tuple[float, float]:
    """Play ``hands`` hands with pokerkit; (hands per second, actions per hand)."""
    automations = _pokerkit_automations(game)
    new_state = pokerkit_state_factory(game, automations, named_o8=named_o8)
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles with the module-level generator
    actions = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns whenever a draw reaches into the muck
        start = time.perf_counter()
        for _ in range(hands):
            actions += play_pokerkit_hand(rng, automations, game, new_state)[1]
        elapsed = time.perf_counter() - start
    return hands / elapsed, actions / hands


def bench_play(hands: int = 3000, seed: int = 1, rounds: int = 3, game: Game = GAME, *,
               named_o8: bool = False) -> PlayBench:
    """Measure both engines on ``hands`` hands each, in this run; return the figures.

    The hands are played in ``rounds`` interleaved rounds (ours, ours by
    methods, pokerkit, then again) and each engine's best round counts, as
    ``timeit`` does, so that a burst of load on the machine hurts neither side.
    """
    rounds = max(1, min(rounds, hands))
    per_round = [hands // rounds + (1 if k < hands % rounds else 0) for k in range(rounds)]
    run_ours(min(hands, 200), seed - 1, game=game)  # warm up (imports, lookup tables)
    ours: list[float] = []
    ours_methods: list[float] = []
    theirs: list[float] = []
    ours_actions = theirs_actions = 0.0
    for k, count in enumerate(per_round):
        rate, actions = run_ours(count, seed + k, game=game)
        ours.append(rate)
        ours_actions += actions * count
        ours_methods.append(run_ours(count, seed + k, methods=True, game=game)[0])
        rate, actions = run_pokerkit(count, seed + k, game, named_o8=named_o8)
        theirs.append(rate)
        theirs_actions += actions * count
    named = f"{NAMED_O8} (pot limit in pokerkit 0.7.7)" if named_o8 and game.id == "omaha-hilo" else ""
    return PlayBench(game, hands, max(ours), max(ours_methods), max(theirs), ours_actions / hands,
                     theirs_actions / hands, named)


def profile_top(run: Callable[[], object], top: int = 30) -> str:
    """cProfile ``run()``; the top functions by own time (``bench_replay.py`` uses it too)."""
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def profile_ours(hands: int, seed: int, top: int = 30, game: Game = GAME) -> str:
    """cProfile our engine on ``hands`` hands; the top functions by own time."""
    return profile_top(lambda: run_ours(hands, seed, game=game), top)


def main(argv: list[str] | None = None) -> int:
    """Print both rates and the ratio; exit 1 if the ratio is below target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=None,
                        help="hands for each engine and game (default 3000 for the draw games, 600 for the flop and "
                        "stud games, where pokerkit plays 15 to 90 hands a second)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best one counts (default 3)")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of our engine")
    parser.add_argument("--game", choices=[*BENCHED, *GROUPS], default="all",
                        help="a game, draw (or both: 2-7 triple draw and Badugi), flop-stud or all (default)")
    parser.add_argument("--named-o8", action="store_true",
                        help=f"omaha-hilo against pokerkit's {NAMED_O8} (which bets pot limit in 0.7.7)")
    args = parser.parse_args(argv)
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    games = GROUPS.get(args.game, (args.game,))
    results = []
    for game_id in games:
        game = GAMES[game_id]
        hands = args.hands or (DRAW_HANDS if game.family == "draw" else FLOP_STUD_HANDS)
        result = bench_play(hands, args.seed, args.rounds, game, named_o8=args.named_o8)
        results.append(result)
        print(result.report())
        if args.profile:
            print(profile_ours(hands, args.seed, game=game))
        print()
    if len(results) > 1:
        print(summary_table(results))
    return 0 if all(r.ratio >= target_ratio(r.game) for r in results) else 1


GROUPS: Final = {"draw": DRAW_BENCHED, "both": DRAW_BENCHED, "flop-stud": FLOP_STUD_BENCHED,
                 "all": (*DRAW_BENCHED, *FLOP_STUD_BENCHED)}


def summary_table(results: list[PlayBench]) -> str:
    """One line per game: our hands/s (text actions, move values), pokerkit's, the ratios and the target."""
    lines = [f"{'game':<15} {'structure':<12} {'ours':>7} {'values':>7} {'pokerkit':>8} {'ratio':>6} "
             f"{'values':>6}  target"]
    for r in results:
        target = target_ratio(r.game)
        lines.append(f"{r.game.id:<15} {r.game.default_structure:<12} {r.ours_hands_per_second:7,.0f} "
                     f"{r.ours_methods_hands_per_second:7,.0f} {r.pokerkit_hands_per_second:8,.0f} "
                     f"{r.ratio:5.1f}x {r.methods_ratio:5.1f}x  {target:.0f}x "
                     f"{'ok' if r.ratio >= target else 'BELOW'}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
