"""Text on the Yadès sheet picture with the one font Pillow ships.

The font is ``ImageFont.load_default(size=…)`` (Aileron, Pillow >= 10.1), so that the
picture renders the same in a slim container without system fonts. It only covers ASCII
and a few signs: accented letters (``Carré``, ``Yadès``, or a player's name) are drawn as
their base letter plus a drawn accent, a scratched box is a drawn ✗, and characters the
font lacks (emoji…) are left out of names.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

FONT_SIZE = 20
CELL_PADDING = 10
TEXT = (17, 24, 39)
SCRATCH = (220, 38, 38)

Align = Literal["left", "center", "right"]

# ---------------------------------------------------------------------------- fonts and text


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):  # Pillow without FreeType
        raise RuntimeError("Pillow >= 10.1 with FreeType support is required")
    return font


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(_font(FONT_SIZE).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    """Whether Pillow's default font draws ``char`` (it covers ASCII and a few signs)."""
    if char == " ":
        return True
    if not char.isprintable():
        return False
    return bytes(_font(FONT_SIZE).getmask(char)) != _missing_glyph()


@lru_cache(maxsize=1024)
def _ink(size: int, char: str) -> tuple[int, int, int, int]:
    """The inked box of ``char`` drawn at the origin on its baseline (left, top, right, bottom)."""
    font = _font(size)
    width = int(font.getlength(char)) + size
    image = Image.new("L", (width + size, 3 * size))
    ImageDraw.Draw(image).text((size, 2 * size), char, font=font, fill=255, anchor="ls")
    box = image.getbbox()
    if box is None:
        return (0, 0, 0, 0)
    return (box[0] - size, box[1] - 2 * size, box[2] - size, box[3] - 2 * size)


# Marks drawn over (or under) their base letter: combining character -> shape.
_MARKS = {
    "\u0300": "grave",
    "\u0301": "acute",
    "\u0302": "circumflex",
    "\u0303": "tilde",
    "\u0308": "diaeresis",
    "\u030a": "ring",
    "\u0327": "cedilla",
}
# Letters that do not decompose into a base letter and marks.
_SPELLED = {
    "œ": "oe",
    "Œ": "OE",
    "æ": "ae",
    "Æ": "AE",
    "ß": "ss",
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ı": "i",
    "—": "-",
    "–": "-",
    "✗": "x",
}


@dataclass(frozen=True, slots=True)
class Text:
    """Text the default font can draw: ``plain`` and the accents to draw over its letters."""

    plain: str
    marks: tuple[tuple[int, str], ...] = ()  # (index in plain, mark shape)

    @classmethod
    def of(cls, raw: str) -> Text:
        plain: list[str] = []
        marks: list[tuple[int, str]] = []
        for char in raw:
            if _has_glyph(char):
                plain.append(char)
                continue
            if char in _SPELLED:
                plain.extend(_SPELLED[char])
                continue
            if char.isspace():
                plain.append(" ")
                continue
            base, *combining = list(unicodedata.normalize("NFD", char))
            if combining and _has_glyph(base):
                marks.extend((len(plain), _MARKS[m]) for m in combining if m in _MARKS)
                plain.append(base)
                continue
            compatible = unicodedata.normalize("NFKC", char)
            if compatible != char and all(_has_glyph(c) for c in compatible):
                plain.extend(compatible)
            # else: a character the font lacks (emoji, other scripts) is left out
        return cls("".join(plain), tuple(marks))

    def strip(self) -> Text:
        """Spaces collapsed and trimmed, the accents kept on their letters."""
        plain: list[str] = []
        marks: list[tuple[int, str]] = []
        at: dict[int, tuple[str, ...]] = dict.fromkeys(range(len(self.plain)), ())
        for index, mark in self.marks:
            at[index] = (*at[index], mark)
        for index, char in enumerate(self.plain):
            if char.isspace():
                if plain and plain[-1] != " ":
                    plain.append(" ")
                continue
            marks.extend((len(plain), mark) for mark in at[index])
            plain.append(char)
        if plain and plain[-1] == " ":
            plain.pop()
        return Text("".join(plain), tuple(marks))

    def width(self, size: int) -> float:
        return _font(size).getlength(self.plain)

    def fitted(self, size: int, width: float) -> Text:
        """This text, cut with an ellipsis to fit ``width`` pixels."""
        if self.width(size) <= width:
            return self
        font = _font(size)
        plain = self.plain
        while plain and font.getlength(plain.rstrip() + "…") > width:
            plain = plain[:-1]
        plain = plain.rstrip()
        return Text(plain + "…", tuple((i, m) for i, m in self.marks if i < len(plain)))


