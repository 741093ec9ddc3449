"""Dés du menteur in words: bids, the public table, the story of a round, the menus of raises.

The public table shows only dice *counts* and the round's bids; a player's own dice come from
their own view, in ephemeral messages. All hands are shown only at the reveal of a challenge
(docs/rules.md#menteur-challenge, #hidden-dice), from the public ``Revealed`` event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.games import menteur as lm
from bot.games.menteur import cpu
from bot.games.menteur import events as ev
from bot.i18n import t
from bot.kernel import dice as d
from cogs.table.components import TableButton, TableSelect
from cogs.table.controls import Control, Controls, Where

COLOUR = discord.Colour(0x8E44AD)
MAX_OPTIONS = 25
EXTRA_PER_FACE = 3  # bids offered above the smallest raise on each face
TELLING = 0.3  # dice: a reading of someone's bids this far from chance is worth a sentence

Names = Callable[[int], str]


def faces(dice: Sequence[int]) -> str:
    return " ".join(f"{d.face(pip)}{pip}" for pip in dice)


def bid_text(quantity: int, face: int, lang: str) -> str:
    """A bid as players say it, "cinq 4": the count in words (up to twenty), then the value;
    no die glyphs (glyphs in public messages mean revealed dice)."""
    words = t(lang, "m.numbers").split()
    count = words[quantity - 1] if 1 <= quantity <= len(words) else str(quantity)
    return t(lang, "m.bid", words=count, face=str(face), quantity=quantity)


def rules_label(rules: lm.Rules, lang: str) -> str:
    """ "5 dés, les 1 sont jokers · Calza · Palifico": the dice, the jokers, the variants on."""
    key = "m.rules_jokers" if rules.jokers else "m.rules_plain"
    parts = [t(lang, key, dice=rules.dice)]
    parts += [t(lang, f"m.rules_{name}") for name in ("calza", "palifico") if getattr(rules, name)]
    return " · ".join(parts)


def raise_options(legal: Sequence[Any]) -> list[tuple[int, int]]:
    """From the legal bids: the smallest raise on each face and a few above, at most 25, by
    (quantity, face)."""
    smallest: dict[int, int] = {}
    for action in legal:
        if isinstance(action, lm.Bid):
            smallest[action.face] = min(action.quantity, smallest.get(action.face, action.quantity))
    found = {
        (action.quantity, action.face)
        for action in legal
        if isinstance(action, lm.Bid) and action.quantity <= smallest[action.face] + EXTRA_PER_FACE
    }
    return sorted(found)[:MAX_OPTIONS]


def encode(quantity: int, face: int) -> str:
    return f"{quantity}_{face}"


def decode(value: str) -> tuple[int, int]:
    """A bid picked in a menu (``"3_5"``); anything else is refused as an unknown bid."""
    quantity, sep, face = value.partition("_")
    if not (
        sep and quantity.isascii() and quantity.isdigit() and face.isascii() and face.isdigit()
    ):
        raise lm.InvalidBid(reason="unreadable")
    return int(quantity), int(face)


def bid_options(legal: Sequence[Any], lang: str) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=bid_text(q, f, lang), value=encode(q, f))
        for q, f in raise_options(legal)
    ]


def hint_lines(view: lm.View, advised: Any | None, lang: str, names: Names) -> list[str]:
    """The tutorial's hint: the chance that the bid to beat holds given ``view``'s dice and
    what the others bid (difficile's reading), a sentence on why, and the advised move."""
    lines = []
    read = cpu.reading(view)
    if read is not None and view.bid is not None:
        quantity, face = view.bid
        lines.append(
            t(
                lang,
                "m.hint.chance",
                bid=bid_text(quantity, face, lang),
                percent=f"{read.holds:.0%}",
                alone=f"{read.alone:.0%}",
            )
        )
        telling = max(read.players, key=lambda p: abs(p[1] - p[2]), default=None)
        if telling is None or abs(telling[1] - telling[2]) < TELLING:
            lines.append(t(lang, "m.hint.why_none"))
        else:
            player, expected, prior = telling
            lines.append(
                t(
                    lang,
                    "m.hint.why",
                    player=names(player),
                    expected=decimal(expected, lang),
                    amount=plural_amount(expected, lang),
                    prior=decimal(prior, lang),
                    face=str(face),
                )
            )
    if isinstance(advised, lm.Bid):
        lines.append(t(lang, "m.hint.bid", bid=bid_text(advised.quantity, advised.face, lang)))
    elif isinstance(advised, lm.Challenge):
        lines.append(t(lang, "m.hint.challenge"))
    return lines


def plural_amount(value: float, lang: str) -> float | int:
    """What a noun after ``decimal(value)`` agrees with: French takes the singular below 2
    ("1,4 dé": its integer part), English the plural for any decimal ("1.4 dice")."""
    shown = round(value, 1)
    return int(shown) if lang == "fr" else shown


def decimal(value: float, lang: str) -> str:
    """One decimal, with the reader's separator ("1,7" in French, "1.7" in English)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "fr" else text


def table_embed(
    view: lm.View | None, rules: lm.Rules, names: Names, lang: str, players: Sequence[int]
) -> discord.Embed:
    """The public table (``view``: the channel's view; None in the lobby)."""
    embed = discord.Embed(
        title=f"🎲 {t(lang, 'game.menteur')} — {rules_label(rules, lang)}", colour=COLOUR
    )
    if view is None:
        embed.description = (
            t(lang, "m.lobby", players=", ".join(map(names, players)))
            + "\n\n"
            + t(lang, "help.menteur.short")
        )
        return embed
    rows = [
        ("👉 " if seat.player == view.current else "") + seat_line(seat, names, lang)
        for seat in view.seats
    ]
    embed.add_field(name=t(lang, "m.players"), value="\n".join(rows)[:1024], inline=False)
    if view.history:
        bids = [
            f"{names(b.player)} : **{bid_text(b.quantity, b.face, lang)}**"
            for b in view.history[-12:]
        ]
        embed.add_field(
            name=t(lang, "m.bids", round=view.round), value="\n".join(bids)[:1024], inline=False
        )
    if view.over:
        if view.winner is not None:
            embed.add_field(
                name="\u200b", value=t(lang, "m.winner", player=names(view.winner)), inline=False
            )
            embed.set_footer(text=t(lang, "m.footer_won"))
    elif view.current is not None:
        turn_line = "m.turn_line_calza" if rules.calza and view.bid is not None else "m.turn_line"
        lines = [t(lang, turn_line, player=names(view.current), total=view.dice_in_play)]
        if view.palifico is not None:
            lines.insert(0, palifico_line(view, names, lang))
        embed.add_field(name=t(lang, "m.turn"), value="\n".join(lines), inline=False)
    return embed


def palifico_line(view: lm.View, names: Names, lang: str) -> str:
    """Whose Palifico round this is, and the face it keeps once opened."""
    assert view.palifico is not None
    if view.locked_face is None:
        return t(lang, "m.palifico_open", player=names(view.palifico))
    return t(lang, "m.palifico_face", player=names(view.palifico), face=str(view.locked_face))


def seat_line(seat: lm.SeatView, names: Names, lang: str) -> str:
    """A player and the dice they have left (or that they are out, or gone)."""
    if seat.status == lm.IN:
        count = "🎲" * seat.dice + f" ({seat.dice})"
    elif seat.status == lm.OUT:
        count = t(lang, "m.out")
    else:
        count = t(lang, "m.left")
    return f"{names(seat.player)} : {count}"


def jokers_counted(event: ev.Revealed) -> int:
    """How many of the dice counted at a reveal are ones standing in for the bid's face."""
    if not event.jokers or event.face == 1:
        return 0
    return sum(die == 1 for hand in event.hands for die in hand["dice"])


def _bid(user: int, argument: str, value: str | None) -> lm.Bid:
    quantity, face = decode(value or "")
    return lm.Bid(user, quantity, face)


# The game's buttons and menu: the table offers a player's dice and the challenges, their
# private panel the raises and the challenges.
CONTROLS = Controls(
    (
        Control(
            "dice",
            "btn.dice",
            discord.ButtonStyle.primary,
            handler=lambda cog, interaction, table, *_: cog.show_dice(interaction, table),
        ),
        Control(
            "dudo",
            "m.btn.dudo",
            discord.ButtonStyle.danger,
            Where.BOTH,
            move=lambda user, *_: lm.Challenge(user),
        ),
        Control(
            "calza",
            "m.btn.calza",
            discord.ButtonStyle.success,
            Where.BOTH,
            move=lambda user, *_: lm.Calza(user),
        ),
        Control("announce", where=Where.PANEL, move=_bid),  # the menu of raises
    )
)


def table_components(
    table_id: int, view: lm.View, turn: Sequence[Any], lang: str
) -> discord.ui.View | None:
    """The table's buttons: the current player's dice (privately), and *dudo* when legal."""
    if view.over or view.current is None:
        return None
    components = discord.ui.View(timeout=None)
    components.add_item(CONTROLS["dice"].button(table_id, view.step, lang))
    if any(isinstance(action, lm.Challenge) for action in turn):
        components.add_item(dudo_button(table_id, view.step, lang))
    if any(isinstance(action, lm.Calza) for action in turn):
        components.add_item(calza_button(table_id, view.step, lang))
    return components


def dudo_button(table_id: int, step: int, lang: str) -> TableButton:
    return CONTROLS["dudo"].button(table_id, step, lang)


def calza_button(table_id: int, step: int, lang: str) -> TableButton:
    return CONTROLS["calza"].button(table_id, step, lang)


def bid_panel(table_id: int, step: int, legal: Sequence[Any], lang: str) -> discord.ui.View | None:
    """A player's private menu of raises (and *dudo*) on their turn to bid."""
    if not any(isinstance(action, lm.Bid | lm.Challenge) for action in legal):
        return None
    components = discord.ui.View(timeout=None)
    components.add_item(TableSelect(table_id, step, bid_options(legal, lang), t(lang, "m.select")))
    if any(isinstance(action, lm.Challenge) for action in legal):
        components.add_item(dudo_button(table_id, step, lang))
    if any(isinstance(action, lm.Calza) for action in legal):
        components.add_item(calza_button(table_id, step, lang))
    return components


def event_lines(events: Sequence[Any], lang: str, name: Names, you: int | None = None) -> list[str]:
    """The public story of ``events`` (private dice events are skipped); ``you``: the one
    reader of a private game (the tutorial), told in the second person."""
    lines: list[str] = []

    def who(player: int) -> str:
        return "yes" if player == you else "no"

    for event in events:
        if event.visibility != lm.PUBLIC:
            continue
        if isinstance(event, ev.RoundStarted):
            lines.append(
                t(
                    lang,
                    "m.ev.round",
                    round=event.round,
                    player=name(event.opener),
                    total=event.total,
                    you=who(event.opener),
                )
            )
            if event.palifico is not None:
                palifico = event.palifico
                lines.append(t(lang, "m.ev.palifico", player=name(palifico), you=who(palifico)))
        elif isinstance(event, ev.BidMade):
            bid = bid_text(event.quantity, event.face, lang)
            player = name(event.player)
            lines.append(
                t(
                    lang,
                    "m.ev.bid",
                    player=player,
                    bid=bid,
                    next=name(event.next),
                    you=who(event.player),
                )
            )
        elif isinstance(event, ev.Challenged):
            bid = bid_text(event.quantity, event.face, lang)
            bidder = name(event.bidder)
            lines.append(
                t(
                    lang,
                    "m.ev.dudo",
                    player=name(event.player),
                    bidder=bidder,
                    bid=bid,
                    you=who(event.player),
                    bidder_you=who(event.bidder),
                )
            )
        elif isinstance(event, ev.CalzaCalled):
            lines.append(
                t(
                    lang,
                    "m.ev.calza",
                    player=name(event.player),
                    bidder=name(event.bidder),
                    bid=bid_text(event.quantity, event.face, lang),
                    you=who(event.player),
                    bidder_you=who(event.bidder),
                )
            )
        elif isinstance(event, ev.Revealed):
            for hand in event.hands:
                lines.append(f"　{name(hand['player'])} : {faces(hand['dice'])}")
            if event.call == "calza":
                key = "m.ev.exact" if event.exact else "m.ev.not_exact"
            else:
                key = "m.ev.holds" if event.holds else "m.ev.bluff"
            jokers = jokers_counted(event)
            lines.append(
                t(
                    lang,
                    key,
                    actual=event.actual,
                    face=event.face,
                    jokers=jokers,
                    quantity=event.quantity,
                )
            )
        elif isinstance(event, ev.DieGained):
            key = "m.ev.die_capped" if event.capped else "m.ev.die_gained"
            lines.append(
                t(lang, key, player=name(event.player), left=event.remaining, you=who(event.player))
            )
        elif isinstance(event, ev.DieLost):
            left = event.remaining
            lines.append(
                t(
                    lang,
                    "m.ev.die_lost",
                    player=name(event.player),
                    left=left,
                    you=who(event.player),
                )
            )
        elif isinstance(event, ev.PlayerEliminated):
            lines.append(
                t(lang, "m.ev.eliminated", player=name(event.player), you=who(event.player))
            )
        elif isinstance(event, ev.PlayerLeft):
            lines.append(t(lang, "ev.player_left", player=name(event.player)))
        elif isinstance(event, ev.GameWon):
            lines.append(t(lang, "m.ev.won", player=name(event.player), you=who(event.player)))
        elif isinstance(event, ev.GameEnded):
            lines.append(t(lang, "ev.game_stopped"))
    return lines


def explain(error: BaseException, lang: str) -> str | None:
    """The menteur refusals in words (the shared ones are worded by ``bot.interactions.refusals``)."""
    if not isinstance(error, lm.GameError):
        return None
    params = dict(error.params)
    if isinstance(error, lm.BidTooLow):
        if params.get("minimum") is not None:
            quantity, face = params["minimum"]
            others = [(q, f) for q, f in params.get("raises") or () if f != face]
            return t(
                lang,
                "err.bid_too_low",
                minimum=bid_text(quantity, face, lang),
                face=str(face),
                others=", ".join(bid_text(q, f, lang) for q, f in others) or "—",
            )
        raises = ", ".join(bid_text(q, f, lang) for q, f in params.get("raises") or ())
        return t(lang, "err.bid_too_low_none", raises=raises or "—")
    if isinstance(error, lm.InvalidBid):
        if params.get("reason") == "palifico_face":
            reason = t(lang, "err.invalid_bid.palifico_face", locked=str(params.get("locked")))
        else:
            reason = t(lang, f"err.invalid_bid.{params.get('reason')}")
        return t(lang, "err.invalid_bid", reason=reason)
    if isinstance(error, lm.NotNow) and params.get("reason") == "calza_off":
        return t(lang, "err.calza_off")
    if isinstance(error, lm.NotNow) and params.get("reason") == "no_bid":
        return t(lang, "err.no_bid_calza" if params.get("action") == "calza" else "err.no_bid")
    return None
