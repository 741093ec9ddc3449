-- Games with their engine snapshot, and the event log each accepted action appends to.
-- JSON is kept as written (PostgreSQL: json, not jsonb): a snapshot reads back exactly as stored.
CREATE TABLE games (
    id {serial},
    guild_id {bigint} NOT NULL,
    channel_id {bigint} NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'stopped')),
    version INTEGER NOT NULL DEFAULT 0,
    state_json {json},
    meta_json {json} NOT NULL,
    created_at {stamp},
    updated_at {stamp},
    finished_at {time}
);

-- One running game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_running_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, kind, status);

CREATE TABLE game_events (
    game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    visibility TEXT NOT NULL,
    recipient {bigint},
    payload_json {json} NOT NULL,
    created_at {stamp},
    PRIMARY KEY (game_id, seq)
){rowid};
