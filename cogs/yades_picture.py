"""Yadès score sheets as a picture: every player's sheet side by side, as a PNG.

``sheet_picture(state, names, lang)`` draws one row per box of the sheet in use, the
upper subtotal, the upper bonus (earned, or the progress toward the least total that
earns it, ``46/64`` when it takes more than 63), the lower total, the
five-of-a-kind bonus when someone has one, and the grand total; one column per player.
The current player's column is tinted and the leader's total is gold.

The font is the one Pillow ships (``ImageFont.load_default(size=…)``, Aileron, Pillow >=
10.1) so that the picture renders the same in a slim container without system fonts.
That font only covers ASCII and a few signs: accented letters (``Carré``, ``Yadès``, or
a player's name) are drawn as their base letter plus a drawn accent, a scratched box is a
drawn ✗, and characters the font lacks (emoji…) are left out of names.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot.games import yades
from bot.i18n import t

__all__ = ["sheet_picture"]

# ---------------------------------------------------------------------------- layout

FONT_SIZE = 20
TOTAL_FONT_SIZE = 22
MARGIN = 12
ROW_HEIGHT = 32
HEADER_HEIGHT = 44
CELL_PADDING = 10
LABEL_MIN_WIDTH = 150
COLUMN_MIN_WIDTH = 96
COLUMN_MAX_WIDTH = 220
TARGET_WIDTH = 860  # the picture stays about 600-900 px wide, readable in Discord

# ---------------------------------------------------------------------------- colours

BACKGROUND = (255, 255, 255)
LABEL_BACKGROUND = (243, 244, 246)
HEADER_BACKGROUND = (31, 41, 55)
HEADER_TEXT = (255, 255, 255)
CURRENT_HEADER = (37, 99, 235)
CURRENT_TINT = (219, 234, 254)
SUBTOTAL_BACKGROUND = (249, 250, 251)
TOTAL_BACKGROUND = (229, 231, 235)
LEADER_BACKGROUND = (250, 204, 21)
GRID = (229, 231, 235)
SEPARATOR = (107, 114, 128)
TEXT = (17, 24, 39)
MUTED = (107, 114, 128)
FAINT = (190, 194, 201)
SCRATCH = (220, 38, 38)
EARNED = (22, 128, 61)
LEFT_TEXT = (156, 163, 175)

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
class _Text:
    """Text the default font can draw: ``plain`` and the accents to draw over its letters."""

    plain: str
    marks: tuple[tuple[int, str], ...] = ()  # (index in plain, mark shape)

    @classmethod
    def of(cls, raw: str) -> _Text:
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
            base, *combining = unicodedata.normalize("NFD", char)
            if combining and _has_glyph(base):
                marks.extend((len(plain), _MARKS[m]) for m in combining if m in _MARKS)
                plain.append(base)
                continue
            compatible = unicodedata.normalize("NFKC", char)
            if compatible != char and all(_has_glyph(c) for c in compatible):
                plain.extend(compatible)
            # else: a character the font lacks (emoji, other scripts) is left out
        return cls("".join(plain), tuple(marks))

    def strip(self) -> _Text:
        """Spaces collapsed and trimmed, the accents kept on their letters."""
        plain: list[str] = []
        marks: list[tuple[int, str]] = []
        at = dict.fromkeys(range(len(self.plain)), ())
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
        return _Text("".join(plain), tuple(marks))

    def width(self, size: int) -> float:
        return _font(size).getlength(self.plain)

    def fitted(self, size: int, width: float) -> _Text:
        """This text, cut with an ellipsis to fit ``width`` pixels."""
        if self.width(size) <= width:
            return self
        font = _font(size)
        plain = self.plain
        while plain and font.getlength(plain.rstrip() + "…") > width:
            plain = plain[:-1]
        plain = plain.rstrip()
        return _Text(plain + "…", tuple((i, m) for i, m in self.marks if i < len(plain)))


def _draw_text(
    draw: ImageDraw.ImageDraw,
    text: _Text,
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
        x = left + padding
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


def _draw_cross(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A scratched box: a red ✗ in the middle of ``box``."""
    left, top, right, bottom = box
    x, y = (left + right) / 2, (top + bottom) / 2
    h = (bottom - top) * 0.22
    draw.line([(x - h, y - h), (x + h, y + h)], fill=SCRATCH, width=3)
    draw.line([(x - h, y + h), (x + h, y - h)], fill=SCRATCH, width=3)


# ---------------------------------------------------------------------------- names and labels

_MENTION = re.compile(r"<@[!&]?\d*>?")


def _player_name(raw: str | None, number: int, lang: str) -> _Text:
    """A readable name for the header: mentions are left out, an empty name gets a number."""
    text = _Text.of(_MENTION.sub(" ", raw or "")).strip()
    if not text.plain:
        text = _Text.of(t(lang, "yades.picture.player", number=number))
    return text


