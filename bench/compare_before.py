"""The draw games' random hands per second, this tree against an older one, interleaved in one run.

    git worktree add --detach /tmp/before 1ba306b      # the tree before the change, once
    python bench/compare_before.py /tmp/before [--games all|GAME,...] [--rounds 5] [--hands 1500] [--seed 1]
    git worktree remove /tmp/before                     # when done

Each measurement is a fresh subprocess of this interpreter with one tree's root first on ``sys.path``, so the
old and the new ``bot`` are never imported together. It plays ``bench/bench_play.py``'s hands: the random player
of that tree's ``bot.tools.simulate`` (``play_hand`` with text actions, then the same decisions as move values through
``Hand.act``), six-handed, fresh stacks of 200, that tree's ``default_stakes``, after 200 hands of warm-up
(imports, the rankings' lookup tables). For every round and game it runs the old tree and the new one back to
back, the order alternating from round to round, and it reports each side's median over the rounds and the
ratios new / old: of the medians of wall time (as ``bench_play.py`` times), of the best rounds' wall time (as
``timeit`` would) and of the medians of the process's CPU time (steadier when other jobs share the machine);
below 0.90, a fall of more than 10%, is flagged (by the median wall time, or CPU time with ``--cpu``). The
actions per hand of both sides are printed too: the same seeds deal the same hands in both trees when the engine
plays the draw games as it did, so equal counts show that the work per hand is the same.

``--games all`` (the default) is every draw game of the old tree; ``--games bench`` the two that
``bench/bench_play.py`` benches against pokerkit (2-7 triple draw and Badugi). Exit status 1 if a game fell by
more than 10%.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

NEW_ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 6
WARM_UP = 200
LIMIT = 0.90  # new / old below this: the draw game fell by more than 10%
BENCHED = ("triple-draw-27", "badugi")


def worker(root: str, game_id: str, hands: int, seed: int) -> dict[str, Any]:
    """In a subprocess: time ``hands`` hands of ``game_id`` with the tree at ``root``; the figures as a dict."""
    sys.path.insert(0, root)
    import random

    from bot.poker import GAMES, Hand
    from bot.tools.simulate import STARTING_STACK, default_stakes, play_hand, random_decision

    game = GAMES[game_id]
    stakes = default_stakes(game)
    stacks = [STARTING_STACK] * PLAYERS

    def text(count: int, run_seed: int) -> tuple[float, float, int]:
        rng = random.Random(run_seed)
        actions = 0
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(count):
            actions += len(play_hand(game, stakes, stacks, rng).actions)
        return time.perf_counter() - start, time.process_time() - cpu, actions

    def values(count: int, run_seed: int) -> tuple[float, float, int]:
        rng = random.Random(run_seed)
        actions = 0
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(count):
            hand = Hand(game, stakes, stacks, seed=rng.getrandbits(64))
            while hand.actor is not None:
                hand.act(random_decision(hand, rng))
            actions += len(hand.actions)
        return time.perf_counter() - start, time.process_time() - cpu, actions

    text(WARM_UP, seed - 1)
    values(WARM_UP, seed - 1)
    text_time, text_cpu, text_actions = text(hands, seed)
    values_time, values_cpu, _ = values(hands, seed)
    import bot

    return {"bot": str(Path(bot.__file__).resolve().parent), "text": hands / text_time,
            "values": hands / values_time, "text_cpu": hands / text_cpu, "values_cpu": hands / values_cpu,
            "actions": text_actions / hands}


def measure(root: Path, game_id: str, hands: int, seed: int) -> dict[str, Any]:
    """Run the worker for one tree and game in a new process."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", str(root), "--games", game_id, "--hands", str(hands),
         "--seed", str(seed)],
        check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    expected = (root / "bot").resolve()
    if Path(result["bot"]) != expected:
        raise RuntimeError(f"the worker imported {result['bot']}, not {expected}")
    return result


def draw_games(root: Path) -> list[str]:
    """The draw games of the tree at ``root`` (the old tree has only draw games)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from bot.poker import GAMES; "
            "print(' '.join(g for g, v in GAMES.items() if getattr(v, 'family', 'draw') == 'draw'))")
    out = subprocess.run([sys.executable, "-c", code, str(root)], check=True, capture_output=True, text=True)
    return out.stdout.split()


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table and return 1 if a draw game fell by more than 10%."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", nargs="?", help="the root of the older tree (e.g. a git worktree of 1ba306b)")
    parser.add_argument("--games", default="all", help="all (every draw game), bench (2-7 triple draw and "
                        "Badugi) or comma-separated ids")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the medians count (default 5)")
    parser.add_argument("--hands", type=int, default=1500, help="hands per measurement (default 1500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--after", default=str(NEW_ROOT), help="the newer tree (default: this one)")
    parser.add_argument("--cpu", action="store_true", help="flag a fall by the process's CPU time "
                        "(time.process_time) instead of wall time: steadier on a machine shared with other jobs")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.games, args.hands, args.seed)))
        return 0
    if not args.before:
        parser.error("give the root of the older tree")
    old, new = Path(args.before).resolve(), Path(args.after).resolve()
    if args.games == "all":
        games = draw_games(old)
    elif args.games == "bench":
        games = list(BENCHED)
    else:
        games = args.games.split(",")
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {(g, side): [] for g in games for side in ("old", "new")}
    started = time.perf_counter()
    for k in range(args.rounds):
        for game_id in games:
            order = [("old", old), ("new", new)] if k % 2 == 0 else [("new", new), ("old", old)]
            for side, root in order:
                runs[game_id, side].append(measure(root, game_id, args.hands, args.seed + k))
        print(f"round {k + 1}/{args.rounds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)

    basis = "CPU" if args.cpu else "wall"
    print(f"draw games, six-handed random hands/s: {old} (old) against {new} (new), {args.rounds} interleaved "
          f"rounds of {args.hands} hands; hands/s of wall time (medians), ratios new/old of the medians of wall "
          f"time, of the best rounds' wall time and of the medians of CPU time; flagged below {LIMIT:.2f} by the "
          f"median {basis} time")
    fell = []
    for mode, title in (("text", "text actions (play_hand, as bench_play's ratio)"),
                        ("values", "move values (Hand.act)")):
        print(f"\n{title}")
        print(f"{'game':<16} {'old':>7} {'new':>7} {'median':>7} {'best':>6} {'CPU':>6}   actions/hand old, new")
        for game_id in games:
            o, n = runs[game_id, "old"], runs[game_id, "new"]
            wall = statistics.median(r[mode] for r in n) / statistics.median(r[mode] for r in o)
            best = max(r[mode] for r in n) / max(r[mode] for r in o)
            cpu = (statistics.median(r[mode + "_cpu"] for r in n) / statistics.median(r[mode + "_cpu"] for r in o))
            flag = "  FELL > 10%" if (cpu if args.cpu else wall) < LIMIT else ""
            if flag and game_id not in fell:
                fell.append(game_id)
            print(f"{game_id:<16} {statistics.median(r[mode] for r in o):7,.0f} "
                  f"{statistics.median(r[mode] for r in n):7,.0f} {wall:6.2f}x {best:5.2f}x {cpu:5.2f}x   "
                  f"{statistics.median(r['actions'] for r in o):.2f}, "
                  f"{statistics.median(r['actions'] for r in n):.2f}{flag}")
    print(f"fell by more than 10%: {', '.join(fell) if fell else 'none'}")
    return 1 if fell else 0


if __name__ == "__main__":
    sys.exit(main())
