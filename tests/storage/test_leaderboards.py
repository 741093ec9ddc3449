"""Leaderboard figures and ratings, checked against games played with scripted dice."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.games import REGISTRY, maya
from bot.games.maya.metrics import MAYA_BOARD, MIA_BOARD
from bot.games.yades.metrics import BOARD as YADES_BOARD
from bot.kernel import rating
from bot.kernel.spec import Board, Metric
from bot.storage import GameResults, open_repository
from bot.table import TableRunner
from cogs.classement import leaderboard_embed, player_embed

GUILD, CHANNEL = 1, 10
A, B, C = 101, 102, 103
BOARDS = [board for _, board in REGISTRY.boards()]


def metric(board: Board, name: str) -> Metric:
    found = board.metric(name)
    assert found is not None
    return found


@pytest.fixture
async def tables(tmp_path):
    repository = await open_repository(f"sqlite:///{tmp_path}/gobelet.db")
    registry = TableRunner(repository, load_settings({}))
    yield registry
    await registry.close()


async def open_table(tables: TableRunner, rules: maya.Rules, players: list[int], *, cpu: int = 0):
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter=players[0],
        rules=rules,
        lang="fr",
        cpu_count=cpu,
    )
    for player in players[1:]:
        await tables.join_lobby(table, player)
    # Seat in the given order (CPUs last) so the scripts below know who plays when.
    table.players = [*players, *table.cpus]
    await tables.start(table)
    table.state = maya.new_game(table.players, rules)
    return table


async def play(tables: TableRunner, table, *actions: maya.Action) -> None:
    for action in actions:
        await tables.act(table, action)


async def test_a_scripted_mia_game_counts_exactly_its_figures(tables):
    table = await open_table(tables, maya.Rules.for_preset("vies", vies=1), [A, B, C])
    await play(
        tables,
        table,
        # A rolls 52, announces 61 (a bluff); B believes, rolls 64 and says so; C lifts: true.
        maya.Roll(A, (5, 2)),
        maya.Announce(A, 61),
        maya.Believe(B, (6, 4)),
        maya.Announce(B, 64),
        maya.Lift(C),
        # C is out and A, next after C, opens with a real Maya; B lifts it and is out too.
        maya.Roll(A, (2, 1)),
        maya.Announce(A, 21),
        maya.Lift(B),
    )
    assert table.state is not None and table.state.winner == A
    repo = tables.repository
    wins = metric(MIA_BOARD, "wins")
    page, ranked = await repo.leaderboard(GUILD, "mia", wins, None, offset=0, limit=10)
    assert [(s.user_id, s.value) for s in page] == [(A, 1)]
    assert ranked == 1
    figures = {u: (await repo.player_figures(GUILD, u, BOARDS))["mia"] for u in (A, B, C)}
    assert figures[A]["bluffs_through"] == 1
    assert figures[A]["mayas"] == 1
    assert figures[A]["made_drink"] == 1  # B's life
    assert figures[B]["made_drink"] == 1  # C's life
    assert figures[B]["doubts_wrong"] == 1
    assert figures[B]["lives_lost"] == 1  # a real Maya costs 2 lives, but B had only 1
    assert figures[C]["doubts_wrong"] == 1
    assert figures[C]["lives_lost"] == 1
    assert all(figures[u]["games"] == 1 for u in (A, B, C))
    assert all(figures[u]["bluffs_caught"] == 0 for u in (A, B, C))
    ratings = {u: (await repo.player_ratings(GUILD, u))["mia"].rating for u in (A, B, C)}
    assert ratings[A] > rating.INITIAL_RATING > ratings[C]
    assert ratings[A] > ratings[B] > ratings[C]  # B outlived C


async def test_a_stopped_party_game_counts_sips_and_glasses(tables):
    table = await open_table(tables, maya.Rules.for_preset("soiree"), [A, B])
    await play(
        tables,
        table,
        maya.Roll(A, (3, 1)),
        maya.Announce(A, 31),
        maya.Lift(B),  # true: B drinks one sip, opens
        maya.Roll(B, (4, 2)),
        maya.Announce(B, 21),
        maya.Lift(A),  # fake Maya: B drinks a whole glass
        maya.Stop(),
    )
    repo = tables.repository

    def board(name: str) -> Metric:
        return metric(MAYA_BOARD, name)

    sips, _ = await repo.leaderboard(GUILD, "maya", board("sips"), None, offset=0, limit=10)
    glasses, _ = await repo.leaderboard(GUILD, "maya", board("glasses"), None, offset=0, limit=10)
    assert [(s.user_id, s.value) for s in sips] == [(B, 1)]
    assert [(s.user_id, s.value) for s in glasses] == [(B, 1)]
    caught, _ = await repo.leaderboard(
        GUILD, "maya", board("bluffs_caught"), None, offset=0, limit=10
    )
    assert [(s.user_id, s.value) for s in caught] == [(B, 1)]
    mine = await repo.standing(GUILD, "maya", board("doubts_right"), None, A)
    assert mine is not None and (mine.rank, mine.value) == (1, 1)


async def test_cpu_seats_change_no_figure_and_no_rating(tables):
    table = await open_table(tables, maya.Rules.for_preset("vies", vies=1), [A], cpu=1)
    cpu = next(iter(table.cpus))
    await play(tables, table, maya.Roll(A, (6, 6)), maya.Announce(A, 66), maya.Lift(cpu))
    repo = tables.repository
    assert await repo.player_figures(GUILD, cpu, BOARDS) == {}
    assert await repo.player_ratings(GUILD, A) == {}  # a lone human has nobody to be rated against
    wins, _ = await repo.leaderboard(
        GUILD, "mia", metric(MIA_BOARD, "wins"), None, offset=0, limit=10
    )
    assert [(s.user_id, s.value) for s in wins] == [(A, 1)]


def test_elo_moves_the_winner_up_and_the_loser_down_by_the_same_amount():
    after = rating.elo({A: 1000.0, B: 1000.0}, [[A], [B]])
    assert after[A] == pytest.approx(1016.0)
    assert after[B] == pytest.approx(984.0)


def test_elo_rewards_an_upset_more_than_an_expected_win():
    upset = rating.elo({A: 900.0, B: 1100.0}, [[A], [B]])[A] - 900.0
    expected_win = rating.elo({A: 1100.0, B: 900.0}, [[A], [B]])[A] - 1100.0
    assert upset > expected_win > 0


def test_a_draw_between_equals_changes_nothing():
    assert rating.elo({A: 1000.0, B: 1000.0}, [[A, B]]) == {A: 1000.0, B: 1000.0}


async def test_the_average_score_is_the_stored_total_score_per_game(tables):
    """Regression: ``avg_score`` is declared the mean of ``total_score``, the figure Yadès
    stores; reading it from its name (``score``, never stored) left its leaderboard empty
    and ``/stats`` without it."""
    repo = tables.repository
    played = {
        A: [{"total_score": 250, "best_score": 250}, {"total_score": 190, "best_score": 190}],
        B: [{"total_score": 210, "best_score": 210}],
    }
    for user, games in played.items():
        for number, figures in enumerate(games):
            # The figures ``bot.games.yades.metrics.results`` stores for one game.
            stored = {"games": 1, "wins": 0, "yades_rolled": 0, "points_lost": 0.0, **figures}
            game = await repo.create_game(
                guild_id=GUILD, channel_id=CHANNEL + 10 * user + number, kind="yades", meta={}
            )
            await repo.save_game(
                game,
                previous_version=0,
                version=1,
                status="finished",
                state={},
                meta={},
                results=GameResults(
                    board=YADES_BOARD, day="2026-11-29", figures={user: stored}, ratings={}
                ),
            )
    average = metric(YADES_BOARD, "avg_score")
    page, ranked = await repo.leaderboard(GUILD, "yades", average, None, offset=0, limit=10)
    assert [(s.rank, s.user_id, s.value) for s in page] == [(1, A, 220.0), (2, B, 210.0)]
    assert ranked == 2
    best, _ = await repo.leaderboard(
        GUILD, "yades", metric(YADES_BOARD, "best_score"), None, offset=0, limit=10
    )
    assert [(s.user_id, s.value) for s in best] == [(A, 250.0), (B, 210.0)]
    figures = await repo.player_figures(GUILD, A, BOARDS)
    assert figures["yades"]["avg_score"] == 220.0
    assert figures["yades"]["best_score"] == 250.0

    embed, pages = await leaderboard_embed(
        repo, GUILD, YADES_BOARD, "avg_score", "tout", 0, A, "fr"
    )
    assert embed.description == "🥇 <@101> — **220**\n🥈 <@102> — **210**"
    assert pages == 1
    shown = (await player_embed(repo, GUILD, A, "fr")).fields
    assert [field.name for field in shown] == ["Yadès"]
    assert "score moyen : **220**" in (shown[0].value or "").splitlines()
