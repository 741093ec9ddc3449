"""Leaderboard figures and ratings, checked against games played with scripted dice."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.games import maya
from bot.kernel import rating
from bot.storage import GameResults, open_repository
from bot.tables import Tables

GUILD, CHANNEL = 1, 10
A, B, C = 101, 102, 103


@pytest.fixture
async def tables(tmp_path):
    repository = await open_repository(f"sqlite:///{tmp_path}/gobelet.db")
    registry = Tables(repository, load_settings({}))
    yield registry
    await registry.close()


async def open_table(tables: Tables, rules: maya.Rules, players: list[int], *, cpu: int = 0):
    table = await tables.open(
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


async def play(tables: Tables, table, *actions: maya.Action) -> None:
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
    page, ranked = await repo.leaderboard(GUILD, "mia", "wins", None, offset=0, limit=10)
    assert [(s.user_id, s.value) for s in page] == [(A, 1)]
    assert ranked == 1
    figures = {u: (await repo.player_figures(GUILD, u))["mia"] for u in (A, B, C)}
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
    sips, _ = await repo.leaderboard(GUILD, "maya", "sips", None, offset=0, limit=10)
    glasses, _ = await repo.leaderboard(GUILD, "maya", "glasses", None, offset=0, limit=10)
    assert [(s.user_id, s.value) for s in sips] == [(B, 1)]
    assert [(s.user_id, s.value) for s in glasses] == [(B, 1)]
    caught, _ = await repo.leaderboard(GUILD, "maya", "bluffs_caught", None, offset=0, limit=10)
    assert [(s.user_id, s.value) for s in caught] == [(B, 1)]
    mine = await repo.standing(GUILD, "maya", "doubts_right", None, A)
    assert mine is not None and (mine.rank, mine.value) == (1, 1)


async def test_cpu_seats_change_no_figure_and_no_rating(tables):
    table = await open_table(tables, maya.Rules.for_preset("vies", vies=1), [A], cpu=1)
    cpu = next(iter(table.cpus))
    await play(tables, table, maya.Roll(A, (6, 6)), maya.Announce(A, 66), maya.Lift(cpu))
    repo = tables.repository
    assert await repo.player_figures(GUILD, cpu) == {}
    assert await repo.player_ratings(GUILD, A) == {}  # a lone human has nobody to be rated against
    wins, _ = await repo.leaderboard(GUILD, "mia", "wins", None, offset=0, limit=10)
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


async def test_an_average_criterion_divides_by_games_and_fewer_lost_ranks_first(tables):
    repo = tables.repository
    rows = {A: {"games": 2, "points_lost": 30.0}, B: {"games": 1, "points_lost": 0.0}}
    for user, figures in rows.items():
        game = await repo.create_game(
            guild_id=GUILD, channel_id=CHANNEL + user, kind="yades", meta={}
        )
        await repo.save_game(
            game,
            previous_version=0,
            version=1,
            status="finished",
            state={},
            meta={},
            results=GameResults(
                game="yades", day="2026-11-29", figures={user: figures}, ratings={}
            ),
        )
    page, ranked = await repo.leaderboard(
        GUILD, "yades", "avg_points_lost", None, offset=0, limit=10
    )
    # B lost nothing (ranked, and first); A lost 15 a game.
    assert [(s.rank, s.user_id, s.value) for s in page] == [(1, B, 0.0), (2, A, 15.0)]
    assert ranked == 2
    mine = await repo.standing(GUILD, "yades", "avg_points_lost", None, A)
    assert mine is not None and (mine.rank, mine.value) == (2, 15.0)
