"""A tournament's bracket as a picture: a compact PNG for the channel's status message.

``layout(hosted, lang)`` decides what to draw and where: one column per round, left to
right, titled as the message titles it ("Ronde 1"… "Finale"), each match a box listing
its players by their names; in single elimination each match sits between the two it
comes from, joined to the one it feeds by a line. ``bracket_picture`` draws that layout
in Discord's dark theme, with the Yadès sheet's lettering (``cogs.yades.lettering``: the
font Pillow ships, accents drawn). ``bracket_file`` draws it off the event loop, for a
message's attachment.

Only what the bracket shows in the channel is drawn: names, who went on, forfeits, byes.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from dataclasses import dataclass

import discord
from PIL import Image, ImageDraw

from bot.i18n import t
from bot.tournaments import SINGLE_ELIMINATION, BracketMatch, BracketRound, MatchStatus, bracket
from bot.tournaments.hosted import Hosted
from cogs.tournoi.render import round_title
from cogs.yades.lettering import Text, draw_text

__all__ = ["FILENAME", "Layout", "bracket_file", "bracket_picture", "layout"]

log = logging.getLogger(__name__)

FILENAME = "tableau.png"
NOBODY = "—"  # an empty slot: nobody, or someone not known yet

# ---------------------------------------------------------------------------- sizes

MAX_WIDTH = 1600  # readable on a phone once Discord scales it down
MARGIN = 16
TITLE_HEIGHT = 40
COLUMN_GAP = 36  # between two rounds: room for the lines joining their matches
COLUMN_MIN_WIDTH = 150
COLUMN_MAX_WIDTH = 260
LINE_HEIGHT = 28
BOX_PADDING = 3  # above the first line and under the last
BOX_GAP = 10  # between two matches of a round
NAME_SIZE = 18
TITLE_SIZE = 20
TAG_SIZE = 14
TEXT_PADDING = 8
CHECK_WIDTH = 22  # the ✓ at the end of the line of someone who goes on
BIG_ROUND = 32  # more matches in a round: the rounds before the current one are left out

# ---------------------------------------------------------------------------- colours

# Discord's dark theme, as the /stats picture (bot.plots): light text on its background.
BACKGROUND = (43, 45, 49)
BOX = (56, 58, 64)
UPCOMING_BOX = (49, 51, 56)
OUTLINE = (78, 80, 88)
DIVIDER = (67, 69, 76)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
FAINT = (110, 114, 122)
ADVANCING = (87, 242, 135)
PENDING = (88, 101, 242)
CURRENT = (134, 145, 255)  # the title of the round being played
CHAMPION = (241, 196, 15)  # the tournaments' colour (cogs.tournoi.render.COLOUR)
FORFEIT = (237, 66, 69)
LINK = (95, 98, 106)
LIT_LINK = (59, 140, 86)  # the line a winner took

# ---------------------------------------------------------------------------- the layout

Colour = tuple[int, int, int]
Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line in a match's box (``player`` None: the empty slot ``—``)."""

    text: str
    player: int | None = None
    advancing: bool = False  # the winner, or one of a pool table's qualifiers: ✓
    forfeited: bool = False  # struck through, tagged "forfait"


@dataclass(frozen=True, slots=True)
class Box:
    """One match, at ``(left, top, right, bottom)``."""

    left: int
    top: int
    right: int
    bottom: int
    status: MatchStatus
    lines: tuple[Line, ...]
    tag: str = ""  # "exempt" on a bye
    champion: bool = False  # the final the tournament's winner won


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    left: int
    right: int
    current: bool  # the round being played: its title in blue, as its matches under way


@dataclass(frozen=True, slots=True)
class Link:
    """The line from a match to the one of the next round it feeds."""

    points: tuple[Point, ...]
    lit: bool  # someone came through it


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    columns: tuple[Column, ...]
    boxes: tuple[Box, ...]
    links: tuple[Link, ...]

    def texts(self) -> list[str]:
        """Every text drawn, titles first then each box's lines, in drawing order."""
        found = [column.title for column in self.columns]
        for box in self.boxes:
            found += [line.text for line in box.lines]
            if box.tag:
                found.append(box.tag)
        return found


_MENTION = re.compile(r"<@[!&]?\d*>?")


def player_name(hosted: Hosted, player: int, lang: str) -> str:
    """``player``'s display name as they signed up (a mention left out), else a neutral
    label from the end of their id: never a raw id alone, never an empty line."""
    raw = " ".join(_MENTION.sub(" ", hosted.names.get(player) or "").split())
    if Text.of(raw).strip().plain:
        return raw
    return t(lang, "tour.picture.someone", id=str(player)[-4:])


