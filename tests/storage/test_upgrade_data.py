"""Migration 0006 fills the web page's names from the games played before it: each
player's name as their latest finished game of the server kept it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.storage import Repository, open_repository
from tests.postgres import NoPostgres, PostgresServer, server_or_skip

WEB = 6  # the migration that adds the names
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


async def test_the_names_of_games_played_before_are_kept(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = "bot.storage.postgres" if url.startswith("postgresql") else "bot.storage.sqlite"
    shipped = __import__(module, fromlist=["migrations"]).migrations
    monkeypatch.setattr(f"{module}.migrations", lambda: [m for m in shipped() if m[0] < WEB])
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
