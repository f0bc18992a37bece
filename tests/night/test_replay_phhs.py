"""``python -m bot replay FILE.phhs``: a session's hands replayed one by one, one JSON line each, with the exit
codes of a single hand (0 all match, 1 a hand's finishing stacks differ, 2 a hand or the file cannot be read)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.night.phhs import write_phhs
from bot.poker.phh import export_phh
from bot.tools.replay import replay_command

from .hands import night

ROOT = Path(__file__).resolve().parents[2]
WSOP = ROOT / "tests" / "data" / "phh" / "wsop-2023-43"


def session_file(tmp_path: Path, texts: list[str]) -> Path:
    path = tmp_path / "night.phhs"
    path.write_text(write_phhs(texts), encoding="utf-8")
    return path


def test_every_hand_of_a_night_is_replayed_one_json_line_each(tmp_path: Path) -> None:
    hands = night(random.Random(4), 6, [101, 102, 103], game="assassin", buy_in=40)
    path = session_file(tmp_path, [export_phh(h.hand, hand=k) for k, h in enumerate(hands, 1)])
    result = subprocess.run([sys.executable, "-m", "bot", "replay", str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [{"hand": str(k), "finishing_stacks": list(h.stacks_after or ()), "carried": h.carried_out}
                     for k, h in enumerate(hands, 1)]


def test_a_hand_whose_stacks_differ_exits_1_and_the_others_are_still_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = [(WSOP / name).read_text(encoding="utf-8") for name in ("41.phh", "55.phh", "57.phh")]
    texts[1] = texts[1].replace("finishing_stacks = [4625000,", "finishing_stacks = [4625001,")
    assert replay_command(str(session_file(tmp_path, texts))) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["hand"] for line in out.splitlines()] == ["1", "2", "3"]
    assert "night.phhs, hand 2: the file's finishing_stacks are [4625001," in err


def test_a_hand_that_cannot_be_replayed_exits_2_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = [(WSOP / name).read_text(encoding="utf-8") for name in ("41.phh", "55.phh")]
    texts[0] = texts[0].replace("'p4 cbr 200000'", "'p4 cbr 150000'")
    texts[1] = texts[1].replace("finishing_stacks = [4625000,", "finishing_stacks = [4625001,")
    assert replay_command(str(session_file(tmp_path, texts))) == 2  # the worst of 2 and 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["hand"] for line in out.splitlines()] == ["2"]
    assert "hand 1: action 7 'p4 cbr 150000': the smallest raise is to 200,000" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'F2L3D'\nstarting_stacks = [10, 10]\nactions = []\n", "is this a single hand (.phh)?"),
        ("[1]\nvariant = 'F2L3D\n", "not valid TOML"),
        ("", "the file holds no hand"),
    ],
)
def test_a_phhs_file_that_is_not_one_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "bad.phhs"
    path.write_text(text, encoding="utf-8")
    assert replay_command(str(path)) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err
