"""Play speed: six-handed fixed-limit 2-7 triple draw and Badugi, our engine against pokerkit (issues 2 and 10).

Both engines are driven by the random player of ``bot.simulate`` (fold 0.15
and raise 0.25 facing a bet, bet 0.25 otherwise, discard 0 to 3 random
cards), blinds 1/2, small bet 2, big bet 4, every hand from fresh stacks of
200, measured one after the other in the same run. Pokerkit plays
``FixedLimitDeuceToSevenLowballTripleDraw`` and ``FixedLimitBadugi`` with
every step but the players' decisions automated. Ours is timed twice: the
text actions (as ``simulate`` and the replays play) and the same moves as
values (``Hand.act(BetRaise(4))``, as the table layer plays).

    python bench/bench_play.py [--game triple-draw-27|badugi|both] [--hands N] [--seed S] [--profile]

The target is at least 5 times pokerkit's hands per second. One difference
the engines cannot share: pokerkit's fixed-limit cap is four raises after the
blind (five bets before the first draw), ours is four bets with the blind
counted (RULES.md section 2); the average actions per hand are printed so
the work per hand can be compared.
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
from bot.simulate import (
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
BENCHED: Final = {"triple-draw-27": "FixedLimitDeuceToSevenLowballTripleDraw", "badugi": "FixedLimitBadugi"}
PLAYERS: Final = 6
TARGET_RATIO: Final = 5.0


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
        verdict = "ok" if self.ratio >= TARGET_RATIO else "BELOW TARGET"
        return "\n".join([
            f"six-handed fixed-limit {self.game.name}, random players, {self.hands} hands each (best round), "
            f"pokerkit's {BENCHED[self.game.id]}",
            f"ours (text actions):  {self.ours_hands_per_second:8,.0f} hands/s  "
            f"({self.ours_actions_per_hand:.1f} actions/hand)",
            f"ours (move values):   {self.ours_methods_hands_per_second:8,.0f} hands/s",
            f"pokerkit:             {self.pokerkit_hands_per_second:8,.0f} hands/s  "
            f"({self.pokerkit_actions_per_hand:.1f} actions/hand)",
            f"ratio (text actions): {self.ratio:8.1f}x  (target >= {TARGET_RATIO:.0f}x: {verdict})",
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


def _pokerkit_automations() -> tuple[Any, ...]:
    from pokerkit import Automation

    return (
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


def play_pokerkit_hand(rng: random.Random, automations: tuple[Any, ...], game: Game = GAME) -> tuple[Any, int]:
    """One pokerkit hand driven by the simulate policy; (the final state, the number of decisions)."""
    import pokerkit

    small = default_stakes(game).small
    state = getattr(pokerkit, BENCHED[game.id]).create_state(
        automations, True, 0, (1, 2), small, 2 * small, (STARTING_STACK,) * PLAYERS, PLAYERS,
    )
    actions = 0
    while state.status:
        actions += 1
        if state.actor_index is not None:
            can_raise = state.can_complete_bet_or_raise_to()
            if state.checking_or_calling_amount:
                r = rng.random()
                if r < FOLD_PROBABILITY:
                    state.fold()
                elif r < FOLD_PROBABILITY + RAISE_PROBABILITY and can_raise:
                    state.complete_bet_or_raise_to()  # fixed limit: the one legal amount
                else:
                    state.check_or_call()
            elif can_raise and rng.random() < RAISE_PROBABILITY:
                state.complete_bet_or_raise_to()
            else:
                state.check_or_call()
            continue
        drawer = state.stand_patter_or_discarder_index
        if drawer is None:
            raise RuntimeError("pokerkit waits for a step that is not automated")
        hole = list(state.hole_cards[drawer])
        count = min(discard_count(rng), len(hole))
        state.stand_pat_or_discard(random_cards(hole, count, rng))
    if sum(state.stacks) != STARTING_STACK * PLAYERS:
        raise RuntimeError(f"pokerkit lost chips: {state.stacks}")
    return state, actions


def run_pokerkit(hands: int, seed: int, game: Game = GAME) -> tuple[float, float]:
    """Play ``hands`` hands with pokerkit; (hands per second, actions per hand)."""
    automations = _pokerkit_automations()
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles with the module-level generator
    actions = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns whenever a draw reaches into the muck
        start = time.perf_counter()
        for _ in range(hands):
            actions += play_pokerkit_hand(rng, automations, game)[1]
        elapsed = time.perf_counter() - start
    return hands / elapsed, actions / hands


def bench_play(hands: int = 3000, seed: int = 1, rounds: int = 3, game: Game = GAME) -> PlayBench:
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
        rate, actions = run_pokerkit(count, seed + k, game)
        theirs.append(rate)
        theirs_actions += actions * count
    return PlayBench(game, hands, max(ours), max(ours_methods), max(theirs), ours_actions / hands,
                     theirs_actions / hands)


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
    parser.add_argument("--hands", type=int, default=3000, help="hands for each engine (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best one counts (default 3)")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of our engine")
    parser.add_argument("--game", choices=[*BENCHED, "both"], default="both", help="the game (default both)")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    games = list(BENCHED) if args.game == "both" else [args.game]
    results = []
    for game_id in games:
        result = bench_play(args.hands, args.seed, args.rounds, GAMES[game_id])
        results.append(result)
        print(result.report())
        if args.profile:
            print(profile_ours(args.hands, args.seed, game=GAMES[game_id]))
        print()
    return 0 if all(r.ratio >= TARGET_RATIO for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