def _box_label(box: yades.Box, lang: str) -> str:
    key = f"y.box.{box.id}"  # the same labels as the table message
    try:
        return t(lang, key)
    except KeyError:  # a server's own box: its id, readable
        return box.id.replace("_", " ").capitalize()


# ---------------------------------------------------------------------------- the sheet as rows


@dataclass(frozen=True, slots=True)
class _Cell:
    text: str = ""
    fill: tuple[int, int, int] = TEXT
    scratched: bool = False
    bold: bool = False
    leader: bool = False


@dataclass(frozen=True, slots=True)
class _Row:
    label: _Text
    cells: tuple[_Cell, ...]
    kind: Literal["box", "subtotal", "total"] = "box"
    separated: bool = False  # a heavier line above the row


def _rows(state: yades.State, lang: str) -> list[_Row]:
    sheet = state.sheet
    seats = state.seats
    totals = [yades.sheet_totals(sheet, seat.boxes, seat.five_bonus) for seat in seats]
    upper = [box for box in sheet.boxes if box.section == yades.UPPER]
    lower = [box for box in sheet.boxes if box.section == yades.LOWER]

    def box_row(box: yades.Box, separated: bool = False) -> _Row:
        cells = []
        for seat in seats:
            if box.id not in seat.boxes:
                cells.append(_Cell())
            elif seat.boxes[box.id] == 0:
                cells.append(_Cell(scratched=True))
            else:
                cells.append(_Cell(str(seat.boxes[box.id])))
        return _Row(_Text.of(_box_label(box, lang)), tuple(cells), separated=separated)

    rows: list[_Row] = []
    if upper:
        rows.extend(box_row(box) for box in upper)
        label = _Text.of(t(lang, "yades.picture.upper"))
        cells = tuple(_Cell(str(total.upper), bold=True) for total in totals)
        rows.append(_Row(label, cells, "subtotal", separated=True))
        if sheet.bonus_points:
            # The least upper total that earns it, as everywhere else: "64" for "over 63".
            label = _Text.of(t(lang, "yades.picture.bonus", target=sheet.bonus_target))
            bonus_cells = []
            for seat in seats:
                progress = yades.sheet_bonus_progress(sheet, seat.boxes)
                if progress.earned:
                    bonus_cells.append(_Cell(f"+{sheet.bonus_points}", EARNED, bold=True))
                else:
                    fill = MUTED if progress.reachable else FAINT
                    bonus_cells.append(_Cell(f"{progress.upper}/{progress.target}", fill))
            rows.append(_Row(label, tuple(bonus_cells), "subtotal"))
    if lower:
        rows.extend(box_row(box, separated=i == 0 and bool(upper)) for i, box in enumerate(lower))
        label = _Text.of(t(lang, "yades.picture.lower"))
        cells = tuple(_Cell(str(total.lower), bold=True) for total in totals)
        rows.append(_Row(label, cells, "subtotal", separated=True))
    if any(seat.five_bonus for seat in seats):
        five = sheet.five_box
        name = _box_label(five, lang) if five is not None else ""
        label = _Text.of(t(lang, "yades.picture.five_bonus", box=name).strip())
        cells = tuple(
            _Cell(f"+{seat.five_bonus}", EARNED, bold=True) if seat.five_bonus else _Cell()
            for seat in seats
        )
        rows.append(_Row(label, cells, "subtotal"))

    leaders = _leaders(state, totals)
    cells = tuple(
        _Cell(str(total.total), bold=True, leader=seat.player in leaders)
        for seat, total in zip(seats, totals, strict=True)
    )
    rows.append(_Row(_Text.of(t(lang, "yades.picture.total")), cells, "total", separated=True))
    return rows


def _leaders(state: yades.State, totals: list[yades.Totals]) -> set[int]:
    """The winners once the game is won, else the players in the game with the best total
    (nobody while every total is 0)."""
    if state.over and state.winners:
        return set(state.winners)
    playing = [
        (seat.player, total.total)
        for seat, total in zip(state.seats, totals, strict=True)
        if seat.status == yades.IN
    ]
    best = max((total for _, total in playing), default=0)
    return {player for player, total in playing if total == best} if best > 0 else set()


# ---------------------------------------------------------------------------- drawing


