-- The SQLite schema after every migration in migrations/, table by table.
-- Generated: go test -run TestSchemaIsTheMigrations -update ./internal/store/sqlite/

CREATE TABLE accounts (
    id                  INTEGER PRIMARY KEY,
    email               TEXT    NOT NULL UNIQUE,
    verified_ns         INTEGER NOT NULL,
    created_ns          INTEGER NOT NULL,
    daily_requests      INTEGER NOT NULL,
    minute_requests     INTEGER NOT NULL,
    daily_searches      INTEGER NOT NULL,
    concurrent_searches INTEGER NOT NULL
, role TEXT NOT NULL DEFAULT 'reader');

CREATE TRIGGER accounts_credentials_delete AFTER DELETE ON accounts BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER accounts_credentials_update AFTER UPDATE ON accounts BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;

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

CREATE TRIGGER api_keys_credentials_delete AFTER DELETE ON api_keys BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER api_keys_credentials_update AFTER UPDATE OF hash, account_id, revoked_ns ON api_keys BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TABLE articles (
    slug         TEXT    PRIMARY KEY,
    title        TEXT    NOT NULL,
    summary      TEXT    NOT NULL,
    published_ns INTEGER NOT NULL,
    body         TEXT    NOT NULL
);

CREATE TABLE credential_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);

CREATE TABLE daily_usage (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        INTEGER NOT NULL,
    requests   INTEGER NOT NULL,
    searches   INTEGER NOT NULL,
    PRIMARY KEY (account_id, day)
) WITHOUT ROWID;

CREATE TABLE desk_log (
    seq       INTEGER PRIMARY KEY,
    at_ns     INTEGER NOT NULL,
    editor    TEXT    NOT NULL,
    signal_id TEXT    NOT NULL,
    action    TEXT    NOT NULL,
    before    TEXT    NOT NULL,
    after     TEXT    NOT NULL,
    reason    TEXT    NOT NULL
);

CREATE INDEX desk_log_editor ON desk_log (editor, seq);

CREATE INDEX desk_log_signal ON desk_log (signal_id, seq);

CREATE TRIGGER desk_log_no_delete BEFORE DELETE ON desk_log BEGIN
    SELECT RAISE(ABORT, 'desk_log is append-only');
END;

CREATE TRIGGER desk_log_no_update BEFORE UPDATE ON desk_log BEGIN
    SELECT RAISE(ABORT, 'desk_log is append-only');
END;

CREATE TABLE digest_runs (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period     TEXT    NOT NULL,
    claim      BLOB    NOT NULL,
    lease_ns   INTEGER NOT NULL,
    done_ns    INTEGER,
    PRIMARY KEY (account_id, period)
) WITHOUT ROWID;

CREATE TABLE email_interests (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    tags       TEXT    NOT NULL,
    countries  TEXT    NOT NULL,
    frequency  TEXT    NOT NULL,
    since_ns   INTEGER NOT NULL
);

CREATE TABLE hubs (
    slug        TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    description TEXT NOT NULL,
    filter      TEXT NOT NULL
);

CREATE TABLE oauth_clients (
    id            TEXT    PRIMARY KEY,
    name          TEXT    NOT NULL,
    redirect_uris TEXT    NOT NULL,
    created_ns    INTEGER NOT NULL
);

CREATE INDEX oauth_clients_created ON oauth_clients (created_ns);

CREATE TABLE oauth_codes (
    hash         BLOB    PRIMARY KEY,
    client_id    TEXT    NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    redirect_uri TEXT    NOT NULL,
    challenge    TEXT    NOT NULL,
    scopes       TEXT    NOT NULL,
    resource     TEXT    NOT NULL,
    consented_ns INTEGER NOT NULL,
    expires_ns   INTEGER NOT NULL,
    used_ns      INTEGER,
    grant_id     TEXT
) WITHOUT ROWID;

CREATE INDEX oauth_codes_client ON oauth_codes (client_id);

CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_ns);

CREATE TABLE oauth_grants (
    id           TEXT    PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id    TEXT    NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    scopes       TEXT    NOT NULL,
    resource     TEXT    NOT NULL,
    created_ns   INTEGER NOT NULL,
    expires_ns   INTEGER NOT NULL,
    last_used_ns INTEGER,
    revoked_ns   INTEGER
);

CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

CREATE INDEX oauth_grants_client ON oauth_grants (client_id);

CREATE INDEX oauth_grants_expiry ON oauth_grants (expires_ns);

CREATE TABLE oauth_tokens (
    hash       BLOB    PRIMARY KEY,
    grant_id   TEXT    NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    expires_ns INTEGER NOT NULL,
    used_ns    INTEGER
) WITHOUT ROWID;

CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);

CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_by TEXT);

CREATE TABLE search_cache (
    key        TEXT    PRIMARY KEY,
    result     TEXT    NOT NULL,
    expires_ns INTEGER NOT NULL
);

CREATE INDEX search_cache_expiry ON search_cache (expires_ns);

CREATE TABLE sessions (
    hash       BLOB    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ns INTEGER NOT NULL,
    expires_ns INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX sessions_account ON sessions (account_id);

CREATE INDEX sessions_expiry ON sessions (expires_ns);

CREATE TABLE sign_in_links (
    hash       BLOB    PRIMARY KEY,
    email      TEXT    NOT NULL,
    next       TEXT    NOT NULL,
    expires_ns INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX sign_in_links_email ON sign_in_links (email);

CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_ns);

CREATE TABLE sign_in_throttle (
    key      BLOB    NOT NULL,
    start_ns INTEGER NOT NULL,
    end_ns   INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (key, start_ns)
) WITHOUT ROWID;

CREATE INDEX sign_in_throttle_end ON sign_in_throttle (end_ns);

CREATE TABLE signal_decisions (
    id    TEXT NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (id, field)
) WITHOUT ROWID;

CREATE TABLE signal_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);

CREATE TABLE signal_takedowns (
    id         TEXT    PRIMARY KEY,
    reason     TEXT    NOT NULL,
    deleted_ns INTEGER NOT NULL,
    deleted_by TEXT    NOT NULL,
    signal     TEXT    NOT NULL
);

CREATE VIRTUAL TABLE signal_text USING fts5(
    folded, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = full
);

CREATE TABLE 'signal_text_config'(k PRIMARY KEY, v) WITHOUT ROWID;

CREATE TABLE 'signal_text_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'signal_text_docsize'(id INTEGER PRIMARY KEY, sz BLOB, origin INTEGER);

CREATE TABLE 'signal_text_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE signal_text_pending (published_ns INTEGER PRIMARY KEY);

CREATE VIRTUAL TABLE signal_text_terms USING fts5vocab(signal_text, row);

CREATE TABLE signal_vectors (
    signal_pk INTEGER NOT NULL REFERENCES signals (pk) ON DELETE CASCADE,
    model     TEXT    NOT NULL,
    revision  INTEGER NOT NULL,
    vector    BLOB    NOT NULL,
    PRIMARY KEY (signal_pk, model)
) WITHOUT ROWID;

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
, revision INTEGER NOT NULL DEFAULT 1);

CREATE INDEX signals_public ON signals (published_ns DESC, id DESC)
    WHERE status = 'public' AND market_only = 0;

CREATE INDEX signals_public_country ON signals (country, published_ns DESC, id DESC)
    WHERE status = 'public' AND market_only = 0;

CREATE INDEX signals_public_observed ON signals (observed_ns)
    WHERE status = 'public' AND market_only = 0;

CREATE TRIGGER signal_text_delete AFTER DELETE ON signals BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT old.published_ns
        WHERE NOT EXISTS (SELECT 1 FROM signal_text_pending WHERE published_ns = old.published_ns);
END;

CREATE TRIGGER signal_text_insert AFTER INSERT ON signals BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT new.published_ns
        WHERE NOT EXISTS (SELECT 1 FROM signal_text_pending WHERE published_ns = new.published_ns);
END;

CREATE TRIGGER signal_text_update
AFTER UPDATE OF fold_text, fold_author, fold_headline, published_ns, status, market_only ON signals
WHEN old.fold_text IS NOT new.fold_text OR old.fold_author IS NOT new.fold_author
    OR old.fold_headline IS NOT new.fold_headline OR old.published_ns IS NOT new.published_ns
    OR old.status IS NOT new.status OR old.market_only IS NOT new.market_only BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT value FROM (SELECT old.published_ns AS value
        UNION SELECT new.published_ns) WHERE value NOT IN (SELECT published_ns FROM signal_text_pending);
END;

CREATE TRIGGER signals_taken_down BEFORE INSERT ON signals
WHEN EXISTS (SELECT 1 FROM signal_takedowns WHERE id = NEW.id) BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TABLE unsubscribe_tokens (
    hash       BLOB    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ns INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX unsubscribe_tokens_account ON unsubscribe_tokens (account_id);

CREATE TABLE usage (
    account_id       INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    minute_start     INTEGER NOT NULL,
    minute_used      INTEGER NOT NULL,
    day_start        INTEGER NOT NULL,
    day_used         INTEGER NOT NULL,
    search_day_start INTEGER NOT NULL,
    searches_used    INTEGER NOT NULL
);
