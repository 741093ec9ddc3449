-- Leaderboard figures: one row per server, game, player, figure and day, summed on write.
-- A leaderboard reads only this table (never the event log), through the covering index.
CREATE TABLE stat_values (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    metric TEXT NOT NULL,
    day TEXT NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (guild_id, game, metric, day, user_id)
) WITHOUT ROWID;
CREATE INDEX stat_values_by_user ON stat_values (guild_id, user_id, game);

-- Which games a player's figures came from, so that nothing is ever counted twice.
CREATE TABLE counted_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    counted_at TEXT NOT NULL
);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_by_rating ON ratings (guild_id, game, rating DESC);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings_json TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
