-- Every deadline (a turn, a vote, a challenge, a confirmation, a tutorial), so that a
-- restart fires each at its time, or at once when it is overdue.
CREATE TABLE timers (
    key TEXT PRIMARY KEY,
    due REAL NOT NULL,
    guild_id INTEGER,
    payload_json TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
CREATE INDEX timers_by_due ON timers (due);
