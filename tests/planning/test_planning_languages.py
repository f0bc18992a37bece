"""A planned night's texts in a reader's language: the time (weekday and month in the language's words, through
Babel), the Discord event's name; German writes dates and numbers the German way; English unchanged."""

from __future__ import annotations

import datetime
import re
import zoneinfo

import pytest

from bot.i18n.catalogue import PSEUDO, language
from bot.planning import PlanError, event_name, local_time, parse_when

PSEUDO_LANGUAGE = language(PSEUDO)
GERMAN = language("de")
BERLIN = "Europe/Berlin"
FRIDAY_EVENING = datetime.datetime(2026, 12, 11, 20, 0, tzinfo=zoneinfo.ZoneInfo(BERLIN)).timestamp()


def unworded(text: str) -> str:
    """What of a text worded in the pseudo-language did not come through the catalogue (each ``⟦…⟧`` removed)."""
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", text)) != text:
        text = inner
    return text


def test_the_english_time_is_as_it_always_was() -> None:
    assert local_time(FRIDAY_EVENING, BERLIN) == "Friday 11 December 2026, 20:00 (Europe/Berlin)"
    assert local_time(FRIDAY_EVENING, BERLIN, lang=language("en")) == local_time(FRIDAY_EVENING, BERLIN)
    assert local_time(FRIDAY_EVENING, BERLIN, lang=PSEUDO_LANGUAGE) == \
        "⟦Friday 11 December 2026, 20:00 (Europe/Berlin)⟧"


@pytest.mark.parametrize(("code", "date"), [
    ("de", "Freitag, 11. Dezember 2026"),
    ("fr", "vendredi 11 décembre 2026"),
    ("es", "viernes, 11 de diciembre de 2026"),
    ("pt_BR", "sexta-feira, 11 de dezembro de 2026"),
])
def test_a_time_in_the_languages_words(code: str, date: str) -> None:
    worded = local_time(FRIDAY_EVENING, BERLIN, lang=language(code))
    assert date in worded and "20:00" in worded and "(Europe/Berlin)" in worded
    assert "Friday" not in worded and "December" not in worded


def test_a_refusal_names_the_time_in_the_readers_language() -> None:
    now = FRIDAY_EVENING + 3600
    with pytest.raises(PlanError) as caught:
        parse_when("2026-12-11 20:00", BERLIN, now)
    assert str(caught.value).startswith("“2026-12-11 20:00” is Friday 11 December 2026, 20:00 (Europe/Berlin), "
                                        "which has passed.")
    assert "Freitag, 11. Dezember 2026" in caught.value.text.worded(GERMAN)
    assert not unworded(caught.value.text.worded(PSEUDO_LANGUAGE))


def test_the_events_name_in_a_language() -> None:
    assert event_name("Dealer's choice", 1000, 2000) == "Poker night: Dealer's choice 1,000/2,000"
    assert event_name("Dealer's choice", 1, 2, lang=PSEUDO_LANGUAGE) == "⟦Poker night: Dealer's choice 1/2⟧"
    assert "1.000/2.000" in event_name("Razz", 1000, 2000, lang=GERMAN)
    assert len(event_name("x" * 200, 1, 2, lang=GERMAN)) == 100
