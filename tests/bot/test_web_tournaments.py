"""A server's tournaments on its web page (aiohttp's test client, a real SQLite store, real
tournaments played with the rules engine): the list of the latest ones, and each one's
standings and bracket in every format, as ``bot.web.tournaments``' rows give them; names
as players signed up, else as the server knows them, else a neutral label; escaped;
French or English; and nothing of another server.

Pages are read through the marks the templates put on them for that (``data-place``,
``data-winner``, ``data-status``…), then the text a reader sees."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import urljoin

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.games.maya.metrics import MIA_BOARD
from bot.kernel.achievements import Awards
from bot.storage import GameResults, Repository, Timer, WebPage, open_repository
from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    Options,
    Tournament,
    advance,
    forfeit,
    standings,
    start,
)
from bot.tournaments.hosted import CANCELLED, OVER, RUNNING, SIGNUP, Hosted
from bot.web import WebServer
from bot.web.tournaments import (
    NOBODY,
    bracket_rows,
    standings_rows,
    tournament_row,
)
from tests.tournaments.play import entrants, play_out, play_round, script

GUILD, OTHER = 1, 2
TOKEN = "k3y-0f-th3-p4g3-xxxxx"
BASE = f"/s/{TOKEN}"
NAMES = {1: "Alice", 2: "Bob", 3: "Chloé", 4: "Dédé", 5: "Émile", 6: "Fanny", 7: "Gus", 8: "Hugo"}

STANDING = re.compile(
    r'<tr data-player="(\d+)" data-place="(\d+)"><td class="rank">(.+?)</td>'
    r'<td class="player">(.+?)</td>(.*?)</tr>'
)
VALUE = re.compile(r'<td class="value">(.*?)</td>')
ROUND = re.compile(
    r'<section class="round" data-round="(\d+)">\s*<h3>(.*?)</h3>(.*?)</section>', re.S
)
MATCH = re.compile(
    r'<article class="match" data-status="(\w+)"(?: data-match="([\d-]+)")?'
    r'(?: data-winner="(\d+)")?>(.*?)</article>',
    re.S,
)
LINE = re.compile(r'<li class="line([\w ]*)"(?: data-player="(\d+)")?>(.*?)</li>', re.S)
STATE = re.compile(r'<p class="state">(.*?)</p>')
CARD = re.compile(
    r'<li class="card" data-tournament="(\d+)" data-status="(\w+)">(.*?)\n  </li>', re.S
)
TAGS = re.compile(r"<[^>]+>")


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[Repository]:
    repo = await open_repository(f"sqlite:///{tmp_path}/web.db")
    await repo.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    yield repo
    await repo.close()


@pytest.fixture
async def client(repository: Repository) -> AsyncIterator[TestClient]:
    server = WebServer(lambda: repository, "127.0.0.1", 0)
    async with TestClient(TestServer(server.runner.app)) as test_client:
        yield test_client


_channels = iter(range(1000, 10**6))


def hosted(
    tournament: Tournament | None,
    *,
    game: str = "yades",
    options: Options | None = None,
    names: dict[int, str] | None = None,
    signed_up: tuple[int, ...] = (),
) -> Hosted:
    """A tournament as a server hosts it: signing up (``tournament`` None), running or over."""
    players = tournament.players if tournament is not None else signed_up
    given = NAMES if names is None else names
    status = SIGNUP if tournament is None else OVER if tournament.over else RUNNING
    chosen = options or (tournament.options if tournament is not None else None)
    assert chosen is not None
    return Hosted(
        game=game,
        organizer=1,
        lang="fr",
        rules={},
        options=chosen,
        signup_ends=0.0,
        round_seconds=3600.0,
        status=status,
        entrants=players,
        names={p: given[p] for p in players if p in given},
        tournament=tournament,
    )


async def stored(repo: Repository, tournament: Hosted, *, guild: int = GUILD) -> int:
    """``tournament`` stored as the ``/tournoi`` layer stores one: created signing up, then
    saved with its status."""
    channel = next(_channels)
    made = await repo.create_tournament(
        guild_id=guild,
        channel_id=channel,
        game=tournament.game,
        data=tournament.to_json(),
        timer=lambda made: Timer(f"tournoi:{made}", 1.0, guild),
    )
    if tournament.status != SIGNUP:
        await repo.save_tournament(made, status=tournament.status, data=tournament.to_json())
    return made


def text(html: str) -> str:
    """What a reader sees of ``html``: no tag, entities read, spaces folded."""
    return " ".join(unescape(TAGS.sub(" ", html)).split())


@dataclass(frozen=True)
class Line:
    player: int | None
    name: str
    marks: frozenset[str]  # won, forfeited
    tags: str  # what follows the name: "forfait", "qualifié", "✓"…


@dataclass(frozen=True)
class Shown:
    id: str | None
    status: str
    winner: int | None
    lines: tuple[Line, ...]
    state: str | None


def standings_shown(html: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(place, name, figures) of each row of a tournament's standings."""
    return [
        (int(place), unescape(name), tuple(VALUE.findall(rest)))
        for _, place, _, name, rest in STANDING.findall(html)
    ]


