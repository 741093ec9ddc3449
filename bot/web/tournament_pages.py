"""A server's tournaments on its web page: ``/s/<token>/tournois`` lists its latest ones
(signing up, running, over), ``/s/<token>/tournois/<id>`` shows one's standings and
bracket. What they show comes from ``bot.web.tournaments``' rows; the pages themselves
(the server's token, the language, the headers, the 404s) are the site's (``bot.web``).

A cancelled tournament, one of another server or an unknown id is a 404, as anything
else the server's page does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol
from urllib.parse import urlencode

from aiohttp import web

from bot.i18n import ENGLISH, FRENCH, t
from bot.storage import Repository, WebPage
from bot.tournaments.hosted import CANCELLED, Hosted
from bot.web.tournaments import (
    bracket_rows,
    standings_rows,
    tournament_row,
    unnamed,
)

LATEST = 10  # tournaments listed, the latest first
# A tournament's id in the address: ASCII digits, within a 63-bit integer.
TOURNAMENT_ID = r"{tournament:[0-9]{1,18}}"


class Site(Protocol):
    """What a page needs of the web server (``bot.web.WebServer``)."""

    async def page_of(self, request: web.Request) -> WebPage: ...

    def storage(self) -> Repository: ...

    def language(self, request: web.Request) -> str: ...

    def render(
        self, request: web.Request, template: str, lang: str, *, status: int = 200, **values: Any
    ) -> web.Response: ...


def lang_query(request: web.Request) -> str:
    """``?lang=…`` when the address chose the language, for the links to carry it on."""
    chosen = request.query.get("lang")
    return "?" + urlencode({"lang": chosen}) if chosen in (FRENCH, ENGLISH) else ""


class TournamentPages:
    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/s/{token}/tournois", self.listing),
            web.get("/s/{token}/tournois/" + TOURNAMENT_ID, self.tournament),
        ]

    async def _names(self, guild_id: int, hosted: list[Hosted]) -> Mapping[int, str]:
        """The server's names of the players the tournaments have none for."""
        missing = list(dict.fromkeys(p for h in hosted for p in unnamed(h)))
        return await self.site.storage().player_names(guild_id, missing)

    async def listing(self, request: web.Request) -> web.Response:
        page = await self.site.page_of(request)
        lang = self.site.language(request)
        records = await self.site.storage().tournaments(page.guild_id, limit=LATEST)
        hosted = [Hosted.from_json(record.data) for record in records]
        known = await self._names(page.guild_id, hosted)
        query = lang_query(request)
        return self.site.render(
            request,
            "tournaments.html",
            lang,
            title=t(lang, "web.tournaments_title", server=page.guild_name),
            server=page.guild_name,
            # Relative links: the pages work behind a proxy that serves them under a path.
            board=f"../{page.token}" + query,
            tournaments=[
                {
                    "row": tournament_row(record.id, h, lang, known),
                    "url": f"tournois/{record.id}" + query,
                }
                for record, h in zip(records, hosted, strict=True)
            ],
        )

    async def tournament(self, request: web.Request) -> web.Response:
        page = await self.site.page_of(request)
        lang = self.site.language(request)
        record = await self.site.storage().tournament(int(request.match_info["tournament"]))
        if record is None or record.guild_id != page.guild_id or record.status == CANCELLED:
            raise web.HTTPNotFound()
        hosted = Hosted.from_json(record.data)
        known = await self._names(page.guild_id, [hosted])
        row = tournament_row(record.id, hosted, lang, known)
        return self.site.render(
            request,
            "tournament.html",
            lang,
            title=t(
                lang,
                "web.tournament_title",
                game=t(lang, f"rank.game.{row.game}"),
                server=page.guild_name,
            ),
            server=page.guild_name,
            back="../tournois" + lang_query(request),
            row=row,
            standings=standings_rows(hosted, lang, known),
            rounds=bracket_rows(hosted, lang, known),
        )
