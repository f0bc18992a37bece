"""What a table deals, as its title and a planned night's name: a game, a rotation or dealer's choice."""

from __future__ import annotations

from bot.tables import TableSettings
from cogs.plans._message import game_name
from cogs.render import stakes_line, table_name


def test_a_table_is_named_by_its_game_or_its_rotation() -> None:
    assert table_name(TableSettings("razz", 5, 10)) == "Razz"
    assert table_name(TableSettings("horse", 5, 10)) == "HORSE"
    assert table_name(TableSettings("eight-game", 5, 10)) == "8-Game"
    assert table_name(TableSettings("dealers-choice", 5, 10)) == "Dealer's choice"
    mine = TableSettings("rotation", 5, 10, game_list="holdem:no, omaha, razz:pot")
    assert table_name(mine) == "Rotation: Texas Hold'em, Omaha, Razz PL"


def test_a_planned_night_names_a_rotation() -> None:
    assert [game_name(g) for g in ("horse", "eight-game", "dealers-choice", "stud")] == [
        "HORSE", "8-Game", "Dealer's choice", "Seven Card Stud"]


def test_the_stakes_line_of_a_mixed_table_gives_the_stud_games_their_ante_and_bring_in() -> None:
    horse = stakes_line(TableSettings("horse", 5, 10), None)
    assert horse == "Blinds 5/10, each game as listed · stud: ante 2, bring-in 3, bets 10/20"
    razz = TableSettings("razz", 5, 10, stud_ante=1, bring_in=5)
    assert stakes_line(razz, razz.single_game).endswith("stud: ante 1, bring-in 5, bets 10/20")
    assert "stud" not in stakes_line(TableSettings("holdem", 5, 10), None)
