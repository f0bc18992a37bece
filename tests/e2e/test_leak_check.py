"""The hole-card check every bot test ends with (``conftest_bot.leaked_cards``) knows the stud games: a player's
up cards may be shown in the channel during the hand, his down cards never."""

from __future__ import annotations

import json
from dataclasses import asdict

from bot.poker import GAMES
from bot.tables import TableSettings
from bot.tables.table import stored_hand
from tests.e2e.conftest_bot import PlayedHand, Version, card_pattern, leaked_cards, replay


def test_a_stud_players_up_cards_are_public_and_his_down_cards_secret() -> None:
    stakes = TableSettings("stud", 5, 10).stakes_for(GAMES["stud"])
    settings = {"stakes": {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(stakes).items()}}
    record = {"game": "stud", "settings": json.dumps(settings), "stacks_before": json.dumps([200, 200, 200]),
              "seed": 7, "carried_in": 0}
    hand = stored_hand("stud", settings, [200, 200, 200], 7)
    up = {c for p in range(3) for c in hand.up_cards(p)}
    down = {c for cards in hand.holes for c in cards} - up
    assert len(up) == 3 and len(down) == 6
    held, public = replay(record, [])
    assert public == up and held - public == down

    played = PlayedHand(1, 1, 55, 10.0, 20.0, frozenset(held - public), frozenset(public))
    showing_up = Version(11.0, 900, 55, " ".join(c.pretty() for c in up))
    assert leaked_cards([played], [showing_up]) == []
    one_down = sorted(down, key=str)[0]
    assert card_pattern(one_down).search(one_down.pretty())
    showing_down = Version(12.0, 901, 55, f"bob {one_down.pretty()}")
    [problem] = leaked_cards([played], [showing_down])
    assert one_down.pretty() in problem


def test_an_earlier_pages_cards_shown_again_are_no_leak_but_a_new_card_on_it_is() -> None:
    """Hand #1's page, edited during hand #2 with a line more, still shows hand #1's showdown: those cards were
    public before hand #2 began, even when hand #2's deck deals them again. A card it did not show before is."""
    hand = stored_hand("five-card-draw", {"stakes": {"structure": "no-limit", "small_blind": 5, "big_blind": 10}},
                       [200, 200], 3)
    held = [c for cards in hand.holes for c in cards]
    second = PlayedHand(2, 2, 55, 20.0, 30.0, frozenset(held), frozenset())
    old_text = f"🏆 bob wins 20\\nbob: {held[0].pretty()}"
    versions = [Version(15.0, 900, 55, old_text), Version(21.0, 900, 55, old_text + "\\ndave 1,000 · waiting")]
    assert leaked_cards([second], versions) == []
    versions.append(Version(22.0, 900, 55, old_text + f"\\ndave {held[1].pretty()}"))
    [problem] = leaked_cards([second], versions)
    assert held[1].pretty() in problem and "message 900" in problem
