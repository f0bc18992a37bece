"""The card pictures: 55 distinct 128×128 PNGs under Discord's emoji limit, the same bytes every time, red hearts
and diamonds, black spades and clubs; and the text form of a card."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.content import cardfaces
from bot.poker.cards import JOKERS, STANDARD_DECK, UNKNOWN, Card

EMOJI_LIMIT = 256 * 1024  # bytes, Discord's limit for an emoji's image


def open_png(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGBA")


def ink(image: Image.Image) -> list[tuple[int, int, int]]:
    """The colours of the opaque pixels that are neither paper nor the grey edge: saturated or dark."""
    data = image.tobytes()
    pixels = [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 4) if data[i + 3] == 255]
    return [p for p in pixels if max(p) - min(p) > 60 or max(p) < 60]


def test_there_are_55_distinct_pictures_one_per_key() -> None:
    pictures = cardfaces.pictures()
    assert list(pictures) == list(cardfaces.picture_keys())
    assert len(pictures) == 55 and len(set(pictures.values())) == 55
    assert set(pictures) == {c.code for c in STANDARD_DECK} | {"X1", "X2", cardfaces.BACK}


@pytest.mark.parametrize("key", cardfaces.picture_keys())
def test_each_picture_is_a_128_square_png_under_the_emoji_limit(key: str) -> None:
    png = cardfaces.pictures()[key]
    assert len(png) < EMOJI_LIMIT
    image = open_png(png)
    assert image.size == (128, 128)
    corner, middle = image.getpixel((0, 0)), image.getpixel((64, 64))
    assert isinstance(corner, tuple) and corner[3] == 0, "the corner outside the rounded card is transparent"
    assert isinstance(middle, tuple) and middle[3] == 255, "the card itself is opaque"


def test_drawing_again_gives_the_same_bytes() -> None:
    first = cardfaces.pictures()
    again = {c.code: cardfaces.card_face(c) for c in STANDARD_DECK + JOKERS}
    again[cardfaces.BACK] = cardfaces.card_back()
    assert again == first
    assert again is not first


@pytest.mark.parametrize("card", STANDARD_DECK, ids=str)
def test_red_suits_are_red_and_black_suits_black(card: Card) -> None:
    pixels = ink(open_png(cardfaces.pictures()[card.code]))
    assert len(pixels) > 1500, "the rank and the suit are big"
    red = sum(1 for r, g, b in pixels if r > 150 and g < 80 and b < 80)
    black = sum(1 for r, g, b in pixels if max(r, g, b) < 60)
    if card.suit in "hd":
        assert red > 0.9 * len(pixels) and black == 0
    else:
        assert black > 0.9 * len(pixels) and red == 0


def test_four_colours_make_diamonds_blue_and_clubs_green() -> None:
    four = cardfaces.pictures(four_colours=True)
    for code, (r, g, b) in (("Kd", cardfaces.BLUE[:3]), ("Kc", cardfaces.GREEN[:3]),
                            ("Kh", cardfaces.RED[:3]), ("Ks", cardfaces.BLACK[:3])):
        pixels = ink(open_png(four[code]))
        close = sum(1 for p in pixels if abs(p[0] - r) + abs(p[1] - g) + abs(p[2] - b) < 60)
        assert close > 0.8 * len(pixels), code
    assert four["Kh"] == cardfaces.pictures()["Kh"] and four["Kd"] != cardfaces.pictures()["Kd"]


def test_a_hidden_card_is_the_back() -> None:
    assert cardfaces.card_face(UNKNOWN) == cardfaces.pictures()[cardfaces.BACK]


def test_the_art_hash_is_six_hex_digits_one_for_each_picture_of_a_deck() -> None:
    for four in (True, False):
        hashes = {cardfaces.art_hash(key, four_colours=four) for key in cardfaces.picture_keys()}
        assert len(hashes) == 55
        assert all(len(h) == 6 and int(h, 16) >= 0 for h in hashes)


def test_each_picture_is_drawn_in_its_ink() -> None:
    assert cardfaces.ink(Card("Kc"), four_colours=True) == cardfaces.GREEN
    assert cardfaces.ink(Card("Kc"), four_colours=False) == cardfaces.BLACK
    assert cardfaces.ink(Card("X1")) == cardfaces.RED and cardfaces.ink(Card("X2")) == cardfaces.BLACK
    green = cardfaces.card_face(Card("Kc"), four_colours=True)
    assert cardfaces.GREEN[:3] in {pixel[:3] for pixel in Image.open(io.BytesIO(green)).convert("RGBA").getdata()}


@pytest.mark.parametrize(("code", "text"), [
    ("As", "A♠\ufe0e"), ("Th", "10♥\ufe0f"), ("9d", "9♦\ufe0f"), ("2c", "2♣\ufe0e"), ("Kh", "K♥\ufe0f"),
    ("Qs", "Q♠\ufe0e"), ("Jd", "J♦\ufe0f"),
    ("X1", "🃏"), ("X2", "🃏"), ("??", "🂠"),
])
def test_the_text_form_of_a_card_in_two_colours(code: str, text: str) -> None:
    assert cardfaces.card_text(Card(code), four_colours=False) == text


def test_the_text_form_is_at_most_4_characters_as_discord_counts_them() -> None:
    # Discord counts code points (its API is Python: len()). A variation selector follows each suit: U+FE0F
    # (emoji, red) after hearts and diamonds, U+FE0E (text, the text's colour) after spades and clubs.
    lengths = {c.code: len(cardfaces.card_text(c, four_colours=False)) for c in (*STANDARD_DECK, *JOKERS, UNKNOWN)}
    assert max(lengths.values()) == 4 and lengths["Th"] == 4 and lengths["As"] == 3 and lengths["X1"] == 1
    assert all(cardfaces.card_text(c, four_colours=False).endswith("\ufe0f" if c.suit in "hd" else "\ufe0e")
               for c in STANDARD_DECK)
    # Four colours: diamonds a blue diamond (one code point), clubs a shamrock and its emoji selector.
    four = {c.code: len(cardfaces.card_text(c)) for c in (*STANDARD_DECK, *JOKERS, UNKNOWN)}
    assert max(four.values()) == 4 and four["Td"] == 3 and four["Tc"] == 4
