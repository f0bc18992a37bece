"""``python -m pokerdev.screens``: the scripted evening keeps what each phone showed at each moment, and headless
Chromium turns a page into a PNG at a phone's width."""

from __future__ import annotations

import base64
import re
import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pokerdev import screens
from pokerdev.discord_html import PHONE_HEIGHT, PHONE_WIDTH, Look, markdown, page, relative
from pokerdev.fakediscord import MessageFlag, StoredMessage
from pokerdev.fakediscord.emojis import ApplicationEmojis

CHROMIUM = Path(screens.CHROMIUM)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# Chromium is a Debian package (apt-get install chromium), not a Python dependency: where it is not installed the
# picture itself cannot be taken, and everything up to the HTML is tested without it below.
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install "
                                                  "chromium); the HTML renderer is tested without it")
def test_chromium_photographs_a_page_at_phone_width() -> None:
    long_message = {"id": "1", "author": {"id": "9", "username": "pokerbot", "bot": True}, "content": "line\n" * 30,
                    "timestamp": "2025-06-06T21:00:00+00:00"}
    with screens.Chromium(scale=1) as browser:
        cropped = browser.screenshot(page([long_message], Look(), frame="crop"))
        phone = browser.screenshot(page([long_message], Look()), height=PHONE_HEIGHT)
    width, height = png_size(cropped)
    assert width == PHONE_WIDTH == 390
    assert height > 30 * 20  # as tall as the thirty lines, not the window
    assert png_size(phone) == (PHONE_WIDTH, PHONE_HEIGHT)
    doubled = screens.screenshot(page([long_message], Look(), frame="crop"), scale=2)
    assert png_size(doubled)[0] == 2 * PHONE_WIDTH


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_render_writes_the_pictures_and_their_index_and_drops_an_earlier_runs(tmp_path: Path) -> None:
    fake = SimpleNamespace(users={}, channels={}, roles={}, app_id=9, interactions={},
                           bot_user=SimpleNamespace(name="pokerbot"))
    camera = screens.Camera()
    camera.fake = fake
    said = {"id": "1", "author": {"id": "9", "username": "pokerbot", "bot": True}, "content": "Shuffle up and deal!",
            "timestamp": "2025-06-06T21:00:00+00:00", "flags": 0}
    camera.shots["start"] = screens.Shot("start", 1, "#poker", "phone", [said], {}, 0.0, "alice")
    (tmp_path / "13-alert.png").write_bytes(b"an earlier run's")
    (tmp_path / "notes.txt").write_text("not ours")
    listed = screens.render(camera, tmp_path, evening="seed 4")
    assert [file for file, _ in listed] == ["01-start.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01-start.png", "index.md", "notes.txt"]
    assert png_size((tmp_path / "01-start.png").read_bytes()) == (PHONE_WIDTH, PHONE_HEIGHT)
    index = (tmp_path / "index.md").read_text()
    assert "Rendered from the bot's real messages" in index and "(seed 4)" in index
    assert "[`01-start.png`](01-start.png): the channel when the host deals the first hand — alice" in index

    # The mixed evening's camera: its moments follow the first evening's, each from the camera that kept it.
    mixed = screens.Camera(mix="horse")
    mixed.fake = fake
    mixed.shots["rotation-table"] = screens.Shot("rotation-table", 1, "#poker", "crop", [said], {}, 0.0, "bob")
    listed = screens.render([camera, mixed], tmp_path, evening="seed 4", mixed="horse evening (seed 4)")
    number = list(screens.MOMENTS).index("rotation-table") + 1
    assert [file for file, _ in listed] == ["01-start.png", f"{number:02d}-rotation-table.png"]
    assert png_size((tmp_path / f"{number:02d}-rotation-table.png").read_bytes())[0] == PHONE_WIDTH
    index = (tmp_path / "index.md").read_text()
    assert "evening (seed 4), then a horse evening (seed 4), against" in index and "— bob" in index


def stored(mid: int, content: str = "", *, interaction: int | None = None, loading: bool = False) -> StoredMessage:
    return StoredMessage(id=mid, channel_id=1, guild_id=1, author={"id": "9", "username": "pokerbot", "bot": True},
                         content=content, flags=MessageFlag.LOADING if loading else 0,
                         interaction_metadata={"id": str(interaction), "type": 2} if interaction else None)


