-- Gateway identifies, shared by every process of the bot. Times are seconds since 1970 on
-- the database's clock, the one clock every process reads alike.
-- Each concurrency bucket's last identify: Discord takes one per 5 s in a bucket
-- (shard id % max_concurrency), whichever process sends it.
CREATE TABLE identify_slots (
    bucket INTEGER PRIMARY KEY,
    identified_at {real} NOT NULL
);

-- Each shard's last start, and how many of its starts in a row came soon after the one
-- before without a clean stop between: a process restarting in a loop.
CREATE TABLE shard_starts (
    shard INTEGER PRIMARY KEY,
    started_at {real} NOT NULL,
    streak INTEGER NOT NULL
);
