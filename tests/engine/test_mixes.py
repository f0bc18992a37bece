"""Rotations of a mixed night (docs/rules.md section 21): HORSE, the 8-game mix and the host's list, one orbit of each
game, and the button standing still during stud in a rotation."""

from __future__ import annotations

import pytest

from bot.poker import GAMES, stakes_for
from bot.poker.mixes import (
    EIGHT_GAME,
    HORSE,
    MixError,
    MixGame,
    MixState,
    button_moves_after,
    check_hands_per_game,
    mix_games,
    most_players,
    parse_games,
)


def ids(games: tuple[MixGame, ...]) -> list[str]:
    return [str(entry) for entry in games]


def test_horse_is_fixed_limit_holdem_omaha_hilo_razz_stud_and_stud_hilo_in_order() -> None:
    assert ids(mix_games("horse")) == ["holdem:fixed-limit", "omaha-hilo:fixed-limit", "razz:fixed-limit",
                                       "stud:fixed-limit", "stud-hilo:fixed-limit"]
    assert mix_games("horse") is HORSE and most_players(HORSE) == 8


def test_the_eight_game_mix_adds_triple_draw_no_limit_holdem_and_pot_limit_omaha() -> None:
    assert ids(mix_games("eight-game")) == [
        "triple-draw-27:fixed-limit", "holdem:fixed-limit", "omaha-hilo:fixed-limit", "razz:fixed-limit",
        "stud:fixed-limit", "stud-hilo:fixed-limit", "holdem:no-limit", "omaha:pot-limit"]
    assert mix_games("eight-game") is EIGHT_GAME
    assert most_players(EIGHT_GAME) == 6  # 2-7 triple draw seats six


def test_a_hosts_list_takes_each_games_structure_or_its_own_default() -> None:
    games = mix_games("rotation", "holdem:no-limit, omaha:pot, razz, triple-draw-27 ; badugi:FIXED")
    assert ids(games) == ["holdem:no-limit", "omaha:pot-limit", "razz:fixed-limit", "triple-draw-27:fixed-limit",
                          "badugi:fixed-limit"]
    assert parse_games("  big-o ")[0] == MixGame(GAMES["big-o"], "pot-limit")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "List the games of the rotation"),
        (" , ,", "List the games of the rotation"),
        ("holdem, pineapple", "`pineapple` is not a game"),
        ("holdem:spread-limit", r"`spread-limit` \(for holdem\) is not a structure"),
        (",".join(["razz"] * 21), "at most 20 games"),
    ],
)
def test_a_list_that_cannot_be_dealt_is_refused_naming_the_entry(text: str, message: str) -> None:
    with pytest.raises(MixError, match=message):
        parse_games(text)


def test_a_rotation_needs_its_list_and_a_known_name() -> None:
    with pytest.raises(MixError, match="needs its list"):
        mix_games("rotation")
    with pytest.raises(MixError, match="is not a rotation"):
        mix_games("omaha-mix")  # type: ignore[arg-type]


def play(games: tuple[MixGame, ...], dealt: list[int], hands_per_game: int | None = None) -> list[tuple[str, int]]:
    """Deal one hand per entry of ``dealt`` (the players dealt in): the game of each hand and the hands of it
    left before it, as the table message says them."""
    state, seen = MixState(), []
    for players in dealt:
        seen.append((str(state.current(games)), state.hands_left(players, hands_per_game)))
        state = state.after_hand(games, players, hands_per_game)
    return seen


def test_each_game_is_dealt_for_one_orbit_of_the_players_dealt_into_its_first_hand() -> None:
    # Three players: three hands of hold'em; a fourth joins during it and the orbit stays three hands; the
    # next game's orbit counts the four.
    seen = play(HORSE, [3, 4, 4, 4, 4, 4, 4, 4])
    assert seen == [
        ("holdem:fixed-limit", 3), ("holdem:fixed-limit", 2), ("holdem:fixed-limit", 1),
        ("omaha-hilo:fixed-limit", 4), ("omaha-hilo:fixed-limit", 3), ("omaha-hilo:fixed-limit", 2),
        ("omaha-hilo:fixed-limit", 1), ("razz:fixed-limit", 4),
    ]