def places_shown(html: str) -> dict[int, int]:
    return {int(player): int(place) for player, place, *_ in STANDING.findall(html)}


def bracket_shown(html: str) -> list[tuple[str, list[Shown]]]:
    """Each round's title and matches, as the bracket shows them."""
    rounds = []
    for _, title, body in ROUND.findall(html):
        matches = []
        for status, match_id, won, inner in MATCH.findall(body):
            lines = []
            for classes, player, line in LINE.findall(inner):
                name, after = line.split('<span class="name">', 1)[1].split("</span>", 1)
                lines.append(
                    Line(
                        int(player) if player else None,
                        text(name),
                        frozenset(classes.split()),
                        text(after),
                    )
                )
            state = STATE.search(inner)
            matches.append(
                Shown(
                    match_id or None,
                    status,
                    int(won) if won else None,
                    tuple(lines),
                    unescape(state.group(1)) if state else None,
                )
            )
        rounds.append((unescape(title), matches))
    return rounds


async def page(client: TestClient, path: str, **headers: str) -> str:
    answer = await client.get(BASE + path, headers=headers)
    assert answer.status == 200, path
    return await answer.text()


# --------------------------------------------------------------------------- tournaments played


def eight_with_a_forfeit(*, finished: bool = True) -> Tournament:
    """8 players (no bye): Dédé (4) absent in round 1, Émile (5) goes on; Chloé (3) beats Bob
    (2) in a semi-final, then Alice (1) in the final."""
    played = forfeit(start(entrants(8), Options(SINGLE_ELIMINATION)), "1-2", [4])
    played = advance(play_round(played))
    if not finished:
        return played
    return play_out(played, script({"2-2": (3, 2), "3-1": (3, 1)}))


def swiss_of_six() -> Tournament:
    """6 players over 3 rounds, Bob (2) beating Alice (1) in round 1, the better seed winning
    every other match."""
    return play_out(start(entrants(6), Options(SWISS, rounds=3)), script({"1-1": (2, 1)}))


def pools_to_a_final() -> Tournament:
    """8 players at tables of 4, two of each going on: Dédé (4) absent at the first table,
    won by Émile (5) before Alice (1); a final of four won by Bob (2) before Émile."""
    played = start(entrants(8), Options(POOLS, seats=4, qualifiers=2))
    played = play_round(forfeit(played, "1-1", [4]), script({"1-1": (5, 1, 8)}))
    return play_out(advance(played), script({"2-1": (2, 5, 1, 3)}))


# --------------------------------------------------------------------------- the list


async def test_the_list_shows_each_tournament_with_its_status_latest_first(
    client: TestClient, repository: Repository
) -> None:
    over = await stored(repository, hosted(eight_with_a_forfeit()))
    swiss = start(entrants(6), Options(SWISS, rounds=3))
    under_way = await stored(
        repository, hosted(advance(play_round(swiss)), game="menteur", options=Options(SWISS))
    )
    final = pools_to_a_final()
    at_the_final = Tournament(final.options, final.entrants, final.rounds)  # not over yet
    pools = await stored(repository, hosted(at_the_final, game="mia"))
    signing = await stored(
        repository,
        hosted(
            None,
            game="menteur",
            options=Options(POOLS, seats=6),
            signed_up=(7, 8),
            names={7: "<script>alert(1)</script>", 8: "Hugo"},
        ),
    )
    dropped = await stored(repository, hosted(None, options=Options(SWISS), signed_up=(1,)))
    await repository.save_tournament(dropped, status=CANCELLED, data={})
    await stored(repository, hosted(swiss_of_six()), guild=OTHER)

    html = await page(client, "/tournois")
    assert "<script>" not in html
    cards = {int(i): (status, text(body)) for i, status, body in CARD.findall(html)}
    assert list(cards) == [signing, pools, under_way, over]  # the latest first
    assert cards[over] == (
        "over",
        "Yadès — Élimination directe Terminé · 🏆 Vainqueur : Chloé 8 joueurs",
    )
    assert cards[under_way] == ("running", "Dés du menteur — Rondes suisses Tour 2 sur 3 6 joueurs")
    assert cards[pools] == ("running", "Mia (vies) — Poules et table finale Finale 8 joueurs")
    assert cards[signing] == (
        "signup",
        "Dés du menteur — Poules et table finale Inscriptions ouvertes 2 inscrits "
        "<script>alert(1)</script> Hugo",
    )
    # Each links to its own page, which is there.
    for made in cards:
        assert f'<a href="tournois/{made}">' in html
        assert (await client.get(urljoin(BASE + "/tournois", f"tournois/{made}"))).status == 200


