"""Application emojis: discord.py uploads, lists, fetches, renames, reads back and deletes them; Discord's limits
(name, uniqueness, image type and size, 2,000 per application) are answered as Discord answers them."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import discord
import pytest

from pokerdev.fakediscord import FakeConfig, FakeDiscord
from tests.e2e.conftest import BotStarter

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(range(64))
GIF = b"GIF89a" + bytes(32)


async def client(start_bot: BotStarter) -> discord.Client:
    return await start_bot(discord.Client(intents=discord.Intents.default()))


async def test_discord_py_uploads_lists_and_reads_back(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await client(start_bot)
    ace = await bot.create_application_emoji(name="card_As", image=PNG)
    joker = await bot.create_application_emoji(name="joker_red", image=GIF)
    assert ace.name == "card_As" and not ace.animated and joker.animated and ace.is_application_owned()
    listed = await bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(ace.id, "card_As"), (joker.id, "joker_red")]
    assert (await bot.fetch_application_emoji(ace.id)).name == "card_As"
    stored = fake.emoji("card_As")
    assert stored.id == ace.id and stored.image == PNG and stored.content_type == "image/png"
    assert await ace.read() == PNG  # Emoji.url points at the fake's CDN
    assert str(ace) == stored.mention == f"<:card_As:{ace.id}>" and fake.emoji(joker.id).mention.startswith("<a:")
    renamed = await ace.edit(name="card_AS")
    assert renamed.name == "card_AS" == fake.emoji(ace.id).name
    await joker.delete()
    assert [e.name for e in await bot.fetch_application_emojis()] == ["card_AS"]
    with pytest.raises(discord.NotFound) as gone:
        await bot.fetch_application_emoji(joker.id)
    assert gone.value.code == 10014
    assert fake.take_violations() == []


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


REFUSED: dict[str, tuple[dict[str, Any], str, str]] = {
    "a one-letter name": ({"name": "A", "image": data_uri(PNG)}, "name", "BASE_TYPE_MIN_LENGTH"),
    "a 33-letter name": ({"name": "a" * 33, "image": data_uri(PNG)}, "name", "BASE_TYPE_MAX_LENGTH"),
    "a hyphen in the name": ({"name": "card-As", "image": data_uri(PNG)}, "name", "STRING_TYPE_REGEX"),
    "a name already taken": ({"name": "CARD_KS", "image": data_uri(PNG)}, "name",
                             "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"),
    "no image": ({"name": "card_Qs"}, "image", "BASE_TYPE_REQUIRED"),
    "an image that is not a data URI": ({"name": "card_Qs", "image": "https://example.com/q.png"}, "image",
                                        "IMAGE_INVALID"),
    "a PNG said to be a GIF": ({"name": "card_Qs", "image": data_uri(PNG, "image/gif")}, "image", "IMAGE_INVALID"),
    "an SVG": ({"name": "card_Qs", "image": data_uri(b"<svg/>", "image/svg+xml")}, "image", "IMAGE_INVALID"),
    "an image over 256 KiB": ({"name": "card_Qs", "image": data_uri(PNG + bytes(256 * 1024))}, "image",
                              "BINARY_TYPE_MAX_SIZE"),
}


@pytest.mark.parametrize("case", REFUSED)
async def test_discords_limits_are_answered_400_50035(fake: FakeDiscord, case: str) -> None:
    body, field, code = REFUSED[case]
    url = f"{fake.api_base}/applications/{fake.app_id}/emojis"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"name": "card_Ks", "image": data_uri(PNG)}) as response:
            assert response.status == 201
        async with session.post(url, json=body) as response:
            assert response.status == 400
            error = await response.json()
    assert error["code"] == 50035 and error["errors"][field]["_errors"][0]["code"] == code
    assert [v.kind for v in fake.take_violations()] == ["invalid-form-body"]
    assert [e.name for e in fake.emojis] == ["card_Ks"]


def test_an_image_of_exactly_256_kib_is_taken() -> None:
    fake = FakeDiscord()
    image = PNG + bytes(256 * 1024 - len(PNG))
    assert fake.emojis.create({"name": "big", "image": data_uri(image)}).image == image


async def test_an_application_owns_at_most_so_many(fake: FakeDiscord, start_bot: BotStarter) -> None:
    assert FakeDiscord().emojis.limit == 2000 and FakeDiscord(FakeConfig(application_emoji_limit=5)).emojis.limit == 5
    fake.emojis.limit = 3  # Discord's is 2,000: three keep the test short
    bot = await client(start_bot)
    for rank in "AKQ":
        await bot.create_application_emoji(name=f"card_{rank}s", image=PNG)
    with pytest.raises(discord.HTTPException) as full:
        await bot.create_application_emoji(name="card_Js", image=PNG)
    assert full.value.status == 400 and full.value.code == 30008
    assert [v.kind for v in fake.take_violations()] == ["too-many-emojis"]
    await (await bot.fetch_application_emoji(fake.emoji("card_Qs").id)).delete()
    await bot.create_application_emoji(name="card_Js", image=PNG)  # room again
    assert len(fake.emojis) == 3


async def test_routes_of_another_application_or_emoji(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_base}/applications/1/emojis") as response:
            assert response.status == 403
        for method in ("GET", "PATCH", "DELETE"):
            url = f"{fake.api_base}/applications/{fake.app_id}/emojis/123"
            async with session.request(method, url, json={"name": "xx"} if method == "PATCH" else None) as response:
                assert response.status == 404 and (await response.json())["code"] == 10014
        async with session.get(f"http://127.0.0.1:{fake.port}/emojis/123.png") as response:
            assert response.status == 404
    assert [v.kind for v in fake.take_violations()] == ["wrong-application"]


async def test_messages_naming_emojis_are_stored_as_text(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await client(start_bot)
    ace = await bot.create_application_emoji(name="card_As", image=PNG)
    channel = bot.get_channel(fake.channel("poker").id)
    assert isinstance(channel, discord.TextChannel)
    text = f"{ace} and <:card_Kh:42> and <a:old_name:{ace.id}>"
    await channel.send(text, embed=discord.Embed(description=f"{ace}"))
    [message] = fake.channel_messages("poker")
    assert message.content == text
    refs = fake.emoji_references(message)
    assert [(r.name, r.known) for r in refs] == [("card_As", True), ("card_Kh", False), ("old_name", False),
                                                  ("card_As", True)]
