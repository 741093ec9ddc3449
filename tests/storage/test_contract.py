"""What every storage backend must do: the documented behaviours of the ports in
``bot.storage.base``, run against each backend in ``BACKENDS``.

The boards below are made up, and their metric names are chosen so that reading how a
figure adds up from its name (``best_*`` a maximum, ``avg_*`` a mean) gets every one wrong:
only the declarations may decide.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.games.yades.metrics import BOARD as YADES_BOARD
from bot.kernel.spec import RATING, Aggregate, Better, Board, Metric
from bot.storage import (
    ChannelBusy,
    EventRecord,
    GameResults,
    Rating,
    Repository,
    Season,
    Shards,
    StorageError,
    Timer,
    WebPage,
    open_repository,
)
from tests.postgres import NoPostgres, PostgresServer, server_or_skip


async def _sqlite(tmp_path: Path, server: PostgresServer | NoPostgres) -> Repository:
    return await open_repository(f"sqlite:///{tmp_path}/contract.db")


async def _postgres(tmp_path: Path, server: PostgresServer | NoPostgres) -> Repository:
    return await open_repository(await server_or_skip(server).new_database())


# Every backend the bot can store in, by name: another adapter adds its opener here.
BACKENDS: dict[str, Callable[[Path, PostgresServer | NoPostgres], Awaitable[Repository]]] = {
    "sqlite": _sqlite,
    "postgres": _postgres,
}


@pytest.fixture(params=list(BACKENDS))
async def repository(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: PostgresServer | NoPostgres
) -> AsyncIterator[Repository]:
    repo = await BACKENDS[request.param](tmp_path, postgres_server)
    yield repo
    await repo.close()


GUILD, OTHER_GUILD = 1, 2
A, B, C, D = 101, 102, 103, 104
DAY, NEXT_DAY = "2026-03-10", "2026-03-11"

WINS = Metric("wins")
GAMES = Metric("games")
TOP = Metric("top", Aggregate.MAX)
BEST_STREAKS = Metric("best_streaks")  # a sum, whatever its name says
MEAN_SCORE = Metric("mean_score", Aggregate.MEAN, stored="score")
AVG_FAULTS = Metric("avg_faults", better=Better.LOWER)  # a sum too, fewest first
LOST = Metric("lost", Aggregate.MEAN, Better.LOWER, stored="points_lost")
BOARD = Board("dice", (WINS, GAMES, TOP, BEST_STREAKS, MEAN_SCORE, AVG_FAULTS, LOST))
OTHER_BOARD = Board("cups", (WINS, GAMES))

_channels = itertools.count(1000)


async def finish(
    repo: Repository,
    figures: dict[int, dict[str, float]],
    *,
    board: Board = BOARD,
    day: str = DAY,
    guild: int = GUILD,
    ratings: dict[int, float] | None = None,
    rated_from: dict[int, float] | None = None,
    names: dict[int, str] | None = None,
) -> int:
    """A game created and finished in one write, its results counted; returns its id."""
    game = await repo.create_game(
        guild_id=guild, channel_id=next(_channels), kind=board.name, meta={}
    )
    await repo.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished",
        state={"over": True},
        meta={},
        results=GameResults(
            board=board,
            day=day,
            figures=figures,
            ratings=ratings or {},
            rated_from=rated_from or {},
            names=names or {},
        ),
    )
    return game


async def ranks(
    repo: Repository,
    criterion: Metric | str,
    since: str | None = None,
    *,
    board: Board = BOARD,
    guild: int = GUILD,
) -> list[tuple[int, int, float]]:
    """The whole leaderboard as (rank, user, value), checking its count of ranked players."""
    page, ranked = await repo.leaderboard(guild, board.name, criterion, since, offset=0, limit=100)
    assert ranked == len(page)
    return [(s.rank, s.user_id, s.value) for s in page]


# --------------------------------------------------------------------------- games


async def test_a_new_game_waits_in_the_lobby_at_version_zero(repository: Repository) -> None:
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={"a": 1})
    record = await repository.game(game)
    assert record is not None
    assert (record.id, record.guild_id, record.channel_id, record.kind) == (game, 1, 10, "maya")
    assert (record.status, record.version, record.state, record.meta) == (
        "lobby",
        0,
        None,
        {"a": 1},
    )
    assert await repository.running_games() == [record]


async def test_an_unknown_game_has_no_record_and_no_events(repository: Repository) -> None:
    assert await repository.game(999) is None
    assert await repository.events(999) == []


async def test_a_channel_holds_one_running_game(repository: Repository) -> None:
    await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    with pytest.raises(ChannelBusy):
        await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    other = await repository.create_game(guild_id=1, channel_id=11, kind="maya", meta={})
    assert other > 0
    assert issubclass(ChannelBusy, StorageError)


@pytest.mark.parametrize("status", ["finished", "stopped"])
async def test_a_finished_game_frees_its_channel(repository: Repository, status: str) -> None:
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    await repository.save_game(
        game, previous_version=0, version=1, status=status, state={"s": 1}, meta={}
    )
    assert await repository.running_games() == []
    await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})


async def test_a_tables_messages_are_stored_on_their_own_and_outlive_its_moves(
    repository: Repository,
) -> None:
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={"a": 1})
    other = await repository.create_game(guild_id=1, channel_id=11, kind="maya", meta={})
    assert await repository.messages([game, other]) == {game: {}, other: {}}
    shown = {"table": 900, "headline": ["🎲 Révélé"], "faults": {"1": 901}}
    await repository.save_messages(game, shown)
    record = await repository.game(game)
    assert record is not None and (record.version, record.meta) == (0, {"a": 1})
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={"a": 2}
    )
    assert await repository.messages([game, other]) == {game: shown, other: {}}
    assert await repository.messages([]) == {}


async def test_events_and_snapshot_are_written_together_in_order(repository: Repository) -> None:
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={"a": 1})
    first = [EventRecord("announced", "public", None, {"value": 53})]
    second = [
        EventRecord("rolled", "public", None, {"player": 2}),
        EventRecord("dice", "private", 2, {"dice": [5, 3]}),
    ]
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={}, events=first
    )
    await repository.save_game(
        game, previous_version=1, version=2, status="active", state={"v": 2}, meta={}, events=second
    )
    record = await repository.game(game)
    assert record is not None
    assert (record.version, record.state) == (2, {"v": 2})
    assert await repository.events(game) == first + second


async def test_a_write_from_a_stale_version_is_refused_and_changes_nothing(
    repository: Repository,
) -> None:
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={}
    )
    with pytest.raises(StorageError):
        await repository.save_game(
            game,
            previous_version=0,
            version=1,
            status="active",
            state={"v": "other"},
            meta={},
            events=[EventRecord("x", "public", None, {})],
        )
    record = await repository.game(game)
    assert record is not None and record.state == {"v": 1}
    assert await repository.events(game) == []


async def test_a_refused_last_write_counts_no_figure_and_no_rating(repository: Repository) -> None:
    game = await repository.create_game(guild_id=GUILD, channel_id=10, kind="dice", meta={})
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={"m": 1}
    )
    with pytest.raises(StorageError):
        await repository.save_game(
            game,
            previous_version=0,
            version=2,
            status="finished",
            state={"v": 2},
            meta={},
            results=GameResults(
                board=BOARD, day=DAY, figures={A: {"wins": 1}}, ratings={A: 1016.0, B: 984.0}
            ),
        )
    record = await repository.game(game)
    assert record is not None
    assert (record.status, record.version, record.meta) == ("active", 1, {"m": 1})
    assert [g.id for g in await repository.running_games()] == [game]
    assert await ranks(repository, WINS) == []
    assert await repository.ratings(GUILD, BOARD.name, [A, B]) == {}


async def test_running_games_are_those_in_the_lobby_or_active_oldest_first(
    repository: Repository,
) -> None:
    lobby = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    active = await repository.create_game(guild_id=2, channel_id=11, kind="yades", meta={})
    ended = await repository.create_game(guild_id=1, channel_id=12, kind="maya", meta={})
    await repository.save_game(
        active, previous_version=0, version=1, status="active", state={"v": 1}, meta={}
    )
    await repository.save_game(
        ended, previous_version=0, version=1, status="stopped", state={"v": 1}, meta={}
    )
    running = await repository.running_games()
    assert [(g.id, g.status) for g in running] == [(lobby, "lobby"), (active, "active")]
    assert running[1] == await repository.game(active)


async def test_the_last_ended_game_is_the_channels_latest_one_that_was_played(
    repository: Repository,
) -> None:
    async def game(status: str, state: dict[str, int] | None, **where: int | str) -> int:
        place: dict[str, int | str] = {"guild_id": 1, "channel_id": 10, "kind": "maya", **where}
        number = await repository.create_game(
            guild_id=int(place["guild_id"]),
            channel_id=int(place["channel_id"]),
            kind=str(place["kind"]),
            meta={},
        )
        if status != "lobby":
            await repository.save_game(
                number, previous_version=0, version=1, status=status, state=state, meta={}
            )
        return number

    assert await repository.last_ended_game(1, 10, "maya") is None
    await game("finished", {"n": 1})
    latest = await game("stopped", {"n": 2})
    await game("stopped", None)  # stopped in the lobby: never played
    await game("finished", {"n": 4}, kind="yades")
    await game("finished", {"n": 5}, channel_id=11)
    await game("finished", {"n": 6}, guild_id=2)
    await game("active", {"n": 7})
    record = await repository.last_ended_game(1, 10, "maya")
    assert record is not None and (record.id, record.state) == (latest, {"n": 2})
    assert record == await repository.game(latest)


# --------------------------------------------------------------------------- figures


async def test_a_games_results_are_counted_once_however_often_they_are_written(
    repository: Repository,
) -> None:
    results = GameResults(
        board=BOARD,
        day=DAY,
        figures={A: {"wins": 1, "games": 1}, B: {"wins": 0, "games": 1}},
        ratings={A: 1016.0, B: 984.0},
        rated_from={A: 1000.0, B: 1000.0},
    )
    game = await repository.create_game(guild_id=GUILD, channel_id=10, kind="dice", meta={})
    for version in (1, 2):
        await repository.save_game(
            game,
            previous_version=version - 1,
            version=version,
            status="finished",
            state={},
            meta={},
            results=results,
        )
    assert await ranks(repository, GAMES) == [(1, A, 1), (1, B, 1)]
    assert await repository.ratings(GUILD, BOARD.name, [A, B]) == {
        A: Rating(1016.0, 1),
        B: Rating(984.0, 1),
    }


async def test_a_sum_adds_up_over_games_and_days_whatever_its_name(
    repository: Repository,
) -> None:
    await finish(repository, {A: {"best_streaks": 2, "wins": 1}, B: {"best_streaks": 1}})
    await finish(repository, {A: {"best_streaks": 3, "wins": 1}})
    await finish(repository, {A: {"best_streaks": 1}, B: {"best_streaks": 1}}, day=NEXT_DAY)
    assert await ranks(repository, BEST_STREAKS) == [(1, A, 6), (2, B, 2)]
    assert await ranks(repository, WINS) == [(1, A, 2)]


async def test_a_maximum_keeps_the_best_of_any_game(repository: Repository) -> None:
    await finish(repository, {A: {"top": 150}, B: {"top": 90}})
    await finish(repository, {A: {"top": 120}, B: {"top": 200}})  # the same day: B's best
    await finish(repository, {A: {"top": 180}, B: {"top": 100}}, day=NEXT_DAY)
    assert await ranks(repository, TOP) == [(1, B, 200), (2, A, 180)]
    assert await ranks(repository, TOP, NEXT_DAY) == [(1, A, 180), (2, B, 100)]


async def test_a_mean_divides_its_stored_figure_by_the_games_played(
    repository: Repository,
) -> None:
    await finish(repository, {A: {"games": 1, "score": 200}, B: {"games": 1, "score": 90}})
    await finish(repository, {A: {"games": 1, "score": 100}})
    await finish(repository, {C: {"games": 1}})  # no score at all: not ranked
    assert await ranks(repository, MEAN_SCORE) == [(1, A, 150), (2, B, 90)]
    assert await repository.standing(GUILD, BOARD.name, MEAN_SCORE, None, C) is None


async def test_an_average_criterion_divides_by_games_and_fewer_lost_ranks_first(
    repository: Repository,
) -> None:
    repo = repository
    rows = {A: {"games": 2, "points_lost": 30.0}, B: {"games": 1, "points_lost": 0.0}}
    for user, figures in rows.items():
        await finish(repo, {user: figures}, board=YADES_BOARD, day="2026-11-29")
    metric = YADES_BOARD.metric("avg_points_lost")
    assert metric is not None
    page, ranked = await repo.leaderboard(GUILD, "yades", metric, None, offset=0, limit=10)
    # B lost nothing (ranked, and first); A lost 15 a game.
    assert [(s.rank, s.user_id, s.value) for s in page] == [(1, B, 0.0), (2, A, 15.0)]
    assert ranked == 2
    mine = await repo.standing(GUILD, "yades", metric, None, A)
    assert mine is not None and (mine.rank, mine.value) == (2, 15.0)


async def test_higher_ranks_the_most_first_ties_share_a_rank_and_zero_is_not_ranked(
    repository: Repository,
) -> None:
    await finish(repository, {A: {"wins": 3}, B: {"wins": 3}, C: {"wins": 1}, D: {"wins": 0}})
    assert await ranks(repository, WINS) == [(1, A, 3), (1, B, 3), (3, C, 1)]
    assert await repository.standing(GUILD, BOARD.name, WINS, None, D) is None


async def test_lower_ranks_the_fewest_first_and_zero_the_best_of_all(
    repository: Repository,
) -> None:
    await finish(repository, {A: {"avg_faults": 2}, B: {"avg_faults": 0}, C: {"avg_faults": 5}})
    await finish(repository, {D: {"avg_faults": 2}})
    assert await ranks(repository, AVG_FAULTS) == [(1, B, 0), (2, A, 2), (2, D, 2), (4, C, 5)]
    await finish(repository, {A: {"games": 2, "points_lost": 9}, B: {"games": 1}})
    assert await ranks(repository, LOST) == [(1, A, 4.5)]  # B has no figure to divide


async def test_pages_split_the_leaderboard_and_count_every_ranked_player(
    repository: Repository,
) -> None:
    await finish(repository, {user: {"wins": user - 100} for user in range(101, 126)})
    everyone = await ranks(repository, WINS)
    for offset in (0, 10, 20):
        page, ranked = await repository.leaderboard(
            GUILD, BOARD.name, WINS, None, offset=offset, limit=10
        )
        assert ranked == 25
        assert [(s.rank, s.user_id, s.value) for s in page] == everyone[offset : offset + 10]
    assert await repository.leaderboard(GUILD, BOARD.name, WINS, None, offset=30, limit=10) == (
        [],
        25,
    )


@pytest.mark.parametrize("criterion", [WINS, TOP, MEAN_SCORE, AVG_FAULTS, LOST, RATING])
async def test_a_players_standing_is_their_row_of_the_leaderboard(
    repository: Repository, criterion: Metric | str
) -> None:
    await finish(
        repository,
        {
            A: {"wins": 2, "top": 10, "games": 1, "score": 5, "avg_faults": 1, "points_lost": 3},
            B: {"wins": 2, "top": 30, "games": 2, "score": 5, "avg_faults": 0, "points_lost": 0},
            C: {"wins": 0, "top": 20, "games": 1, "score": 0, "avg_faults": 4, "points_lost": 1},
        },
        ratings={A: 1010.0, B: 1010.0, C: 980.0},
    )
    rows = await ranks(repository, criterion)
    assert rows
    for rank, user, value in rows:
        mine = await repository.standing(GUILD, BOARD.name, criterion, None, user)
        assert mine is not None and (mine.rank, mine.user_id, mine.value) == (rank, user, value)
    for user in {A, B, C, D} - {user for _, user, _ in rows}:
        assert await repository.standing(GUILD, BOARD.name, criterion, None, user) is None


async def test_since_counts_only_the_figures_of_that_day_on(repository: Repository) -> None:
    await finish(repository, {A: {"wins": 5, "games": 1, "score": 300}}, day=DAY)
    await finish(repository, {A: {"wins": 1, "games": 1, "score": 100}}, day=NEXT_DAY)
    await finish(repository, {B: {"wins": 2, "games": 1, "score": 50}}, day=DAY)
    assert await ranks(repository, WINS) == [(1, A, 6), (2, B, 2)]
    assert await ranks(repository, WINS, NEXT_DAY) == [(1, A, 1)]
    assert await ranks(repository, MEAN_SCORE, NEXT_DAY) == [(1, A, 100)]
    mine = await repository.standing(GUILD, BOARD.name, WINS, NEXT_DAY, B)
    assert mine is None
    assert await ranks(repository, WINS, "2026-04-01") == []


async def test_ratings_move_by_each_games_change_and_rank_best_first(
    repository: Repository,
) -> None:
    await finish(
        repository,
        {A: {"wins": 1}, B: {}},
        ratings={A: 1016.0, B: 984.0},
        rated_from={A: 1000.0, B: 1000.0},
    )
    # Computed from A's rating before the first game had been counted: both changes count.
    await finish(
        repository,
        {A: {"wins": 1}, C: {}},
        ratings={A: 1016.0, C: 984.0},
        rated_from={A: 1000.0, C: 1000.0},
    )
    assert await repository.ratings(GUILD, BOARD.name, [A, B, C, D]) == {
        A: Rating(1032.0, 2),
        B: Rating(984.0, 1),
        C: Rating(984.0, 1),
    }
    assert await repository.ratings(GUILD, BOARD.name, []) == {}
    assert await ranks(repository, RATING) == [(1, A, 1032.0), (2, B, 984.0), (2, C, 984.0)]
    # A rating is not kept per day: a period ranks the rating as it stands.
    assert await ranks(repository, RATING, "2099-01-01") == await ranks(repository, RATING)
    assert await repository.player_ratings(GUILD, A) == {BOARD.name: Rating(1032.0, 2)}
    assert await repository.player_ratings(GUILD, D) == {}


async def test_a_rating_without_a_rating_it_came_from_is_set(repository: Repository) -> None:
    await finish(repository, {A: {}, B: {}}, ratings={A: 1016.0, B: 984.0})
    await finish(repository, {A: {}, B: {}}, ratings={A: 1001.0, B: 999.0})
    assert await repository.ratings(GUILD, BOARD.name, [A, B]) == {
        A: Rating(1001.0, 2),
        B: Rating(999.0, 2),
    }


async def test_boards_and_servers_keep_their_figures_apart(repository: Repository) -> None:
    await finish(repository, {A: {"wins": 1}}, ratings={A: 1010.0, B: 990.0})
    await finish(repository, {B: {"wins": 4}}, board=OTHER_BOARD)
    await finish(repository, {C: {"wins": 9}}, guild=OTHER_GUILD)
    assert await ranks(repository, WINS) == [(1, A, 1)]
    assert await ranks(repository, WINS, board=OTHER_BOARD) == [(1, B, 4)]
    assert await ranks(repository, WINS, guild=OTHER_GUILD) == [(1, C, 9)]
    assert await ranks(repository, RATING, board=OTHER_BOARD) == []
    assert await ranks(repository, RATING, guild=OTHER_GUILD) == []


async def test_a_criterion_must_be_declared_never_a_bare_name(repository: Repository) -> None:
    await finish(repository, {A: {"wins": 1}})
    with pytest.raises(ValueError, match="wins"):
        await repository.leaderboard(GUILD, BOARD.name, "wins", None, offset=0, limit=10)
    with pytest.raises(ValueError, match="wins"):
        await repository.standing(GUILD, BOARD.name, "wins", None, A)


async def test_a_players_figures_are_each_declared_metric_as_a_leaderboard_shows_it(
    repository: Repository,
) -> None:
    await finish(
        repository,
        {A: {"wins": 1, "games": 1, "top": 150, "best_streaks": 2, "score": 150, "extra": 7}},
    )
    await finish(
        repository,
        {A: {"wins": 0, "games": 1, "top": 90, "best_streaks": 1, "score": 50}},
        day=NEXT_DAY,  # another day's row: a sum and a maximum over rows differ
    )
    await finish(repository, {A: {"games": 1}, B: {"games": 1}}, board=OTHER_BOARD)
    await finish(repository, {A: {"wins": 5}}, guild=OTHER_GUILD)
    figures = await repository.player_figures(GUILD, A, [BOARD, OTHER_BOARD])
    # Only declared metrics, and only those with a figure (no fault, no point lost stored).
    assert figures == {
        "dice": {"wins": 1, "games": 2, "top": 150, "best_streaks": 3, "mean_score": 100},
        "cups": {"games": 1},
    }
    assert await repository.player_figures(GUILD, A, [OTHER_BOARD]) == {"cups": {"games": 1}}
    assert await repository.player_figures(GUILD, C, [BOARD, OTHER_BOARD]) == {}


async def test_a_mean_without_games_to_divide_by_is_not_shown(repository: Repository) -> None:
    await finish(repository, {A: {"score": 40, "wins": 1}})
    assert await repository.player_figures(GUILD, A, [BOARD]) == {"dice": {"wins": 1}}


async def test_a_mean_over_zero_games_ranks_nobody_and_fails_nothing(
    repository: Repository,
) -> None:
    await finish(repository, {A: {"score": 40, "games": 0}, B: {"score": 30, "games": 2}})
    assert await ranks(repository, MEAN_SCORE) == [(1, B, 15)]
    assert await repository.standing(GUILD, BOARD.name, MEAN_SCORE, None, A) is None


async def test_forgetting_a_player_deletes_their_figures_ratings_and_kept_name(
    repository: Repository,
) -> None:
    names = {"names": {str(A): "Alice", str(B): "Bob"}}
    kept = await repository.create_game(guild_id=GUILD, channel_id=10, kind="dice", meta=names)
    elsewhere = await repository.create_game(
        guild_id=OTHER_GUILD, channel_id=11, kind="dice", meta=names
    )
    await finish(repository, {A: {"wins": 2}, B: {"wins": 1}}, ratings={A: 1016.0, B: 984.0})
    await finish(repository, {A: {"wins": 3}}, guild=OTHER_GUILD)

    assert await repository.forget_player(GUILD, A) > 0
    assert await repository.player_figures(GUILD, A, [BOARD]) == {}
    assert await repository.player_ratings(GUILD, A) == {}
    assert await ranks(repository, WINS) == [(1, B, 1)]
    assert await ranks(repository, RATING) == [(1, B, 984.0)]
    record = await repository.game(kept)
    assert record is not None and record.meta == {"names": {str(B): "Bob"}}
    # Nothing of theirs on another server, nor anyone else's, goes.
    assert await ranks(repository, WINS, guild=OTHER_GUILD) == [(1, A, 3)]
    other = await repository.game(elsewhere)
    assert other is not None and other.meta == names
    assert await repository.forget_player(GUILD, A) == 0


# --------------------------------------------------------------------------- seasons

FIRST = Season(1, "2026-03-01", "2026-04-01")
SECOND = Season(2, "2026-04-01", "2026-05-01")


def season_timer(due: float = 1000.0, number: int = 1, guild: int = GUILD) -> Timer:
    return Timer(f"season:{guild}", due, guild, {"season": number})


async def test_a_server_has_one_current_season_begun_once(repository: Repository) -> None:
    assert await repository.seasons(GUILD) == []
    assert await repository.open_season(GUILD, FIRST, season_timer()) == FIRST
    # A second opener (another game ending at once) finds the first one's season.
    other = Season(1, "2026-03-05", "2026-04-01")
    assert await repository.open_season(GUILD, other, season_timer(2000.0)) == FIRST
    assert await repository.seasons(GUILD) == [FIRST]
    assert [(t.key, t.due) for t in await repository.timers()] == [(f"season:{GUILD}", 1000.0)]
    assert await repository.seasons(OTHER_GUILD) == []


async def test_the_first_figure_day_is_the_servers_oldest(repository: Repository) -> None:
    assert await repository.first_figure_day(GUILD) is None
    await finish(repository, {A: {"wins": 1}}, day=NEXT_DAY)
    await finish(repository, {A: {"wins": 1}}, day=DAY)
    await finish(repository, {A: {"wins": 1}}, day="2026-01-01", guild=OTHER_GUILD)
    assert await repository.first_figure_day(GUILD) == DAY


async def test_the_last_figure_day_of_each_board_is_its_newest_on_the_server(
    repository: Repository,
) -> None:
    assert await repository.last_figure_days(GUILD) == {}
    await finish(repository, {A: {"wins": 1, "games": 1}}, day=NEXT_DAY)
    await finish(repository, {A: {"wins": 1, "games": 1}}, day=DAY)
    await finish(repository, {B: {"games": 1}}, board=OTHER_BOARD, day=DAY)
    await finish(
        repository, {C: {"games": 1}}, board=OTHER_BOARD, day="2026-04-01", guild=OTHER_GUILD
    )
    assert await repository.last_figure_days(GUILD) == {"dice": NEXT_DAY, "cups": DAY}
    assert await repository.last_figure_days(OTHER_GUILD) == {"cups": "2026-04-01"}
    # Forgetting the only player of a board takes the board's figures with them.
    await repository.forget_player(GUILD, B)
    assert await repository.last_figure_days(GUILD) == {"dice": NEXT_DAY}


async def test_only_the_current_season_may_end_elsewhen(repository: Repository) -> None:
    await repository.open_season(GUILD, FIRST, season_timer())
    assert await repository.move_season_end(GUILD, 1, "2026-07-01", season_timer(3000.0))
    assert await repository.seasons(GUILD) == [Season(1, FIRST.started, "2026-07-01")]
    assert [t.due for t in await repository.timers()] == [3000.0]
    assert not await repository.move_season_end(GUILD, 2, "2026-08-01", season_timer(4000.0))
    assert [t.due for t in await repository.timers()] == [3000.0]


async def test_a_closed_season_keeps_its_players_final_ratings_and_resets_everyones(
    repository: Repository,
) -> None:
    await repository.open_season(GUILD, FIRST, season_timer())
    await finish(repository, {A: {}, B: {}}, ratings={A: 1100.0, B: 900.0})
    await finish(repository, {C: {}, A: {}}, ratings={C: 1040.0}, board=OTHER_BOARD)
    await finish(repository, {D: {}}, ratings={D: 1200.0}, guild=OTHER_GUILD)
    podium = Timer(f"podium:{GUILD}:1", 1500.0, GUILD, {})
    closed = await repository.close_season(
        GUILD,
        1,
        following=SECOND,
        timers=[season_timer(5000.0, 2), podium],
        carry=0.5,
        initial=1000.0,
    )
    assert closed
    assert await repository.seasons(GUILD) == [Season(1, FIRST.started, FIRST.ends, True), SECOND]
    # The season's final standings, from its archive.
    archived = await repository.leaderboard(
        GUILD, BOARD.name, RATING, None, offset=0, limit=10, season=1
    )
    assert [(s.rank, s.user_id, s.value) for s in archived[0]] == [(1, A, 1100.0), (2, B, 900.0)]
    mine = await repository.standing(GUILD, BOARD.name, RATING, None, B, season=1)
    assert mine is not None and (mine.rank, mine.value) == (2, 900.0)
    # Halfway back to 1000, no game played yet this season: nobody ranked by rating now.
    assert await repository.ratings(GUILD, BOARD.name, [A, B]) == {
        A: Rating(1050.0, 0),
        B: Rating(950.0, 0),
    }
    assert await repository.player_ratings(GUILD, C) == {OTHER_BOARD.name: Rating(1020.0, 0)}
    assert await ranks(repository, RATING) == []
    # Another server's season is its own.
    assert await repository.ratings(OTHER_GUILD, BOARD.name, [D]) == {D: Rating(1200.0, 1)}
    timers = {t.key: t.due for t in await repository.timers()}
    assert timers == {f"season:{GUILD}": 5000.0, f"podium:{GUILD}:1": 1500.0}
    # A game of the new season ranks its players again, from their reset ratings.
    await finish(repository, {B: {}, A: {}}, ratings={B: 966.0}, rated_from={B: 950.0})
    assert await ranks(repository, RATING) == [(1, B, 966.0)]


async def test_a_season_closes_once(repository: Repository) -> None:
    await repository.open_season(GUILD, FIRST, season_timer())
    await finish(repository, {A: {}, B: {}}, ratings={A: 1100.0, B: 900.0})
    close = {"following": SECOND, "timers": [], "carry": 0.5, "initial": 1000.0}
    assert await repository.close_season(GUILD, 1, **close)  # type: ignore[arg-type]
    assert not await repository.close_season(GUILD, 1, **close)  # type: ignore[arg-type]
    assert await repository.ratings(GUILD, BOARD.name, [A]) == {A: Rating(1050.0, 0)}
    assert len(await repository.seasons(GUILD)) == 2


async def test_a_seasons_figures_are_the_days_it_covers(repository: Repository) -> None:
    await finish(repository, {A: {"wins": 2}}, day="2026-02-28")
    await finish(repository, {A: {"wins": 1}, B: {"wins": 3}}, day="2026-03-01")
    await finish(repository, {B: {"wins": 1}}, day="2026-03-31")
    await finish(repository, {A: {"wins": 5}}, day="2026-04-01")
    march, _ = await repository.leaderboard(
        GUILD, BOARD.name, WINS, "2026-03-01", offset=0, limit=10, until="2026-04-01"
    )
    assert [(s.user_id, s.value) for s in march] == [(B, 4), (A, 1)]
    mine = await repository.standing(GUILD, BOARD.name, WINS, "2026-03-01", A, until="2026-04-01")
    assert mine is not None and (mine.rank, mine.value) == (2, 1)


async def test_a_players_rating_history_follows_their_games_and_resets(
    repository: Repository,
) -> None:
    await repository.open_season(GUILD, FIRST, season_timer())
    await finish(repository, {A: {}, B: {}}, ratings={A: 1016.0, B: 984.0})
    await finish(repository, {A: {}, B: {}}, ratings={A: 1030.0, B: 970.0}, board=OTHER_BOARD)
    await finish(repository, {A: {}, B: {}}, ratings={A: 1032.0, B: 968.0}, rated_from={A: 1016.0})
    await repository.close_season(GUILD, 1, following=SECOND, timers=[], carry=0.5, initial=1000.0)
    history = await repository.rating_history(GUILD, A)
    assert [(p.game, p.rating) for p in history if p.game == BOARD.name] == [
        (BOARD.name, 1016.0),
        (BOARD.name, 1032.0),
        (BOARD.name, 1016.0),  # the season's reset
    ]
    assert [p.rating for p in history if p.game == OTHER_BOARD.name] == [1030.0, 1015.0]
    times = [p.at for p in history]
    assert times == sorted(times)
    assert await repository.rating_history(OTHER_GUILD, A) == []


async def test_forgetting_a_player_deletes_their_archived_ratings_and_history(
    repository: Repository,
) -> None:
    await repository.open_season(GUILD, FIRST, season_timer())
    await finish(repository, {A: {}, B: {}}, ratings={A: 1100.0, B: 900.0})
    await repository.close_season(GUILD, 1, following=SECOND, timers=[], carry=0.5, initial=1000.0)
    assert await repository.forget_player(GUILD, A) > 0
    assert await repository.rating_history(GUILD, A) == []
    archived, _ = await repository.leaderboard(
        GUILD, BOARD.name, RATING, None, offset=0, limit=10, season=1
    )
    assert [s.user_id for s in archived] == [B]
    assert len(await repository.rating_history(GUILD, B)) == 2


# --------------------------------------------------------------------------- web pages


async def test_a_web_page_is_off_until_turned_on_and_found_by_its_token(
    repository: Repository,
) -> None:
    assert await repository.web_page(GUILD) is None
    assert await repository.web_page_of("secret") is None
    page = WebPage(GUILD, "secret", "Le bar")
    await repository.open_web_page(page)
    assert await repository.web_page(GUILD) == page
    assert await repository.web_page_of("secret") == page
    assert await repository.web_page_of("Secret") is None
    assert await repository.web_page(OTHER_GUILD) is None


async def test_a_new_token_retires_the_old_address(repository: Repository) -> None:
    await repository.open_web_page(WebPage(GUILD, "first", "Le bar"))
    await repository.open_web_page(WebPage(GUILD, "second", "Le café"))
    assert await repository.web_page_of("first") is None
    assert await repository.web_page_of("second") == WebPage(GUILD, "second", "Le café")


async def test_a_page_turned_off_is_found_no_more(repository: Repository) -> None:
    await repository.open_web_page(WebPage(GUILD, "secret", "Le bar"))
    await repository.open_web_page(WebPage(OTHER_GUILD, "other", "Le pub"))
    assert await repository.close_web_page(GUILD)
    assert not await repository.close_web_page(GUILD)
    assert await repository.web_page_of("secret") is None
    assert await repository.web_page(GUILD) is None
    assert await repository.web_page_of("other") is not None


async def test_a_counted_game_keeps_each_players_latest_name(repository: Repository) -> None:
    await finish(repository, {A: {"wins": 1}, B: {}}, ratings={}, names={A: "Alice", B: "Bob"})
    await finish(repository, {A: {}}, names={A: "Alice B."})
    await finish(repository, {A: {}}, names={A: "Ailleurs"}, guild=OTHER_GUILD)
    assert await repository.player_names(GUILD, [A, B, C]) == {A: "Alice B.", B: "Bob"}
    assert await repository.player_names(GUILD, []) == {}
    assert await repository.forget_player(GUILD, A) > 0
    assert await repository.player_names(GUILD, [A, B]) == {B: "Bob"}
    assert await repository.player_names(OTHER_GUILD, [A]) == {A: "Ailleurs"}


# --------------------------------------------------------------------------- settings


async def test_server_settings_round_trip_and_a_save_replaces_them(
    repository: Repository,
) -> None:
    assert await repository.guild_settings(GUILD) == {}
    await repository.save_guild_settings(GUILD, {"lang": "en", "tables": {"maya": {"vies": 3}}})
    assert await repository.guild_settings(GUILD) == {
        "lang": "en",
        "tables": {"maya": {"vies": 3}},
    }
    await repository.save_guild_settings(GUILD, {"turn": 45})
    assert await repository.guild_settings(GUILD) == {"turn": 45}
    assert await repository.guild_settings(OTHER_GUILD) == {}
    await repository.save_guild_settings(GUILD, {})
    assert await repository.guild_settings(GUILD) == {}


# --------------------------------------------------------------------------- shards


def on_shard(shard: int, count: int, n: int = 1) -> int:
    """A server id of shard ``shard`` out of ``count`` (Discord's ``(id >> 22) % count``)."""
    return ((n * count + shard) << 22) | 12345


def test_a_server_belongs_to_its_snowflakes_shard() -> None:
    two = Shards(2, frozenset({1}))
    assert two.of(on_shard(1, 2)) == 1 and two.owns(on_shard(1, 2))
    assert not two.owns(on_shard(0, 2))
    assert two.of(None) == 0 and not two.owns(None)  # a direct message is shard 0's
    assert Shards.every(3).all and not two.all
    assert Shards().owns(on_shard(1, 2))  # one process, one shard: every server


async def test_a_process_restores_only_the_games_of_its_shards(repository: Repository) -> None:
    zero = await repository.create_game(
        guild_id=on_shard(0, 2), channel_id=10, kind="maya", meta={}
    )
    one = await repository.create_game(
        guild_id=on_shard(1, 2, n=7), channel_id=11, kind="maya", meta={}
    )
    assert [g.id for g in await repository.running_games(Shards(2, frozenset({0})))] == [zero]
    assert [g.id for g in await repository.running_games(Shards(2, frozenset({1})))] == [one]
    assert [g.id for g in await repository.running_games(Shards.every(2))] == [zero, one]
    assert [g.id for g in await repository.running_games()] == [zero, one]


# --------------------------------------------------------------------------- timers


async def test_timers_come_back_soonest_first_with_their_payload(repository: Repository) -> None:
    later = Timer("vote:1", 2000.5, GUILD, {"fault": 3})
    sooner = Timer("turn:2", 1000.25, OTHER_GUILD, {"step": 4}, attempts=1)
    await repository.set_timer(later)
    await repository.set_timer(sooner)
    assert await repository.timers() == [sooner, later]
    assert later.kind == "vote"


async def test_setting_a_timer_again_replaces_it(repository: Repository) -> None:
    await repository.set_timer(Timer("turn:2", 1000.0, GUILD, {"step": 4}))
    await repository.set_timer(Timer("turn:2", 1090.0, GUILD, {"step": 5}))
    assert await repository.timers() == [Timer("turn:2", 1090.0, GUILD, {"step": 5})]


async def test_a_timer_set_again_is_not_cancelled_by_its_old_firing(
    repository: Repository,
) -> None:
    await repository.set_timer(Timer("turn:2", 1000.0, GUILD))
    await repository.set_timer(Timer("turn:2", 1090.0, GUILD))
    assert not await repository.cancel_timer("turn:2", due=1000.0)
    assert [t.due for t in await repository.timers()] == [1090.0]
    assert await repository.cancel_timer("turn:2", due=1090.0)
    assert await repository.timers() == []
    assert not await repository.cancel_timer("turn:2")


async def test_a_retry_moves_a_timer_only_as_it_was_when_it_fired(
    repository: Repository,
) -> None:
    fired = Timer("turn:2", 1000.125, GUILD, {"step": 4})
    await repository.set_timer(fired)
    retry = Timer("turn:2", 1002.125, GUILD, {"step": 4}, attempts=1)
    assert await repository.reschedule_timer("turn:2", fired.due, retry)
    assert await repository.timers() == [retry]
    # Set again by a move meanwhile: the retry of the old one changes nothing.
    moved = Timer("turn:2", 1090.5, GUILD, {"step": 5})
    await repository.set_timer(moved)
    assert not await repository.reschedule_timer("turn:2", retry.due, retry)
    assert await repository.timers() == [moved]
    # Deleted meanwhile (the game ended): nothing comes back.
    await repository.cancel_timer("turn:2")
    assert not await repository.reschedule_timer("turn:2", moved.due, retry)
    assert await repository.timers() == []


async def test_timers_without_a_server_are_shard_zeros(repository: Repository) -> None:
    dm = Timer("tutorial:9", 10.0, None)
    one = Timer("vote:1", 20.0, on_shard(1, 2))
    await repository.set_timer(dm)
    await repository.set_timer(one)
    assert await repository.timers(Shards(2, frozenset({0}))) == [dm]
    assert await repository.timers(Shards(2, frozenset({1}))) == [one]
    assert await repository.timers(Shards.every(2)) == [dm, one]


async def test_a_move_sets_and_cancels_its_timers_in_its_own_write(
    repository: Repository,
) -> None:
    game = await repository.create_game(guild_id=GUILD, channel_id=10, kind="maya", meta={})
    await repository.set_timer(Timer(f"vote:{game}", 50.0, GUILD))
    await repository.save_game(
        game,
        previous_version=0,
        version=1,
        status="active",
        state={"step": 1},
        meta={},
        timers={
            f"turn:{game}": Timer(f"turn:{game}", 90.0, GUILD, {"step": 1}),
            f"vote:{game}": None,
        },
    )
    assert await repository.timers() == [Timer(f"turn:{game}", 90.0, GUILD, {"step": 1})]
    # A refused write (a stale version) changes no timer either.
    with pytest.raises(StorageError):
        await repository.save_game(
            game,
            previous_version=0,
            version=2,
            status="active",
            state={"step": 2},
            meta={},
            timers={f"turn:{game}": None},
        )
    assert [t.key for t in await repository.timers()] == [f"turn:{game}"]


# --------------------------------------------------------------------------- tournaments


def tournament_timer(tournament: int, due: float, phase: str = "signup") -> Timer:
    return Timer(f"tournoi:{tournament}", due, GUILD, {"phase": phase})


def signup_timer(due: float) -> Callable[[int], Timer]:
    return lambda tournament: tournament_timer(tournament, due)


async def test_a_tournament_is_created_signing_up_with_its_deadline_in_one_write(
    repository: Repository,
) -> None:
    data = {"organizer": A, "entrants": [A], "names": {str(A): "Alice"}}
    made = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="yades", data=data, timer=signup_timer(500.0)
    )
    found = await repository.tournament(made)
    assert found is not None
    assert (found.guild_id, found.channel_id, found.game, found.status) == (
        GUILD,
        10,
        "yades",
        "signup",
    )
    assert found.data == data
    assert [(t.key, t.due) for t in await repository.timers()] == [(f"tournoi:{made}", 500.0)]
    assert await repository.tournament(made + 1) is None


