"""The slash commands Discord receives carry their descriptions and choices in the five languages (English as the
source, German, French, Spanish and Brazilian Portuguese as localizations), and their names in English only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.i18n.catalogue import translated

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord

LOCALES = {"de": "de", "fr": "fr", "es-ES": "es", "es-419": "es", "pt-BR": "pt_BR"}  # Discord's -> the catalogue's


def nodes(commands: Any) -> Iterator[dict[str, Any]]:
    """Every command, group, option and choice of a synced tree."""
    for node in commands:
        yield node
        yield from nodes(node.get("choices") or ())
        yield from nodes(node.get("options") or ())


async def test_every_description_and_choice_is_synced_in_the_five_languages(fake: FakeDiscord,
                                                                            poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=1)
    synced = list(fake.command_tree.global_commands.values()) or list(fake.command_tree.guild_commands.values())
    assert {command["name"] for command in synced} == {"poker", "chips"}
    texts = 0
    for node in nodes(synced):
        choice = "value" in node
        if not choice:
            assert not node.get("name_localizations"), f"{node['name']}: names stay English"
        english = node["name"] if choice else node.get("description")
        if not english:
            continue
        texts += 1
        localized = node.get("name_localizations") if choice else node.get("description_localizations")
        expected = {locale: translated(english, code) for locale, code in LOCALES.items()}
        assert localized == expected, english
        assert all(expected.values()), english
    assert texts > 150


async def test_a_german_member_reads_the_poker_commands_in_german(fake: FakeDiscord,
                                                                  poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=1)
    synced = {c["name"]: c for c in [*fake.command_tree.global_commands.values(),
                                     *fake.command_tree.guild_commands.values()]}
    chips = synced["chips"]
    assert chips["description"] == "Your server's chip bank"
    assert chips["description_localizations"]["de"] == translated("Your server's chip bank", "de")
    assert chips["description_localizations"]["de"] != chips["description"]