def _lines(hosted: Hosted, match: BracketMatch, lang: str) -> tuple[Line, ...]:
    gone_on = set(match.advancing)
    decided = match.status == MatchStatus.PLAYED and bool(match.ranking)
    if not gone_on and decided and match.ranking[0] not in match.forfeited:
        gone_on = {match.ranking[0]}  # a Swiss match: its winner
    players: tuple[int | None, ...] = match.lines
    if match.status == MatchStatus.BYE:
        players = tuple(p for p in match.lines if p is not None)  # the lone player
    elif hosted.options.format != SINGLE_ELIMINATION and match.ranking:
        players = match.ranking  # a decided table, best first
    lines = tuple(
        Line(NOBODY)
        if p is None
        else Line(player_name(hosted, p, lang), p, p in gone_on, p in match.forfeited)
        for p in players
    )
    return lines or (Line(NOBODY),)


def _box_height(lines: int) -> int:
    return 2 * BOX_PADDING + LINE_HEIGHT * max(1, lines)


def _shown(rounds: tuple[BracketRound, ...], current: int) -> tuple[BracketRound, ...]:
    """The rounds drawn: all of them, unless a round is too big or there are too many to fit
    (then from the current round's index ``current``, or the last ones)."""
    fit = (MAX_WIDTH - 2 * MARGIN + COLUMN_GAP) // (COLUMN_MIN_WIDTH + COLUMN_GAP)
    first = current if any(len(r.matches) > BIG_ROUND for r in rounds) else 0
    if len(rounds) - first > fit:
        first = max(first, min(current, len(rounds) - fit))
    return rounds[first : first + fit]