def test_hands_per_game_replaces_the_orbit_and_the_rotation_comes_round_again() -> None:
    seen = play(HORSE, [6] * 6, hands_per_game=1)
    assert [game for game, _ in seen] == [*ids(HORSE), "holdem:fixed-limit"]
    assert all(left == 1 for _, left in seen)
    one = parse_games("razz")
    assert play(one, [2, 2, 2], hands_per_game=2) == [("razz:fixed-limit", 2), ("razz:fixed-limit", 1),
                                                      ("razz:fixed-limit", 2)]


def test_the_state_says_the_game_after_the_current_one() -> None:
    state = MixState()
    assert str(state.upcoming(HORSE)) == "omaha-hilo:fixed-limit"
    state = state.after_hand(HORSE, 2, None).after_hand(HORSE, 2, None)  # hold'em's orbit of two is over
    assert str(state.current(HORSE)) == "omaha-hilo:fixed-limit" and str(state.upcoming(HORSE)) == "razz:fixed-limit"
    last = MixState(index=4, dealt=5, hands=5)
    assert str(last.current(HORSE)) == "holdem:fixed-limit"  # back to the first game


def test_a_restored_state_goes_on_at_the_same_game_and_count() -> None:
    state = MixState().after_hand(EIGHT_GAME, 5, None).after_hand(EIGHT_GAME, 5, None)
    again = MixState(state.index, state.dealt, state.hands)  # what the table stores and reads back
    assert again == state and again.hands_left(5, None) == 3 and str(again.current(EIGHT_GAME)) == str(
        EIGHT_GAME[0])


def test_hands_per_game_is_one_or_more() -> None:
    assert check_hands_per_game(None) is None and check_hands_per_game(3) == 3
    for bad in (0, -1, True):
        with pytest.raises(MixError, match="at least one hand"):
            check_hands_per_game(bad)


def test_the_button_stands_still_during_stud_in_a_rotation_and_moves_after_every_other_hand() -> None:
    for entry in HORSE:
        assert button_moves_after(entry.game, in_rotation=True) is (not entry.game.is_stud)
        assert button_moves_after(entry.game, in_rotation=False)  # dealer's choice: after every hand
    assert button_moves_after(GAMES["triple-draw-27"], in_rotation=True)


def test_one_stake_for_every_game_maps_the_blinds_to_each_game_of_horse() -> None:
    # docs/rules.md section 21.6: blinds 5/10; fixed limit bets 10/20; stud antes 2 (10/5) and brings in 3 (10/4 rounded
    # up).
    seen = {str(entry): stakes_for(entry.game, entry.structure, 5, 10) for entry in HORSE}
    holdem = seen["holdem:fixed-limit"]
    assert (holdem.small_blind, holdem.big_blind, holdem.small, holdem.big, holdem.bring_in) == (5, 10, 10, 20, 0)
    for stud in ("razz:fixed-limit", "stud:fixed-limit", "stud-hilo:fixed-limit"):
        stakes = seen[stud]
        assert (stakes.small_blind, stakes.big_blind, stakes.ante, stakes.bring_in) == (0, 0, 2, 3)
        assert (stakes.small, stakes.big) == (10, 20)
    tiny = stakes_for(GAMES["stud"], "no-limit", 1, 2)
    assert (tiny.ante, tiny.bring_in, tiny.unit(1)) == (1, 1, 2)  # at least 1, and the bring-in at least the ante


def test_a_bring_in_above_the_small_bet_or_below_the_ante_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be larger than the small bet"):
        stakes_for(GAMES["razz"], "fixed-limit", 5, 10, bring_in=11)
    with pytest.raises(ValueError, match="at least the ante"):
        stakes_for(GAMES["razz"], "fixed-limit", 5, 10, stud_ante_amount=4, bring_in=3)
