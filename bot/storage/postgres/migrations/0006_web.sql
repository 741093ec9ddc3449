-- After the shared 0006: the names the games played so far kept, the latest game's for
-- each player (JSON is read in the database's own way).
INSERT INTO player_names (guild_id, user_id, name, game_id)
SELECT DISTINCT ON (g.guild_id, n.key::bigint) g.guild_id, n.key::bigint, n.value, g.id
FROM games AS g, json_each_text(g.meta_json::json -> 'names') AS n
WHERE g.status IN ('finished', 'stopped') AND json_typeof(g.meta_json::json -> 'names') = 'object'
ORDER BY g.guild_id, n.key::bigint, g.id DESC;
