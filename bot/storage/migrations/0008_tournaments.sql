-- Tournaments: one row each, from its sign-ups to its end. ``data_json`` holds what the
-- Discord layer keeps of it (its options, sign-ups, the rules engine's rounds, each
-- match's thread and game); ``status`` is what start-up and the web page look for.
CREATE TABLE tournaments (
    id {serial},
    guild_id {bigint} NOT NULL,
    channel_id {bigint} NOT NULL,
    game TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'over', 'cancelled')),
    data_json {json} NOT NULL,
    created_at {stamp},
    updated_at {stamp}
);

-- One tournament signing up or running per channel, enforced by the database itself.
CREATE UNIQUE INDEX tournaments_one_open_per_channel
    ON tournaments (channel_id) WHERE status IN ('signup', 'running');
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
