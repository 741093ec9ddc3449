"""Each server's web page: its leaderboards (every game, criterion, period and season),
its players' figures and picture, and its tournaments, served by the bot when
``GOBELET_WEB_PORT`` is set.

A server's page is off until a manager turns it on (``/reglages web``), which gives its
address: ``GOBELET_WEB_URL/s/<token>``, the token 128 random bits, so that the address is
known only to whom the server gives it. Only these are served, and only for a server whose
page is on:

- ``/s/<token>``: a leaderboard (``?jeu=``, by default the game played last on the server,
  ``critere=``, ``quand=`` a period or ``sN`` a season, ``page=``), read by
  ``bot.leaderboards`` as ``/classement`` reads it;
- ``/s/<token>/joueur/<id>``: a player's figures, as ``/stats`` lists them, and the
  achievements they hold, for a player the server has figures of;
- ``/s/<token>/joueur/<id>.png``: their picture;
- ``/s/<token>/tournois``: the server's latest tournaments, and ``/s/<token>/tournois/<id>``
  one's standings and bracket (``bot.web.tournament_pages``).

Anything else, a wrong token, a page turned off, a player the server has no figure of or a
tournament it did not hold (or cancelled), is a 404 that says nothing of what exists. Pages
are French or English after the browser's ``Accept-Language`` (``?lang=fr|en`` chooses),
are never indexed, and leak their address to no other site (no referrer, no third-party
resource).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from bot.games import REGISTRY
from bot.i18n import ENGLISH, FRENCH, t
from bot.kernel.spec import Board
from bot.leaderboards import (
    ALL_TIME,
    BOARDS,
    DEFAULT_BOARD,
    PERIODS,
    figure_lines,
    number,
    player_picture,
    ranking,
    season_choice,
    season_period,
    show_day,
)
from bot.plots import Busy
from bot.storage import Repository, Season, StorageError, WebPage
from bot.web.tournament_pages import TournamentPages

log = logging.getLogger(__name__)

PAGE = 20  # players per page (a phone scrolls; Discord's embeds show 10)
# What an address may hold, in ASCII digits only ("²" is a digit to str.isdigit): a page
# number, a season, a Discord id (a snowflake fits in 63 bits).
PAGE_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
SEASON = re.compile(r"s[1-9][0-9]{0,5}")
SNOWFLAKE_MAX = 2**63 - 1
# Pictures being drawn or waiting for it, past which a page's picture is refused for now (a
# 503 to try again): a flood of requests must not hold /stats' pictures back for long.
WAITING_PICTURES = 4
RETRY_SECONDS = 5
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
HEADERS = {
    # Nothing but the page's own styles and pictures; no script at all.
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",  # the address is the key: no other site learns it
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}

_templates = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent / "templates"),
    autoescape=True,  # every name shown was typed by someone
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def new_token() -> str:
    """An unguessable page token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def page_address(base: str, token: str) -> str:
    return f"{base}/s/{token}"