async def test_a_channel_holds_one_open_tournament_and_an_ended_one_frees_it(
    repository: Repository,
) -> None:
    first = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="yades", data={}, timer=signup_timer(500.0)
    )
    with pytest.raises(ChannelBusy):
        await repository.create_tournament(
            guild_id=GUILD, channel_id=10, game="menteur", data={}, timer=signup_timer(1.0)
        )
    assert [t.key for t in await repository.timers()] == [f"tournoi:{first}"]  # nothing written
    await repository.save_tournament(first, status="running", data={"round": 1})
    with pytest.raises(ChannelBusy):
        await repository.create_tournament(
            guild_id=GUILD, channel_id=10, game="menteur", data={}, timer=signup_timer(1.0)
        )
    await repository.save_tournament(first, status="over", data={"round": 2})
    second = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="menteur", data={}, timer=signup_timer(1.0)
    )
    assert second != first


async def test_a_tournament_is_saved_with_the_timers_it_sets_and_cancels(
    repository: Repository,
) -> None:
    made = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="yades", data={}, timer=signup_timer(500.0)
    )
    await repository.save_tournament(
        made,
        status="running",
        data={"round": 1},
        timers={f"tournoi:{made}": tournament_timer(made, 900.0, "round"), "other:1": None},
    )
    found = await repository.tournament(made)
    assert found is not None and found.status == "running" and found.data == {"round": 1}
    timers = await repository.timers()
    assert [(t.key, t.due, t.payload) for t in timers] == [
        (f"tournoi:{made}", 900.0, {"phase": "round"})
    ]
    await repository.save_tournament(made, status="over", data={}, timers={f"tournoi:{made}": None})
    assert await repository.timers() == []


