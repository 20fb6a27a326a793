-- Sign-in, sessions and the account area. Secrets (link and session tokens,
-- unsubscribe tokens) are kept as SHA-256 hashes only.

-- One-time sign-in links, used up by deleting them.
CREATE TABLE sign_in_links (
    hash       BYTEA  PRIMARY KEY,
    email      TEXT   NOT NULL,
    next       TEXT   NOT NULL,
    expires_ns BIGINT NOT NULL
);
CREATE INDEX sign_in_links_email ON sign_in_links (email);
CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_ns);

CREATE TABLE sessions (
    hash       BYTEA  PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ns BIGINT NOT NULL,
    expires_ns BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expiry ON sessions (expires_ns);

-- Requests for sign-in links per key (a hash of an email or a client
-- address) in fixed windows [start_ns, end_ns). Counting is one upsert that
-- locks the window's row, so replicas count exactly together.
CREATE TABLE sign_in_throttle (
    key      BYTEA   NOT NULL,
    start_ns BIGINT  NOT NULL,
    end_ns   BIGINT  NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (key, start_ns)
);
CREATE INDEX sign_in_throttle_end ON sign_in_throttle (end_ns);

-- Requests and fresh searches per account and UTC day (Unix seconds of its
-- midnight), for the account's chart.
CREATE TABLE daily_usage (
    account_id BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        BIGINT  NOT NULL,
    requests   INTEGER NOT NULL,
    searches   INTEGER NOT NULL,
    PRIMARY KEY (account_id, day)
);

-- Email interests: tags and countries as comma-separated keys ('' selects
-- all), daily or weekly; since_ns is where the next digest starts.
CREATE TABLE email_interests (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    tags       TEXT   NOT NULL,
    countries  TEXT   NOT NULL,
    frequency  TEXT   NOT NULL,
    since_ns   BIGINT NOT NULL
);

-- One row per account and digest period: a claim (holder and lease) while a
-- replica sends it, done once sent, so that a digest goes out once however
-- many replicas look for due digests.
CREATE TABLE digest_runs (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period     TEXT   NOT NULL,
    claim      BYTEA  NOT NULL,
    lease_ns   BIGINT NOT NULL,
    done_ns    BIGINT,
    PRIMARY KEY (account_id, period)
);

-- Tokens of the one-click unsubscribe links that digests carry.
CREATE TABLE unsubscribe_tokens (
    hash       BYTEA  PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ns BIGINT NOT NULL
);
CREATE INDEX unsubscribe_tokens_account ON unsubscribe_tokens (account_id);
