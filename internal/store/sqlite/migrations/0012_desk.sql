-- The editor's desk: who may use it, takedowns, the decisions an import
-- leaves alone, and the record of every decision.

-- reader or editor; an operator makes editors (signals accounts set-role).
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'reader';

-- A taken-down signal: gone from every table that serves it, its id kept
-- here with the signal as it was (JSON), so that a re-import does not bring
-- it back and an editor can restore it.
CREATE TABLE signal_takedowns (
    id         TEXT    PRIMARY KEY,
    reason     TEXT    NOT NULL,
    deleted_ns INTEGER NOT NULL,
    deleted_by TEXT    NOT NULL,
    signal     TEXT    NOT NULL
);

-- The fields of a signal an editor decided (status, market_only, tag,
-- country, language): an import does not change them unless told to.
CREATE TABLE signal_decisions (
    id    TEXT NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (id, field)
) WITHOUT ROWID;

-- Every decision, in order, never changed: who (an editor's email, or
-- "operator" for the command line), when, which signal, the fields before
-- and after (JSON objects) and why.
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
CREATE INDEX desk_log_signal ON desk_log (signal_id, seq);
CREATE INDEX desk_log_editor ON desk_log (editor, seq);
CREATE TRIGGER desk_log_no_update BEFORE UPDATE ON desk_log BEGIN
    SELECT RAISE(ABORT, 'desk_log is append-only');
END;
CREATE TRIGGER desk_log_no_delete BEFORE DELETE ON desk_log BEGIN
    SELECT RAISE(ABORT, 'desk_log is append-only');
END;

-- An import does not bring a taken-down signal back: its row is skipped.
CREATE TRIGGER signals_taken_down BEFORE INSERT ON signals
WHEN EXISTS (SELECT 1 FROM signal_takedowns WHERE id = NEW.id) BEGIN
    SELECT RAISE(IGNORE);
END;
