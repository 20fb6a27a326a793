-- A signal's revision changes when its text does, so vectors computed for
-- an older text are recognised as stale.
ALTER TABLE signals ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;

CREATE TABLE signal_vectors (
    signal_pk INTEGER NOT NULL REFERENCES signals (pk) ON DELETE CASCADE,
    model     TEXT    NOT NULL,
    revision  INTEGER NOT NULL,
    vector    BLOB    NOT NULL,
    PRIMARY KEY (signal_pk, model)
) WITHOUT ROWID;

CREATE TABLE search_cache (
    key        TEXT    PRIMARY KEY,
    result     TEXT    NOT NULL,
    expires_ns INTEGER NOT NULL
);
CREATE INDEX search_cache_expiry ON search_cache (expires_ns);