async def test_a_server_without_a_tournament_says_so(client: TestClient) -> None:
    html = await page(client, "/tournois")
    assert "Aucun tournoi sur ce serveur pour le moment." in html
    assert 'class="card"' not in html


async def test_the_board_and_the_tournaments_link_to_each_other(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(swiss_of_six()))
    board = await page(client, "", **{"Accept-Language": "en"})
    link = re.search(r'<nav class="sections".*?<a href="([^"]+)">Tournaments</a>', board, re.S)
    assert link is not None
    listing = urljoin(BASE, unescape(link.group(1)))
    assert listing == BASE + "/tournois"
    # The language chosen in the address is carried on, there and back.
    html = await page(client, "/tournois?lang=en")
    back = re.search(r'<a href="([^"]+)">Leaderboards</a>', html)
    assert back is not None and urljoin(listing, unescape(back.group(1))) == BASE + "?lang=en"
    assert f'<a href="tournois/{made}?lang=en">' in html
    one = await page(client, f"/tournois/{made}?lang=en")
    back = re.search(r'<a href="([^"]+)">← Tournaments</a>', one)
    assert back is not None
    assert urljoin(f"{BASE}/tournois/{made}", unescape(back.group(1))) == listing + "?lang=en"


# --------------------------------------------------------------------------- one tournament


async def test_a_single_elimination_shows_its_places_its_forfeit_and_its_winner(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(eight_with_a_forfeit()))
    html = await page(client, f"/tournois/{made}")
    assert "Terminé · 🏆 Vainqueur : Chloé" in text(html)
    assert "Élimination directe · 8 joueurs" in text(html)
    # Place, name, rounds come through, wins; the semi-finalists share 3rd, by seed.
    assert standings_shown(html) == [
        (1, "Chloé", ("3", "3")),
        (2, "Alice", ("2", "2")),
        (3, "Bob", ("1", "1")),
        (3, "Émile", ("1", "1")),  # won by Dédé's forfeit
        (5, "Dédé", ("0", "0")),
        (5, "Fanny", ("0", "0")),
        (5, "Gus", ("0", "0")),
        (5, "Hugo", ("0", "0")),
    ]
    rounds = bracket_shown(html)
    assert [title for title, _ in rounds] == ["Tour 1", "Tour 2", "Finale"]
    first, semis, final = (matches for _, matches in rounds)
    # 1 v 8, 4 v 5, 2 v 7, 3 v 6: each match's players and who won.
    assert [([line.name for line in m.lines], m.winner) for m in first] == [
        (["Alice", "Hugo"], 1),
        (["Dédé", "Émile"], 5),
        (["Bob", "Gus"], 2),
        (["Chloé", "Fanny"], 3),
    ]
    absent, present = first[1].lines
    assert "forfeited" in absent.marks and absent.tags == "forfait"
    assert present.marks == {"won"} and present.tags == "✓"
    assert all(not {"forfeited"} & line.marks for m in (*semis, *final) for line in m.lines)
    assert [(m.id, [line.name for line in m.lines], m.winner) for m in semis] == [
        ("2-1", ["Alice", "Émile"], 1),
        ("2-2", ["Bob", "Chloé"], 3),
    ]
    assert [(m.status, m.winner) for m in final] == [("played", 3)]
    assert [line.marks for line in final[0].lines] == [frozenset(), {"won"}]


