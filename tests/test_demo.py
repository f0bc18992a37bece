"""The offline demo (``python -m bot demo``): the real bot plays whole hands against the fake Discord, and the
transcript shows what the channel and each player's DMs showed, with no card leaked before the showdown."""

from __future__ import annotations

import re

import pytest

from bot.__main__ import main
from bot.poker import DRAW_GAMES
from pokerdev.demo import Transcript, run_demo

pytestmark = pytest.mark.e2e

# A card as text (two colours, or four: a blue diamond, a shamrock), or a card emoji.
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♠♥♦♣\U0001f537\u2618]|<:c_[2-9TJQKA][cdhs]_")
PUBLIC_TWOS = re.compile(r"\([^\n()]*? up\)|· up [^·\n]*")  # Assassin's twos thrown face up
PLAYERS = ("alice", "bob", "carol", "dave")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(PUBLIC_TWOS.sub("", text)))


async def test_the_demo_plays_complete_hands_through_the_showdown() -> None:
    transcript: Transcript = await run_demo(hands=3, seed=5, players=4, pace=0.01)

    assert transcript.problems == [], "the fake Discord saw calls Discord would refuse"
    showdowns = transcript.showdowns()
    assert len(showdowns) >= 3
    for number in (1, 2, 3):
        dealt = [e for e in transcript.entries if e.kind == "table" and f" · #{number}\n" in e.text]
        assert dealt, f"the table never showed hand #{number}"
        dms = {e.where for e in transcript.entries if e.kind == "dm" and e.hand == number}
        assert dms == {f"DM {name}" for name in PLAYERS}, f"hand #{number}: DMs to {dms}"
        ended = [e for e in showdowns if e.hand == number]
        assert ended and re.search(r"🏆 .* (wins|split) |carried", ended[0].text), f"hand #{number}: no showdown"
        if "folds" not in transcript.text():  # nobody folded: every hand is shown down
            assert all(f"@{name}:" in ended[0].text for name in PLAYERS)
        assert ended[0].at >= dealt[0].at
    # Each private hand was the player's alone: DMs and ephemeral replies name cards, the channel does not,
    # except in the showdowns (and a flop game's board, a stud game's up cards: the hands of the draw games are
    # looked at here; the end-to-end tests check every game's down cards against the store).
    assert any(cards_in(e.text) for e in transcript.entries if e.kind == "dm")
    games = {int(found[2]): found[1] for e in transcript.entries if e.kind == "table"
             if (found := re.match(r"^▌ (.+) · #(\d+)$", e.text.split("\n")[0]))}
    draw_names = {g.name for g in DRAW_GAMES.values()}
    assert any(name in draw_names for name in games.values()), games
    for entry in transcript.entries:
        if games.get(entry.hand) not in draw_names:
            continue
        if entry.kind in ("table", "post") and entry not in showdowns:
            assert not cards_in(entry.text), f"the channel showed cards before the showdown:\n{entry.render()}"
    # The players acted through the bot's buttons, draw picker and menu; the host closed the table at the end.
    acts = " ".join(e.text for e in transcript.entries if e.kind == "act")
    assert "chooses" in acts and "clicks Draw…" in acts and "throws " in acts
    [closed] = [e for e in transcript.entries if "Table closed" in e.text]  # said once, by the table message
    assert closed.kind == "table" and closed.text.startswith("▌ Table closed\n")
    assert transcript.entries[-1].kind == "ephemeral" and transcript.entries[-1].text.startswith("Done: ")
    # The clock of the player to act reads as the time he has left, not "running".
    assert re.search(r"⏱ \d+ s left", transcript.text()) and "⏱ running" not in transcript.text()
    assert all(f"@{name} cashes out" in closed.text for name in PLAYERS)


def test_python_m_bot_demo_prints_the_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--hands", "1", "--seed", "2", "--players", "3", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "no token, no network" in out
    assert "DM alice" in out and "DM bob" in out and "DM carol" in out
    assert re.search(r"🏆 @\w+ (wins|split) ", out)
    assert "1 hand played" in out


async def test_make_demo_deals_a_horse_orbit() -> None:
    """``make demo`` (``--game horse --hands 5``): one hand of each of HORSE's five games, in order, the scripted
    players bringing in and completing in the stud games; no card shown in the channel before its showdown."""
    transcript: Transcript = await run_demo(hands=5, seed=3, players=4, pace=0.01, game="horse")
    assert transcript.problems == []
    heads = [e.text.splitlines()[0] for e in transcript.entries if e.kind == "table"]
    titles = [head for head in heads if re.search(r" · #\d$", head)]
    games = list(dict.fromkeys(re.sub(r"^▌ | · #\d$", "", title) for title in titles))
    assert games == ["Limit Hold'em", "Omaha Hi-Lo", "Razz", "Stud", "Stud Hi-Lo"], titles
    acts = " ".join(e.text for e in transcript.entries if e.kind == "act")
    assert "clicks Bring in" in acts
    assert len(transcript.showdowns()) >= 5
