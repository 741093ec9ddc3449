-- The servers whose web page is on: the unguessable token its address ends with, and the
-- server's name as it was when the page was turned on (the page's title).
CREATE TABLE web_pages (
    guild_id BIGINT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    guild_name TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The name each player last joined a counted game with, per server (the web page shows
-- names, where Discord shows mentions).
CREATE TABLE player_names (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    game_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- The names the games played so far kept, the latest game's for each player.
INSERT INTO player_names (guild_id, user_id, name, game_id)
SELECT DISTINCT ON (g.guild_id, n.key::bigint) g.guild_id, n.key::bigint, n.value, g.id
FROM games AS g, json_each_text(g.meta_json::json -> 'names') AS n
WHERE g.status IN ('finished', 'stopped') AND json_typeof(g.meta_json::json -> 'names') = 'object'
ORDER BY g.guild_id, n.key::bigint, g.id DESC;