def layout(hosted: Hosted, lang: str) -> Layout:
    """What ``bracket_picture`` draws, and where. The tournament must have started."""
    tournament = hosted.tournament
    if tournament is None:
        raise ValueError("the tournament has not started: no bracket to draw")
    drawn = bracket(tournament)
    current = len(tournament.rounds) - 1  # the round being played, or the last one
    shown = _shown(drawn.rounds, current)
    elimination = drawn.format == SINGLE_ELIMINATION

    count = len(shown)
    column_width = (MAX_WIDTH - 2 * MARGIN - (count - 1) * COLUMN_GAP) // count
    column_width = max(COLUMN_MIN_WIDTH, min(COLUMN_MAX_WIDTH, column_width))
    width = 2 * MARGIN + count * column_width + (count - 1) * COLUMN_GAP
    top = MARGIN + TITLE_HEIGHT

    columns: list[Column] = []
    boxes: list[Box] = []
    links: list[Link] = []
    bottom = top
    slot = _box_height(2) + BOX_GAP  # single elimination: a first round's match and its gap
    previous: list[Box] = []
    for index, round_ in enumerate(shown):
        left = MARGIN + index * (column_width + COLUMN_GAP)
        right = left + column_width
        title = round_title(hosted, round_, lang)
        playing = not drawn.over and round_.number == current + 1
        columns.append(Column(title, left, right, playing))
        placed: list[Box] = []
        y = top
        for number, match in enumerate(round_.matches or (None,)):
            if match is None:  # a Swiss round still to be paired
                lines: tuple[Line, ...] = (Line(NOBODY),)
                status, tag, champion = MatchStatus.UPCOMING, "", False
            else:
                lines = _lines(hosted, match, lang)
                status = match.status
                tag = t(lang, "tour.picture.bye") if status == MatchStatus.BYE else ""
                champion = (
                    round_.final and drawn.winner is not None and drawn.winner in match.advancing
                )
            height = _box_height(len(lines))
            if elimination:  # halfway between the two matches it comes from
                centre = top + slot * 2**index * (2 * number + 1) // 2 - BOX_GAP // 2
                box_top = centre - height // 2
            else:
                box_top = y
            box = Box(left, box_top, right, box_top + height, status, lines, tag, champion)
            placed.append(box)
            y = box.bottom + BOX_GAP
            bottom = max(bottom, box.bottom)
        if elimination and previous:
            for number, (fed, came) in enumerate(
                zip(previous, shown[index - 1].matches, strict=True)
            ):
                into = placed[number // 2]
                start_y, end_y = (fed.top + fed.bottom) // 2, (into.top + into.bottom) // 2
                middle = fed.right + COLUMN_GAP // 2
                points = ((fed.right, start_y), (middle, start_y), (middle, end_y))
                links.append(Link((*points, (into.left, end_y)), bool(came.advancing)))
        boxes += placed
        previous = placed
    height = bottom + MARGIN
    return Layout(width, height, tuple(columns), tuple(boxes), tuple(links))


# ---------------------------------------------------------------------------- drawing


def _draw_check(draw: ImageDraw.ImageDraw, x: int, y: int, fill: Colour) -> None:
    """A ✓ (the font has none) whose left end is at ``x``, centred on ``y``."""
    draw.line([(x, y), (x + 4, y + 5), (x + 12, y - 6)], fill=fill, width=3, joint="curve")


def _draw_line(
    draw: ImageDraw.ImageDraw, line: Line, area: tuple[int, int, int, int], tag: str, lang: str
) -> None:
    left, top, right, bottom = area
    middle = (top + bottom) // 2
    if line.player is None:  # the empty slot: a dash (the font has no em dash)
        draw.line([(left + TEXT_PADDING, middle), (left + TEXT_PADDING + 18, middle)], FAINT, 2)
        return
    end = right
    if line.advancing:
        _draw_check(draw, end - CHECK_WIDTH + 2, middle, ADVANCING)
        end -= CHECK_WIDTH
    tags = [(t(lang, "tour.picture.forfeit"), FORFEIT)] if line.forfeited else []
    if tag:
        tags.append((tag, MUTED))
    for text, fill in tags:
        word = Text.of(text)
        draw_text(draw, word, (left, top, end, bottom), size=TAG_SIZE, fill=fill, align="right")
        end -= int(word.width(TAG_SIZE)) + TEXT_PADDING
    name = Text.of(line.text).strip()
    fill = ADVANCING if line.advancing else MUTED if line.forfeited else TEXT
    box = (left, top, end, bottom)
    draw_text(draw, name, box, size=NAME_SIZE, fill=fill, bold=line.advancing, padding=TEXT_PADDING)
    if line.forfeited:  # struck through
        shown = name.fitted(NAME_SIZE, end - left - 2 * TEXT_PADDING)
        x = left + TEXT_PADDING
        draw.line([(x, middle), (x + shown.width(NAME_SIZE), middle)], fill=fill, width=2)


def _draw_box(draw: ImageDraw.ImageDraw, box: Box, lang: str) -> None:
    upcoming = box.status == MatchStatus.UPCOMING
    outline = OUTLINE
    width = 1
    if box.champion:
        outline, width = CHAMPION, 3
    elif box.status == MatchStatus.PENDING:
        outline, width = PENDING, 2
    draw.rounded_rectangle(
        [box.left, box.top, box.right - 1, box.bottom - 1],
        radius=6,
        fill=UPCOMING_BOX if upcoming else BOX,
        outline=outline,
        width=width,
    )
    for number, line in enumerate(box.lines):
        line_top = box.top + BOX_PADDING + number * LINE_HEIGHT
        if number:
            y = line_top
            draw.line([(box.left + 6, y), (box.right - 7, y)], fill=DIVIDER, width=1)
        area = (box.left + 2, line_top, box.right - 4, line_top + LINE_HEIGHT)
        _draw_line(draw, line, area, box.tag, lang)


def bracket_picture(hosted: Hosted, lang: str) -> bytes:
    """The bracket of ``hosted``'s tournament as PNG bytes (it must have started).

    ``lang``: ``"fr"``, ``"en"`` or a Discord locale. Pure and deterministic: the same
    tournament and names give the same bytes."""
    drawn = layout(hosted, lang)
    image = Image.new("RGB", (drawn.width, drawn.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for column in drawn.columns:
        fill = CURRENT if column.current else TEXT
        area = (column.left, MARGIN, column.right, MARGIN + TITLE_HEIGHT - 8)
        draw_text(
            draw, Text.of(column.title), area, size=TITLE_SIZE, fill=fill, align="center", bold=True
        )
    for link in drawn.links:
        draw.line(list(link.points), fill=LIT_LINK if link.lit else LINK, width=2, joint="curve")
    for box in drawn.boxes:
        _draw_box(draw, box, lang)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


async def bracket_file(hosted: Hosted) -> discord.File | None:
    """The bracket picture, drawn off the event loop, as an attachment named
    ``tableau.png``; None before the tournament starts, or if drawing failed (logged: the
    tournament goes on without its picture)."""
    if hosted.tournament is None:
        return None
    try:
        png = await asyncio.to_thread(bracket_picture, hosted, hosted.lang)
    except Exception:
        log.warning("the bracket picture failed", exc_info=True)
        return None
    return discord.File(io.BytesIO(png), filename=FILENAME)