async def test_a_single_elimination_under_way_shows_the_rounds_to_come(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(eight_with_a_forfeit(finished=False)))
    html = await page(client, f"/tournois/{made}")
    assert '<p class="status" data-status="running">Tour 2 sur 3</p>' in html
    assert "Classement provisoire" in html and "Vainqueur" not in html
    # Everyone still in shares the 3rd place they have secured so far.
    assert places_shown(html) == {1: 3, 2: 3, 3: 3, 5: 3, 4: 5, 6: 5, 7: 5, 8: 5}
    _, (_, semis), (_, final) = bracket_shown(html)
    assert [(m.status, m.state, m.winner) for m in semis] == [
        ("pending", "À jouer", None),
        ("pending", "À jouer", None),
    ]
    assert [(m.id, m.status, m.state) for m in final] == [(None, "upcoming", "À venir")]
    assert [(line.player, line.name) for line in final[0].lines] == [(None, "—"), (None, "—")]


async def test_byes_walkovers_and_a_double_forfeit_are_told_apart(
    client: TestClient, repository: Repository
) -> None:
    # 6 players: seeds 1 and 2 have a bye; Dédé (4) and Émile (5) are both absent, so Alice
    # goes through round 2 without playing.
    played = forfeit(start(entrants(6), Options(SINGLE_ELIMINATION)), "1-2", [4, 5])
    played = advance(play_round(played))
    made = await stored(repository, hosted(played))
    (_, first), (_, second), _ = bracket_shown(await page(client, f"/tournois/{made}"))
    assert [(m.status, [line.name for line in m.lines], m.winner, m.state) for m in first] == [
        ("bye", ["Alice", NOBODY], 1, "Exempt"),
        ("played", ["Dédé", "Émile"], None, "Pas de vainqueur"),
        ("bye", ["Bob", NOBODY], 2, "Exempt"),
        ("played", ["Chloé", "Fanny"], 3, None),
    ]
    assert [line.tags for line in first[1].lines] == ["forfait", "forfait"]
    assert [(m.status, [line.name for line in m.lines], m.winner) for m in second] == [
        ("walkover", ["Alice", NOBODY], 1),
        ("pending", ["Bob", "Chloé"], None),
    ]
    assert second[0].state == "Qualifié d'office (les deux adversaires ont déclaré forfait)"


async def test_a_swiss_tournament_shows_points_buchholz_and_wins(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(swiss_of_six(), game="menteur"))
    html = await page(client, f"/tournois/{made}")
    assert "Terminé · 🏆 Vainqueur : Bob" in text(html)
    assert '<th>Rang</th><th>Joueur</th><th class="value">Pts</th>' in html
    # Place, name, points, Buchholz, wins: Chloé and Alice on 2 points apart by Buchholz.
    assert standings_shown(html) == [
        (1, "Bob", ("3", "5", "3")),
        (2, "Chloé", ("2", "5", "2")),
        (3, "Alice", ("2", "4", "2")),
        (4, "Dédé", ("1", "5", "1")),
        (5, "Émile", ("1", "4", "1")),
        (6, "Fanny", ("0", "4", "0")),
    ]
    rounds = bracket_shown(html)
    assert [title for title, _ in rounds] == ["Tour 1", "Tour 2", "Tour 3"]
    assert [[m.winner for m in matches] for _, matches in rounds] == [
        [2, 3, 5],
        [2, 1, 4],
        [2, 1, 3],
    ]
    assert [[line.name for line in m.lines] for m in rounds[2][1]] == [
        ["Bob", "Dédé"],
        ["Alice", "Fanny"],
        ["Chloé", "Émile"],
    ]


async def test_a_swiss_round_still_to_pair_and_a_bye(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(start(entrants(5), Options(SWISS, rounds=3))))
    html = await page(client, f"/tournois/{made}")
    assert "Tour 1 sur 3" in text(html)
    (_, first), (_, second), (_, third) = bracket_shown(html)
    assert [(m.status, [line.name for line in m.lines]) for m in first] == [
        ("pending", ["Alice", "Bob"]),
        ("pending", ["Chloé", "Dédé"]),
        ("bye", ["Émile"]),
    ]
    assert first[2].state == "Exempt"
    assert second == third == []
    assert html.count("Les matchs seront appariés à la fin du tour précédent.") == 2


