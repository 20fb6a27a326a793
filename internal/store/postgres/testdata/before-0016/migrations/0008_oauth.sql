-- OAuth for MCP: registered clients, authorization codes, grants (one per
-- consent: a connection) and their tokens. Secrets (codes, access and
-- refresh tokens) are kept as SHA-256 hashes only. Deleting an account
-- deletes its codes and grants, and a grant's tokens go with it.

-- Registered public clients; redirect URIs one per line.
CREATE TABLE oauth_clients (
    id            TEXT    PRIMARY KEY,
    name          TEXT    NOT NULL,
    redirect_uris TEXT    NOT NULL,
    created_ns    BIGINT  NOT NULL
);

-- Authorization codes: used_ns and grant_id are set by the one exchange
-- that redeems a code, so that a second one finds the grant to revoke.
CREATE TABLE oauth_codes (
    hash         BYTEA   PRIMARY KEY,
    client_id    TEXT    NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    account_id   BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    redirect_uri TEXT    NOT NULL,
    challenge    TEXT    NOT NULL,
    scopes       TEXT    NOT NULL,
    resource     TEXT    NOT NULL,
    consented_ns BIGINT  NOT NULL,
    expires_ns   BIGINT  NOT NULL,
    used_ns      BIGINT,
    grant_id     TEXT
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_ns);

-- Grants: scopes space-separated; expires_ns is consent + 30 days.
CREATE TABLE oauth_grants (
    id           TEXT    PRIMARY KEY,
    account_id   BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    client_id    TEXT    NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
    scopes       TEXT    NOT NULL,
    resource     TEXT    NOT NULL,
    created_ns   BIGINT  NOT NULL,
    expires_ns   BIGINT  NOT NULL,
    last_used_ns BIGINT,
    revoked_ns   BIGINT
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);
CREATE INDEX oauth_grants_expiry ON oauth_grants (expires_ns);

-- Access and refresh tokens; a used refresh token stays (used_ns set) until
-- its grant ends, so that presenting it again is recognised.
CREATE TABLE oauth_tokens (
    hash       BYTEA   PRIMARY KEY,
    grant_id   TEXT    NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    expires_ns BIGINT  NOT NULL,
    used_ns    BIGINT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
