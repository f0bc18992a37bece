"""docs/rules.md, the house rules the README links, is the text ``bot.rules_text`` writes (``python -m bot rules``):
the document cannot drift from what ``/poker rules`` says and the engine does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.poker.rotation import DEFAULT_BUY_INS, TIMEOUTS_TO_SIT_OUT
from bot.rules_text import MIXED_PAGE_IDS, RULE_GAMES, rules_markdown, rules_page
from bot.tables.settings import DEFAULT_CLOCK
from bot.tournament.table_rules import REBUY_WAIT

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"


def test_the_document_is_the_rules_text() -> None:
    assert DOC.read_text() == rules_markdown(), "docs/rules.md is out of date: python -m bot rules > docs/rules.md"


def test_python_m_bot_rules_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == rules_markdown()


def test_it_tells_every_game_and_the_numbers_the_bot_plays_by() -> None:
    text = rules_markdown()
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert headings == ["The games", *(rules_page(g).title for g in RULE_GAMES), rules_page(MIXED_PAGE_IDS[0]).title,
                        "Chips, nights and tournaments"]
    assert len(headings) == 22 and "Razz" in headings and "Mixed games" in headings
    assert f"Clock: {DEFAULT_CLOCK} s a move" in text and TIMEOUTS_TO_SIT_OUT == 2 and "in two hands in a row" in text
    assert f"from {DEFAULT_BUY_INS[0]} to {DEFAULT_BUY_INS[1]} big blinds" in text
    assert f"it waits {REBUY_WAIT:g} seconds" in text
    assert text.count("### At the table") == 1  # a section said once, not in every game's page


def test_the_readme_links_it() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "](docs/rules.md)" in readme
    assert "RULES.md" not in readme  # the project's specification is not part of the repository
