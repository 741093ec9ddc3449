-- Leaderboard figures: one row per server, game, player, figure and day, summed on write.
-- A leaderboard reads only this table (never the event log), through its primary key.
CREATE TABLE stat_values (
    guild_id {bigint} NOT NULL,
    game TEXT NOT NULL,
    user_id {bigint} NOT NULL,
    metric TEXT NOT NULL,
    day TEXT NOT NULL,
    value {real} NOT NULL,
    PRIMARY KEY (guild_id, game, metric, day, user_id)
){rowid};
CREATE INDEX stat_values_by_user ON stat_values (guild_id, user_id, game);

-- Which games a player's figures came from, so that nothing is ever counted twice.
CREATE TABLE counted_games (
    game_id {bigint} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    counted_at {stamp}
);

CREATE TABLE ratings (
    guild_id {bigint} NOT NULL,
    game TEXT NOT NULL,
    user_id {bigint} NOT NULL,
    rating {real} NOT NULL,
    games INTEGER NOT NULL,
    updated_at {stamp},
    PRIMARY KEY (guild_id, game, user_id)
){rowid};
CREATE INDEX ratings_by_rating ON ratings (guild_id, game, rating DESC);

CREATE TABLE guild_settings (
    guild_id {bigint} PRIMARY KEY,
    settings_json {json} NOT NULL,
    updated_at {stamp}
);
