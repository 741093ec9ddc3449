"""Engine events -> what people read: public story lines, private dice lines, the table embed.

The renderer only ever sees events through ``Event.visible_to``: public lines are built
from public events, and a player's private lines from the events private to them, so a
hidden die cannot reach a public message unless the engine made it public (a lift or a
Warrior's roll).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.games import maya
from bot.games.maya import Event
from bot.games.maya import events as ev
from bot.games.maya import values as d
from bot.i18n import t
from cogs.table.free_text import shown

Names = Callable[[int], str]

COLOUR = discord.Colour(0xC0392B)
DEFAULT_GAGES = {"gorgée", "vie"}


def top_name(rules: maya.Rules, lang: str) -> str:
    """What the players of this table call 21: the Maya, or in Mia mode the Mia."""
    return t(lang, "word.top_mia" if rules.lives else "word.top_maya")


def maya_value(value: int, rules: maya.Rules, lang: str) -> str:
    """An announced value (not dice) as players say it: ``53``, ``double 3``, ``MAYA (21)``
    (``MIA (21)`` in Mia mode)."""
    if value == d.MAYA:
        return f"{top_name(rules, lang).upper()} (21)"
    if value % 11 == 0:
        return t(lang, "word.double", face=str(value // 11))
    return str(value)


def _unit_word(rules: maya.Rules, count: int, lang: str) -> str:
    """The table's penalty word: sips/lives in the reader's language unless the table set its own."""
    if rules.gage not in DEFAULT_GAGES:
        return shown(rules.gage)
    if rules.lives:
        return t(lang, "word.life" if count == 1 else "word.lives")
    return t(lang, "word.sip" if count == 1 else "word.sips")


# Events told by one line naming one player.
PLAYER_LINES: dict[type[Event], str] = {
    ev.DirectionReversed: "ev.direction_reversed",
    ev.Tapped: "ev.tapped",
    ev.SecondChanceTaken: "ev.second_chance",
    ev.PlayerEliminated: "ev.eliminated",
    ev.GameWon: "ev.game_won",
    ev.PlayerLeft: "ev.player_left",
    ev.TurnPassed: "ev.turn_passed",
    ev.FaultAccepted: "ev.fault_accepted",
    ev.FaultContested: "ev.fault_contested",
    ev.FaultAppealed: "ev.fault_appealed",
}
MAYA_STYLES = {"fragile": "ev.fragile", "warrior": "ev.warrior", "accept": "ev.accept_maya"}


def public_lines(events: Iterable[Event], rules: maya.Rules, names: Names, lang: str) -> list[str]:
    """One short line per public event worth telling, in order."""
    lines: list[str] = []
    for event in events:
        if event.public:
            line = _line(event, rules, names, lang)
            if line is not None:
                lines.append(line)
    return lines


def _line(event: Event, rules: maya.Rules, names: Names, lang: str) -> str | None:
    key = PLAYER_LINES.get(type(event))
    if key is not None:  # each of these events has its ``player``
        return t(lang, key, player=names(cast(Any, event).player))
    match event:
        case ev.RoundStarted():
            return t(lang, "ev.round_started", round=event.round, opener=names(event.opener))
        case ev.Rolled():
            # A believe already told its roll; an opener's roll is news only when blind.
            if event.blind and not event.believed:
                return t(lang, "ev.rolled_blind", player=names(event.player))
            return None
        case ev.Believed():
            key = "ev.believed_blind" if event.blind else "ev.believed"
            announcer = names(event.announcer) if event.announcer is not None else ""
            return t(lang, key, player=names(event.player), announcer=announcer)
        case ev.Announced():
            blind = t(lang, "ev.blind_suffix") if event.blind else ""
            params = {"player": names(event.player), "next": names(event.next), "blind": blind}
            if event.photo:
                return t(lang, "ev.announced_photo", **params)
            if event.value == d.MAYA:
                top = top_name(rules, lang).upper()
                return t(lang, "ev.announced_maya", top=top, **params)
            return t(lang, "ev.announced", value=maya_value(event.value, rules, lang), **params)
        case ev.Revealed():
            return t(
                lang,
                "ev.lift_true" if event.truthful else "ev.lift_bluff",
                lifter=names(event.lifter),
                dice=_shown(event.dice),
                announcer=names(event.player),
                announced=maya_value(event.announced, rules, lang),
                photo=t(lang, "ev.photo_suffix") if event.photo else "",
            )
        case ev.MayaBelieved():
            key = MAYA_STYLES[event.style]
            return t(lang, key, player=names(event.player), top=top_name(rules, lang))
        case ev.WarriorRolled():
            return t(
                lang,
                "ev.warrior_success" if event.success else "ev.warrior_failure",
                player=names(event.player),
                dice=_shown(event.dice),
                verifier=names(event.verifier),
            )
        case ev.Drank():
            if event.glasses:
                return t(lang, "ev.drank_glass", player=names(event.player))
            word = _unit_word(rules, event.sips, lang)
            return t(lang, "ev.drank_sip", player=names(event.player), count=event.sips, word=word)
        case ev.LifeLost():
            return t(
                lang,
                "ev.life_lost",
                player=names(event.player),
                count=event.lives,
                word=_unit_word(rules, event.lives, lang),
                remaining=event.remaining,
            )
        case ev.GameEnded():
            stopped = event.reason == "stopped"
            return t(lang, "ev.game_stopped" if stopped else "ev.game_players_left")
        case ev.RoundEnded():
            key = "ev.round_ended_reverse" if event.may_reverse else "ev.round_ended"
            return t(lang, key, opener=names(event.opener))
        case ev.PlayerJoined():
            key = "ev.player_joined" if event.seated else "ev.player_joined_waiting"
            return t(lang, key, player=names(event.player))
        case ev.RoundAbandoned():
            return t(lang, "ev.round_abandoned", opener=names(event.opener))
        case ev.FaultRaised():
            return accusation_line(event.accuser, event.accused, event.motive, names, lang)
        case ev.FaultJudged():
            return t(
                lang,
                "ev.fault_guilty" if event.guilty else "ev.fault_innocent",
                accused=names(event.accused),
                guilty=event.guilty_votes,
                innocent=event.innocent_votes,
                tie="yes" if event.guilty_votes == event.innocent_votes else "no",
            )
        case ev.FaultDropped():
            return t(lang, "ev.fault_dropped")
    return None


def accusation_line(accuser: int, accused: int, motive: str, names: Names, lang: str) -> str:
    """Who accuses whom of a *faute de jeu*, and why (the motive as typed, not applied)."""
    return t(
        lang,
        "ev.fault_raised" if motive else "ev.fault_raised_nomotive",
        accuser=names(accuser),
        accused=names(accused),
        motive=shown(motive),
    )


def _shown(dice: list[int]) -> str:
    first, second = dice
    return d.show((first, second))


# --------------------------------------------------------------------------- the table message


@dataclass(frozen=True, slots=True)
class Seating:
    """What the table message needs to know besides the engine state."""

    names: Names
    cpus: dict[int, str]  # cpu id -> level
    starter: int
    deadline: float | None


def _arrow(direction: int) -> str:
    return "↻" if direction == 1 else "↺"


def _seat_line(seat: maya.SeatView, view: maya.View, seating: Seating, lang: str) -> str:
    marker = "▶️" if view.current == seat.player else "▫️"
    name = seating.names(seat.player)
    if seat.player in seating.cpus:
        name += f" ({t(lang, 'table.cpu', level=seating.cpus[seat.player])})"
    if seat.status == maya.OUT:
        return f"~~{name}~~ — {t(lang, 'table.out')}"
    if seat.status == maya.LEFT:
        return f"~~{name}~~ — {t(lang, 'table.left')}"
    if view.rules.lives:
        score = "❤️" * seat.lives if seat.lives else "0"
    else:
        score = t(lang, "table.sips", sips=seat.sips, glasses=seat.glasses)
    if seat.status == maya.WAITING:
        score += f" · {t(lang, 'table.waiting')}"
    return f"{marker} {name} — {score}"


def preset_label(rules: maya.Rules, lang: str) -> str:
    if rules.lives:
        return t(lang, "preset.lives", lives=rules.vies)
    return t(lang, "preset.soiree")


def game_label(rules: maya.Rules, lang: str) -> str:
    return t(lang, "game.mia" if rules.lives else "game.maya")


def lobby_embed(
    rules: maya.Rules, players: list[int], seating: Seating, lang: str
) -> discord.Embed:
    embed = discord.Embed(
        title=t(
            lang,
            "table.lobby_title",
            game=game_label(rules, lang),
            preset=preset_label(rules, lang),
        ),
        colour=COLOUR,
        description=t(lang, "table.lobby_hint", starter=seating.names(seating.starter))
        + "\n\n"
        + t(lang, "help.maya.short"),
    )
    lines = []
    for player in players:
        name = seating.names(player)
        if player in seating.cpus:
            name += f" ({t(lang, 'table.cpu', level=seating.cpus[player])})"
        lines.append(f"▫️ {name}")
    embed.add_field(
        name=t(lang, "table.lobby_players", count=len(players)),
        value="\n".join(lines),
        inline=False,
    )
    return embed


def table_embed(view: maya.View, seating: Seating, lang: str) -> discord.Embed:
    """The public table, drawn from what the channel may know (``view(state, None)``)."""
    rules = view.rules
    embed = discord.Embed(
        title=t(
            lang, "table.title", game=game_label(rules, lang), preset=preset_label(rules, lang)
        ),
        colour=COLOUR,
    )
    embed.add_field(
        name=t(lang, "table.players", arrow=_arrow(view.direction)),
        value="\n".join(_seat_line(s, view, seating, lang) for s in view.seats),
        inline=False,
    )
    if view.over:
        text = t(lang, "table.over")
        if view.winner is not None:
            text += "\n" + t(lang, "table.winner", player=seating.names(view.winner))
        embed.add_field(name="\u200b", value=text, inline=False)
        return embed
    if view.announced is not None:
        if view.photo and rules.photo_memoire:
            shown = t(lang, "table.announcement_hidden")
        else:
            shown = f"**{maya_value(view.announced, rules, lang)}**"
            if view.photo:
                shown = f"📸 {shown}"
        shown += f" — {seating.names(view.announcer)}" if view.announcer is not None else ""
        embed.add_field(name=t(lang, "table.announcement"), value=shown, inline=False)
    embed.add_field(
        name=t(lang, "table.turn"), value=turn_text(view, seating.names, lang), inline=False
    )
    if seating.deadline is not None:
        embed.add_field(
            name="\u200b",
            value=t(lang, "table.deadline", when=f"<t:{int(seating.deadline)}:R>"),
            inline=False,
        )
    embed.set_footer(text=t(lang, "table.round", round=max(view.round, 1)))
    return embed


def turn_text(view: maya.View, names: Names, lang: str) -> str:
    if view.current is None:
        return t(lang, "table.over")
    player = names(view.current)
    if view.phase == maya.OPEN:
        return t(lang, "table.turn_open", player=player)
    if view.phase == maya.ANNOUNCE:
        return t(lang, "table.turn_announce", player=player)
    announcer = names(view.announcer) if view.announcer is not None else "?"
    key = "table.turn_maya" if view.announced == d.MAYA else "table.turn_respond"
    return t(lang, key, player=player, announcer=announcer, top=top_name(view.rules, lang))


# --------------------------------------------------------------------------- a player's own cup


def cup_text(view: maya.View, lang: str) -> str:
    """What the holder knows of their own dice (for their eyes only)."""
    if view.my_play == maya.AVEUGLE or (view.my_dice is None and view.phase == maya.ANNOUNCE):
        text = t(lang, "me.dice_blind")
    elif view.my_dice is None:
        return t(lang, "me.no_dice")
    elif view.my_play == maya.TAPOTE:
        text = t(lang, "me.dice_tapped", dice=d.show(view.my_dice))
    elif view.my_play == maya.SECONDE_CHANCE:
        text = t(lang, "me.dice_second", dice=d.show(view.my_dice))
    else:
        text = t(lang, "me.dice", dice=d.show(view.my_dice))
    if view.announced is None:
        return f"{text}\n{t(lang, 'me.announce_prompt_open')}"
    previous = maya_value(view.announced, view.rules, lang)
    return f"{text}\n{t(lang, 'me.announce_prompt', previous=previous)}"


def rules_text(rules: maya.Rules, lang: str) -> str:
    """The table's options, one per line, for ``/maya regles``."""
    on, off = ("✅", "❌")
    lines = [f"**{game_label(rules, lang)} — {preset_label(rules, lang)}**"]
    lines.append(t(lang, "rules.ouvreur." + rules.ouvreur))
    flags = ["photo", "photo_memoire", "aveugle", "tapote", "seconde_chance"]
    if not rules.lives:
        flags += ["warrior_fragile", "inversion_maya", "fautes"]
    for name in flags:
        lines.append(f"{on if getattr(rules, name) else off} {t(lang, 'rules.' + name)}")
    lines.append(t(lang, "rules.gage", gage=shown(rules.gage)))
    return "\n".join(lines)