def test_a_deferred_reply_shows_its_first_followup_in_its_place_as_discord_does() -> None:
    thinking = stored(10, interaction=77, loading=True)
    between, followup, later = stored(11, "Shuffle up"), stored(12, "Table closed.", interaction=77), stored(13, "x")
    camera = screens.Camera()
    camera.fake = SimpleNamespace(interactions={77: SimpleNamespace(id=77, original=thinking)})
    shown = camera._as_discord_shows([thinking, between, followup, later])
    assert [(m["id"], m["content"]) for m in shown] == [("10", "Table closed."), ("11", "Shuffle up"), ("13", "x")]
    assert not any(m["flags"] & MessageFlag.LOADING for m in shown)
    waiting = camera._as_discord_shows([thinking, between])  # no followup yet: the user still sees it thinking
    assert [m["id"] for m in waiting] == ["10", "11"] and waiting[0]["flags"] & MessageFlag.LOADING


def test_the_fakes_application_emojis_become_images() -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 16
    emojis = ApplicationEmojis({"id": "9", "username": "pokerbot"})
    ace = emojis.create({"name": "c_As_123abc", "image": "data:image/png;base64," + base64.b64encode(png).decode()})
    assert screens.emoji_images(SimpleNamespace(emojis=emojis)) == {ace.id: png}
    assert screens.emoji_images(SimpleNamespace(emojis=ApplicationEmojis({}))) == {}
    assert screens.emoji_images(SimpleNamespace()) == {}


def test_a_link_to_a_message_is_shown_as_discords_chip_not_as_the_url() -> None:
    look = Look(names={5: "poker"})
    jump = markdown("🔔 Your move\nhttps://discord.com/channels/1/5/77", look)
    assert "#poker › 💬" in jump and "discord.com" not in jump
    assert "#poker</span>" in markdown("https://discord.com/channels/1/5", look)
    elsewhere = markdown("https://discord.com/channels/1/6/77", look)  # a channel the reader does not know
    assert 'class="link">https://discord.com/channels/1/6/77' in elsewhere


def test_a_clock_reads_the_whole_seconds_left_so_that_the_same_seed_gives_the_same_pictures() -> None:
    # A turn's deadline is a whole second; the picture is taken a few milliseconds into the turn.
    assert [relative(s) for s in (59.7, 59.2, 60.0, -0.4)] == [
        "in 59 seconds", "in 59 seconds", "in 1 minute", "0 seconds ago"]


def test_only_names_known_moments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        screens.main(["--out", str(tmp_path), "--only", "draw,nonsense"])
    assert "unknown moment nonsense" in capsys.readouterr().err


def test_only_the_evenings_that_show_the_moments_asked_for_are_played() -> None:
    assert screens.evenings_for(list(screens.MOMENTS)) == (True, True)
    assert screens.evenings_for(["draw", "choice-menu-all"]) == (True, False)  # the whole menu: dealer's choice
    assert screens.evenings_for(["holdem-turn", "stud-street"]) == (False, True)
    assert set(screens.MIXED_MOMENTS) <= set(screens.MOMENTS)


def _ephemeral(shot: screens.Shot) -> list[dict[str, Any]]:
    return [m for m in shot.payloads if m["flags"] & MessageFlag.EPHEMERAL]


def _buttons(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in payload.get("components") or [] for c in row.get("components") or [] if c.get("type") == 2]


def _cards(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in _buttons(payload) if screens.PICKER_CARD.match(str(b.get("custom_id") or ""))]


