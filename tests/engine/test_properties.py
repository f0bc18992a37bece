"""Property tests of the hand engine with hypothesis (docs/rules.md sections 2 to 13).

Random game, structure, number of players, stacks (short stacks go all in on
the blinds and antes), antes, carried chips, table options and seed, then a
random sequence of actions, each drawn from what ``hand.legal()`` allows. After
every action: no chip created or lost, no card in two places, the player to
act has something legal to do; at the end the hand is over within a bounded
number of actions, and replaying ``hand.actions`` on a new hand with the same
seed reproduces it exactly.

Hypothesis runs derandomized with a fixed number of examples, so CI sees the
same cases every time.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.poker import DRAW_GAMES, DRAW_LIMITS, STRUCTURES, Hand, Legal, Stakes, format_cards

PROFILE = settings(
    max_examples=1500,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """The arguments of a Hand: game, stakes, stacks and options."""
    game_id = draw(st.sampled_from(sorted(DRAW_GAMES)))
    game = DRAW_GAMES[game_id]
    structure = draw(st.sampled_from(STRUCTURES))
    players = draw(st.integers(2, game.max_players))
    big = draw(st.sampled_from([2, 4, 10]))
    small = draw(st.sampled_from([big // 2, big]))
    antes_only = not game.is_lowball and draw(st.integers(0, 4)) == 0
    ante_kind = "common" if antes_only else draw(st.sampled_from(["none", "none", "common", "per-seat"]))
    ante, antes = 0, None
    if ante_kind == "common":
        ante = draw(st.integers(1, big))
    elif ante_kind == "per-seat":
        antes = tuple(draw(st.lists(st.integers(0, big), min_size=players, max_size=players)))
    min_bet = None
    if antes_only:
        min_bet = big
    stakes = Stakes(
        structure,
        0 if antes_only else small,
        0 if antes_only else big,
        ante=ante,
        antes=antes,
        min_bet=min_bet,
        big_bet_round=draw(st.sampled_from([None, None, 1, 2, 3])),
        raise_cap=draw(st.sampled_from([4, 5])),
    )
    stack = st.one_of(st.integers(1, 2 * big), st.integers(big, 60 * big))  # short stacks all in on the blinds
    return {
        "game": game_id,
        "stakes": stakes,
        "stacks": draw(st.lists(stack, min_size=players, max_size=players)),
        "seed": draw(st.integers(0, 2**32 - 1)),
        "carried_in": draw(st.sampled_from([0, 0, 0, 1, 13])),
        "jokers": game.assassin and draw(st.booleans()),
        "draw_limit": draw(st.sampled_from(DRAW_LIMITS)) if game.allows_draw_limit else "none",
    }


def choose(data: st.DataObject, hand: Hand, legal: Legal) -> str:
    """A random action among those ``legal`` allows."""
    if legal.phase == "drawing":
        cards = list(legal.hand)
        count = data.draw(st.integers(0, legal.max_discards), label="discards")
        if count == 4 and hand.draw_limit == "3-or-4-with-ace":
            keep = data.draw(st.sampled_from([c for c in cards if c.rank == 14]), label="ace kept")
            thrown = [c for c in cards if c is not keep]
        else:
            thrown = data.draw(st.permutations(cards), label="order")[:count]
        face_up = any(c.is_two for c in thrown) and legal.face_up_twos and data.draw(st.booleans(), label="up")
        verb = "sdu" if face_up else "sd"
        return f"{verb} {format_cards(thrown)}" if thrown else "sd"
    assert legal.phase == "betting"
    options = ["cc", "cc", "f"]
    if legal.can_raise:
        options += ["min", "max", "between"]
    choice = data.draw(st.sampled_from(options), label="action")
    if choice in ("cc", "f"):
        return choice
    lo, hi = legal.min_raise_to, legal.max_raise_to
    amount = {"min": lo, "max": hi}.get(choice) or data.draw(st.integers(lo, hi), label="amount")
    return f"cbr {amount}"


def check_cards(hand: Hand) -> None:
    """Live hands, the muck and the stub hold every card of the deck exactly once."""
    live = [c for i in hand.in_hand() for c in hand.holes[i]]
    stub = hand.deck.unseen()
    assert len(stub) == hand.deck.stub_size
    every = live + list(hand.deck.muck) + list(stub)
    assert len(every) == len(set(every)), "a card is in two places"
    assert set(every) == set(hand.deck.universe), "a card went missing"


def check_chips(hand: Hand, start: int) -> None:
    assert all(s >= 0 for s in hand.stacks)
    if hand.is_complete:
        assert sum(hand.stacks) + hand.carried_out == start + hand.carried_in
    else:
        assert sum(hand.stacks) + sum(hand.contributed) == start
        assert hand.pot_total == sum(hand.contributed) + hand.carried_in


def check_actor(hand: Hand) -> Legal:
    """The hand is waiting for someone, who has a legal action."""
    assert hand.actor is not None
    legal = hand.legal()
    assert legal.player == hand.actor
    assert not hand.folded[legal.player]
    if legal.phase == "betting":
        assert hand.stacks[legal.player] > 0  # an all-in player is never asked to act
        assert 0 <= legal.call_amount <= hand.stacks[legal.player]
        assert legal.can_check == (legal.call_amount == 0)
        if legal.can_raise:
            assert 0 < legal.min_raise_to <= legal.max_raise_to <= hand.bets[legal.player] + hand.stacks[legal.player]
    else:
        assert legal.phase == "drawing"
        assert 0 <= legal.max_discards <= len(legal.hand)
    return legal


def action_bound(hand: Hand) -> int:
    """Each raise lifts the bet by at least one unit or puts someone all in; between raises everyone acts once."""
    game, stakes, n = hand.game, hand.stakes, hand.players
    unit = max(1, min(stakes.unit(r, game.default_big_bet_round) for r in range(1, game.betting_rounds + 1)))
    raises = max(hand.starting_stacks) // unit + n
    return game.betting_rounds * n * (raises + 1) + game.draws * n


def new_hand(table: dict[str, Any]) -> Hand:
    return Hand(table["game"], table["stakes"], table["stacks"], seed=table["seed"], carried_in=table["carried_in"],
                jokers=table["jokers"], draw_limit=table["draw_limit"])


@PROFILE
@given(table=tables(), data=st.data())
def test_random_legal_play_conserves_chips_and_cards_and_replays(table: dict[str, Any], data: st.DataObject) -> None:
    hand = new_hand(table)
    start = sum(table["stacks"])
    bound = action_bound(hand)
    check_chips(hand, start)
    check_cards(hand)
    steps = 0
    while not hand.is_complete:
        legal = check_actor(hand)
        hand.act(choose(data, hand, legal))
        steps += 1
        assert steps <= bound, f"the hand did not end within {bound} actions"
        check_chips(hand, start)
        check_cards(hand)
    assert hand.actor is None
    assert len(hand.actions) == steps
    event(f"rounds played: {hand.round + 1} of {hand.game.betting_rounds}")
    event("showdown" if hand.shown else "uncontested")
    event(f"reshuffled: {hand.deck.reshuffles > 0}")
    event(f"carried: {hand.carried_out > 0}")
    event(f"all in: {any(s == 0 for s in hand.stacks) or any(hand.is_all_in(i) for i in range(hand.players))}")

    replay = new_hand(table)
    for action in hand.actions:
        replay.act(action)
    assert replay.is_complete
    assert replay.stacks == hand.stacks
    assert replay.carried_out == hand.carried_out
    assert replay.holes == hand.holes
    assert replay.history == hand.history
    assert replay.events == hand.events


@PROFILE
@given(table=tables())
def test_default_actions_always_finish_the_hand(table: dict[str, Any]) -> None:
    """The action clock's choice (check, else fold; stand pat) is always legal and ends the hand."""
    hand = new_hand(table)
    start = sum(table["stacks"])
    steps = 0
    while not hand.is_complete:
        check_actor(hand)
        hand.act(hand.default_action())
        steps += 1
        assert steps <= action_bound(hand)
    check_chips(hand, start)
    check_cards(hand)
