"""The HTML pictures of Discord messages (``pokerdev.discord_html``): what a message says is shown as text, never
run; buttons, selects, embeds, mentions, emoji and timestamps look as a phone shows them. No browser needed."""

from __future__ import annotations

import base64
import re
from typing import Any

from pokerdev.discord_html import Look, message, messages, modal, page, relative, select_sheet

BOT = {"id": "900", "username": "pokerbot", "global_name": None, "bot": True}
ALICE = {"id": "101", "username": "alice", "global_name": "alice", "bot": False}
LOOK = Look(names={101: "alice", 102: "bob", 500: "poker"}, viewer=101, now=1_000_000.0, start=1_000_000.0)


def msg(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "1", "author": BOT, "content": "", "embeds": [], "components": [], "flags": 0,
                            "attachments": [], "type": 0, "timestamp": "2025-06-06T21:00:00+00:00"}
    return {**base, **fields}


def text_of(html_text: str) -> str:
    """The visible text: tags removed, entities kept (so that escaped markup reads as ``&lt;``)."""
    return re.sub(r"<[^>]+>", "", html_text)


def test_markup_in_a_message_is_shown_as_text_and_never_run() -> None:
    hostile = '<script>alert(1)</script> <img src=x onerror="alert(2)">'
    payload = msg(content=hostile, embeds=[{"title": hostile, "description": hostile,
                                            "fields": [{"name": hostile, "value": hostile}],
                                            "footer": {"text": hostile}}],
                  components=[{"type": 1, "components": [{"type": 2, "style": 2, "label": hostile,
                                                          "custom_id": "x"}]}])
    shown = page([payload], LOOK)
    assert "<script" not in shown and "<img src=x" not in shown
    # content, title, description, field name and value, footer, button label
    assert shown.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 7
    assert "onerror=&quot;alert(2)&quot;" in shown


def test_a_button_row_shows_each_button_with_its_style_and_state() -> None:
    row = {"type": 1, "components": [
        {"type": 2, "style": 4, "label": "Fold", "custom_id": "f"},
        {"type": 2, "style": 3, "label": "Call 10", "custom_id": "c"},
        {"type": 2, "style": 1, "label": "Raise to 20", "custom_id": "r", "disabled": True},
        {"type": 2, "style": 2, "label": "My hand", "custom_id": "h", "emoji": {"name": "🃏"}},
    ]}
    shown = message(msg(components=[row]), LOOK)
    buttons = re.findall(r'<span class="button ([a-z ]+)">(.*?)</span></span>', shown)
    assert [(css, text_of(inner)) for css, inner in buttons] == [
        ("danger", "Fold"), ("success", "Call 10"), ("primary disabled", "Raise to 20"), ("secondary", "🃏My hand")]
    assert shown.count('<div class="row">') == 1


def test_a_select_shows_its_placeholder_closed_and_its_options_opened() -> None:
    select = {"type": 3, "custom_id": "pk:game:1:1", "placeholder": "Dealer's choice: pick the game",
              "options": [{"label": "Assassin", "value": "assassin", "description": "A two at showdown loses"},
                          {"label": "2-7 Triple Draw", "value": "triple-draw-27"}]}
    closed = message(msg(components=[{"type": 1, "components": [select]}]), LOOK)
    assert "Dealer&#x27;s choice: pick the game" in text_of(closed)
    assert "Assassin" not in closed  # options show only once the menu is opened
    opened = select_sheet(select, LOOK, chosen=["assassin"])
    options = re.findall(r'<div class="option( picked)?">.*?<div class="option-label">(.*?)</div>', opened)
    assert options == [(" picked", "Assassin"), ("", "2-7 Triple Draw")]
    assert "A two at showdown loses" in opened


def test_an_embed_shows_its_colour_title_description_fields_and_footer() -> None:
    embed = {"title": "2-7 Triple Draw — hand #1", "description": "Fixed limit 5/10", "color": 0x1F8B4C,
             "fields": [{"name": "Pot", "value": "Pot 15", "inline": True},
                        {"name": "Last actions", "value": "<@102> calls 10\n<@101> folds"}],
             "footer": {"text": "clock 60 s"}}
    shown = message(msg(embeds=[embed]), LOOK)
    assert "border-left-color:#1f8b4c" in shown
    fields = re.findall(r'<div class="embed-field-name">(.*?)</div><div class="embed-field-value">(.*?)</div></div>',
                        shown)
    assert [(name, text_of(value)) for name, value in fields] == [("Pot", "Pot 15"),
                                                                   ("Last actions", "@bob calls 10@alice folds")]
    assert "<br>" in fields[1][1]  # one line per action
    assert "2-7 Triple Draw — hand #1" in shown and "Fixed limit 5/10" in shown and "clock 60 s" in shown


def test_mentions_show_names_as_pills_and_unknown_ids_as_numbers() -> None:
    shown = message(msg(content="<@102> to act in <#500>; <@!101> next; <@777> left"), LOOK)
    pills = re.findall(r'<span class="mention[^"]*">(.*?)</span>', shown)
    assert pills == ["@bob", "#poker", "@alice", "@777"]


def test_a_custom_emoji_is_its_image_when_the_client_has_it_and_its_name_otherwise() -> None:
    png = b"\x89PNG\r\n\x1a\nfake-card-image"
    look = Look(names=LOOK.names, emojis={1234: png})
    shown = message(msg(content="Your cards: <:Ah:1234> <:Kd:5678>"), look)
    assert f'<img class="emoji" alt=":Ah:" src="data:image/png;base64,{base64.b64encode(png).decode()}">' in shown
    assert '<span class="emoji missing">:Kd:</span>' in shown
    alone = message(msg(content="<:Ah:1234>"), look)
    assert '<div class="md jumbo">' in alone  # emoji alone in a message are shown large
    button = message(msg(components=[{"type": 1, "components": [
        {"type": 2, "style": 2, "custom_id": "a", "emoji": {"id": "1234", "name": "Ah"}}]}]), look)
    assert 'class="emoji component-emoji"' in button


