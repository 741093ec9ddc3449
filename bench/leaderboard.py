"""How long `/classement` queries take on a server with a million stored events.

    .venv/bin/python bench/leaderboard.py [--events 1000000] [--players 500] [--days 90]
                                          [--repeat 20] [--seed 1] [--db PATH]

Set-up: one server, ``--players`` players, random games played with the engine (half
Mia to the winner, half party Maya stopped after a few rounds; 2 to 5 players each,
uniformly random legal turn actions) spread over the last ``--days`` days, until the
event log holds ``--events`` events. Each game is stored as the bot stores it: its row
(final snapshot, table data), its events, and, computed with ``bot.games.maya.metrics`` exactly as
``bot.table.scoring.Scoring.score`` does, its per-day leaderboard figures and its players' Elo
ratings, in date order. The rows go in with ``executemany`` in big transactions, which
is quicker than a million ``save_game`` calls and gives the same tables. ``--db`` keeps
the file and reuses it on the next run.

Then, through the bot's own ``SqliteRepository``: for every game, criterion and period
of `/classement`, the first page, a middle page and one player's standing, each timed
``--repeat`` times (p50 / p99 in ms; target: under 50 ms), and the query plans.
"""

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import maya
from bot.games.maya import metrics as maya_metrics
from bot.kernel import rating
from bot.kernel.spec import RATING
from bot.leaderboards import BOARDS, PAGE, PERIODS, criterion, since
from bot.storage.sqlite import SqliteRepository
from bot.table import Table

GUILD = 1
CHANNELS = 40
TARGET_MS = 50.0


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def play(
    players: list[int], rng: random.Random
) -> tuple[maya.Rules, maya.State, list[maya.Event], int]:
    """One random game (Mia to the winner, or a party stopped after a few rounds).

    Returns the rules, the final state, the events and the number of actions (the
    stored game's version: each accepted action adds one).
    """
    if rng.random() < 0.5:
        rules = maya.Rules.for_preset("vies", vies=rng.randint(1, 3))
        rounds = None
    else:
        rules = maya.Rules.for_preset("soiree")
        rounds = rng.randint(2, 8)
    state = maya.new_game(players, rules)
    log: list[maya.Event] = []
    actions = 0
    while not state.over:
        if rounds is not None and state.round > rounds and state.phase == maya.OPEN:
            action: maya.Action = maya.Stop()
        else:
            assert state.current is not None
            legal = maya.turn_actions(state, state.current)
            action = maya.complete(state, rng.choice(legal), rng)
        state, events = maya.apply(state, action)
        log += events
        actions += 1
    return rules, state, log, actions


def build(path: Path, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    users = list(range(100_000, 100_000 + args.players))
    # Some players play much more than others.
    weights = [1.0 / (rank + 1) ** 0.5 for rank in range(args.players)]
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    first_day = today - timedelta(days=args.days - 1)

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    ratings: dict[tuple[str, int], float] = {}
    rated: dict[tuple[str, int], int] = defaultdict(int)
    figures_by_day: dict[tuple[str, str, str, int], float] = defaultdict(float)
    games: list[tuple] = []
    events: list[tuple] = []
    written = game_id = 0
    started = time.perf_counter()
    while written < args.events:
        game_id += 1
        players: list[int] = []
        count = rng.randint(2, 5)
        while len(players) < count:
            player = rng.choices(users, weights)[0]
            if player not in players:
                players.append(player)
        rules, state, log, actions = play(players, rng)
        # Games in date order, spread evenly over the days.
        when = first_day + timedelta(seconds=written / args.events * args.days * 86400)
        stamp = when.isoformat(timespec="milliseconds")
        day = when.date().isoformat()
        table = Table(
            id=game_id,
            guild_id=GUILD,
            channel_id=1000 + game_id % CHANNELS,
            kind="maya",
            starter=players[0],
            lang="fr",
            rules=rules,
            players=players,
        )
        status = "finished" if state.winner is not None else "stopped"
        games.append(
            (
                game_id,
                GUILD,
                table.channel_id,
                status,
                actions,
                _dumps(state.to_json()),
                _dumps(table.meta()),
                stamp,
                stamp,
                stamp,
            )
        )
        events.extend(
            (game_id, seq, e.type, e.visibility, e.to, _dumps(e.data), stamp)
            for seq, e in enumerate(log, 1)
        )
        written += len(log)

        # What Scoring.score computes for this game.
        results = maya_metrics.results(state, log, players)
        game = results.board
        for player, numbers in results.figures.items():
            for metric, value in numbers.items():
                figures_by_day[(game, metric, day, player)] += value
        before = {p: ratings.get((game, p), rating.INITIAL_RATING) for p in results.figures}
        for player, new in rating.elo(before, results.ranking).items():
            ratings[(game, player)] = new
            rated[(game, player)] += 1

        if len(events) >= 200_000:
            _flush(db, games, events)
    _flush(db, games, events)
    db.execute("BEGIN")
    db.execute("INSERT INTO counted_games (game_id, counted_at) SELECT id, finished_at FROM games")
    db.executemany(
        "INSERT INTO stat_values (guild_id, game, user_id, metric, day, value)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(GUILD, g, u, m, d, v) for (g, m, d, u), v in figures_by_day.items()],
    )
    db.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, rating, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(GUILD, g, u, r, rated[(g, u)], stamp) for (g, u), r in ratings.items()],
    )
    db.execute("COMMIT")
    db.close()
    print(
        f"Set-up: {game_id:,} games, {written:,} events, {len(figures_by_day):,} figure rows,"
        f" {len(ratings):,} ratings, {args.players} players over {args.days} days"
        f" in {time.perf_counter() - started:.0f} s"
    )


