"""Yadès score sheets as a picture: every player's sheet side by side, as a PNG.

``sheet_picture(view, names, lang)`` draws one row per box of the sheet in use, the
upper subtotal, the upper bonus (earned, or the progress toward the least total that
earns it, ``46/64`` when it takes more than 63), the lower total, the
five-of-a-kind bonus when someone has one, and the grand total; one column per player.
The current player's column is tinted and the leader's total is gold.

The letters are drawn by ``cogs.yades.lettering`` (the font Pillow ships, accents drawn).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.games import yades
from bot.i18n import t
from cogs.yades.lettering import CELL_PADDING, FONT_SIZE, TEXT, Text, draw_cross, draw_text

__all__ = ["sheet_picture"]

# ---------------------------------------------------------------------------- layout

TOTAL_FONT_SIZE = 22
MARGIN = 12
ROW_HEIGHT = 32
HEADER_HEIGHT = 44
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
MUTED = (107, 114, 128)
FAINT = (190, 194, 201)
EARNED = (22, 128, 61)
LEFT_TEXT = (156, 163, 175)


# ---------------------------------------------------------------------------- names and labels

_MENTION = re.compile(r"<@[!&]?\d*>?")


def _player_name(raw: str | None, number: int, lang: str) -> Text:
    """A readable name for the header: mentions are left out, an empty name gets a number."""
    text = Text.of(_MENTION.sub(" ", raw or "")).strip()
    if not text.plain:
        text = Text.of(t(lang, "yades.picture.player", number=number))
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
    label: Text
    cells: tuple[_Cell, ...]
    kind: Literal["box", "subtotal", "total"] = "box"
    separated: bool = False  # a heavier line above the row


def _rows(view: yades.View, lang: str) -> list[_Row]:
    sheet = view.sheet
    seats = view.seats
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
        return _Row(Text.of(_box_label(box, lang)), tuple(cells), separated=separated)

    rows: list[_Row] = []
    if upper:
        rows.extend(box_row(box) for box in upper)
        label = Text.of(t(lang, "yades.picture.upper"))
        cells = tuple(_Cell(str(total.upper), bold=True) for total in totals)
        rows.append(_Row(label, cells, "subtotal", separated=True))
        if sheet.bonus_points:
            # The least upper total that earns it, as everywhere else: "64" for "over 63".
            label = Text.of(t(lang, "yades.picture.bonus", target=sheet.bonus_target))
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
        label = Text.of(t(lang, "yades.picture.lower"))
        cells = tuple(_Cell(str(total.lower), bold=True) for total in totals)
        rows.append(_Row(label, cells, "subtotal", separated=True))
    if any(seat.five_bonus for seat in seats):
        five = sheet.five_box
        name = _box_label(five, lang) if five is not None else ""
        label = Text.of(t(lang, "yades.picture.five_bonus", box=name).strip())
        cells = tuple(
            _Cell(f"+{seat.five_bonus}", EARNED, bold=True) if seat.five_bonus else _Cell()
            for seat in seats
        )
        rows.append(_Row(label, cells, "subtotal"))

    leaders = _leaders(view, totals)
    cells = tuple(
        _Cell(str(total.total), bold=True, leader=seat.player in leaders)
        for seat, total in zip(seats, totals, strict=True)
    )
    rows.append(_Row(Text.of(t(lang, "yades.picture.total")), cells, "total", separated=True))
    return rows


def _leaders(view: yades.View, totals: list[yades.Totals]) -> set[int]:
    """The winners once the game is won, else the players in the game with the best total
    (nobody while every total is 0)."""
    if view.over and view.winners:
        return set(view.winners)
    playing = [
        (seat.player, total.total)
        for seat, total in zip(view.seats, totals, strict=True)
        if seat.status == yades.IN
    ]
    best = max((total for _, total in playing), default=0)
    return {player for player, total in playing if total == best} if best > 0 else set()


# ---------------------------------------------------------------------------- drawing


def sheet_picture(view: yades.View, names: dict[int, str], lang: str) -> bytes:
    """The score sheets of every player of ``view``, side by side, as PNG bytes.

    ``names``: each player's display name (a mention such as ``<@123>`` is left out and
    the player is numbered instead); ``lang``: ``"fr"``, ``"en"`` or a Discord locale.
    """
    rows = _rows(view, lang)
    seats = view.seats
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
        if seat.player == view.current:
            left, right = column(index)
            draw.rectangle([left, grid_top, right - 1, table_bottom - 1], fill=CURRENT_TINT)

    # The header: one name per column.
    draw.rectangle([table_left, table_top, table_right - 1, grid_top - 1], fill=HEADER_BACKGROUND)
    for index, (seat, name) in enumerate(zip(seats, headers, strict=True)):
        left, right = column(index)
        current = seat.player == view.current
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
        draw_text(draw, name, box, fill=fill, align="center", bold=True)
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
        draw_text(
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
                draw_cross(draw, box)
            elif cell.text:
                fill = LEFT_TEXT if seat.status != yades.IN else cell.fill
                draw_text(
                    draw,
                    Text(cell.text),
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
