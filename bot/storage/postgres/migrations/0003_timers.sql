-- Every deadline (a turn, a vote, a challenge, a confirmation, a tutorial), so that a
-- restart, or the process taking over a shard, fires each at its time.
CREATE TABLE timers (
    key TEXT PRIMARY KEY,
    due DOUBLE PRECISION NOT NULL,
    guild_id BIGINT,
    payload_json JSON NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX timers_by_due ON timers (due);