async def test_pools_show_each_table_who_went_on_and_the_final(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(pools_to_a_final(), game="mia"))
    html = await page(client, f"/tournois/{made}")
    assert "Terminé · 🏆 Vainqueur : Bob" in text(html)
    assert "Poules et table finale · 8 joueurs" in text(html)
    # Place, name, pool rounds come through, tables won; out at their tables, the thirds
    # share 5th, the fourths 7th (Dédé, absent, last at his).
    assert standings_shown(html) == [
        (1, "Bob", ("1", "2")),
        (2, "Émile", ("1", "1")),
        (3, "Alice", ("1", "0")),
        (4, "Chloé", ("1", "0")),
        (5, "Fanny", ("0", "0")),
        (5, "Hugo", ("0", "0")),
        (7, "Dédé", ("0", "0")),
        (7, "Gus", ("0", "0")),
    ]
    (_, pools), (title, final) = bracket_shown(html)
    assert title == "Finale"
    # A played table lists its players best first, with their places and who went on.
    first = pools[0]
    assert [line.name for line in first.lines] == ["Émile", "Alice", "Hugo", "Dédé"]
    assert [line.tags for line in first.lines] == ["qualifié", "qualifié", "", "forfait"]
    assert "1. Émile" in text(MATCH.findall(html)[0][3])
    assert [line.name for line in pools[1].lines] == ["Bob", "Chloé", "Fanny", "Gus"]
    assert [line.tags for line in pools[1].lines] == ["qualifié", "qualifié", "", ""]
    (played,) = final
    assert played.winner == 2
    assert [(line.name, line.tags) for line in played.lines] == [
        ("Bob", "✓"),
        ("Émile", ""),
        ("Alice", ""),
        ("Chloé", ""),
    ]


async def test_a_tournament_signing_up_lists_who_signed_up(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(
        repository, hosted(None, options=Options(SINGLE_ELIMINATION), signed_up=(3, 1))
    )
    html = await page(client, f"/tournois/{made}")
    assert '<p class="status" data-status="signup">Inscriptions ouvertes</p>' in html
    assert re.findall(r"<li>(.*?)</li>", html) == ["Chloé", "Alice"]  # in sign-up order
    assert 'class="standings"' not in html and 'class="bracket"' not in html
    nobody = await stored(repository, hosted(None, options=Options(SWISS)))
    assert "Personne ne s'est encore inscrit." in unescape(
        await page(client, f"/tournois/{nobody}")
    )


async def test_names_are_the_sign_ups_then_the_servers_else_a_neutral_label(
    client: TestClient, repository: Repository
) -> None:
    first = 412_345_678_901_234_561  # snowflake-sized ids
    signed, known, nameless = first, first + 1, first + 2
    game = await repository.create_game(guild_id=GUILD, channel_id=1, kind="mia", meta={})
    await repository.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished",
        state={"over": True},
        meta={},
        results=GameResults(
            MIA_BOARD,
            "2026-03-10",
            {known: {"games": 1}, signed: {"games": 1}},
            {},
            names={known: "Known <i>here</i>", signed: "Older name"},
            awards=Awards(),
        ),
    )
    played = start(entrants(3, first=first), Options(SINGLE_ELIMINATION))
    made = await stored(repository, hosted(played, names={signed: "<script>alert(1)</script>"}))
    html = await page(client, f"/tournois/{made}")
    assert "<script>" not in html and "<i>" not in html
    assert [name for _, name, _ in standings_shown(html)] == [
        "<script>alert(1)</script>",
        "Known <i>here</i>",
        "Joueur n° 4563",
    ]
    # Ids are in the page's marks only, never shown as a name.
    shown = text(re.sub(r'data-\w+="[^"]*"', "", html))
    assert all(str(player) not in shown for player in (signed, known, nameless))
    signing = await stored(
        repository, hosted(None, options=Options(SWISS), signed_up=(nameless, known), names={})
    )
    card = dict((int(i), body) for i, _, body in CARD.findall(await page(client, "/tournois")))
    assert text(card[signing]).endswith("2 inscrits Joueur n° 4563 Known <i>here</i>")


async def test_the_tournament_pages_speak_english_to_an_english_browser(
    client: TestClient, repository: Repository
) -> None:
    made = await stored(repository, hosted(eight_with_a_forfeit()))
    english = {"Accept-Language": "en-GB,en;q=0.9"}
    html = await page(client, f"/tournois/{made}", **english)
    assert '<html lang="en">' in html
    shown = text(html)
    assert "Yadès tournament on Le bar" in shown
    assert "Single elimination · 8 players" in shown
    assert "Over · 🏆 Winner: Chloé" in shown
    assert "Standings Rank Player Rounds W" in shown
    assert [title for title, _ in bracket_shown(html)] == ["Round 1", "Round 2", "Final"]
    assert bracket_shown(html)[0][1][1].lines[0].tags == "forfeit"
    listing = text(await page(client, "/tournois", **english))
    assert "Le bar's tournaments" in listing
    assert "Yadès — Single elimination Over · 🏆 Winner: Chloé 8 players" in listing
    french = text(await page(client, f"/tournois/{made}?lang=fr", **english))
    assert "Terminé · 🏆 Vainqueur : Chloé" in french


