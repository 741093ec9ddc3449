-- A server's seasons, numbered from 1: the current one is the one not closed yet. A season
-- covers the days from `started` to the day before `ends` (YYYY-MM-DD, UTC), so that the
-- daily figures of stat_values split exactly between seasons.
CREATE TABLE seasons (
    guild_id {bigint} NOT NULL,
    number INTEGER NOT NULL,
    started TEXT NOT NULL,
    ends TEXT NOT NULL,
    closed_at {time},
    PRIMARY KEY (guild_id, number)
){rowid};
-- One current season per server, enforced by the database itself.
CREATE UNIQUE INDEX seasons_one_current ON seasons (guild_id) WHERE closed_at IS NULL;

-- Each closed season's final ratings, per board, of the players who played in it.
CREATE TABLE season_ratings (
    guild_id {bigint} NOT NULL,
    number INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id {bigint} NOT NULL,
    rating {real} NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (guild_id, number, game, user_id)
){rowid};

-- A player's rating after each rated game and each season's reset (for /stats' plot).
CREATE TABLE rating_history (
    guild_id {bigint} NOT NULL,
    game TEXT NOT NULL,
    user_id {bigint} NOT NULL,
    at {stamp},
    rating {real} NOT NULL
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, game, at);

-- The ratings players had before seasons existed: the first point of each one's history.
INSERT INTO rating_history (guild_id, game, user_id, at, rating)
SELECT guild_id, game, user_id, updated_at, rating FROM ratings;
