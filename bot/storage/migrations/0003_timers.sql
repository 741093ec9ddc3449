-- Every deadline (a turn, a vote, a challenge, a confirmation, a tutorial), so that a
-- restart fires each at its time, or at once when it is overdue.
CREATE TABLE timers (
    key TEXT PRIMARY KEY,
    due {real} NOT NULL,
    guild_id {bigint},
    payload_json {json} NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at {stamp}
);
CREATE INDEX timers_by_due ON timers (due);
