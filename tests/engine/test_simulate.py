"""``python -m bot simulate``: random legal players, and the checks after every hand (issue 2, item 5)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bot.poker.hand as hand_module
from bot.poker import GAMES, BetRaise, Card, Draw, Hand, IllegalAction, games_for_players
from bot.poker.cards import Deck
from bot.poker.pots import split_pot
from bot.tools.simulate import (
    STARTING_STACK,
    Summary,
    check_hand,
    default_stakes,
    play_hand,
    random_action,
    random_decision,
    simulate,
    simulate_command,
)

ROOT = Path(__file__).resolve().parents[2]


def assert_clean(summary: Summary) -> None:
    assert not summary.violations, "\n".join(str(v) for v in summary.violations)


# --- every game plays without a violation --------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulate_plays_every_game_with_no_chip_or_card_violation(game: str) -> None:
    players = GAMES[game].max_players
    summary = simulate(game, players, 300, seed=7)
    assert_clean(summary)
    assert summary.hands == 300
    assert summary.per_game == {game: 300}
    assert summary.showdowns > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulate_plays_every_game_heads_up(game: str) -> None:
    assert_clean(simulate(game, 2, 150, seed=11))


@pytest.mark.parametrize("structure", ["fixed-limit", "pot-limit", "no-limit"])
@pytest.mark.parametrize("game", ["five-card-draw", "assassin", "single-draw-27", "triple-draw-a5"])
def test_simulate_plays_every_structure(game: str, structure: str) -> None:
    assert_clean(simulate(game, 5, 120, seed=3, structure=structure))  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 6, 7, 8])
def test_dealers_choice_rotates_through_the_games_the_players_can_play(players: int) -> None:
    games = games_for_players(players)
    summary = simulate("dealers-choice", players, 4 * len(games), seed=5)
    assert_clean(summary)
    assert summary.per_game == {g.id: 4 for g in games}


def test_dealers_choice_carries_assassin_pots_into_the_next_game() -> None:
    summary = simulate("dealers-choice", 6, 1500, seed=2)
    assert_clean(summary)
    assert summary.carried_pots > 0


def test_assassin_carries_pots_and_lowball_reshuffles() -> None:
    assassin = simulate("assassin", 8, 400, seed=1)
    assert_clean(assassin)
    assert assassin.carried_pots > 0 and assassin.carried_chips > 0
    triple = simulate("triple-draw-27", 6, 200, seed=1)
    assert_clean(triple)
    assert triple.reshuffles > 0


def test_busted_players_rebuy() -> None:
    summary = simulate("five-card-draw", 6, 300, seed=4)
    assert_clean(summary)
    assert summary.rebuys > 0


def test_the_same_seed_plays_the_same_session() -> None:
    a = simulate("dealers-choice", 4, 200, seed=99)
    b = simulate("dealers-choice", 4, 200, seed=99)
    assert (a.showdowns, a.carried_chips, a.reshuffles, a.rebuys, a.biggest_pot) == (
        b.showdowns, b.carried_chips, b.reshuffles, b.rebuys, b.biggest_pot)


# --- the policy ------------------------------------------------------------------------------------------------------


def test_random_action_is_always_legal_and_every_hand_ends() -> None:
    rng = random.Random(1)
    for game in GAMES.values():
        for _ in range(30):
            hand = play_hand(game, default_stakes(game), [STARTING_STACK] * game.max_players, rng,
                             jokers=game.assassin)
            assert hand.is_complete
            assert check_hand(hand) == []


def test_random_player_folds_raises_and_discards_at_the_stated_rates() -> None:
    rng = random.Random(8)
    facing = folds = raises = 0
    discards: list[int] = []
    for _ in range(400):
        hand = Hand("triple-draw-27", default_stakes(GAMES["triple-draw-27"]), [STARTING_STACK] * 6,
                    seed=rng.getrandbits(32))
        while hand.actor is not None:
            legal = hand.legal()
            action = random_action(hand, rng)
            if legal.phase == "betting" and legal.call_amount and legal.can_raise:
                facing += 1
                folds += action == "f"
                raises += action.startswith("cbr")
            if legal.phase == "drawing":
                discards.append(len(action[3:]) // 2)
            hand.act(action)
    assert abs(folds / facing - 0.15) < 0.02
    assert abs(raises / facing - 0.25) < 0.02
    assert set(discards) == {0, 1, 2, 3}
    for k in range(4):
        assert abs(discards.count(k) / len(discards) - 0.25) < 0.03


def test_random_player_never_discards_more_than_the_draw_limit() -> None:
    rng = random.Random(6)
    for _ in range(200):
        hand = Hand("five-card-draw", default_stakes(GAMES["five-card-draw"]), [STARTING_STACK] * 4,
                    seed=rng.getrandbits(32), draw_limit="3")
        while hand.actor is not None:
            move = random_decision(hand, rng)
            if hand.phase == "drawing":
                assert isinstance(move, Draw) and len(move.discards) <= 3
            hand.act(str(move))


def test_assassin_player_shows_twos_face_up_only_when_he_throws_them() -> None:
    rng = random.Random(12)
    face_up = 0
    for _ in range(300):
        hand = Hand("assassin", default_stakes(GAMES["assassin"]), [STARTING_STACK] * 6,
                    seed=rng.getrandbits(32), jokers=True)
        while hand.actor is not None:
            move = random_decision(hand, rng)
            if isinstance(move, Draw) and move.face_up:
                face_up += 1
                assert str(move).startswith("sdu ") and move.face_up == tuple(c for c in move.discards if c.is_two)
            hand.act(str(move))
        assert check_hand(hand) == []
    assert face_up > 20


def test_no_limit_raises_span_the_legal_range_with_small_ones_most_likely() -> None:
    rng = random.Random(3)
    hand = Hand("five-card-draw", default_stakes(GAMES["five-card-draw"]), [STARTING_STACK] * 3, seed=1)
    legal = hand.legal()
    amounts = []
    for _ in range(2000):
        move = random_decision(hand, rng)
        if isinstance(move, BetRaise):
            amounts.append(move.to)
    assert all(legal.min_raise_to <= a <= legal.max_raise_to for a in amounts)
    assert min(amounts) == legal.min_raise_to
    below_middle = sum(a < (legal.min_raise_to + legal.max_raise_to) / 2 for a in amounts)
    assert below_middle > 0.7 * len(amounts)


def test_moves_played_as_values_and_as_text_play_the_same_hand() -> None:
    game = GAMES["triple-draw-a6"]
    by_text = play_hand(game, default_stakes(game), [STARTING_STACK] * 6, random.Random(4), seed=10)
    rng = random.Random(4)
    hand = Hand(game, default_stakes(game), [STARTING_STACK] * 6, seed=10)
    while hand.actor is not None:
        hand.act(random_decision(hand, rng))
    assert hand.actions == by_text.actions
    assert hand.stacks == by_text.stacks


# --- the checks must be able to fail -------------------------------------------------------------------------------


def test_a_lost_chip_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:

    def leaky_split(amount: int, winners: list[int]) -> list[int]:
        shares = split_pot(amount, winners)
        if amount > 10:
            shares[0] -= 1  # one chip of every big pot vanishes
        return shares

    monkeypatch.setattr(hand_module, "split_pot", leaky_split)
    summary = simulate("triple-draw-27", 6, 50, seed=1)
    assert summary.violations
    violation = summary.violations[0]
    assert "chips lost" in violation.what
    assert violation.game == "triple-draw-27" and violation.seed == 1
    assert summary.hands == violation.hand_number  # the session stops at the first bad hand
    assert "triple-draw-27" in str(violation) and f"hand {violation.hand_number}" in str(violation)


def test_a_created_chip_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand_module, "split_pot", lambda amount, winners: split_pot(amount + 1, winners))
    summary = simulate("five-card-draw", 4, 20, seed=1)
    assert summary.violations and "chips created" in summary.violations[0].what


def test_a_card_in_two_places_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    real_discard = Deck.discard

    def sticky_discard(self: Deck, cards: list[Card]) -> None:
        real_discard(self, list(cards) * 2)  # every discard lands in the muck twice

    monkeypatch.setattr(Deck, "discard", sticky_discard)
    summary = simulate("single-draw-a5", 4, 20, seed=1)
    assert summary.violations and "two places at once" in summary.violations[0].what


def test_a_lost_card_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    real_burn = Deck.burn

    def vanishing_burn(self: Deck, *, held: list[Card] = ()) -> Card:  # type: ignore[assignment]
        card = real_burn(self, held=held)
        self.muck.remove(card)
        return card

    monkeypatch.setattr(Deck, "burn", vanishing_burn)
    summary = simulate("double-draw-27", 3, 5, seed=1)
    assert summary.violations and "cards lost" in summary.violations[0].what


def test_an_action_the_engine_refuses_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    def bad_bet(self: Hand, player: int, amount: int) -> None:
        raise IllegalAction("refused on purpose")

    monkeypatch.setattr(Hand, "_verify_raise", bad_bet)
    summary = simulate("single-draw-27", 3, 50, seed=1)
    assert summary.violations and "refused a legal action" in summary.violations[0].what


def test_simulate_command_exits_1_and_names_the_hand_on_a_violation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(hand_module, "split_pot", lambda amount, winners: split_pot(amount + 1, winners))
    assert simulate_command("assassin", 4, 30, 5) == 1
    out = capsys.readouterr()
    assert "VIOLATION in assassin, hand 1" in out.err and "seed 5" in out.err and "chips created" in out.err


# --- the command line ----------------------------------------------------------------------------------------------


def run_bot(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def test_command_line_simulate_prints_the_rate_and_exits_0() -> None:
    result = run_bot("simulate", "--game", "triple-draw-27", "--players", "6", "--hands", "200", "--seed", "1")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("hands/s: ") and int(first.split()[1]) > 0
    assert "200 hands of triple-draw-27" in result.stdout
    assert "violations: 0" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "texas-holdem", "--players", "6"], "unknown game 'texas-holdem'"),
        (["--game", "five-card-draw", "--players", "1"], "at least 2 players"),
        (["--game", "triple-draw-27", "--players", "9"], "for 2 to 6 players, not 9"),
        (["--game", "triple-draw-27", "--players", "7"], "for 2 to 6 players, not 7"),
        (["--game", "dealers-choice", "--players", "11"], "dealer's choice is for 2 to 10 players"),
        (["--game", "assassin", "--players", "4", "--hands", "-5"], "--hands must be at least 1, not -5"),
    ],
)
def test_command_line_rejects_bad_arguments_with_a_clear_message(args: list[str], message: str) -> None:
    result = run_bot("simulate", *args)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert "hands/s" not in result.stdout


def test_simulate_command_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_command("dealers-choice", 8, 40, 3) == 0
    out = capsys.readouterr().out
    assert out.startswith("hands/s: ")
    assert "hands per game:" in out and "biggest pot:" in out and "carried pots:" in out
