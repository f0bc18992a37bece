"""docs/rules.md, the house rules the README links, is the text ``bot.content.rules_text`` writes (``python -m bot
rules``): the document cannot drift from what ``/poker rules`` says and the engine does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.content.rules_text import MIXED_PAGE_IDS, RULE_GAMES, rules_markdown, rules_page
from bot.i18n.catalogue import PSEUDO, language
from bot.i18n.text import ENGLISH
from bot.poker import GAMES
from bot.poker.rotation import DEFAULT_BUY_INS, TIMEOUTS_TO_SIT_OUT
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
    titles = ["The games", *(rules_page(g).title for g in RULE_GAMES), rules_page(MIXED_PAGE_IDS[0]).title,
              "Chips, nights and tournaments"]
    assert headings == [f"{number}. {title}" for number, title in enumerate(titles, 1)]
    assert len(headings) == 22 and "20. Razz" in headings and "21. Mixed games" in headings
    assert f"Clock: {DEFAULT_CLOCK} s a move" in text and TIMEOUTS_TO_SIT_OUT == 2 and "in two hands in a row" in text
    assert f"from {DEFAULT_BUY_INS[0]} to {DEFAULT_BUY_INS[1]} big blinds" in text
    assert f"it waits {REBUY_WAIT:g} seconds" in text
    assert len(re.findall(r"^### [\d.]+ At the table$", text, flags=re.MULTILINE)) == 1  # said once, not in every page


def test_the_document_can_be_worded_in_another_language() -> None:
    """docs/rules.md is the English; the same document in the pseudo-language has every text in ``⟦…⟧`` (the game
    names of the pages' headings aside), and its own headings numbered the same way."""
    english, pseudo = rules_markdown(), rules_markdown(lang=language(PSEUDO))
    assert rules_markdown(lang=ENGLISH) == english != pseudo
    left = set()
    for line in pseudo.splitlines():
        while (inner := re.sub(r"⟦[^⟦⟧]*⟧", "", line)) != line:
            line = inner
        if re.search(r"[A-Za-z]", line):
            left.add(re.sub(r"^## \d+\. ", "", line))
    assert left == {game.name for game in GAMES.values()}
    numbers = re.compile(r"^(#+ [\d.]+ )", flags=re.MULTILINE)
    assert numbers.findall(pseudo) == numbers.findall(english)


def test_each_section_is_numbered_under_its_page() -> None:
    numbers = [match.groups() for match in re.finditer(r"^(?:## (\d+)\. |### (\d+)\.(\d+) )", rules_markdown(),
                                                         flags=re.MULTILINE)]
    page, section = 0, 0
    for number in numbers:
        if number[0] is not None:
            assert int(number[0]) == page + 1
            page, section = page + 1, 0
        else:
            assert (int(number[1]), int(number[2])) == (page, section + 1)
            section += 1
    assert sum(1 for line in rules_markdown().splitlines() if line.startswith("### ")) == len(numbers) - page


def test_the_readme_links_it() -> None:
    assert "](docs/rules.md)" in (ROOT / "README.md").read_text()


# The rules specification the project was written from is not part of the repository: nothing cites it by name.
_ABSENT_SPEC = "RULES" + ".md"
_CITATION = re.compile(r"docs/rules\.md,? sections? ((?:\d+(?:\.\d+)?(?:,? and |, | to )?)+)")
_CITING = ("bot", "cogs", "bench", "devtools", "tests")


def _sources() -> list[Path]:
    found = [path for folder in _CITING for path in sorted((ROOT / folder).rglob("*.py"))]
    return [*found, ROOT / "README.md"]


def test_nothing_cites_a_rules_file_the_repository_does_not_hold() -> None:
    citing = [f"{path.relative_to(ROOT)}:{n}" for path in _sources()
              for n, line in enumerate(path.read_text().splitlines(), 1) if _ABSENT_SPEC in line]
    assert not citing, f"cite docs/rules.md's numbered sections instead: {citing}"


def test_every_numbered_citation_is_a_section_of_the_rules() -> None:
    text = DOC.read_text()
    sections = set(re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE))
    sections |= set(re.findall(r"^### (\d+\.\d+) ", text, flags=re.MULTILINE))
    cited = {(number, f"{path.relative_to(ROOT)}") for path in _sources()
             for match in _CITATION.finditer(" ".join(path.read_text().split()))
             for number in re.findall(r"\d+(?:\.\d+)?", match.group(1))}
    assert len(cited) > 50  # the engine's comments cite the rules they implement
    assert not {c for c in cited if c[0] not in sections}, "a citation names no section of docs/rules.md"
