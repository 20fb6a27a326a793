-- Signals: times are nanoseconds since the Unix epoch (UTC) with the number of
-- fractional digits they were given with, so they are written back exactly.
CREATE TABLE signals (
    pk                     INTEGER PRIMARY KEY,
    id                     TEXT    NOT NULL UNIQUE,
    tag                    TEXT    NOT NULL,
    source                 TEXT    NOT NULL,
    language               TEXT    NOT NULL,
    country                TEXT,
    author_name            TEXT    NOT NULL,
    author_headline        TEXT    NOT NULL,
    source_url             TEXT    NOT NULL,
    text                   TEXT    NOT NULL,
    text_chars             INTEGER NOT NULL,
    published_ns           INTEGER NOT NULL,
    published_digits       INTEGER NOT NULL,
    published_at_precision TEXT    NOT NULL,
    observed_ns            INTEGER,
    observed_digits        INTEGER,
    status                 TEXT    NOT NULL,
    market_only            INTEGER NOT NULL,
    -- Case-folded copies for literal, case-insensitive substring matching.
    fold_text              TEXT    NOT NULL,
    fold_author            TEXT    NOT NULL,
    fold_headline          TEXT    NOT NULL
);

-- Partial indexes over public signals only, in listing order. Tags, sources
-- and languages have a handful of values each: walking the ordered index
-- finds a page of any of them within a few hundred rows, so they need no
-- index of their own. Countries and observation times can be rare.
CREATE INDEX signals_public ON signals (published_ns DESC, id DESC)
    WHERE status = 'public' AND market_only = 0;
CREATE INDEX signals_public_country ON signals (country, published_ns DESC, id DESC)
    WHERE status = 'public' AND market_only = 0;
CREATE INDEX signals_public_observed ON signals (observed_ns)
    WHERE status = 'public' AND market_only = 0;

CREATE TABLE accounts (
    id                  INTEGER PRIMARY KEY,
    email               TEXT    NOT NULL UNIQUE,
    verified_ns         INTEGER NOT NULL,
    created_ns          INTEGER NOT NULL,
    daily_requests      INTEGER NOT NULL,
    minute_requests     INTEGER NOT NULL,
    daily_searches      INTEGER NOT NULL,
    concurrent_searches INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT    PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    hint         TEXT    NOT NULL,
    hash         BLOB    NOT NULL UNIQUE,
    created_ns   INTEGER NOT NULL,
    last_used_ns INTEGER,
    revoked_ns   INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id);
