"""Migrations that fill new tables from what an older bot stored: 0004 starts each
player's rating history from the rating they had, 0006 the web page's names from the
games played (each player's name as their latest finished game of the server kept it),
0007 each running table's messages from its game's meta."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import Repository, open_repository
from bot.storage.postgres import PostgresRepository
from bot.storage.sql import numbered
from bot.storage.sqlite import SqliteRepository
from tests.postgres import NoPostgres, PostgresServer, server_or_skip

SEASONS = 4  # the migration that adds the rating history
WEB = 6  # the migration that adds the names
MESSAGES = 7  # the migration that keeps a table's messages apart from its game
CHANNELS = itertools.count(10)


@pytest.fixture(params=["sqlite", "postgres"])
async def url(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: PostgresServer | NoPostgres
) -> str:
    if request.param == "postgres":
        return await server_or_skip(postgres_server).new_database()
    return f"sqlite:///{tmp_path}/old.db"


async def played(repo: Repository, guild: int, names: dict[str, str], status: str) -> None:
    game = await repo.create_game(
        guild_id=guild, channel_id=next(CHANNELS), kind="maya", meta={"names": names}
    )
    await repo.save_game(
        game,
        previous_version=0,
        version=1,
        status=status,
        state={"over": True},
        meta={"names": names},
    )


async def raw(repo: Repository, statement: str, *params: object) -> None:
    """A statement on the repository's own connection, whichever backend."""
    if isinstance(repo, SqliteRepository):
        await repo.driver._db.execute(statement, params)
    else:
        assert isinstance(repo, PostgresRepository)
        values = [datetime.fromisoformat(p) if isinstance(p, str) else p for p in params]
        await repo.driver._pool.execute(numbered(statement), *values)


def before(url: str, version: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Open ``url`` as the bot of the migrations before ``version`` would."""
    module = "bot.storage.postgres" if url.startswith("postgresql") else "bot.storage.sqlite"
    shipped = __import__(module, fromlist=["migrations"]).migrations
    monkeypatch.setattr(f"{module}.migrations", lambda: [m for m in shipped() if m[0] < version])


async def test_a_rating_from_before_seasons_starts_its_players_history(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before(url, SEASONS, monkeypatch)
    old = await open_repository(url)
    try:
        # Ratings as the bot before seasons wrote them (its own code, not today's).
        for user, rating in ((101, 1016.0), (102, 984.0)):
            await raw(
                old,
                "INSERT INTO ratings (guild_id, game, user_id, rating, games, updated_at)"
                " VALUES (1, 'mia', ?, ?, 1, ?)",
                user,
                rating,
                "2026-01-05T20:00:00.000+00:00",
            )
    finally:
        await old.close()
    monkeypatch.undo()
    repo = await open_repository(url)
    try:
        history = await repo.rating_history(1, 101)
        assert [(p.game, p.rating) for p in history] == [("mia", 1016.0)]
        assert history[0].at == datetime(2026, 1, 5, 20, tzinfo=UTC).timestamp()
        assert [p.rating for p in await repo.rating_history(1, 102)] == [984.0]
    finally:
        await repo.close()


async def test_the_names_of_games_played_before_are_kept(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before(url, WEB, monkeypatch)
    old = await open_repository(url)
    try:
        await played(old, 1, {"101": "alice", "102": "bob"}, "finished")
        await played(old, 1, {"101": "Alice"}, "stopped")
        await played(old, 1, {"101": "not counted: still running"}, "active")
        await played(old, 2, {"101": "alice elsewhere"}, "finished")
    finally:
        await old.close()
    monkeypatch.undo()
    repo = await open_repository(url)
    try:
        assert await repo.player_names(1, [101, 102, 103]) == {101: "Alice", 102: "bob"}
        assert await repo.player_names(2, [101]) == {101: "alice elsewhere"}
    finally:
        await repo.close()


async def test_the_messages_of_tables_running_across_the_upgrade_are_kept(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before(url, MESSAGES, monkeypatch)
    old = await open_repository(url)
    try:
        shown = {"message_id": 900, "message_headline": ["🎲 Révélé"], "fault_messages": {"1": 9}}
        playing = await old.create_game(guild_id=1, channel_id=10, kind="maya", meta=shown)
        lobby = await old.create_game(guild_id=1, channel_id=11, kind="maya", meta={})
    finally:
        await old.close()
    monkeypatch.undo()
    repo = await open_repository(url)
    try:
        assert await repo.messages([playing, lobby]) == {
            playing: {"table": 900, "headline": ["🎲 Révélé"], "faults": {"1": 9}},
            lobby: {"table": None, "headline": [], "faults": {}},
        }
    finally:
        await repo.close()
