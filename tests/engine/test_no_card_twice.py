"""No card is ever in two places (docs/rules.md sections 2.2 and 22.3; issue 10 section 2).

A replay checks every dealt card against the deck. Whatever the deck does not
know (cards nobody saw, ``??``, such as every burn), it must refuse a card that
a player holds at that moment, his own newly dealt cards included, also after
the muck was reshuffled. Histories here are real hands played to exhaust the
stub, then partly hidden (``??``) and forged.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.poker import GAMES, Card, Hand, Stakes, parse_cards
from bot.poker.phh import ReplayError, export_phh, replay
from bot.tools.simulate import check_hand
from tests.engine.helpers import with_actions

ROOT = Path(__file__).resolve().parents[2]
PROFILE = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DRAW_GAMES = [g for g in sorted(GAMES) if GAMES[g].draws >= 1]


def cards_held_twice(history: list[str]) -> list[str]:
    """Walk a history and name every moment a known card is in two places: two hands, or twice in one.

    ``d dh`` adds cards to a hand, ``sd``/``sdu`` take the named cards out (a card named where the hand
    held ``??`` is one nobody had seen), ``f`` empties the hand, ``sm CARDS`` shows it.
    """
    hands: dict[str, list[Card]] = {}
    problems: list[str] = []

    def check(card: Card, where: str) -> None:
        if card.is_unknown:
            return
        holders = [p for p, held in hands.items() if card in held]
        if holders:
            problems.append(f"{where}: {card} is already in {holders[0]}'s hand")

    for number, action in enumerate(history, start=1):
        words = action.split()
        where = f"action {number} {action!r}"
        if words[0] == "d":
            player, dealt = words[2], parse_cards(words[3])
            for card in dealt:
                check(card, where)
                hands.setdefault(player, []).append(card)
            continue
        player, verb = words[0], words[1]
        held = hands.setdefault(player, [])
        if verb in ("sd", "sdu") and len(words) > 2:
            for card in parse_cards(words[2]):
                if card in held:
                    held.remove(card)
                else:
                    check(card, where)  # a card nobody had seen: it must not be in another hand either
                    held.remove(next(c for c in held if c.is_unknown))
        elif verb == "f" or (verb == "sm" and len(words) == 2):
            held.clear()
        elif verb == "sm":
            shown = parse_cards(words[2])
            hands[player] = []
            for card in shown:
                check(card, where)
                hands[player].append(card)
    return problems


def play_to_exhaustion(game: str, players: int, seed: int, fold_rate: float) -> Hand:
    """A hand where everyone throws most of his cards at every draw (the stub runs out) and some fold."""
    rng = random.Random(seed)
    hand = Hand(game, Stakes("no-limit", 1, 2), [40] * players, seed=seed)
    while not hand.is_complete:
        legal = hand.legal()
        if legal.phase == "drawing":
            if rng.random() < fold_rate / 2 and len(hand.in_hand()) > 2:
                hand.act("f")
                continue
            count = min(legal.max_discards, len(legal.hand) - rng.randint(0, 1))
            hand.act("sd " + "".join(c.code for c in rng.sample(legal.hand, count)))
        elif legal.call_amount and rng.random() < fold_rate:
            hand.act("f")
        else:
            hand.act("cc")
    return hand


def hide(history: list[str], rng: random.Random, rate: float) -> list[str]:
    """The history with some ``d dh`` lines' cards replaced by cards nobody saw."""
    out = []
    for action in history:
        words = action.split()
        if words[0] == "d" and rng.random() < rate:
            action = f"d dh {words[2]} " + "??" * (len(words[3]) // 2)
        out.append(action)
    return out


def held_at(history: list[str], index: int) -> dict[str, list[Card]]:
    """The known cards in each hand just before action ``index`` (0-based)."""
    hands: dict[str, list[Card]] = {}
    for action in history[:index]:
        words = action.split()
        if words[0] == "d":
            hands.setdefault(words[2], []).extend(parse_cards(words[3]))
        elif words[1] in ("sd", "sdu") and len(words) > 2:
            held = hands.setdefault(words[0], [])
            for card in parse_cards(words[2]):
                held.remove(card if card in held else next(c for c in held if c.is_unknown))
        elif words[1] == "f":
            hands[words[0]] = []
    return {p: [c for c in cards if not c.is_unknown] for p, cards in hands.items()}


@st.composite
def exhausted_hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    game = draw(st.sampled_from(DRAW_GAMES), label="game")
    players = draw(st.integers(max(2, GAMES[game].max_players - 2), GAMES[game].max_players), label="players")
    hand = play_to_exhaustion(game, players, draw(st.integers(0, 10**6), label="seed"),
                              draw(st.sampled_from([0.0, 0.1, 0.3]), label="fold rate"))
    return hand, random.Random(draw(st.integers(0, 10**6), label="edits"))


# --- live play --------------------------------------------------------------------------------------------------------


@PROFILE
@given(exhausted_hands())
def test_live_hands_never_hold_a_card_twice_even_after_reshuffles(case: tuple[Hand, random.Random]) -> None:
    hand, _ = case
    assert cards_held_twice(hand.history) == []
    assert check_hand(hand) == []
    event(f"reshuffled: {hand.deck.reshuffles > 0}")


# --- replays ----------------------------------------------------------------------------------------------------------


@PROFILE
@given(exhausted_hands(), st.sampled_from([0.0, 0.2, 0.5]))
def test_a_history_with_unseen_cards_replays_and_never_holds_a_card_twice(
    case: tuple[Hand, random.Random], rate: float
) -> None:
    hand, rng = case
    history = hide(hand.history, rng, rate)
    again = replay(with_actions(export_phh(hand), history))
    assert again.stacks == hand.stacks
    assert cards_held_twice(again.history) == []
    event(f"reshuffled: {again.deck.reshuffles > 0}")


@PROFILE
@given(exhausted_hands(), st.sampled_from([0.0, 0.2, 0.5]), st.sampled_from(["held", "held", "own", "any"]))
def test_a_replay_refuses_a_card_a_player_holds_at_that_moment(
    case: tuple[Hand, random.Random], rate: float, kind: str
) -> None:
    hand, rng = case
    # Without the showdown lines: the forged hand would no longer be the one shown.
    history = [a for a in hide(hand.history, rng, rate) if a.split()[1] != "sm"]
    deals = [k for k, a in enumerate(history) if a.startswith("d dh") and k >= hand.players and "??" not in a]
    if not deals:
        return
    k = rng.choice(deals)
    player, dealt = history[k].split()[2], parse_cards(history[k].split()[3])
    others = [c for p, cards in held_at(history, k).items() if p != player for c in cards]
    if kind == "own" and len(dealt) > 1:
        forged = [*dealt[:-1], dealt[0]]  # his own card, dealt a moment ago in this very deal
    elif kind == "held" and others:
        forged = [*dealt[:-1], rng.choice(others)]  # a card in another hand
    else:
        forged = [*dealt[:-1], rng.choice(sorted(hand.deck.universe, key=str))]
    history[k] = f"d dh {player} " + "".join(c.code for c in forged)
    held_twice = cards_held_twice(history[: k + 1])
    try:
        again = replay(with_actions(export_phh(hand), history))
    except ReplayError as error:
        if held_twice:  # a card visibly in two places: refused at that very deal
            assert str(error).startswith(f"action {k + 1} {history[k]!r}"), (held_twice, str(error))
        event(f"refused ({'held' if held_twice else 'another reason'})")
        return
    assert not held_twice, f"accepted {history[k]!r}: {held_twice}"
    assert cards_held_twice(again.history) == []
    event("accepted")


# --- the examples ---------------------------------------------------------------------------------------------------


def exhausted_history() -> tuple[Hand, list[str], int]:
    """Seven players call and throw five cards each: p4's replacements start in the stub and end in the
    reshuffled muck (36 cards dealt and burned, p1 to p3 take 15, p4 the last one and four from the muck)."""
    hand = Hand("single-draw-27", Stakes("no-limit", 1, 2), [50] * 7, seed=0)
    while not hand.is_complete:
        legal = hand.legal()
        hand.act("sd " + "".join(c.code for c in legal.hand) if legal.phase == "drawing" else "cc")
    history = list(hand.history)
    k = next(i for i, a in enumerate(history) if a.startswith("d dh p4 ") and i >= 7)
    assert hand.deck.reshuffles == 2  # at p4's draw, and at p7's
    return hand, history, k


def test_after_a_reshuffle_with_unseen_burns_a_player_is_never_dealt_his_own_new_card_again() -> None:
    hand, history, k = exhausted_history()
    served = parse_cards(history[k].split()[3])
    history[k] = "d dh p4 " + "".join(c.code for c in [served[0], served[0], *served[2:]])
    with pytest.raises(ReplayError, match=rf"action {k + 1} 'd dh p4 .*p4 is dealt {served[0]} twice"):
        replay(with_actions(export_phh(hand), history))


def test_after_a_reshuffle_with_unseen_burns_a_card_in_another_hand_is_refused() -> None:
    hand, history, k = exhausted_history()
    served = parse_cards(history[k].split()[3])
    theirs = held_at(history, k)["p1"][0]
    history[k] = "d dh p4 " + "".join(c.code for c in [*served[:-1], theirs])
    with pytest.raises(ReplayError, match=rf"action {k + 1} 'd dh p4 .*{theirs} is in p1's hand"):
        replay(with_actions(export_phh(hand), history))


def test_a_card_held_unseen_since_the_deal_is_shown_after_the_muck_was_reshuffled() -> None:
    # p1's hand is unseen; he keeps one card. The stub runs out twice, the second time with only known
    # cards in the muck: the new stub is known, yet p1's kept card is in none of those places.
    hand = play_to_exhaustion("single-draw-a5", 7, 0, 0.0)
    assert hand.deck.reshuffles == 2
    history = list(hand.history)
    history[0] = "d dh p1 " + "??" * 5
    again = replay(with_actions(export_phh(hand), history))
    assert again.stacks == hand.stacks and again.holes[0] == hand.holes[0]
    # ... but a card known to be in the muck cannot be his.
    shown = next(i for i, a in enumerate(history) if a.startswith("p1 sm "))
    thrown = parse_cards(next(a for a in history if a.startswith("p7 sd ")).split()[2])[0]  # in the muck now
    kept = parse_cards(history[shown].split()[2])[0]
    history[shown] = history[shown].replace(kept.code, thrown.code)
    with pytest.raises(ReplayError, match=f"{thrown} cannot be in p1's hand"):
        replay(with_actions(export_phh(hand), history))


def test_replay_command_exits_2_naming_the_action_that_deals_a_held_card(tmp_path: Path) -> None:
    hand, history, k = exhausted_history()
    served = parse_cards(history[k].split()[3])
    history[k] = "d dh p4 " + "".join(c.code for c in [served[0], served[0], *served[2:]])
    path = tmp_path / "forged.phh"
    path.write_text(with_actions(export_phh(hand), history), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert f"action {k + 1} 'd dh p4 " in done.stderr and "twice" in done.stderr
