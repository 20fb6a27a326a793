-- A counter that grows whenever what a key authenticates as may have
-- changed: a key revoked or deleted, an account changed or deleted. Each
-- replica keeps the keys it has looked up while the counter stays where it
-- was when it looked them up, and reads it with the signals' generation in
-- one query per request, so that a revocation through any replica or
-- command takes effect on the next request. Recording a key's last use
-- does not move it.
CREATE TABLE credential_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT  NOT NULL
);
INSERT INTO credential_generation (id, n) VALUES (1, 0);

CREATE FUNCTION bump_credential_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE credential_generation SET n = n + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_credentials AFTER UPDATE OF hash, account_id, revoked_ns OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION bump_credential_generation();
CREATE TRIGGER accounts_credentials AFTER UPDATE OR DELETE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION bump_credential_generation();
