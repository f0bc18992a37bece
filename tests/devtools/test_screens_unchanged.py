"""What every moment of docs/screens shows, as the bot sent it (the messages' content, embeds, buttons, menus and
forms: :func:`pokerdev.screens.payloads_of`, normalised so that runs agree), is ``tests/data/screens.json``: a
refactor must leave it unchanged, and a deliberate change of what players see shows in the diff of that file (then
regenerate docs/screens: ``.venv/bin/python -m pokerdev.screens --out docs/screens``).

After a deliberate change: ``UPDATE_SCREENS=1 .venv/bin/pytest tests/devtools/test_screens_unchanged.py`` writes the
file again (the test then fails once, saying so); read its diff before committing it. The same file comes from
``.venv/bin/python -m pokerdev.screens --payloads tests/data/screens.json``.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from pokerdev import screens

SNAPSHOT = Path(__file__).resolve().parents[1] / "data" / "screens.json"


@pytest.mark.e2e
def test_every_moment_shows_what_is_written_down(dealers_choice_evening: screens.Camera,
                                                 mixed_evening: screens.Camera) -> None:
    text = screens.payloads_text([dealers_choice_evening, mixed_evening])
    assert list(json.loads(text)) == list(screens.MOMENTS), "a moment was not seen: nothing may be left out"
    if os.environ.get("UPDATE_SCREENS"):
        SNAPSHOT.write_text(text, encoding="utf-8")
        raise AssertionError(f"{SNAPSHOT} written again: read its diff, then run the test without UPDATE_SCREENS")
    written = SNAPSHOT.read_text(encoding="utf-8")
    if written != text:
        diff = difflib.unified_diff(written.splitlines(), text.splitlines(), "tests/data/screens.json", "this run",
                                    lineterm="", n=2)
        before, now = json.loads(written), json.loads(text)
        changed = [n for n in screens.MOMENTS if before.get(n) != now.get(n)]
        shown = "\n".join(list(diff)[:80])
        raise AssertionError(f"what the players see changed at {', '.join(changed)} (see the module's "
                             f"docstring):\n{shown}")


def test_ids_and_times_that_change_run_to_run_are_normalised() -> None:
    alice, poker, ace = 1_379_005_077_736_128_512, 1_379_005_077_736_128_513, 1_379_005_077_736_128_514
    user = SimpleNamespace(id=alice, name="alice")
    fake = SimpleNamespace(app_id=9_379_005_077_736_128_512, guild=SimpleNamespace(id=8_379_005_077_736_128_512),
                           users={alice: user}, roles={}, emojis=[SimpleNamespace(id=ace, name="c_As_1f2e")],
                           channels={poker: SimpleNamespace(id=poker, name="poker", is_dm=False, recipient=None)})
    message, reply = 1_579_005_077_736_128_512, 1_579_005_077_736_128_600
    now = 1_796_534_477.6
    sent = {"id": str(reply), "channel_id": str(poker), "timestamp": "2026-12-06T05:21:17.604+00:00",
            "edited_timestamp": None, "content": f"<@{alice}> ⏱ <t:{int(now + 60)}:R> <:c_As_1f2e:{ace}>",
            "components": [{"custom_id": f"pk:card:{message}:0", "emoji": {"id": ace, "name": "c_As_1f2e"}}],
            "message_reference": {"message_id": str(message)}}
    edited = {**sent, "id": str(message), "edited_timestamp": "2026-12-06T05:21:18+00:00",
              "content": f"starts <t:{int(now + 23 * 3600)}:F>, held until <t:{int(now - 120)}:t>"}
    normal = screens.Normalised(fake)
    assert normal.value([sent, edited], now) == [
        {"id": "id1", "channel_id": "poker", "timestamp": "(sent)", "edited_timestamp": None,
         "content": "<@alice> ⏱ <t:now+1m:R> <:c_As_1f2e:>",
         "components": [{"custom_id": "pk:card:id2:0", "emoji": {"id": "c_As_1f2e", "name": "c_As_1f2e"}}],
         "message_reference": {"message_id": "id2"}},
        {"id": "id2", "channel_id": "poker", "timestamp": "(sent)", "edited_timestamp": "(edited)",
         "content": "starts <t:now+23h00m:F>, held until <t:now-2m:t>",
         "components": [{"custom_id": "pk:card:id2:0", "emoji": {"id": "c_As_1f2e", "name": "c_As_1f2e"}}],
         "message_reference": {"message_id": "id2"}}]
    assert normal.value({f"pk:card:{message}:1": ["0"], "amount": 120, "fold": True}, now) == {
        "pk:card:id2:1": ["0"], "amount": 120, "fold": True}  # a form's values; small numbers are left alone


def test_the_payloads_are_written_without_a_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camera = screens.Camera()
    camera.fake = SimpleNamespace(app_id=9, guild=SimpleNamespace(id=8), users={}, roles={}, channels={}, emojis=[])
    said = {"id": "1", "content": "Shuffle up and deal!", "timestamp": "2025-06-06T21:00:00+00:00", "flags": 0}
    camera.shots["start"] = screens.Shot("start", 1, "#poker", "phone", [said], {3: b"x"}, 0.0, "alice")
    played: list[tuple[list[str], dict[str, object]]] = []

    def shoot(moments: list[str], **settings: object) -> list[screens.Camera]:
        played.append((list(moments), settings))
        return [camera]

    monkeypatch.setattr(screens, "shoot_evenings", shoot)
    written = tmp_path / "screens.json"
    assert screens.main(["--payloads", str(written), "--only", "start", "--chromium", "/nonexistent"]) == 0
    assert played == [(["start"], {"seed": screens.SEED, "hands": 4, "players": 4, "games": list(screens.GAMES),
                                   "mix": screens.MIX, "mix_seed": screens.MIX_SEED})]
    assert json.loads(written.read_text()) == {"start": {
        "viewer": "1", "title": "#poker", "frame": "phone", "note": "alice", "overlay": None,
        "messages": [{**said, "timestamp": "(sent)"}], "files": {"3": hashlib.sha256(b"x").hexdigest()}}}
    assert not list(tmp_path.glob("*.png"))


def test_there_is_something_to_write(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        screens.main(["--only", "start"])
    assert "give --out, --payloads or both" in capsys.readouterr().err