def preferred_language(accept: str | None) -> str:
    """English when the browser ranks an English language above any French one (by its
    ``q`` weights, then its order), else French."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        if not tag:
            continue
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = ENGLISH if tag.startswith("en") else FRENCH if tag.startswith("fr") else None
        if language is None or weight <= 0:
            continue
        candidate = (weight, -index, language)
        if best is None or candidate > best:
            best = candidate
    return best[2] if best is not None else FRENCH


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    active: bool


class WebServer:
    """The web pages' HTTP server: ``repository()`` gives the storage once it is open."""

    def __init__(self, repository: Callable[[], Repository | None], host: str, port: int) -> None:
        self.repository = repository
        self.host = host
        self.port = port
        app = web.Application(middlewares=[self._errors])
        app.router.add_get("/s/{token}", self.board)
        app.router.add_get(r"/s/{token}/joueur/{user:[0-9]{1,19}}", self.player)
        app.router.add_get(r"/s/{token}/joueur/{user:[0-9]{1,19}}.png", self.picture)
        app.router.add_routes(TournamentPages(self).routes())
        self.runner = web.AppRunner(app, access_log=None)  # addresses hold the tokens

    async def start(self) -> None:
        """Listen (raises OSError when the address cannot be bound)."""
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, self.port).start()
        log.info("servers' web pages on http://%s:%d/", self.host, self.port)

    async def stop(self) -> None:
        await self.runner.cleanup()

    # ---- what every page does

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self._message(request, "web.missing_title", "web.missing", 404)
        except web.HTTPMethodNotAllowed:
            return self._message(request, "web.missing_title", "web.missing", 405)
        except StorageError as error:
            log.warning("web page: the storage did not answer (%s)", error)
            return self._message(request, "web.down_title", "web.down", 503)
        except Busy:
            answer = self._message(request, "web.down_title", "web.busy", 503)
            answer.headers["Retry-After"] = str(RETRY_SECONDS)
            return answer
        except web.HTTPException:
            raise
        except Exception:
            # Never a bare error page: the same headers, no trace of the address's key.
            # The route's pattern, never the address itself (it holds the page's key).
            route = request.match_info.route.resource
            log.exception("web page %s failed", route.canonical if route else "?")
            return self._message(request, "web.down_title", "web.down", 500)

    def _message(self, request: web.Request, title: str, text: str, status: int) -> web.Response:
        lang = self.language(request)
        return self.render(
            request,
            "message.html",
            lang,
            status=status,
            title=t(lang, title),
            heading=t(lang, title),
            text=t(lang, text),
        )

    def storage(self) -> Repository:
        repository = self.repository()
        if repository is None:
            raise StorageError("not open yet")
        return repository

    async def page_of(self, request: web.Request) -> WebPage:
        token = request.match_info["token"]
        page = await self.storage().web_page_of(token)
        if page is None:
            raise web.HTTPNotFound()
        return page

    @staticmethod
    def language(request: web.Request) -> str:
        chosen = request.query.get("lang")
        if chosen in (FRENCH, ENGLISH):
            return chosen
        return preferred_language(request.headers.get("Accept-Language"))

    def render(
        self, request: web.Request, template: str, lang: str, *, status: int = 200, **values: Any
    ) -> web.Response:
        query = {k: v for k, v in request.query.items() if k != "lang"}
        body = _templates.get_template(template).render(
            lang=lang,
            t=lambda key, **params: t(lang, key, **params),
            switch_fr="?" + urlencode({**query, "lang": FRENCH}),
            switch_en="?" + urlencode({**query, "lang": ENGLISH}),
            **values,
        )
        return web.Response(
            text=body, status=status, content_type="text/html", charset="utf-8", headers=HEADERS
        )

    # ---- the leaderboards

    async def board(self, request: web.Request) -> web.Response:
        page = await self.page_of(request)
        repository = self.storage()
        lang = self.language(request)
        query = request.query
        chosen = query["jeu"] if "jeu" in query else await _played_last(repository, page.guild_id)
        board = BOARDS.get(chosen)
        if board is None:
            raise web.HTTPNotFound()
        metric = query.get("critere", board.criteria[0])
        when = query.get("quand", ALL_TIME)
        wanted = query.get("page", "1")
        if metric not in board.criteria or not PAGE_NUMBER.fullmatch(wanted):
            raise web.HTTPNotFound()
        seasons = await repository.seasons(page.guild_id)
        season = None
        if SEASON.fullmatch(when):
            season = next((s for s in seasons if season_period(s.number) == when), None)
            if season is None:
                raise web.HTTPNotFound()
        elif when not in PERIODS:
            raise web.HTTPNotFound()
        shown = await ranking(
            repository,
            page.guild_id,
            board,
            metric,
            when,
            int(wanted) - 1,
            None,
            season,
            size=PAGE,
        )
        names = await repository.player_names(page.guild_id, [row.user_id for row in shown.rows])
        lang_param = query.get("lang", "")

        def link(**changes: str) -> str:
            values = {"jeu": board.name, "critere": metric, "quand": when, **changes}
            if lang_param in (FRENCH, ENGLISH):
                values["lang"] = lang_param
            return "?" + urlencode(values)

        rows = [
            {
                "user_id": row.user_id,
                "medal": MEDALS.get(row.rank, f"{row.rank}."),
                "name": names.get(row.user_id) or t(lang, "web.someone", id=str(row.user_id)[-4:]),
                # Relative links: the pages work behind a proxy that serves them under a path.
                "url": f"{page.token}/joueur/{row.user_id}" + _lang_query(lang_param),
                "value": number(row.value),
            }
            for row in shown.rows
        ]
        games = [
            {
                "label": t(lang, f"rank.game.{name}"),
                "url": "?" + urlencode({"jeu": name, **_lang_dict(lang_param)}),
                "active": name == board.name,
            }
            for name in BOARDS
        ]
        return self.render(
            request,
            "board.html",
            lang,
            title=t(lang, "web.title", server=page.guild_name),
            server=page.guild_name,
            board=board.name,
            lang_param=lang_param if lang_param in (FRENCH, ENGLISH) else "",
            tournaments=f"{page.token}/tournois" + _lang_query(lang_param),
            games=games,
            metrics=_metric_options(board, metric, lang),
            whens=_when_options(seasons, shown.period, lang),
            heading=shown.title(lang),
            rows=rows,
            page=shown.page + 1,
            pages=shown.pages,
            ranked=shown.ranked,
            previous=link(page=str(shown.page)) if shown.page > 0 else None,
            next=link(page=str(shown.page + 2)) if shown.page + 1 < shown.pages else None,
        )

    # ---- a player

    async def _player(
        self, request: web.Request
    ) -> tuple[WebPage, int, dict[str, dict[str, float]], Mapping[str, Any]]:
        page = await self.page_of(request)
        user = int(request.match_info["user"])
        if user > SNOWFLAKE_MAX:
            raise web.HTTPNotFound()
        repository = self.storage()
        figures = await repository.player_figures(page.guild_id, user, list(BOARDS.values()))
        ratings = await repository.player_ratings(page.guild_id, user)
        if not figures and not ratings:
            raise web.HTTPNotFound()  # nobody the server has figures of
        return page, user, figures, ratings

    async def player(self, request: web.Request) -> web.Response:
        page, user, figures, ratings = await self._player(request)
        lang = self.language(request)
        lang_param = request.query.get("lang", "")
        names = await self.storage().player_names(page.guild_id, [user])
        held = (await self.storage().achievements(page.guild_id, [user])).get(user, [])
        achievements = [
            {
                "name": t(lang, f"ach.{h.code}.name"),
                "description": t(lang, f"ach.{h.code}.description"),
                "day": show_day(h.earned_at.date().isoformat(), lang),
            }
            for h in held
            if REGISTRY.achievement(h.code) is not None  # a game still declares it
        ]
        name = names.get(user) or t(lang, "web.someone", id=str(user)[-4:])
        games = [
            {
                "name": game,
                "label": t(lang, f"rank.game.{game}"),
                "lines": [{"label": label, "value": value} for label, value in lines],
            }
            for game, lines in figure_lines(figures, dict(ratings), lang)
        ]
        return self.render(
            request,
            "player.html",
            lang,
            title=t(lang, "web.player_title", player=name, server=page.guild_name),
            name=name,
            server=page.guild_name,
            back=f"../../{page.token}" + _lang_query(lang_param),
            picture=f"{user}.png" + _lang_query(lang_param),
            games=games,
            achievements=achievements,
        )

    async def picture(self, request: web.Request) -> web.Response:
        page, user, figures, _ = await self._player(request)
        lang = self.language(request)
        png = await player_picture(
            self.storage(), page.guild_id, user, lang, figures, waiting=WAITING_PICTURES
        )
        return web.Response(body=png, content_type="image/png", headers=HEADERS)


