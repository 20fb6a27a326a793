-- The editor's desk: who may use it, takedowns, the decisions an import
-- leaves alone, and the record of every decision.

-- reader or editor; an operator makes editors (signals accounts set-role).
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'reader';

-- A taken-down signal: gone from every table that serves it, its id kept
-- here with the signal as it was (JSON), so that a re-import does not bring
-- it back and an editor can restore it.
CREATE TABLE signal_takedowns (
    id         TEXT COLLATE "C" PRIMARY KEY,
    reason     TEXT   NOT NULL,
    deleted_ns BIGINT NOT NULL,
    deleted_by TEXT   NOT NULL,
    signal     TEXT   NOT NULL
);

-- The fields of a signal an editor decided (status, market_only, tag,
-- country, language): an import does not change them unless told to.
CREATE TABLE signal_decisions (
    id    TEXT COLLATE "C" NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (id, field)
);

-- Every decision, in order, never changed: who (an editor's email, or
-- "operator" for the command line), when, which signal, the fields before
-- and after (JSON objects) and why.
CREATE TABLE desk_log (
    seq       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ns     BIGINT NOT NULL,
    editor    TEXT   NOT NULL,
    signal_id TEXT COLLATE "C" NOT NULL,
    action    TEXT   NOT NULL,
    before    TEXT   NOT NULL,
    after     TEXT   NOT NULL,
    reason    TEXT   NOT NULL
);
CREATE INDEX desk_log_signal ON desk_log (signal_id, seq);
CREATE INDEX desk_log_editor ON desk_log (editor, seq);
CREATE FUNCTION desk_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'desk_log is append-only';
END $$;
CREATE TRIGGER desk_log_append_only BEFORE UPDATE OR DELETE ON desk_log
    FOR EACH ROW EXECUTE FUNCTION desk_log_append_only();

-- An import does not bring a taken-down signal back: its row is skipped.
CREATE FUNCTION signals_taken_down() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM signal_takedowns WHERE id = NEW.id) THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER signals_taken_down BEFORE INSERT ON signals
    FOR EACH ROW EXECUTE FUNCTION signals_taken_down();