async def test_open_tournaments_are_those_signing_up_or_running_on_the_shards(
    repository: Repository,
) -> None:
    signing = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="yades", data={}, timer=signup_timer(1.0)
    )
    running = await repository.create_tournament(
        guild_id=GUILD, channel_id=11, game="yades", data={}, timer=signup_timer(1.0)
    )
    over = await repository.create_tournament(
        guild_id=GUILD, channel_id=12, game="yades", data={}, timer=signup_timer(1.0)
    )
    cancelled = await repository.create_tournament(
        guild_id=GUILD, channel_id=13, game="yades", data={}, timer=signup_timer(1.0)
    )
    await repository.save_tournament(running, status="running", data={})
    await repository.save_tournament(over, status="over", data={})
    await repository.save_tournament(cancelled, status="cancelled", data={})
    assert [t.id for t in await repository.open_tournaments()] == [signing, running]
    # GUILD's shard of two is 0: the other process finds none.
    assert [t.id for t in await repository.open_tournaments(Shards(2, frozenset({1})))] == []
    assert [t.id for t in await repository.open_tournaments(Shards(2, frozenset({0})))] == [
        signing,
        running,
    ]
    # A server's tournaments, latest first, the cancelled one left out.
    assert [t.id for t in await repository.tournaments(GUILD)] == [over, running, signing]
    assert [t.id for t in await repository.tournaments(GUILD, limit=1)] == [over]
    assert await repository.tournaments(OTHER_GUILD) == []


