"""What a tournament shows in its channel: its sign-up message, and after every match its
bracket and standings (the same ``bracket`` and ``standings`` the web page draws)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    BracketMatch,
    BracketRound,
    Match,
    MatchStatus,
    bracket,
    standings,
)
from bot.tournaments.hosted import Hosted

COLOUR = discord.Colour(0xF1C40F)
MOST_LISTED = 60  # the sign-ups a message names (the count says the rest)


def mention(player: int | None) -> str:
    return "—" if player is None else f"<@{player}>"


def game_name(hosted: Hosted, lang: str) -> str:
    return t(lang, f"tour.game.{hosted.game}")


def format_line(hosted: Hosted, lang: str) -> str:
    options = hosted.options
    if options.format == SINGLE_ELIMINATION:
        return t(lang, "tour.format.single_elimination")
    if options.format == SWISS:
        rounds = options.rounds or 0
        return (
            t(lang, "tour.format.swiss", rounds=rounds)
            if rounds
            else t(lang, "tour.format.swiss_auto")
        )
    return t(lang, "tour.format.pools", seats=options.seats, qualifiers=options.qualifiers)


def signup_embed(hosted: Hosted) -> discord.Embed:
    lang = hosted.lang
    ends = int(hosted.signup_ends)
    lines = [
        format_line(hosted, lang),
        t(lang, "tour.organizer", player=mention(hosted.organizer)),
        t(lang, "tour.signup_ends", when=f"<t:{ends}:f>", left=f"<t:{ends}:R>"),
        t(lang, "tour.round_time", minutes=round(hosted.round_seconds / 60)),
        "",
    ]
    entrants = hosted.entrants
    if entrants:
        named = ", ".join(mention(p) for p in entrants[:MOST_LISTED])
        more = len(entrants) - MOST_LISTED
        if more > 0:
            named += " " + t(lang, "tour.and_more", count=more)
        lines.append(t(lang, "tour.entrants", count=len(entrants), players=named))
    else:
        lines.append(t(lang, "tour.no_entrants"))
    return discord.Embed(
        title=t(lang, "tour.title", game=game_name(hosted, lang)),
        description="\n".join(lines)[:4096],
        colour=COLOUR,
    )


def _player(player: int | None, match: BracketMatch) -> str:
    shown = mention(player)
    if player is not None and player in match.forfeited:
        shown = f"~~{shown}~~"
    if player is not None and player in match.advancing:
        shown = f"**{shown}**"
    return shown


def match_line(match: BracketMatch, lang: str) -> str:
    """One match of the bracket: its players, who went on, forfeits, byes."""
    players = " · ".join(_player(p, match) for p in match.lines)
    if match.status == MatchStatus.BYE:
        return t(lang, "tour.line.bye", player=players)
    if match.status == MatchStatus.EMPTY:
        return t(lang, "tour.line.empty")
    if match.status == MatchStatus.UPCOMING:
        return t(lang, "tour.line.upcoming", players=players)
    if match.status == MatchStatus.PENDING:
        return t(lang, "tour.line.pending", players=players)
    went_on = match.advancing
    if not went_on and match.ranking and match.ranking[0] not in match.forfeited:
        went_on = match.ranking[:1]  # a Swiss match: its winner
    winners = ", ".join(mention(p) for p in went_on) or t(lang, "tour.nobody")
    forfeits = ", ".join(mention(p) for p in match.forfeited)
    key = "tour.line.forfeit" if forfeits else "tour.line.played"
    return t(lang, key, players=players, winners=winners, forfeits=forfeits)


def round_title(hosted: Hosted, round_: BracketRound, lang: str) -> str:
    if round_.final and hosted.options.format != SWISS:
        return t(lang, "tour.round.final")
    return t(lang, "tour.round.number", number=round_.number)


def bracket_lines(hosted: Hosted, lang: str) -> list[str]:
    if hosted.tournament is None:
        return []
    lines: list[str] = []
    for round_ in bracket(hosted.tournament).rounds:
        lines.append(f"**{round_title(hosted, round_, lang)}**")
        if not round_.matches:
            lines.append(t(lang, "tour.line.unpaired"))
        lines += [match_line(match, lang) for match in round_.matches]
    return lines


def standing_lines(hosted: Hosted, lang: str) -> list[str]:
    """Every entrant's place, best first: ``N. @player — figures``."""
    if hosted.tournament is None:
        return []
    rows = []
    out = set(hosted.removed)
    for row in standings(hosted.tournament):
        if hosted.options.format == SWISS:
            figures = t(
                lang,
                "tour.figures.swiss",
                points=row.score,
                buchholz=row.buchholz or 0,
                wins=row.wins,
            )
        elif hosted.options.format == POOLS:
            figures = t(lang, "tour.figures.pools", rounds=row.score, wins=row.wins)
        else:
            figures = t(lang, "tour.figures.elimination", rounds=row.score, wins=row.wins)
        removed = " " + t(lang, "tour.removed") if row.player in out else ""
        rows.append(f"{row.place}. {mention(row.player)} — {figures}{removed}")
    return rows


def status_embed(hosted: Hosted, heading: str | None = None) -> discord.Embed:
    """The tournament as it stands: its bracket, then its standings."""
    lang = hosted.lang
    tournament = hosted.tournament
    parts: list[str] = []
    if heading:
        parts += [heading, ""]
    parts.append(format_line(hosted, lang))
    if tournament is not None and not tournament.over and hosted.round_ends:
        ends = int(hosted.round_ends)
        parts.append(
            t(
                lang,
                "tour.round_ends",
                number=tournament.current.number,
                when=f"<t:{ends}:f>",
                left=f"<t:{ends}:R>",
            )
        )
    bracket_text = bracket_lines(hosted, lang)
    standing_text = standing_lines(hosted, lang)
    bracket_title, standings_title = t(lang, "tour.bracket"), t(lang, "tour.standings")
    description = "\n".join(
        [
            *parts,
            "",
            f"__{bracket_title}__",
            *bracket_text,
            "",
            f"__{standings_title}__",
            *standing_text,
        ]
    )
    if len(description) > 4096 and tournament is not None:
        # A big tournament: the current round alone, and the standings.
        number = tournament.current.number
        current = next(r for r in bracket(tournament).rounds if r.number == number)
        lines = [f"**{round_title(hosted, current, lang)}**"]
        lines += [match_line(match, lang) for match in current.matches]
        description = "\n".join(
            [
                *parts,
                "",
                f"__{bracket_title}__",
                *lines,
                "",
                f"__{standings_title}__",
                *standing_text,
            ]
        )[:4096]
    return discord.Embed(
        title=t(lang, "tour.title", game=game_name(hosted, lang)),
        description=description,
        colour=COLOUR,
    )


def result_line(lang: str, match: Match) -> str:
    """A match just decided: its table's order."""
    assert match.ranking is not None
    number, table = match.id.split("-")
    order = " > ".join(mention(p) for p in match.ranking)
    return t(lang, "tour.result", number=number, table=table, order=order)


def names(players: Any) -> str:
    return ", ".join(mention(p) for p in players)