def _flush(db: sqlite3.Connection, games: list[tuple], events: list[tuple]) -> None:
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO games (id, guild_id, channel_id, kind, status, version, state_json,"
        " meta_json, created_at, updated_at, finished_at)"
        " VALUES (?, ?, ?, 'maya', ?, ?, ?, ?, ?, ?, ?)",
        games,
    )
    db.executemany(
        "INSERT INTO game_events (game_id, seq, type, visibility, recipient, payload_json,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        events,
    )
    db.execute("COMMIT")
    games.clear()
    events.clear()


async def timed(call, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def measure(path: Path, args: argparse.Namespace) -> None:
    repo = await SqliteRepository.open(path)
    rng = random.Random(args.seed)
    worst = 0.0
    traced: list[str] = []
    try:
        with sqlite3.connect(path) as db:
            counts = {
                name: db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
                for name in ("games", "game_events", "stat_values", "ratings")
            }
        print("Rows: " + ", ".join(f"{name} {count:,}" for name, count in counts.items()))
        print(
            f"Query times in ms over {args.repeat} runs each (p50 / p99), through"
            f" SqliteRepository; target {TARGET_MS:.0f} ms"
        )
        print(
            f"  {'game':<5}{'criterion':<16}{'period':<9}{'ranked':>7}"
            f"{'first page':>16}{'middle page':>16}{'standing':>16}"
        )
        for game, board in BOARDS.items():
            for metric in board.criteria:
                ranked_by = criterion(board, metric)
                assert ranked_by is not None  # every name in ``criteria`` is one
                for period in PERIODS:
                    start = since(period)
                    _, ranked = await repo.leaderboard(
                        GUILD, game, ranked_by, start, offset=0, limit=PAGE
                    )
                    middle = (ranked // 2) // PAGE * PAGE
                    page, _ = await repo.leaderboard(
                        GUILD, game, ranked_by, start, offset=middle, limit=PAGE
                    )
                    someone = rng.choice(page).user_id if page else 0

                    def first(game=game, ranked_by=ranked_by, start=start):
                        return repo.leaderboard(GUILD, game, ranked_by, start, offset=0, limit=PAGE)

                    def mid(game=game, ranked_by=ranked_by, start=start, middle=middle):
                        return repo.leaderboard(
                            GUILD, game, ranked_by, start, offset=middle, limit=PAGE
                        )

                    def mine(game=game, ranked_by=ranked_by, start=start, someone=someone):
                        return repo.standing(GUILD, game, ranked_by, start, someone)

                    cells = []
                    for call in (first, mid, mine):
                        times = await timed(call, args.repeat)
                        worst = max(worst, p99(times))
                        cells.append(f"{statistics.median(times):7.2f} /{p99(times):6.2f}")
                    print(
                        f"  {game:<5}{metric:<16}{period:<9}{ranked:>7}"
                        + "".join(f"{c:>16}" for c in cells)
                    )
        verdict = "meets" if worst < TARGET_MS else "MISSES"
        print(f"Slowest p99: {worst:.2f} ms, which {verdict} the {TARGET_MS:.0f} ms target")

        # The plans of the very statements the repository runs, with their parameters.
        wins = criterion(BOARDS["mia"], "wins")
        assert wins is not None
        await repo._db.set_trace_callback(traced.append)
        await repo.leaderboard(GUILD, "mia", wins, since("mois"), offset=0, limit=PAGE)
        await repo.leaderboard(GUILD, "mia", RATING, None, offset=0, limit=PAGE)
        await repo.standing(GUILD, "mia", wins, since("mois"), someone)
        await repo._db.set_trace_callback(None)
    finally:
        await repo.close()
    with sqlite3.connect(path) as db:
        for statement in traced:
            print(f"\nEXPLAIN QUERY PLAN {statement}")
            for row in db.execute(f"EXPLAIN QUERY PLAN {statement}"):
                print(f"  {row[0]:>3} {row[1]:>3}  {row[3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="keep the database here (reused if present)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "leaderboard.db"
        if not path.exists():
            asyncio.run(_create(path))
            build(path, args)
        else:
            print(f"Reusing {path}")
        asyncio.run(measure(path, args))


async def _create(path: Path) -> None:
    """The schema exactly as the bot makes it: the repository's own migrations."""
    await (await SqliteRepository.open(path)).close()


if __name__ == "__main__":
    main()