async def test_an_award_is_kept_once_per_player_and_code(repository: Repository) -> None:
    game = await finish(repository, {A: {"wins": 1}})
    assert await repository.award(GUILD, A, "yades_tournament", game)
    assert not await repository.award(GUILD, A, "yades_tournament", game)
    held = await repository.achievements(GUILD, [A])
    assert [h.code for h in held[A]] == ["yades_tournament"]


async def test_forgetting_a_player_drops_their_name_from_the_servers_tournaments(
    repository: Repository,
) -> None:
    data = {"names": {str(A): "Alice", str(B): "Bob"}, "entrants": [A, B]}
    here = await repository.create_tournament(
        guild_id=GUILD, channel_id=10, game="yades", data=data, timer=signup_timer(1.0)
    )
    there = await repository.create_tournament(
        guild_id=OTHER_GUILD, channel_id=11, game="yades", data=data, timer=signup_timer(1.0)
    )
    await repository.forget_player(GUILD, A)
    mine, theirs = await repository.tournament(here), await repository.tournament(there)
    assert mine is not None and theirs is not None
    assert mine.data == {"names": {str(B): "Bob"}, "entrants": [A, B]}
    assert theirs.data == data  # another server's are its own


async def test_an_identify_slot_is_taken_once_per_window_by_one_taker(
    repository: Repository,
) -> None:
    takes = await asyncio.gather(*(repository.take_identify_slot(0, 60.0) for _ in range(8)))
    assert sorted(takes)[0] == 0.0 and all(55.0 < wait <= 60.0 for wait in sorted(takes)[1:])
    assert 55.0 < await repository.take_identify_slot(0, 60.0) <= 60.0
    assert await repository.take_identify_slot(1, 60.0) == 0.0  # another bucket is free
    assert await repository.take_identify_slot(0, 0.0) == 0.0  # its window is over


async def test_starts_in_a_row_make_a_streak_that_a_clean_stop_ends(
    repository: Repository,
) -> None:
    assert await repository.record_start([0, 1], 600.0) == 0  # the first start
    assert await repository.record_start([0, 1], 600.0) == 1
    assert await repository.record_start([1], 600.0) == 2
    assert await repository.record_start([0, 1], 600.0) == 3  # the most of either shard
    assert await repository.record_start([0], 0.0) == 0  # long after the one before
    await repository.forget_starts([1])
    assert await repository.record_start([1], 600.0) == 0
