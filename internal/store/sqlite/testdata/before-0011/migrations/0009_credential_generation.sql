-- A counter that grows whenever what a key authenticates as may have
-- changed: a key revoked or deleted, an account changed or deleted. The
-- server keeps the keys it has looked up while the counter stays where it
-- was when it looked them up, and reads it with the signals' generation in
-- one query per request, so that a revocation by any process takes effect
-- on the next request. Recording a key's last use does not move it.
CREATE TABLE credential_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO credential_generation (id, n) VALUES (1, 0);

CREATE TRIGGER api_keys_credentials_update AFTER UPDATE OF hash, account_id, revoked_ns ON api_keys BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER api_keys_credentials_delete AFTER DELETE ON api_keys BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER accounts_credentials_update AFTER UPDATE ON accounts BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER accounts_credentials_delete AFTER DELETE ON accounts BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
END;
