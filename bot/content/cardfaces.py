"""The bot's own playing-card pictures (for application emojis) and the text form of a card.

Pure: no discord and no I/O besides Pillow's bundled font and this module's
own source (which names the drawing's version). Every picture is a
128×128 PNG (Discord's largest emoji) of a white card on a transparent
background, drawn at four times the size and scaled down, so the edges are
smooth. The rank is one big glyph ("10", not "T") over one big suit shape, the
way a card's corner index reads, so a card can be read at emoji size (about
22 px high inline, 48 px in an emoji-only message). A picture's version
(``art_hash``) is a hash of what it is drawn from, known without drawing it, so
that an emoji's name can carry it and a start that finds every emoji uploaded
draws nothing.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Final

import PIL
from PIL import Image, ImageDraw, ImageFont

from ..poker.cards import JOKERS, STANDARD_DECK, Card

SIZE: Final = 128  # pixels, square: Discord's emoji size (it fits the picture into a square box)
BACK: Final = "back"  # the key of the face-down card among the pictures
RANK_TEXT: Final = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
# Red suits in the emoji presentation (U+FE0F: drawn red on every theme); black suits in the text presentation
# (U+FE0E: drawn in the text's colour), since the black emoji is all but invisible on Discord's dark theme.
SUIT_TEXT: Final = {"s": "♠\ufe0e", "h": "♥\ufe0f", "d": "♦\ufe0f", "c": "♣\ufe0e"}
# The four-colour deck's text: no suit symbol comes blue or green, so diamonds are the blue diamond emoji and clubs
# the shamrock (green, three leaves): as distinct at a glance as the pictures.
FOUR_SUIT_TEXT: Final = {**SUIT_TEXT, "d": "\U0001f537", "c": "\u2618\ufe0f"}
JOKER_TEXT: Final = "🃏"
UNKNOWN_TEXT: Final = "🂠"

_SCALE: Final = 4  # drawn at 4× and scaled down with a Lanczos filter: Pillow's polygons are not antialiased
_W: Final = SIZE * _SCALE

Colour = tuple[int, int, int, int]
RED: Final[Colour] = (208, 18, 30, 255)
BLACK: Final[Colour] = (17, 17, 17, 255)
BLUE: Final[Colour] = (20, 90, 205, 255)
GREEN: Final[Colour] = (12, 130, 50, 255)
_PAPER: Final[Colour] = (255, 255, 255, 255)
_EDGE: Final[Colour] = (120, 120, 120, 255)
_BACK_INK: Final[Colour] = (28, 66, 150, 255)
_BACK_LINE: Final[Colour] = (104, 146, 222, 255)
_CLEAR: Final[Colour] = (0, 0, 0, 0)

TWO_COLOURS: Final = {"s": BLACK, "c": BLACK, "h": RED, "d": RED}
FOUR_COLOURS: Final = {"s": BLACK, "c": GREEN, "h": RED, "d": BLUE}

# The card, in 128-pixel units: a little wider than a real card (0.79 instead of 0.71) to give "10" room.
_LEFT, _TOP, _RIGHT, _BOTTOM, _RADIUS, _BORDER = 14, 1, 114, 127, 13, 3
_RANK_BOX: Final = (20, 8, 108, 60)  # left, top, right, bottom of the rank's ink
_SUIT_TOP, _SUIT_BOTTOM = 65, 122  # the suit shape, centred across the card at its own width
_SUIT_WIDTHS: Final = {"h": 1.12, "d": 0.82, "s": 1.0, "c": 1.06, "x": 1.05}  # width / height of each shape
_GLYPH_GAP: Final = 3  # between the "1" and the "0" of a ten
_STROKE: Final = 2.6  # extra stroke around the font's regular-weight glyphs (128-pixel units): bolder reads better


def card_text(card: Card, *, four_colours: bool = True) -> str:
    """A card as text, the fallback where no picture is available: ``A♠︎``, ``10♥️``, ``🃏``, ``🂠``.

    Hearts use the emoji presentation (U+FE0F after the symbol), which phones and Discord draw red; spades the
    text presentation (U+FE0E), drawn in the text's own colour, so that they show on the dark theme as well as the
    light one. In four colours diamonds are ``🔷`` and clubs ``☘️``; in two, ``♦️`` (red) and ``♣︎`` (the text's).
    """
    if card.is_joker:
        return JOKER_TEXT
    if card.is_unknown:
        return UNKNOWN_TEXT
    return RANK_TEXT.get(card.rank, str(card.rank)) + (FOUR_SUIT_TEXT if four_colours else SUIT_TEXT)[card.suit]


def picture_keys() -> tuple[str, ...]:
    """The key of every picture: the 52 card codes, the two jokers' and ``back``."""
    return (*(card.code for card in STANDARD_DECK + JOKERS), BACK)


@cache
def pictures(four_colours: bool = False) -> dict[str, bytes]:
    """Every picture as PNG bytes by key (see ``picture_keys``); drawn once per process."""
    faces = {card.code: card_face(card, four_colours=four_colours) for card in STANDARD_DECK + JOKERS}
    faces[BACK] = card_back()
    return faces


def art_hash(key: str, *, four_colours: bool = False) -> str:
    """6 hex digits that name the version of the picture ``key`` of a deck without drawing it: a hash of what it is
    drawn from (this module's code, Pillow's version, whose bundled font draws the ranks, the key and its ink). A
    picture the same in both decks (a spade, the back) has one hash; any change to the drawing changes them all."""
    ink_text = "" if key == BACK else repr(ink(Card(key), four_colours=four_colours))
    return hashlib.sha256(f"{_drawing_version()}|{key}|{ink_text}".encode()).hexdigest()[:6]


@cache
def _drawing_version() -> str:
    return hashlib.sha256(Path(__file__).read_bytes() + PIL.__version__.encode()).hexdigest()


def ink(card: Card, *, four_colours: bool = False) -> Colour:
    """The colour ``card`` (or a joker) is drawn in, in the four- or the two-colour deck."""
    if card.is_joker:
        return RED if card.code == "X1" else BLACK
    return (FOUR_COLOURS if four_colours else TWO_COLOURS)[card.suit]


def card_face(card: Card, *, four_colours: bool = False) -> bytes:
    """The face of one card (or joker) as PNG bytes."""
    if card.is_unknown:
        return card_back()
    image, draw = _blank_card()
    colour = ink(card, four_colours=four_colours)
    if card.is_joker:
        _draw_rank(image, "JK", colour)
        _fill(draw, _star(_suit_box("x")), colour)
    else:
        _draw_rank(image, RANK_TEXT.get(card.rank, str(card.rank)), colour)
        _SUIT_SHAPES[card.suit](draw, _suit_box(card.suit), colour)
    return _png(image)


def card_back() -> bytes:
    """A face-down card (a hidden card, an opponent's hand) as PNG bytes."""
    image, draw = _blank_card()
    inset = 8
    box = _scaled((_LEFT + inset, _TOP + inset, _RIGHT - inset, _BOTTOM - inset))
    draw.rounded_rectangle(box, radius=(_RADIUS - 5) * _SCALE, fill=_BACK_INK)
    lines = Image.new("RGBA", (_W, _W), _CLEAR)
    pen = ImageDraw.Draw(lines)
    step, width = 18 * _SCALE, 3 * _SCALE
    for offset in range(-_W, 2 * _W, step):
        pen.line([(offset, 0), (offset + _W, _W)], fill=_BACK_LINE, width=width)
        pen.line([(offset, _W), (offset + _W, 0)], fill=_BACK_LINE, width=width)
    window = Image.new("L", (_W, _W), 0)
    ImageDraw.Draw(window).rounded_rectangle(_scaled((_LEFT + inset + 4, _TOP + inset + 4, _RIGHT - inset - 4,
                                                       _BOTTOM - inset - 4)), radius=(_RADIUS - 8) * _SCALE, fill=255)
    image.alpha_composite(Image.composite(lines, Image.new("RGBA", (_W, _W), _CLEAR), window))
    return _png(image)


# --- drawing helpers (all coordinates in 128-pixel units unless scaled) ---

Box = tuple[float, float, float, float]
Point = tuple[float, float]


def _scaled(box: Box) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return (round(left * _SCALE), round(top * _SCALE), round(right * _SCALE), round(bottom * _SCALE))


def _suit_box(suit: str) -> Box:
    half = (_SUIT_BOTTOM - _SUIT_TOP) * _SUIT_WIDTHS[suit] / 2
    middle = (_LEFT + _RIGHT) / 2
    return (middle - half, _SUIT_TOP, middle + half, _SUIT_BOTTOM)


def _blank_card() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (_W, _W), _CLEAR)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(_scaled((_LEFT, _TOP, _RIGHT, _BOTTOM)), radius=_RADIUS * _SCALE, fill=_EDGE)
    inner = (_LEFT + _BORDER, _TOP + _BORDER, _RIGHT - _BORDER, _BOTTOM - _BORDER)
    draw.rounded_rectangle(_scaled(inner), radius=(_RADIUS - _BORDER) * _SCALE, fill=_PAPER)
    return image, draw


