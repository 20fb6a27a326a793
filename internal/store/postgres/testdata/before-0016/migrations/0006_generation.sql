-- A number that grows whenever signals are imported or change status, so
-- that work which depends on the set of public signals (embedding them for
-- search) can tell cheaply whether anything changed.
CREATE TABLE signal_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT  NOT NULL
);
INSERT INTO signal_generation (id, n) VALUES (1, 0);
