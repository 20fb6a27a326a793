-- Longer n-grams for substrings of five characters or more, whose
-- trigrams are all common ("the own", "hype of"): pg_trgm indexes only
-- trigrams, so grams holds the joined text of fold re-encoded, each
-- character standing for one window of three consecutive characters of
-- fold (trigramWindows), and the trigrams of grams are the 5-grams of fold.
-- Its characters are CJK ideographs, which pg_trgm counts as word
-- characters, so that it is one word and no trigram is dropped.
--
-- The table is emptied and every signal queued again: until the indexer
-- has written grams, every queued signal is a candidate, as after 0010.
-- grams has no default, so that an indexer of an older version fails to
-- write an entry without it and leaves the signal queued.
TRUNCATE signal_trigrams;
ALTER TABLE signal_trigrams ADD COLUMN grams TEXT COLLATE "C" NOT NULL;
ALTER TABLE signal_trigrams ALTER COLUMN grams SET STATISTICS 0;

-- The operator class is named with pg_trgm's schema, as in 0009.
DO $$
DECLARE
    ext_schema name;
BEGIN
    SELECT n.nspname INTO ext_schema
        FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX signal_trigrams_grams ON signal_trigrams USING gin (grams %I.gin_trgm_ops)',
        ext_schema);
END
$$;

INSERT INTO signal_trigrams_pending (id) SELECT id FROM signals ON CONFLICT (id) DO NOTHING;
