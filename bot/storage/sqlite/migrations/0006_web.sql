-- After the shared 0006: the names the games played so far kept, the latest game's for
-- each player (JSON is read in the database's own way).
INSERT INTO player_names (guild_id, user_id, name, game_id)
SELECT g.guild_id, CAST(n.key AS INTEGER), n.value, g.id
FROM games AS g, json_each(g.meta_json, '$.names') AS n
WHERE g.status IN ('finished', 'stopped') AND n.type = 'text'
ORDER BY g.id
ON CONFLICT (guild_id, user_id) DO UPDATE
SET name = excluded.name, game_id = excluded.game_id
WHERE excluded.game_id > player_names.game_id;
