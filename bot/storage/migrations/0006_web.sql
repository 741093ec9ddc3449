-- The servers whose web page is on: the unguessable token its address ends with, and the
-- server's name as it was when the page was turned on (the page's title).
CREATE TABLE web_pages (
    guild_id {bigint} PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    guild_name TEXT NOT NULL,
    updated_at {stamp}
);

-- The name each player last joined a counted game with, per server (the web page shows
-- names, where Discord shows mentions).
CREATE TABLE player_names (
    guild_id {bigint} NOT NULL,
    user_id {bigint} NOT NULL,
    name TEXT NOT NULL,
    game_id {bigint} NOT NULL,
    PRIMARY KEY (guild_id, user_id)
){rowid};