@pytest.mark.e2e
def test_the_evening_keeps_every_moment_of_a_hand_from_the_bots_real_messages(
        dealers_choice_evening: screens.Camera) -> None:
    camera = dealers_choice_evening  # shoot_evening raises if the fake saw a call Discord would refuse
    kept = set(camera.shots)
    for name in ("start", "choice", "choice-menu", "choice-deal", "betting", "table", "draw", "table-draw",
                 "draw-picker", "draw-pick", "draw-thrown", "draw-dm", "draw-twos", "alert", "betting-3", "showdown",
                 "table-showdown", "rebuy", "myhand", "bet-menu", "assassin", "pile", "dm", "closed", "night",
                 "choice-menu-all"):
        assert name in kept, f"no {name} picture"
    assert not kept & set(screens.MIXED_MOMENTS)  # those are the mixed evening's
    names = {u.id: u.name for u in camera.fake.users.values()}
    betting = camera.shots["betting"]
    table = camera.shots["table"].payloads
    assert len(table) == 1 and table[0]["embeds"][0]["title"].startswith("2-7 Triple Draw · #1")
    assert any(m["embeds"] for m in betting.payloads)  # the table message is on the channel's picture

    # Dealer's choice: the table offers Pick the game… (no menu anyone else could see), the chooser's own menu
    # (every game with its line), then his Deal button once a game is picked.
    offered = [m for m in camera.shots["choice"].payloads if m["embeds"] and _buttons(m)]
    assert offered and [b["label"] for b in _buttons(offered[-1]) if str(b.get("custom_id")).startswith(
        "pk:choose:")] == ["Pick the game…"]
    assert not any(c.get("type") == 3 for m in camera.shots["choice"].payloads if not m["flags"] & MessageFlag.EPHEMERAL
                   for row in m.get("components") or [] for c in row.get("components") or [])
    menu = camera.shots["choice-menu"].overlay
    assert menu is not None and menu[0] == "sheet" and all(o.get("description") for o in menu[1]["options"])
    whole = camera.shots["choice-menu-all"]  # the same menu, alone and whole: every game, grouped by family
    assert whole.frame == "crop" and whole.payloads == [] and whole.overlay is not None
    kind, select, _ = whole.overlay
    labels = [str(o["label"]) for o in select["options"]]
    assert kind == "whole" and select == menu[1] and len(labels) >= 19
    families = [label.split(" · ")[0] for label in labels]
    groups = ["Draw", "Flop", "Stud"]
    assert families == sorted(families, key=groups.index) and set(families) == set(groups)
    assert {"Flop · Texas Hold'em", "Flop · Omaha Hi-Lo (eight or better)", "Stud · Razz"} <= set(labels)
    deal = [b for m in _ephemeral(camera.shots["choice-deal"]) for b in _buttons(m)
            if str(b.get("custom_id")).startswith("pk:deal:")]
    assert deal and not deal[-1].get("disabled") and deal[-1]["label"].startswith("Deal ")

    # The draw picker, followed from Draw… to the cards it dealt: one message, only the drawer's.
    opened = _ephemeral(camera.shots["draw-picker"])[-1]
    assert len(_cards(opened)) == 5 and not any(c["style"] == screens.DANGER for c in _cards(opened))
    assert all(c.get("emoji") for c in _cards(opened))  # the table waited for the card pictures
    picked = _ephemeral(camera.shots["draw-pick"])[-1]
    marked = [c for c in _cards(picked) if c["style"] == screens.DANGER]
    assert picked["id"] == opened["id"] and marked
    assert any(b.get("label") == f"Throw {len(marked)}" for b in _buttons(picked))
    thrown = _ephemeral(camera.shots["draw-thrown"])[-1]
    assert thrown["id"] == opened["id"] and not _cards(thrown) and thrown["content"]
    assert {camera.shots[n].viewer for n in ("draw-picker", "draw-pick", "draw-thrown", "draw-dm")} == \
        {camera.shots["draw-picker"].viewer}
    draw_dm = camera.shots["draw-dm"]
    hand_dm = next(m for m in reversed(draw_dm.payloads) if "\nNow: " in m["content"])  # the deal's, edited
    dm_head, dm_report = hand_dm["content"].split("\n", 1)
    # After the throw: his new hand alone (drawn large), one line under it; the hand's DM, edited, says "Now: ...".
    new_hand = str(thrown["content"])
    assert CARD.sub("", new_hand).strip() == "" and ": you drew " in str(thrown["embeds"][0]["description"])
    assert draw_dm.title == "pokerbot" and dm_report.startswith("Draw 1 of ") and "\nNow: " + new_hand in dm_report
    assert re.fullmatch(r".+ · #\d+ at <#\d+>", dm_head)  # the DM says which hand, where; the channel needs not

    twos = _ephemeral(camera.shots["draw-twos"])[-1]  # Assassin: a two marked, the choice is plain
    throws = [str(b["custom_id"]) for b in _buttons(twos) if str(b["custom_id"]).startswith("pk:throw:")]
    assert [custom_id[-1] for custom_id in throws] == ["1", "0"]
    assert "(Assassin)" in camera.shots["draw-twos"].note

    alert = camera.shots["alert"]
    assert alert.title == "pokerbot" and alert.payloads[-1]["content"].startswith(screens.ALERT_MARK)
    menu = _ephemeral(camera.shots["bet-menu"])[-1]  # the sizes, each with its total, then Other amount…
    labels = [str(b.get("label")) for b in _buttons(menu)]
    assert labels[-1] == "Other amount…" and all(re.match(r"(Bet|Raise to) [\d,]+ \(", label) for label in labels[:-1])
    rebuy = camera.shots["rebuy"].overlay
    assert rebuy is not None and rebuy[0] == "modal"
    showdown = camera.shots["table-showdown"].payloads
    assert len(showdown) == 1 and screens.AWARD.search(showdown[0]["embeds"][0]["description"])
    assert any(b.get("label") == "Rebuy…" for b in _buttons(showdown[0]))  # the seat buttons between hands

    myhand = camera.shots["myhand"]
    assert any(m["flags"] & MessageFlag.EPHEMERAL for m in myhand.payloads)  # his own answer, in the channel
    html_page = screens.page_of(betting, camera.fake, camera.started)
    assert f"@{names[betting.viewer]}" in html_page and "<script" not in html_page
    assert "(Assassin)" in myhand.note  # the choosers picked the scripted games in turn
    # The next night's sign-up message, once the table closed: two seats taken, a waiting list, one who can't come.
    signup = camera.shots["night"].payloads
    assert len(signup) == 1 and signup[0]["embeds"][0]["title"] == "Poker night: Dealer's choice 5/10"
    fields = [f["name"] for f in signup[0]["embeds"][0]["fields"]]
    assert fields == ["In · 2 of 2 · full", "Waiting list · 1", "Can't make it"]
    assert [b.get("label") for b in _buttons(signup[0])] == ["I'm in", "Can't make it", "Event"]
    # Cards as pictures: the Assassin hand's cards are the bot's emojis, and the page draws them as images.
    assassin = screens.page_of(camera.shots["assassin"], camera.fake, camera.started)
    assert '<img class="emoji" alt=":c_' in assassin and "emoji missing" not in assassin


