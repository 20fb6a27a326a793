-- The trigram index moves off the signals table, so that an import no longer
-- waits for it: indexing every trigram of a long text as it is written made
-- imports several times slower. Imports (and any change of a folded column)
-- queue the signal in signal_trigrams_pending; the serving process indexes
-- the queue in the background (DB.IndexTrigrams), and a substring search
-- counts every queued signal as a candidate, so that a signal is found
-- before it is indexed too, only more slowly.
DROP INDEX signals_trigrams;

-- fold is the three folded columns joined, with the characters that
-- pg_trgm takes for word boundaries (spaces, ASCII punctuation) replaced by
-- one letter, so that its trigrams span words as a substring does: "of the"
-- asks for "f t", not for the words "of" and "the" anywhere. chars are the
-- distinct characters of the joined columns, for a substring too short to
-- hold a trigram.
CREATE TABLE signal_trigrams (
    id    TEXT COLLATE "C" PRIMARY KEY REFERENCES signals (id) ON DELETE CASCADE,
    fold  TEXT COLLATE "C" NOT NULL,
    chars TEXT[] COLLATE "C" NOT NULL
);
ALTER TABLE signal_trigrams
    ALTER COLUMN fold SET STATISTICS 0,
    ALTER COLUMN chars SET STATISTICS 0;

-- The operator class is named with pg_trgm's schema, as in 0009.
DO $$
DECLARE
    ext_schema name;
BEGIN
    SELECT n.nspname INTO ext_schema
        FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX signal_trigrams_fold ON signal_trigrams USING gin (fold %I.gin_trgm_ops)',
        ext_schema);
END
$$;
CREATE INDEX signal_trigrams_chars ON signal_trigrams USING gin (chars);

-- The signals not indexed yet, or changed since. Writing a queued id again
-- updates it, which locks it until the writer commits, so that an indexer
-- never takes it off the queue having read the text before the change.
CREATE TABLE signal_trigrams_pending (
    id TEXT COLLATE "C" PRIMARY KEY
);

CREATE FUNCTION signal_trigrams_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO signal_trigrams_pending (id) SELECT id FROM new_signals
        ON CONFLICT (id) DO UPDATE SET id = excluded.id;
    RETURN NULL;
END
$$;

CREATE FUNCTION signal_trigrams_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO signal_trigrams_pending (id)
        SELECT n.id FROM new_signals n JOIN old_signals o USING (id)
        WHERE (n.fold_text, n.fold_author, n.fold_headline)
            IS DISTINCT FROM (o.fold_text, o.fold_author, o.fold_headline)
        ON CONFLICT (id) DO UPDATE SET id = excluded.id;
    RETURN NULL;
END
$$;

-- Once per statement, so that an import batch queues its signals at once.
CREATE TRIGGER signal_trigrams_inserted AFTER INSERT ON signals
    REFERENCING NEW TABLE AS new_signals
    FOR EACH STATEMENT EXECUTE FUNCTION signal_trigrams_inserted();
CREATE TRIGGER signal_trigrams_updated AFTER UPDATE ON signals
    REFERENCING OLD TABLE AS old_signals NEW TABLE AS new_signals
    FOR EACH STATEMENT EXECUTE FUNCTION signal_trigrams_updated();

INSERT INTO signal_trigrams_pending (id) SELECT id FROM signals;
