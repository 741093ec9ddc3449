-- Leaderboard figures: one row per server, game, player, figure and day, summed on write.
-- A leaderboard reads only this table (never the event log), through the primary key.
CREATE TABLE stat_values (
    guild_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    metric TEXT NOT NULL,
    day TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, metric, day, user_id)
);
CREATE INDEX stat_values_by_user ON stat_values (guild_id, user_id, game);

-- Which games a player's figures came from, so that nothing is ever counted twice.
CREATE TABLE counted_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    counted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_rating ON ratings (guild_id, game, rating DESC);

CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    settings_json JSON NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
