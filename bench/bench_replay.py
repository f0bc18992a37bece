"""Replay speed: ``python -m bot replay`` against pokerkit's loader on the same ``.phhs`` night (issue 23).

The night is played first, as a table deals it with the house options at their defaults (``TableSettings``
stakes, buy-ins drawn from the default range) by the random players of ``bot.tools.simulate``: the three games with a
standard PHH code in turn (fixed-limit 2-7 triple draw ``F2L3D``, no-limit 2-7 single draw ``N2L1D``, fixed-limit
Badugi ``FB``), two to six players, each hand exported as ``/poker session export`` writes it. Then, in the same run and
on the same text:

- ours: ``bot.tools.replay.replay_command`` on the file, as ``python -m bot replay night.phhs`` runs it (reading the
  file, every hand checked and replayed, one JSON line printed per hand, to /dev/null here);
- pokerkit: ``HandHistory.loads_all`` on the file's text and every hand played through its state
  (``state_actions``), as its loader plays a history. Its final stacks are checked against ``finishing_stacks``.

    python bench/bench_replay.py [--hands N] [--seed S] [--rounds R] [--profile]

The target is at least 3 times pokerkit's hands per second. Each side's best round counts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import tempfile
import time
import warnings
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Final

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_play import profile_top

from bot.night.phhs import split_phhs, write_phhs
from bot.poker import GAMES
from bot.poker.phh import export_phh, parse_phh
from bot.tables.settings import TableSettings
from bot.tools.replay import replay_command
from bot.tools.simulate import play_hand

STANDARD: Final = ("triple-draw-27", "single-draw-27", "badugi")  # F2L3D, N2L1D, FB
TARGET_RATIO: Final = 3.0


@dataclass(frozen=True, slots=True)
class ReplayBench:
    """The figures of one run."""

    hands: int
    actions_per_hand: float
    ours_hands_per_second: float
    pokerkit_hands_per_second: float
    pokerkit_disagrees: int  # hands whose pokerkit stacks differ from the file's

    @property
    def ratio(self) -> float:
        """Our hands per second over pokerkit's."""
        return self.ours_hands_per_second / self.pokerkit_hands_per_second

    def report(self) -> str:
        """The printed figures."""
        verdict = "ok" if self.ratio >= TARGET_RATIO else "BELOW TARGET"
        return "\n".join([
            f"replaying one .phhs night of {self.hands} hands (F2L3D, N2L1D and FB in turn, "
            f"{self.actions_per_hand:.1f} actions a hand), best round",
            f"python -m bot replay:  {self.ours_hands_per_second:8,.0f} hands/s",
            f"pokerkit's loader:     {self.pokerkit_hands_per_second:8,.0f} hands/s  "
            f"(hands it ends elsewhere than finishing_stacks: {self.pokerkit_disagrees})",
            f"ratio:                 {self.ratio:8.1f}x  (target >= {TARGET_RATIO:.0f}x: {verdict})",
        ])


def night_text(hands: int, seed: int) -> str:
    """A night of ``hands`` hands of the standard games in turn, as ``/poker session export`` writes it."""
    rng = random.Random(seed)
    texts = []
    for number in range(1, hands + 1):
        game = GAMES[STANDARD[number % len(STANDARD)]]
        players = 2 + number % 5
        settings = TableSettings(game.id, small_blind=1, big_blind=2)
        low, high = settings.buy_in_range
        stacks = [rng.randint(low, high) for _ in range(players)]
        hand = play_hand(game, settings.stakes_for(game), stacks, rng, **settings.hand_options(game))
        texts.append(export_phh(hand, players=[str(100 + seat) for seat in range(players)], hand=number))
    return write_phhs(texts)


def run_ours(path: str) -> float:
    """Seconds for ``python -m bot replay`` on the file (its output to /dev/null)."""
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        start = time.perf_counter()
        status = replay_command(path)
        elapsed = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"python -m bot replay exits {status} on the bench's own night")
    return elapsed


def run_pokerkit(text: str) -> tuple[float, int]:
    """Seconds for pokerkit's loader to read and play every hand; and how many end elsewhere than written."""
    import pokerkit

    finishing = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns when a draw deals from its muck
        start = time.perf_counter()
        for history in pokerkit.HandHistory.loads_all(text):
            (state, _), = deque(history.state_actions, maxlen=1)  # play every step, keep the last state
            finishing.append(list(state.stacks))
        elapsed = time.perf_counter() - start
    written = [list(parse_phh(hand).finishing_stacks or ()) for hand in split_phhs(text)]
    return elapsed, sum(a != b for a, b in zip(finishing, written, strict=True))


def bench_replay(hands: int = 300, seed: int = 1, rounds: int = 5) -> ReplayBench:
    """Write the night, then time both sides on it ``rounds`` times, interleaved; return the best figures."""
    text = night_text(hands, seed)
    actions = sum(len(parse_phh(hand).actions) for hand in split_phhs(text))
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "night.phhs")
        Path(path).write_text(text, encoding="utf-8")
        run_ours(path)  # warm up
        ours, theirs = [], []
        disagree = 0
        for _ in range(max(1, rounds)):
            ours.append(run_ours(path))
            elapsed, disagree = run_pokerkit(text)
            theirs.append(elapsed)
    return ReplayBench(hands, actions / hands, hands / min(ours), hands / min(theirs), disagree)


def profile_ours(hands: int, seed: int, top: int = 30) -> str:
    """cProfile ``python -m bot replay`` on the night; the top functions by own time."""
    text = night_text(hands, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "night.phhs")
        Path(path).write_text(text, encoding="utf-8")
        return profile_top(lambda: run_ours(path), top)


def main(argv: list[str] | None = None) -> int:
    """Print both rates and the ratio; exit 1 if the ratio is below target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=300, help="hands in the night (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="rounds; each side's best one counts (default 5)")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of our replay")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    result = bench_replay(args.hands, args.seed, args.rounds)
    print(result.report())
    if args.profile:
        print(profile_ours(args.hands, args.seed))
    return 0 if result.ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
