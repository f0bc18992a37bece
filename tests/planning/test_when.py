"""Reading the start of a planned night as a host types it, in the server's time zone (bot.planning.when)."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.planning import PlanError, local_time, parse_when, time_zone, zone_names

BERLIN = "Europe/Berlin"


def at(zone: str, *args: int) -> int:
    return int(datetime.datetime(*args, tzinfo=ZoneInfo(zone)).timestamp())


WEDNESDAY_3PM = at(BERLIN, 2026, 12, 2, 15, 0)  # Wednesday 2 December 2026, 15:00 in Berlin


@pytest.mark.parametrize(("text", "expected"), [
    ("friday 20:00", at(BERLIN, 2026, 12, 4, 20, 0)),
    ("Friday 8 pm", at(BERLIN, 2026, 12, 4, 20, 0)),
    ("2026-12-11 20:00", at(BERLIN, 2026, 12, 11, 20, 0)),
    ("in 2 hours", WEDNESDAY_3PM + 7200),
    ("tomorrow 8pm", at(BERLIN, 2026, 12, 3, 20, 0)),
    ("14:00", at(BERLIN, 2026, 12, 3, 14, 0)),  # a time alone that has passed today is tomorrow's
    ("2026-07-03 20:00", None),  # past (in July)
])
def test_what_hosts_type_is_read_in_the_servers_zone(text: str, expected: int | None) -> None:
    if expected is None:
        with pytest.raises(PlanError, match="has passed"):
            parse_when(text, BERLIN, WEDNESDAY_3PM)
    else:
        assert parse_when(text, BERLIN, WEDNESDAY_3PM) == expected


@pytest.mark.parametrize(("language", "text"), [
    ("de", "freitag 20:00"), ("fr", "vendredi 20:00"), ("es", "viernes 20:00"), ("pt_BR", "sexta-feira 20:00"),
    ("de", "friday 20:00"),  # English is read in every language
])
def test_a_host_types_the_time_in_his_own_language(language: str, text: str) -> None:
    assert parse_when(text, BERLIN, WEDNESDAY_3PM, language=language) == at(BERLIN, 2026, 12, 4, 20, 0)


def test_another_language_is_not_read_unless_it_is_the_hosts() -> None:
    with pytest.raises(PlanError, match="cannot read"):
        parse_when("freitag 20:00", BERLIN, WEDNESDAY_3PM)
    assert parse_when("dans 2 heures", BERLIN, WEDNESDAY_3PM, language="fr") == WEDNESDAY_3PM + 7200


def test_the_same_words_in_another_zone_are_another_moment() -> None:
    berlin = parse_when("2026-12-11 20:00", BERLIN, WEDNESDAY_3PM)
    new_york = parse_when("2026-12-11 20:00", "America/New_York", WEDNESDAY_3PM)
    assert new_york - berlin == 6 * 3600
    summer = parse_when("2027-07-02 20:00", BERLIN, WEDNESDAY_3PM)  # daylight saving time: UTC+2
    assert datetime.datetime.fromtimestamp(summer, datetime.UTC).hour == 18


@pytest.mark.parametrize(("text", "words"), [
    ("banana", "cannot read “banana”"),
    ("", "Say when"),
    ("yesterday 20:00", "has passed"),
    ("1 hour ago", "has passed"),
    ("2028-01-01 20:00", "at most a year ahead"),
])
def test_what_cannot_be_a_start_is_refused_with_what_to_type(text: str, words: str) -> None:
    with pytest.raises(PlanError, match=words) as refused:
        parse_when(text, BERLIN, WEDNESDAY_3PM)
    assert "friday 20:00" in str(refused.value) or "year" in str(refused.value)


def test_time_zones_by_name_in_any_case_and_the_unknown_with_suggestions() -> None:
    assert time_zone("europe/berlin") == BERLIN
    assert time_zone(" America/New York ") == "America/New_York"
    assert time_zone("UTC") == "UTC"
    with pytest.raises(PlanError, match="Did you mean Europe/Berlin") as refused:
        time_zone("Europe/Berln")
    assert "not a time zone I know" in str(refused.value)
    with pytest.raises(PlanError, match="not a time zone"):
        time_zone("../../etc/passwd")
    names = zone_names("berl")
    assert names[0] == BERLIN and all("berl" in n.lower() for n in names)
    assert len(zone_names("")) == 25


def test_local_time_is_the_servers_clock() -> None:
    assert local_time(at(BERLIN, 2026, 12, 11, 20, 0), BERLIN) == "Friday 11 December 2026, 20:00 (Europe/Berlin)"
