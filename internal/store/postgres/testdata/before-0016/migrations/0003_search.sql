-- Vectors of signal texts per embedding model, valid while their revision is
-- the signal's.
CREATE TABLE signal_vectors (
    signal_id TEXT COLLATE "C" NOT NULL REFERENCES signals (id) ON DELETE CASCADE,
    model     TEXT    NOT NULL,
    revision  INTEGER NOT NULL,
    vector    REAL[]  NOT NULL,
    PRIMARY KEY (signal_id, model)
);

-- Results of fresh searches, shared by every process until they expire.
CREATE TABLE search_cache (
    key        TEXT   PRIMARY KEY,
    result     TEXT   NOT NULL,
    expires_ns BIGINT NOT NULL
);
CREATE INDEX search_cache_expiry ON search_cache (expires_ns);

-- Running searches per account, one row per account so that taking a slot is
-- one locked upsert: leases maps a random token to the nanosecond its lease
-- ends, so a process that dies mid-search frees its slot when the lease does.
CREATE TABLE search_slots (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    leases     JSONB  NOT NULL
);