def test_markdown_bold_italics_code_and_timestamps() -> None:
    content = "**A♠ K♦** *nice* `/poker join` deadline <t:1000045:R>, was <t:999880:R>; at <t:1000000:t>"
    shown = message(msg(content=content), LOOK)
    assert "<strong>A♠ K♦</strong>" in shown and "<em>nice</em>" in shown and "<code>/poker join</code>" in shown
    stamps = re.findall(r'<span class="timestamp">(.*?)</span>', shown)
    assert stamps == ["in 45 seconds", "2 minutes ago", "21:00"]  # the pictures' clock starts at 21:00
    assert "**" not in text_of(shown)
    assert message(msg(content="`**not bold**`"), LOOK).count("<strong>") == 0  # code is literal


def test_relative_times_read_as_discord_writes_them() -> None:
    assert [relative(s) for s in (45, 1, 0, -1, -59, 60, 125, -3600, 86400 * 2)] == [
        "in 45 seconds", "in 1 second", "in 0 seconds", "1 second ago", "59 seconds ago", "in 1 minute",
        "in 2 minutes", "1 hour ago", "in 2 days"]


def test_an_ephemeral_reply_says_only_you_can_see_it_under_the_command_used() -> None:
    reply = msg(content="You sit in seat 1.", flags=64, type=20,
                interaction_metadata={"id": "77", "type": 2, "user": ALICE})
    look = Look(names=LOOK.names, commands={77: "/poker join"})
    shown = message(reply, look)
    assert "Only you can see this" in shown and "Dismiss message" in shown
    assert text_of(re.search(r'<div class="used">.*?</div>', shown)[0]) == "Aalice used /poker join"  # type: ignore[index]
    assert "Only you can see this" not in message(msg(content="Shuffle up and deal!"), LOOK)


def test_a_bots_messages_in_a_row_share_one_header_but_a_commands_reply_has_its_own() -> None:
    first, second = msg(id="1", content="one"), msg(id="2", content="two")
    reply = msg(id="3", content="three", type=20, interaction_metadata={"id": "9", "type": 2, "user": ALICE})
    shown = messages([first, second, reply], LOOK)
    assert shown.count('<span class="author">pokerbot</span>') == 2
    assert shown.count('class="message continued"') == 1


def test_a_form_shows_its_fields_and_what_the_player_picked() -> None:
    form = {"title": "Draw", "custom_id": "pk:w:1:1:3", "components": [
        {"type": 18, "label": "Cards to throw (up to 3)", "description": "Your hand: A♠ K♦ 7♣",
         "component": {"type": 3, "custom_id": "throw", "placeholder": "Cards to throw", "max_values": 3,
                       "options": [{"label": "A♠", "value": "As"}, {"label": "K♦", "value": "Kd"},
                                   {"label": "7♣", "value": "7c"}]}}]}
    empty = modal(form, LOOK)
    assert "Cards to throw (up to 3)" in empty and "Your hand: A♠ K♦ 7♣" in empty and "Submit" in empty
    assert '<span class="select-placeholder">Cards to throw</span>' in empty
    picked = modal(form, LOOK, values={"throw": ["Kd", "7c"]})
    assert '<span class="select-value">K♦, 7♣</span>' in picked


def test_a_phone_page_has_the_channel_header_and_composer_and_a_crop_has_neither() -> None:
    phone = page([msg(content="hi")], LOOK, title="#poker")
    assert 'class="channel-name">poker<' in phone and "Message #poker" in phone and "21:00" in phone
    crop = page([msg(content="hi")], LOOK, frame="crop")
    assert "Message #poker" not in crop and '<div class="crop">' in crop
    dm = page([msg(content="hi")], LOOK, title="pokerbot")
    assert "Message @pokerbot" in dm


def test_a_whole_sheet_lists_every_option_alone_and_not_over_the_screen() -> None:
    select = {"type": 3, "custom_id": "pk:game:1:1", "placeholder": "Pick the game",
              "options": [{"label": f"Draw · Game {k}", "value": f"g{k}"} for k in range(19)]}
    whole = select_sheet(select, LOOK, whole=True)
    assert '<div class="sheet whole">' in whole and "sheet-shade" not in whole
    assert whole.count('<div class="option">') == 19
    assert "sheet-shade" in select_sheet(select, LOOK)  # opened over the screen, the shade behind it
    shown = page([], LOOK, frame="crop", overlay=whole)
    assert ".sheet.whole { position: static; max-height: none;" in shown  # as tall as its options


def test_a_boards_emoji_alone_in_the_text_are_drawn_large_above_the_embed() -> None:
    look = Look(names=LOOK.names, emojis={k: b"\x89PNG\r\n\x1a\ncard" for k in (1, 2, 3, 4)})
    board = " ".join(f"<:c_{c}_ab12:{k}>" for k, c in enumerate(("7s", "9d", "4s", "8c"), start=1))
    shown = message(msg(content=board, embeds=[{"title": "Limit Hold'em · #1", "description": "Turn"}]), look)
    jumbo = shown.index('<div class="md jumbo">')
    assert jumbo < shown.index('class="embed') and shown.count('<img class="emoji"') == 4
    said = message(msg(content=f"Board {board}", embeds=[{"title": "x"}]), look)  # words with them: inline
    assert "jumbo" not in said