# --------------------------------------------------------------------------- what is not there


async def test_a_tournament_of_another_server_unknown_or_cancelled_is_a_404(
    client: TestClient, repository: Repository
) -> None:
    ours = await stored(repository, hosted(swiss_of_six()))
    theirs = await stored(repository, hosted(swiss_of_six()), guild=OTHER)
    await repository.open_web_page(WebPage(OTHER, "the-other-servers-page", "Le pub"))
    dropped = await stored(repository, hosted(None, options=Options(SWISS), signed_up=(1, 2)))
    await repository.save_tournament(dropped, status=CANCELLED, data={})
    assert (await client.get(f"{BASE}/tournois/{ours}")).status == 200
    for path in (
        f"/tournois/{theirs}",
        f"/tournois/{dropped}",
        f"/tournois/{theirs + 100}",
        "/tournois/0",
        "/tournois/9223372036854775808",
        "/tournois/99999999999999999999",
        "/tournois/١٢٣",
        "/tournois/-1",
    ):
        answer = await client.get(BASE + path)
        assert answer.status == 404, path
        assert "Page introuvable" in await answer.text()
    assert (await client.get(f"/s/the-other-servers-page/tournois/{theirs}")).status == 200
    assert (await client.get(f"/s/the-other-servers-page/tournois/{ours}")).status == 404
    # A page turned off shows no tournament either.
    await repository.close_web_page(GUILD)
    assert (await client.get(f"{BASE}/tournois")).status == 404
    assert (await client.get(f"{BASE}/tournois/{ours}")).status == 404


# --------------------------------------------------------------------------- the rows


def test_the_rows_give_each_players_place_and_each_matchs_winner() -> None:
    # What the channel says (per player their place, per match its winner) is what the
    # rows hold, in every format.
    for played in (eight_with_a_forfeit(), swiss_of_six(), pools_to_a_final()):
        served = hosted(played)
        rows = standings_rows(served, "fr", {})
        assert [(r.player, r.place) for r in rows] == [
            (s.player, s.place) for s in standings(played)
        ]
        assert [r.name for r in rows] == [NAMES[r.player] for r in rows]
        shown = {m.id: m.winner for r in bracket_rows(served, "fr", {}) for m in r.matches}
        assert shown == {m.id: m.winner for _, m in played.matches()}
    swiss = standings_rows(hosted(swiss_of_six()), "fr", {})
    assert (swiss[0].points, swiss[0].buchholz, swiss[0].wins, swiss[0].rounds) == (3, 5, 3, None)
    elimination = standings_rows(hosted(eight_with_a_forfeit()), "fr", {})
    assert (elimination[0].rounds, elimination[0].points, elimination[0].buchholz) == (
        3,
        None,
        None,
    )


def test_an_emptied_slot_and_the_row_of_a_tournament_not_started() -> None:
    played = start(entrants(8), Options(SINGLE_ELIMINATION))
    played = advance(play_round(forfeit(forfeit(played, "1-1", [1, 8]), "1-2", [4, 5])))
    second = bracket_rows(hosted(played), "en", {})[1]
    assert [(m.status, [line.name for line in m.lines], m.winner) for m in second.matches] == [
        ("empty", [NOBODY, NOBODY], None),
        ("pending", ["Bob", "Chloé"], None),
    ]
    row = tournament_row(7, hosted(played), "en", {})
    assert (row.status, row.round, row.rounds, row.final, row.winner) == (
        RUNNING,
        2,
        3,
        False,
        None,
    )
    signing = hosted(None, options=Options(POOLS, seats=4), signed_up=(2, 99), names={2: "Bob"})
    assert standings_rows(signing, "en", {}) == [] and bracket_rows(signing, "en", {}) == []
    row = tournament_row(8, signing, "en", {99: "Zed"})
    assert (row.status, row.entrants, row.round, row.winner_name) == (
        SIGNUP,
        ("Bob", "Zed"),
        None,
        None,
    )
    assert tournament_row(8, signing, "en", {}).entrants == ("Bob", "Player #99")
