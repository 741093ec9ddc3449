-- The servers whose web page is on: the unguessable token its address ends with, and the
-- server's name as it was when the page was turned on (the page's title).
CREATE TABLE web_pages (
    guild_id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    guild_name TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- The name each player last joined a counted game with, per server (the web page shows
-- names, where Discord shows mentions).
CREATE TABLE player_names (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- The names the games played so far kept, the latest game's for each player.
INSERT INTO player_names (guild_id, user_id, name, game_id)
SELECT g.guild_id, CAST(n.key AS INTEGER), n.value, g.id
FROM games AS g, json_each(g.meta_json, '$.names') AS n
WHERE g.status IN ('finished', 'stopped') AND n.type = 'text'
ORDER BY g.id
ON CONFLICT (guild_id, user_id) DO UPDATE
SET name = excluded.name, game_id = excluded.game_id
WHERE excluded.game_id > player_names.game_id;
