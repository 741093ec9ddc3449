-- Achievements: each earned once per server and player, with the game that earned it
-- first. The past games' are written by a replay of their event logs that follows this
-- script in its transaction (``bot.storage.sql.replays``).
CREATE TABLE achievements (
    guild_id {bigint} NOT NULL,
    user_id {bigint} NOT NULL,
    code TEXT NOT NULL,
    game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    earned_at {stamp},
    PRIMARY KEY (guild_id, user_id, code)
){rowid};

-- The run of tries right in a row each player has going on each streak (ten lifts that
-- caught a bluff), across their games on a server.
CREATE TABLE achievement_runs (
    guild_id {bigint} NOT NULL,
    user_id {bigint} NOT NULL,
    code TEXT NOT NULL,
    run INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, code)
){rowid};
