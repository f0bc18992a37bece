"""The tournament's texts in a reader's language: levels, breaks, the schedule and the payouts come through the
catalogue (the pseudo-language wraps each text in ``⟦…⟧``; amounts are numbers), German writes a percentage with a
decimal comma; English unchanged."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogue import PSEUDO, language
from bot.tournament import Break, Level, default_structure, format_levels, format_payouts, parse_levels

PSEUDO_LANGUAGE = language(PSEUDO)


def unworded(text: str) -> str:
    """What of a text worded in the pseudo-language did not come through the catalogue (each ``⟦…⟧`` removed)."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    return text


@pytest.mark.parametrize(("level", "structure", "english"), [
    (Level(25, 50), None, "25/50"),
    (Level(25, 50, 5), "no-limit", "25/50, ante 5"),
    (Level(25, 50), "fixed-limit", "25/50, bets 50/100"),
    (Level(1000, 2000, 250), "fixed-limit", "1000/2000, bets 2000/4000, ante 250"),
])
def test_a_level_comes_through_the_catalogue(level: Level, structure: str | None, english: str) -> None:
    assert level.describe(structure) == english  # type: ignore[arg-type]
    pseudo = level.describe(structure, lang=PSEUDO_LANGUAGE)  # type: ignore[arg-type]
    assert not re.search("[A-Za-z]", unworded(pseudo))
    assert re.sub("[⟦⟧]", "", pseudo) == english


def test_a_break_and_the_schedule_come_through_the_catalogue() -> None:
    assert Break(7.5).describe() == "break, 7.5 min"
    assert Break(10).describe(lang=PSEUDO_LANGUAGE) == "⟦break, 10 min⟧"
    schedule = default_structure("no-limit", 1500, 10, break_every=3)
    english, pseudo = format_levels(schedule), format_levels(schedule, lang=PSEUDO_LANGUAGE)
    assert "break 10" in english and "⟦break 10⟧" in pseudo
    assert not re.search("[A-Za-z]", unworded(pseudo))
    assert re.sub("[⟦⟧]", "", pseudo) == english
    assert format_levels(parse_levels(english)) == english  # the English is what the host types


def test_a_falling_level_is_named_in_the_readers_language() -> None:
    with pytest.raises(ValueError) as caught:
        parse_levels("10/20/5, 15/30/10, 10/40/10")
    assert str(caught.value.args[0]) == ("level 3 (10/40, ante 10): the small blind falls from 15 to 10; blinds and "
                                         "antes must rise or stay equal")
    worded = caught.value.args[0].worded(PSEUDO_LANGUAGE)
    assert "(⟦10/40, ante 10⟧)" in worded and not unworded(worded)


def test_payouts_with_the_languages_decimal_sign() -> None:
    shares = (3334, 3333, 3333)
    assert format_payouts(shares) == format_payouts(shares, lang=PSEUDO_LANGUAGE) == "33.34/33.33/33.33"
    assert format_payouts(shares, lang=language("de")) == "33,34/33,33/33,33"
    assert format_payouts((5000, 3000, 2000), lang=language("fr")) == "50/30/20"
    assert format_payouts((8750, 1250), lang=language("pt_BR")) == "87,5/12,5"