async def _played_last(repository: Repository, guild_id: int) -> str:
    """The board the server's newest figures are on, so that its page opens on what is
    played there rather than on an empty board. Figures are kept per day: of the boards
    played on the same last day, the first in the games' order; the first game's board
    when nothing was played yet."""
    days = await repository.last_figure_days(guild_id)
    played = [name for name in BOARDS if name in days]
    return max(played, key=days.__getitem__, default=DEFAULT_BOARD)


def _lang_dict(lang_param: str) -> dict[str, str]:
    return {"lang": lang_param} if lang_param in (FRENCH, ENGLISH) else {}


def _lang_query(lang_param: str) -> str:
    chosen = _lang_dict(lang_param)
    return "?" + urlencode(chosen) if chosen else ""


def _metric_options(board: Board, chosen: str, lang: str) -> list[Option]:
    return [Option(m, t(lang, f"metric.{m}"), m == chosen) for m in board.criteria]


def _when_options(seasons: list[Season], chosen: str, lang: str) -> list[Option]:
    """The periods, then the seasons, the latest first."""
    options = [Option(p, t(lang, f"rank.period.{p}"), p == chosen) for p in PERIODS]
    for season in reversed(seasons):
        value = season_period(season.number)
        options.append(Option(value, season_choice(season, lang), value == chosen))
    return options
