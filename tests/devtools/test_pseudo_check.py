"""The fake Discord's pseudo-language check (pokerdev.fakediscord.pseudo): English outside the wraps is found, the
wraps are taken out, and what is not a text (ids, emojis, mentions, people's names) is left alone."""

from __future__ import annotations

from typing import Any

from pokerdev.fakediscord.pseudo import bare_words, check_and_unwrap

NAMES = {"alice", "bob"}


def allowed(word: str) -> bool:
    return word.lower() in NAMES


def test_words_outside_the_wraps_are_bare() -> None:
    assert bare_words("⟦You sit in seat 3.⟧", allowed) == []
    assert bare_words("⟦Call⟧ 20 · Fold", allowed) == ["Fold"]
    assert bare_words("⟦{who} wins ⟦the main pot⟧⟧ ok", allowed) == ["ok"]


def test_mentions_emojis_links_cards_and_names_are_not_words() -> None:
    text = ("<@123> <:c_As_1f2e:456> <t:1700000000:R> https://discord.com/x A♠ 10♦ alice Bob 1,000 Europe/Berlin "
            "America/Argentina/Buenos_Aires Qh 7c Th 10d")
    assert bare_words(text, allowed) == []


def test_a_body_is_checked_and_unwrapped_in_place() -> None:
    body: dict[str, Any] = {
        "content": "⟦Your turn⟧",
        "embeds": [{"title": "⟦Razz · #2⟧", "description": "Pot 40", "fields": [{"name": "⟦Stakes⟧", "value": "x"}],
                    "footer": {"text": "⟦Clock⟧"}}],
        "components": [{"type": 1, "components": [
            {"type": 2, "label": "⟦Fold⟧", "custom_id": "pk:turn:1:2:3:fold", "emoji": {"name": "c_As"}},
            {"type": 3, "custom_id": "pk:game:1:2", "placeholder": "Pick",
             "options": [{"label": "⟦Razz⟧", "value": "razz"}]}]}],
    }
    found = check_and_unwrap("/channels/1/messages", body, allowed)
    assert found == ["'Pot 40': Pot", "'Pick': Pick"]
    assert body["content"] == "Your turn" and body["embeds"][0]["title"] == "Razz · #2"
    assert body["embeds"][0]["fields"][0] == {"name": "Stakes", "value": "x"}
    assert body["components"][0]["components"][0]["label"] == "Fold"
    assert body["components"][0]["components"][1]["options"][0] == {"label": "Razz", "value": "razz"}


def test_the_command_tree_and_emoji_uploads_are_not_checked() -> None:
    body = [{"name": "poker", "description": "Draw poker tables"}]
    assert check_and_unwrap("/applications/1/commands", body, allowed) == []
