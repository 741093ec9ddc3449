"""Yadès in words and components: the public turn message, the story, the sheets as text.

Every roll is public (docs/rules.md#yades-turn): the dice are on the table message, with the hold
toggles, the re-roll button and the menu of open boxes, all from the channel's view and the
legal moves of the player whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.games import yades as y
from bot.games.yades import events as ev
from bot.games.yades.metrics import YadesSetup
from bot.i18n import t
from bot.kernel import dice as d
from bot.kernel.errors import NotNow
from cogs.table.components import TableSelect
from cogs.table.controls import Control, Controls

COLOUR = discord.Colour(0x2E86C1)
ALL_HELD = (1 << y.DICE) - 1

Names = Callable[[int], str]


def faces(dice: Sequence[int]) -> str:
    return " ".join(f"{d.face(pip)}{pip}" for pip in dice)


def box_name(box_id: str, lang: str) -> str:
    key = f"y.box.{box_id}"
    try:
        return t(lang, key)
    except KeyError:
        return box_id.replace("_", " ")


def option(box: str, points: int, lang: str) -> str:
    return t(lang, "y.option", box=box_name(box, lang), points=points)


def preset_label(setup: YadesSetup, lang: str) -> str:
    """A table's preset, and its stake if it plays for one."""
    label = t(lang, f"y.preset.{setup.rules.preset}")
    if setup.mise:
        label += " · " + t(lang, "y.stake", mise=setup.mise)
    return label


def table_embed(
    view: y.View | None,
    title: str,
    names: Names,
    lang: str,
    players: Sequence[int],
    deadline: float | None,
) -> discord.Embed:
    """The public table (``view``: the channel's; None in the lobby). ``deadline``: when the
    current human player's turn times out."""
    embed = discord.Embed(title=f"🎲 Yadès — {title}", colour=COLOUR)
    if view is None:
        seated = "\n".join(f"• {names(p)}" for p in players)
        embed.description = (
            t(lang, "y.lobby", players=seated, max=y.MAX_PLAYERS)
            + "\n\n"
            + t(lang, "help.yades.short")
        )
        return embed
    lines = [seat_line(seat, view, names, lang) for seat in view.seats]
    if view.over:
        lines.append(t(lang, "y.over"))
        if view.winners:
            key = "y.ev.won" if len(view.winners) == 1 else "y.ev.tied"
            lines.append(t(lang, key, player=", ".join(names(p) for p in view.winners)))
    elif view.current is not None:
        lines.append("")
        lines.append(
            t(lang, "y.turn", player=names(view.current), roll=view.rolls, rolls=y.MAX_ROLLS)
        )
        if view.dice is not None:
            lines.append(t(lang, "y.dice", dice=faces(view.dice)))
        if deadline is not None:
            lines.append(t(lang, "y.deadline", when=f"<t:{int(deadline)}:R>"))
    embed.description = "\n".join(lines)
    return embed


def seat_line(seat: y.SeatView, view: y.View, names: Names, lang: str) -> str:
    """A player's total and filled boxes (🚪: they left)."""
    line = t(
        lang,
        "y.seat",
        player=names(seat.player),
        total=view.totals(seat.player).total,
        filled=len(seat.boxes),
        boxes=len(view.sheet.boxes),
    )
    return line + (" 🚪" if seat.status != y.IN else "")


def _score(user: int, argument: str, value: str | None) -> y.Score:
    if value is None:
        raise NotNow(action="announce")
    return y.Score(user, value)


# The game's controls, all on the public table: the roll, a toggle for each die to hold
# (``hold{held}_{die}``: the dice held when it was drawn, the die it toggles), the re-roll of
# the others (``reroll{held}``) and the menu of open boxes.
CONTROLS = Controls(
    (
        Control(
            "roll", "y.btn.roll", discord.ButtonStyle.primary, move=lambda user, *_: y.Roll(user)
        ),
        Control(
            "hold",
            argument=rf"\d+_[0-{y.DICE - 1}]",  # a die's position: never a shift of billions
            handler=lambda cog, interaction, table, step, argument, _: cog.hold(
                interaction, table, step, argument
            ),
        ),
        Control(
            "reroll",
            "y.btn.reroll",
            discord.ButtonStyle.primary,
            argument=r"\d+",
            handler=lambda cog, interaction, table, step, argument, _: cog.reroll(
                interaction, table, step, argument
            ),
        ),
        Control("announce", move=_score),  # the menu of open boxes
    )
)