def _png(image: Image.Image) -> bytes:
    small = image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


@cache
def _font(pixels: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=pixels)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    # The basic layout gives the same glyph positions whether or not libraqm is installed.
    return font.font_variant(layout_engine=ImageFont.Layout.BASIC)


def _glyph(char: str, ink: Colour, cap_height: int) -> Image.Image:
    """One character, bold, cropped to its ink, scaled so that a capital is ``cap_height`` (4× pixels) high."""
    font = _font(round(cap_height / 0.70))  # Aileron's capitals are 0.70 em high
    stroke = round(_STROKE * _SCALE)
    left, top, right, bottom = (int(v) for v in font.getbbox(char, stroke_width=stroke))
    layer = Image.new("RGBA", (right - left, bottom - top), _CLEAR)
    ImageDraw.Draw(layer).text((-left, -top), char, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)
    return layer


def _draw_rank(image: Image.Image, text: str, ink: Colour) -> None:
    """The rank, as big as the rank box allows, centred; squeezed sideways if it is too wide."""
    left, top, right, bottom = _scaled(_RANK_BOX)
    height = bottom - top
    glyphs = [_glyph(char, ink, height) for char in text]
    gap = _GLYPH_GAP * _SCALE
    width = sum(g.width for g in glyphs) + gap * (len(glyphs) - 1)
    row = Image.new("RGBA", (width, max(g.height for g in glyphs)), _CLEAR)
    x = 0
    for glyph in glyphs:
        row.alpha_composite(glyph, (x, 0))
        x += glyph.width + gap
    row = row.crop(row.getbbox())
    scale = min(1.0, (right - left) / row.width)
    row = row.resize((round(row.width * scale), height), Image.Resampling.LANCZOS)
    image.alpha_composite(row, ((left + right - row.width) // 2, top))


def _fill(draw: ImageDraw.ImageDraw, points: Sequence[Point], ink: Colour) -> None:
    draw.polygon([(x * _SCALE, y * _SCALE) for x, y in points], fill=ink)


def _circle(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, ink: Colour) -> None:
    draw.ellipse(_scaled((x - r, y - r, x + r, y + r)), fill=ink)


def _heart_points(box: Box, *, upside_down: bool = False) -> list[Point]:
    """The classic heart curve fitted to ``box`` (point down; point up for a spade's head)."""
    left, top, right, bottom = box
    raw = []
    for i in range(240):
        t = 2 * math.pi * i / 240
        raw.append((16 * math.sin(t) ** 3, 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t)
                    - math.cos(4 * t)))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    points = []
    for x, y in raw:
        u = (x - x0) / (x1 - x0)
        v = (y1 - y) / (y1 - y0)  # the curve's y grows upwards
        if upside_down:
            v = 1 - v
        points.append((left + u * (right - left), top + v * (bottom - top)))
    return points


def _heart(draw: ImageDraw.ImageDraw, box: Box, ink: Colour) -> None:
    _fill(draw, _heart_points(box), ink)


def _diamond(draw: ImageDraw.ImageDraw, box: Box, ink: Colour) -> None:
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    half = (right - left) / 2
    points: list[Point] = []
    # Slightly concave sides, as on printed cards.
    for (ax, ay), (bx, by) in (((cx, top), (cx + half, cy)), ((cx + half, cy), (cx, bottom)),
                               ((cx, bottom), (cx - half, cy)), ((cx - half, cy), (cx, top))):
        for i in range(16):
            s = i / 16
            bend = 0.06 * math.sin(math.pi * s)
            x, y = ax + (bx - ax) * s, ay + (by - ay) * s
            points.append((x + (cx - x) * bend, y + (cy - y) * bend))
    _fill(draw, points, ink)


def _stem(draw: ImageDraw.ImageDraw, box: Box, ink: Colour) -> None:
    """A flared foot under a spade or a club."""
    left, top, right, bottom = box
    cx, w = (left + right) / 2, right - left
    _fill(draw, [(cx - w * 0.05, top + (bottom - top) * 0.55), (cx + w * 0.05, top + (bottom - top) * 0.55),
                 (cx + w * 0.24, bottom), (cx - w * 0.24, bottom)], ink)


def _spade(draw: ImageDraw.ImageDraw, box: Box, ink: Colour) -> None:
    left, top, right, bottom = box
    _fill(draw, _heart_points((left, top, right, top + (bottom - top) * 0.80), upside_down=True), ink)
    _stem(draw, box, ink)


def _club(draw: ImageDraw.ImageDraw, box: Box, ink: Colour) -> None:
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx, r = (left + right) / 2, h * 0.235
    _circle(draw, cx, top + r, r, ink)
    _circle(draw, left + r * 1.02, top + h * 0.56, r, ink)
    _circle(draw, right - r * 1.02, top + h * 0.56, r, ink)
    _fill(draw, [(cx, top + r), (left + r * 1.6, top + h * 0.60), (right - r * 1.6, top + h * 0.60)], ink)
    _stem(draw, (left + w * 0.02, top, right - w * 0.02, bottom), ink)


def _star(box: Box) -> list[Point]:
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, top + (bottom - top) * 0.53
    outer = (bottom - top) * 0.53
    inner = outer * 0.45
    return [(cx + (outer if i % 2 == 0 else inner) * math.sin(math.pi * i / 5),
             cy - (outer if i % 2 == 0 else inner) * math.cos(math.pi * i / 5)) for i in range(10)]


_SUIT_SHAPES: Final[dict[str, Callable[[ImageDraw.ImageDraw, Box, Colour], None]]] = {
    "h": _heart, "d": _diamond, "s": _spade, "c": _club,
}