def sheet_picture(state: yades.State, names: dict[int, str], lang: str) -> bytes:
    """The score sheets of every player of ``state``, side by side, as PNG bytes.

    ``names``: each player's display name (a mention such as ``<@123>`` is left out and
    the player is numbered instead); ``lang``: ``"fr"``, ``"en"`` or a Discord locale.
    """
    rows = _rows(state, lang)
    seats = state.seats
    headers = [
        _player_name(names.get(seat.player), number, lang)
        for number, seat in enumerate(seats, start=1)
    ]

    label_width = max(
        LABEL_MIN_WIDTH, *(int(row.label.width(FONT_SIZE)) + 2 * CELL_PADDING + 2 for row in rows)
    )
    available = (TARGET_WIDTH - 2 * MARGIN - label_width) // max(1, len(seats))
    column_width = max(COLUMN_MIN_WIDTH, min(COLUMN_MAX_WIDTH, available))
    width = 2 * MARGIN + label_width + column_width * len(seats)
    height = 2 * MARGIN + HEADER_HEIGHT + ROW_HEIGHT * len(rows)

    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    table_left, table_top = MARGIN, MARGIN
    table_right, table_bottom = width - MARGIN, height - MARGIN
    grid_top = table_top + HEADER_HEIGHT

    def column(index: int) -> tuple[int, int]:
        left = table_left + label_width + index * column_width
        return left, left + column_width

    # Backgrounds: the label column, the current player's column, subtotal and total rows.
    draw.rectangle(
        [table_left, grid_top, table_left + label_width - 1, table_bottom - 1],
        fill=LABEL_BACKGROUND,
    )
    for number, row in enumerate(rows):
        top = grid_top + number * ROW_HEIGHT
        if row.kind != "box":
            fill = TOTAL_BACKGROUND if row.kind == "total" else SUBTOTAL_BACKGROUND
            draw.rectangle([table_left, top, table_right - 1, top + ROW_HEIGHT - 1], fill=fill)
    for index, seat in enumerate(seats):
        if seat.player == state.current:
            left, right = column(index)
            draw.rectangle([left, grid_top, right - 1, table_bottom - 1], fill=CURRENT_TINT)

    # The header: one name per column.
    draw.rectangle([table_left, table_top, table_right - 1, grid_top - 1], fill=HEADER_BACKGROUND)
    for index, (seat, name) in enumerate(zip(seats, headers, strict=True)):
        left, right = column(index)
        current = seat.player == state.current
        if current:
            draw.rectangle([left, table_top, right - 1, grid_top - 1], fill=CURRENT_HEADER)
            mid = (table_top + grid_top) / 2
            draw.polygon(
                [(left + 7, mid - 6), (left + 7, mid + 6), (left + 15, mid)], fill=HEADER_TEXT
            )
        left_game = seat.status != yades.IN
        fill = LEFT_TEXT if left_game else HEADER_TEXT
        pad = 18 if current else CELL_PADDING
        box = (left + pad - CELL_PADDING, table_top, right, grid_top)
        _draw_text(draw, name, box, fill=fill, align="center", bold=True)
        if left_game:  # struck through: the player left the game
            shown = name.fitted(FONT_SIZE, right - left - 2 * CELL_PADDING - 1)
            half = shown.width(FONT_SIZE) / 2
            centre, mid = (box[0] + box[2]) / 2, (table_top + grid_top) / 2
            draw.line([(centre - half, mid), (centre + half, mid)], fill=fill, width=2)

    # The rows.
    for number, row in enumerate(rows):
        top = grid_top + number * ROW_HEIGHT
        bottom = top + ROW_HEIGHT
        size = TOTAL_FONT_SIZE if row.kind == "total" else FONT_SIZE
        _draw_text(
            draw,
            row.label,
            (table_left, top, table_left + label_width, bottom),
            size=size,
            bold=row.kind != "box",
        )
        for index, (seat, cell) in enumerate(zip(seats, row.cells, strict=True)):
            left, right = column(index)
            box = (left, top, right, bottom)
            if cell.leader:
                draw.rectangle([left + 3, top + 3, right - 4, bottom - 4], fill=LEADER_BACKGROUND)
            if cell.scratched:
                _draw_cross(draw, box)
            elif cell.text:
                fill = LEFT_TEXT if seat.status != yades.IN else cell.fill
                _draw_text(
                    draw,
                    _Text(cell.text),
                    box,
                    size=size,
                    fill=fill,
                    align="center",
                    bold=cell.bold,
                )

    # The grid.
    for number, row in enumerate(rows):
        y = grid_top + number * ROW_HEIGHT
        if number and not row.separated:
            draw.line([(table_left, y), (table_right - 1, y)], fill=GRID, width=1)
    for number, row in enumerate(rows):
        y = grid_top + number * ROW_HEIGHT
        if row.separated:
            draw.line([(table_left, y), (table_right - 1, y)], fill=SEPARATOR, width=2)
    for index in range(len(seats) + 1):
        x = table_left + label_width + index * column_width
        draw.line([(x, grid_top), (x, table_bottom - 1)], fill=GRID, width=1)
    draw.rectangle(
        [table_left, table_top, table_right - 1, table_bottom - 1], outline=SEPARATOR, width=1
    )

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