def table_components(
    table_id: int, view: y.View, turn: Sequence[Any], held: int, lang: str
) -> discord.ui.View | None:
    """The current player's roll, or their hold toggles, re-roll and open boxes (``turn``:
    their legal moves; ``held``: the dice held with the toggles, a mask of positions)."""
    if view.over or view.current is None:
        return None
    components = discord.ui.View(timeout=None)
    step = view.step
    if view.rolls == 0:
        if any(isinstance(action, y.Roll) for action in turn):
            components.add_item(CONTROLS["roll"].button(table_id, step, lang))
        return components
    if any(isinstance(action, y.Roll) for action in turn):
        for i, pip in enumerate(view.dice or ()):
            kept = bool(held >> i & 1)
            components.add_item(
                CONTROLS["hold"].button(
                    table_id,
                    step,
                    lang,
                    argument=f"{held}_{i}",
                    label=f"{d.face(pip)} {pip}" + (" 🔒" if kept else ""),
                    style=discord.ButtonStyle.success if kept else discord.ButtonStyle.secondary,
                    row=0,
                )
            )
        components.add_item(
            CONTROLS["reroll"].button(
                table_id,
                step,
                lang,
                argument=str(held),
                row=1,
                disabled=held == ALL_HELD,
                left=y.MAX_ROLLS - view.rolls,
            )
        )
    scores = view.scores()
    options = [
        discord.SelectOption(label=option(box, scores[box], lang), value=box)
        for box in (a.box for a in turn if isinstance(a, y.Score))
        if box in scores
    ]
    components.add_item(TableSelect(table_id, step, options[:25], t(lang, "y.select")))
    return components


def event_lines(events: Sequence[Any], names: Names, lang: str) -> list[str]:
    """The public story of ``events`` (every Yadès event is public)."""
    lines = []
    for event in events:
        if isinstance(event, ev.Rolled):
            lines.append(
                t(
                    lang,
                    "y.ev.rolled",
                    player=names(event.player),
                    roll=event.roll,
                    dice=faces(event.dice),
                )
            )
        elif isinstance(event, ev.Scored):
            key = "y.ev.scratched" if event.scratched else "y.ev.scored"
            lines.append(
                t(
                    lang,
                    key,
                    player=names(event.player),
                    box=box_name(event.box, lang),
                    points=event.points,
                    dice=faces(event.dice),
                )
            )
        elif isinstance(event, ev.BonusEarned):
            lines.append(
                t(
                    lang,
                    f"y.ev.bonus_{event.bonus}",
                    player=names(event.player),
                    points=event.points,
                )
            )
        elif isinstance(event, ev.PlayerLeft):
            lines.append(t(lang, "ev.player_left", player=names(event.player)))
        elif isinstance(event, ev.GameWon | ev.GameEnded):
            lines.extend(final_lines(event, names, lang))
    return lines


def final_lines(event: ev.GameWon | ev.GameEnded, names: Names, lang: str) -> list[str]:
    lines = []
    if isinstance(event, ev.GameEnded):
        lines.append(t(lang, "ev.game_stopped"))
    elif event.winners:
        winners = ", ".join(names(p) for p in event.winners)
        key = "y.ev.won" if len(event.winners) == 1 else "y.ev.tied"
        lines.append(t(lang, key, player=winners))
    for place, row in enumerate(event.ranking, 1):
        lines.append(
            t(lang, "y.ev.rank", place=place, player=names(row["player"]), total=row["total"])
        )
    return lines


def describe(action: Any, view: y.View, lang: str) -> str:
    """An advised choice in words: the dice to keep before a re-roll, or the box to fill."""
    if isinstance(action, y.Score):
        points = view.scores().get(action.box, 0)
        return t(lang, "y.advice.score", box=box_name(action.box, lang), points=points)
    if isinstance(action, y.Roll):
        kept = y.kept_positions(action.keep)
        if view.dice is None:
            return t(lang, "y.advice.roll")
        if not kept:
            return t(lang, "y.advice.roll_all")
        return t(lang, "y.advice.keep", dice=faces([view.dice[i] for i in kept]))
    return type(action).__name__


def sheet_embed(view: y.View, cpus: dict[int, str], lang: str) -> discord.Embed:
    """Every player's sheet, one field each (``cpus``: the CPU players' names)."""
    embed = discord.Embed(title=t(lang, "y.sheet.title"), colour=COLOUR)
    for number, seat in enumerate(view.seats, 1):
        rows = []
        for box in view.sheet.boxes:
            value = seat.boxes.get(box.id)
            shown = "·" if value is None else ("✗" if value == 0 else str(value))
            rows.append(f"{box_name(box.id, lang)}: {shown}")
        progress = view.bonus_progress(seat.player)
        rows.append(t(lang, "y.sheet.bonus", upper=progress.upper, target=progress.target))
        rows.append(t(lang, "y.sheet.total", total=view.totals(seat.player).total))
        name = cpus[seat.player] + " 🤖" if seat.player in cpus else None
        title = name or t(lang, "y.sheet.player", n=number)
        embed.add_field(name=title, value=f"<@{seat.player}>\n" * (name is None) + "\n".join(rows))
    return embed