CARD = re.compile(r"<:c_([0-9TJQKA][cdhs])_\w+:\d+>")  # a card, as the bot's emoji


@pytest.mark.e2e
def test_the_mixed_evening_keeps_a_holdem_turn_a_hilo_split_the_rotation_and_a_stud_street(
        mixed_evening: screens.Camera) -> None:
    camera = mixed_evening  # shoot_evening raises if the fake saw a call Discord would refuse
    assert set(camera.shots) == set(screens.MIXED_MOMENTS)  # nothing of the dealer's-choice evening

    def table_of(shot: screens.Shot) -> dict[str, Any]:
        return [m for m in shot.payloads if m["embeds"] and not m["flags"] & MessageFlag.EPHEMERAL][-1]

    # The hold'em turn: the board, four cards, drawn large alone in the text above the embed; and the player to act
    # sees under it his own cards with the same board (his private message was edited before the picture).
    turn = camera.shots["holdem-turn"]
    table = table_of(turn)
    assert "Hold'em · #" in table["embeds"][0]["title"] and "· Turn ·" in table["embeds"][0]["description"]
    board = CARD.findall(table["content"])
    assert len(board) == 4 and CARD.sub("", table["content"]).strip() == ""
    assert f"<@{turn.viewer}>: **" in table["embeds"][0]["description"] or \
        f"**<@{turn.viewer}>: " in table["embeds"][0]["description"]
    mine = [m for m in _ephemeral(turn) if m["embeds"]][-1]
    assert CARD.findall(str(mine["embeds"][0]["description"]).split("\n")[0]) == board
    html_page = screens.page_of(turn, camera.fake, camera.started)
    assert '<div class="md jumbo"><img class="emoji"' in html_page and "emoji missing" not in html_page

    # Fifth street: three up cards in every live player's line, and the player to act's own cards under it.
    street = camera.shots["stud-street"]
    text = str(table_of(street)["embeds"][0]["description"])
    assert "5th street" in text and "Stud" in table_of(street)["embeds"][0]["title"]
    seats = [line for line in text.splitlines() if re.match(r"^(?:▶ )?<@\d+> [\d,]+ · ", line)]
    assert seats and all(len(CARD.findall(line)) == 3 for line in seats)
    assert len(CARD.findall(str(street.payloads and _ephemeral(street)[-1]["content"]))) == 5

    # The hi-lo showdown, whole: who won the high, who the low.
    split = camera.shots["hilo-split"]
    assert split.frame == "crop" and len(split.payloads) == 1
    shown = str(split.payloads[0]["embeds"][0]["description"])
    assert all(half.search(shown) for half in screens.HIGH_LOW) and "Hi-Lo" in split.payloads[0]["embeds"][0]["title"]

    # The rotation's table message at the razz hand: the mix, what comes next, the bring-in and its buttons.
    rotation = camera.shots["rotation-table"]
    assert rotation.frame == "crop" and rotation.payloads[0]["embeds"][0]["title"].startswith("Razz · #")
    described = str(rotation.payloads[0]["embeds"][0]["description"])
    assert described.startswith("HORSE · ") and "next Stud" in described and " brings in: " in described
    assert [b["label"] for b in _buttons(rotation.payloads[0]) if str(b["custom_id"]).startswith("pk:turn:")] == [
        "Bring in 3", "Complete to 10"]


def test_the_moments_run_in_the_order_of_an_evening() -> None:
    order = list(screens.MOMENTS)
    # The mixed games' moments come after the first evening's, whose pictures keep their numbers (01 to 25).
    assert order.index("night") == 24 and order[25:] == ["choice-menu-all", *screens.MIXED_MOMENTS]
    assert order.index("choice") < order.index("betting") < order.index("draw") < order.index("showdown")
    assert order.index("draw") < order.index("draw-picker") < order.index("draw-pick") < order.index("draw-thrown") \
        < order.index("draw-dm")
