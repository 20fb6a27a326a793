-- The substring index (q): pg_trgm's GIN index over the folded text,
-- author and headline, which LIKE '%…%' uses and rechecks, and the set of
-- characters of each row for substrings pg_trgm takes no trigram from.
--
-- A row of signal_text holds every public signal published at one time
-- (at_ns), each column followed by two U+E000 (a private-use character
-- that no substring matches across), so that a listing joins the times the
-- index names to their signals, newest first.
--
-- The indexer merges GIN's pending lists of both indexes after each pass
-- (gin_clean_pending_list), which every listing would read otherwise.
--
-- Imports only name the times of the signals they change in
-- signal_text_pending (the triggers below); the serving processes index
-- them in the background, and a listing checks the signals of pending
-- times directly. This migration fills the index at once, which is
-- quicker than queueing every signal: pg_trgm builds a GIN index from
-- sorted keys.
--
-- Before this migration, home-made indexes (migrations 0009_trigrams,
-- 0010_trigram_table, 0012_trigram_windows and 0013_gram_keys) served q;
-- an upgraded database drops them here.
-- retires: 0009_trigrams 0010_trigram_table 0012_trigram_windows 0013_gram_keys 0014_runs_of_eight
DROP TRIGGER IF EXISTS signal_trigrams_inserted ON signals;
DROP TRIGGER IF EXISTS signal_trigrams_updated ON signals;
DROP FUNCTION IF EXISTS signal_trigrams_inserted(), signal_trigrams_updated();
DROP TABLE IF EXISTS signal_grams, signal_trigrams, signal_trigrams_pending;
DROP INDEX IF EXISTS signals_trigrams;

CREATE TABLE signal_text (
    at_ns  BIGINT PRIMARY KEY,
    folded TEXT COLLATE "C" NOT NULL
);

CREATE TABLE signal_text_pending (
    published_ns BIGINT PRIMARY KEY
);

-- A time is named with a no-op update when it is pending already, which
-- locks it: an indexer building it skips it until the change that named it
-- has committed, and so never misses that change.
CREATE FUNCTION signal_text_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO signal_text_pending (published_ns) SELECT DISTINCT published_ns FROM new_signals
            ON CONFLICT (published_ns) DO UPDATE SET published_ns = excluded.published_ns;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO signal_text_pending (published_ns) SELECT DISTINCT published_ns FROM old_signals
            ON CONFLICT (published_ns) DO UPDATE SET published_ns = excluded.published_ns;
    ELSE
        INSERT INTO signal_text_pending (published_ns)
            SELECT DISTINCT at.ns FROM new_signals n JOIN old_signals o USING (id),
                LATERAL (VALUES (o.published_ns), (n.published_ns)) AS at (ns)
            WHERE (n.fold_text, n.fold_author, n.fold_headline, n.published_ns, n.status, n.market_only)
                IS DISTINCT FROM (o.fold_text, o.fold_author, o.fold_headline, o.published_ns, o.status, o.market_only)
            ON CONFLICT (published_ns) DO UPDATE SET published_ns = excluded.published_ns;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER signal_text_inserted AFTER INSERT ON signals
    REFERENCING NEW TABLE AS new_signals
    FOR EACH STATEMENT EXECUTE FUNCTION signal_text_queue();
CREATE TRIGGER signal_text_updated AFTER UPDATE ON signals
    REFERENCING OLD TABLE AS old_signals NEW TABLE AS new_signals
    FOR EACH STATEMENT EXECUTE FUNCTION signal_text_queue();
CREATE TRIGGER signal_text_deleted AFTER DELETE ON signals
    REFERENCING OLD TABLE AS old_signals
    FOR EACH STATEMENT EXECUTE FUNCTION signal_text_queue();

INSERT INTO signal_text (at_ns, folded)
    SELECT published_ns, string_agg(fold_text || U&'\E000\E000' || fold_author || U&'\E000\E000'
        || fold_headline || U&'\E000\E000', '')
    FROM signals WHERE status = 'public' AND NOT market_only
    GROUP BY published_ns;

-- pg_trgm is installed once per server, in the first schema of the search
-- path unless it is there already (perhaps in another schema, which need
-- not be on the search path: its operator class is named with its schema).
DO $$
DECLARE
    ext_schema name;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE EXTENSION pg_trgm;
    END IF;
    SELECT n.nspname INTO ext_schema
        FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX signal_text_trigrams ON signal_text USING gin (folded %I.gin_trgm_ops)',
        ext_schema);
END
$$;

-- pg_trgm takes trigrams from runs of letters and digits only. A
-- substring without a run of three (one or two characters, punctuation)
-- is looked up by its characters instead: each row's set of characters,
-- under a GIN index of its own.
CREATE INDEX signal_text_chars ON signal_text USING gin (string_to_array(folded, NULL));
