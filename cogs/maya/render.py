"""Engine events -> what people read: public story lines, private dice lines, the table embed.

The renderer only ever sees events through ``Event.visible_to``: public lines are built
from public events, and a player's private lines from the events private to them, so a
hidden die cannot reach a public message unless the engine made it public (a lift or a
Warrior's roll).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import discord

from bot.games import maya
from bot.games.maya import Event
from bot.games.maya import values as d
from bot.i18n import t
from cogs.table.free_text import shown

Names = Callable[[int], str]

COLOUR = discord.Colour(0xC0392B)
DEFAULT_GAGES = {"gorgée", "vie"}


def maya_value(value: int) -> str:
    """An announced value (not dice): ``53``, ``MAYA (21)``."""
    return "MAYA (21)" if value == d.MAYA else str(value)


def _unit_word(rules: maya.Rules, count: int, lang: str) -> str:
    """The table's penalty word: sips/lives in the reader's language unless the table set its own."""
    if rules.gage not in DEFAULT_GAGES:
        return shown(rules.gage)
    if rules.lives:
        return t(lang, "word.life" if count == 1 else "word.lives")
    return t(lang, "word.sip" if count == 1 else "word.sips")


# Events told by one line naming one player.
PLAYER_LINES = {
    "direction_reversed": "ev.direction_reversed",
    "tapped": "ev.tapped",
    "second_chance": "ev.second_chance",
    "eliminated": "ev.eliminated",
    "game_won": "ev.game_won",
    "player_left": "ev.player_left",
    "turn_passed": "ev.turn_passed",
    "fault_accepted": "ev.fault_accepted",
    "fault_contested": "ev.fault_contested",
    "vote_cast": "ev.vote_cast",
    "vote_withdrawn": "ev.vote_withdrawn",
    "fault_appealed": "ev.fault_appealed",
}


def public_lines(events: Iterable[Event], rules: maya.Rules, names: Names, lang: str) -> list[str]:
    """One short line per public event worth telling, in order."""
    lines: list[str] = []
    for event in events:
        if not event.public:
            continue
        data = event.data
        kind = event.type
        line: str | None = None
        if kind in PLAYER_LINES:
            line = t(lang, PLAYER_LINES[kind], player=names(data["player"]))
        elif kind == "round_started":
            line = t(lang, "ev.round_started", round=data["round"], opener=names(data["opener"]))
        elif kind == "rolled":
            # A believe already told its roll; an opener's roll is news only when blind.
            if data["blind"] and not data["believed"]:
                line = t(lang, "ev.rolled_blind", player=names(data["player"]))
        elif kind == "believed":
            key = "ev.believed_blind" if data["blind"] else "ev.believed"
            line = t(lang, key, player=names(data["player"]), announcer=names(data["announcer"]))
        elif kind == "announced":
            blind = t(lang, "ev.blind_suffix") if data["blind"] else ""
            params = {"player": names(data["player"]), "next": names(data["next"]), "blind": blind}
            if data["photo"]:
                line = t(lang, "ev.announced_photo", **params)
            elif data["value"] == d.MAYA:
                line = t(lang, "ev.announced_maya", **params)
            else:
                line = t(lang, "ev.announced", value=data["value"], **params)
        elif kind == "revealed":
            key = "ev.lift_true" if data["truthful"] else "ev.lift_bluff"
            line = t(
                lang,
                key,
                lifter=names(data["lifter"]),
                dice=d.show(tuple(data["dice"])),
                announcer=names(data["player"]),
                announced=maya_value(data["announced"]),
                photo=t(lang, "ev.photo_suffix") if data["photo"] else "",
            )
        elif kind == "maya_believed":
            style = {"fragile": "ev.fragile", "warrior": "ev.warrior", "accept": "ev.accept_maya"}
            line = t(lang, style[data["style"]], player=names(data["player"]))
        elif kind == "warrior_rolled":
            key = "ev.warrior_success" if data["success"] else "ev.warrior_failure"
            line = t(
                lang,
                key,
                player=names(data["player"]),
                dice=d.show(tuple(data["dice"])),
                verifier=names(data["verifier"]),
            )
        elif kind == "drank":
            if data["glasses"]:
                line = t(lang, "ev.drank_glass", player=names(data["player"]))
            else:
                count = data["sips"]
                line = t(
                    lang,
                    "ev.drank_sip",
                    player=names(data["player"]),
                    count=count,
                    word=_unit_word(rules, count, lang),
                )
        elif kind == "life_lost":
            count = data["lives"]
            line = t(
                lang,
                "ev.life_lost",
                player=names(data["player"]),
                count=count,
                word=_unit_word(rules, count, lang),
                remaining=data["remaining"],
            )
        elif kind == "game_ended":
            key = "ev.game_stopped" if data["reason"] == "stopped" else "ev.game_players_left"
            line = t(lang, key)
        elif kind == "round_ended":
            key = "ev.round_ended_reverse" if data["may_reverse"] else "ev.round_ended"
            line = t(lang, key, opener=names(data["opener"]))
        elif kind == "player_joined":
            key = "ev.player_joined" if data["seated"] else "ev.player_joined_waiting"
            line = t(lang, key, player=names(data["player"]))
        elif kind == "round_abandoned":
            line = t(lang, "ev.round_abandoned", opener=names(data["opener"]))
        elif kind == "fault_raised":
            key = "ev.fault_raised" if data["motive"] else "ev.fault_raised_nomotive"
            line = t(
                lang,
                key,
                accuser=names(data["accuser"]),
                accused=names(data["accused"]),
                motive=shown(data["motive"]),
            )
        elif kind == "fault_judged":
            key = "ev.fault_guilty" if data["guilty"] else "ev.fault_innocent"
            line = t(
                lang,
                key,
                accused=names(data["accused"]),
                guilty=data["guilty_votes"],
                innocent=data["innocent_votes"],
            )
        elif kind == "fault_dropped":
            line = t(lang, "ev.fault_dropped")
        if line is not None:
            lines.append(line)
    return lines


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
        description=t(lang, "table.lobby_hint", starter=seating.names(seating.starter)),
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
            shown = f"**{maya_value(view.announced)}**"
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
    return t(lang, key, player=player, announcer=announcer)


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
    return f"{text}\n{t(lang, 'me.announce_prompt', previous=maya_value(view.announced))}"


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