def draw_text(
    draw: ImageDraw.ImageDraw,
    text: Text,
    box: tuple[int, int, int, int],
    *,
    size: int = FONT_SIZE,
    fill: tuple[int, int, int] = TEXT,
    align: Align = "left",
    bold: bool = False,
    padding: int = CELL_PADDING,
) -> None:
    """Draw ``text`` in ``box`` (left, top, right, bottom), vertically centred."""
    font = _font(size)
    left, top, right, bottom = box
    text = text.fitted(size, right - left - 2 * padding - (1 if bold else 0))
    width = text.width(size) + (1 if bold else 0)
    if align == "left":
        x: float = left + padding
    elif align == "right":
        x = right - padding - width
    else:
        x = (left + right - width) / 2
    cap = -_ink(size, "H")[1]
    x, baseline = round(x), round((top + bottom + cap) / 2)
    # The text goes through a mask so that an accented i or j can lose its dot first.
    mask = Image.new("L", (int(width) + 3 * size, 3 * size))
    writer = ImageDraw.Draw(mask)
    origin = (size, 2 * size)  # where the text's baseline starts in the mask
    for shift in (0, 1) if bold else (0,):
        writer.text((origin[0] + shift, origin[1]), text.plain, font=font, fill=255, anchor="ls")
    x_height = _ink(size, "u")[1]
    for index, mark in text.marks:
        char = text.plain[index]
        before = font.getlength(text.plain[:index])
        ink = _ink(size, char)
        if char in "ij":  # dotless, then accented
            dot = (origin[0] + before + ink[0], 0, origin[0] + before + ink[2] + (1 if bold else 0))
            writer.rectangle([dot[0], 0, dot[2], origin[1] + x_height - 2], fill=0)
            ink = (ink[0], x_height, ink[2], ink[3])
        centre = x + before + (ink[0] + ink[2]) / 2 + (0.5 if bold else 0)
        _draw_mark(draw, mark, centre, baseline, baseline + ink[1], size, fill)
    draw.bitmap((x - origin[0], baseline - origin[1]), mask, fill=fill)


def _draw_mark(
    draw: ImageDraw.ImageDraw,
    mark: str,
    x: float,
    baseline: float,
    top: float,
    size: int,
    fill: tuple[int, int, int],
) -> None:
    """An accent over the letter whose ink starts at ``top`` and is centred on ``x``."""
    s = size / 20
    line = max(1, round(1.6 * s))
    low = top - 2 * s  # the accent's lower edge
    high = low - 4 * s
    if mark == "acute":
        draw.line([(x - 1.5 * s, low), (x + 2 * s, high)], fill=fill, width=line)
    elif mark == "grave":
        draw.line([(x - 2 * s, high), (x + 1.5 * s, low)], fill=fill, width=line)
    elif mark == "circumflex":
        draw.line([(x - 3 * s, low), (x, high), (x + 3 * s, low)], fill=fill, width=line)
    elif mark == "tilde":
        points = [
            (x - 3.5 * s, low),
            (x - 1.5 * s, high + s),
            (x + 1.5 * s, low),
            (x + 3.5 * s, high + s),
        ]
        draw.line(points, fill=fill, width=line)
    elif mark == "diaeresis":
        r = 1.3 * s
        for dx in (-2.6 * s, 2.6 * s):
            cy = low - 1.5 * s
            draw.ellipse([x + dx - r, cy - r, x + dx + r, cy + r], fill=fill)
    elif mark == "ring":
        r = 2.2 * s
        cy = low - r
        draw.ellipse([x - r, cy - r, x + r, cy + r], outline=fill, width=max(1, round(s)))
    elif mark == "cedilla":
        points = [(x, baseline), (x, baseline + 2 * s), (x + 2 * s, baseline + 3.5 * s)]
        points.append((x - 1.5 * s, baseline + 5.5 * s))
        draw.line(points, fill=fill, width=line)


def draw_cross(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A scratched box: a red ✗ in the middle of ``box``."""
    left, top, right, bottom = box
    x, y = (left + right) / 2, (top + bottom) / 2
    h = (bottom - top) * 0.22
    draw.line([(x - h, y - h), (x + h, y + h)], fill=SCRATCH, width=3)
    draw.line([(x - h, y + h), (x + h, y - h)], fill=SCRATCH, width=3)
