-- The substring index becomes keys: each signal's row holds one integer
-- for each distinct character, pair, run of three and run of five
-- characters of its folded columns (a hash of the run, its length
-- included), and one for each of the stretches of time its publication
-- falls in, at four sizes (gramKeys). A substring asks for the keys of its
-- runs; a listing asks for them one stretch of time after another, newest
-- first, and stops when its page is full, so that it reads about as many
-- candidates as it needs whether the substring is common or rare. The
-- keys are exact: unlike pg_trgm's LIKE, they need no second look at the
-- text, so that a candidate costs one small row (toast_tuple_target keeps
-- the keys out of it).
--
-- Every signal is queued again; until it is indexed, a listing by
-- substring walks, as after 0010.
DROP TABLE signal_trigrams;
CREATE TABLE signal_grams (
    id           TEXT COLLATE "C" PRIMARY KEY REFERENCES signals (id) ON DELETE CASCADE,
    published_ns BIGINT  NOT NULL,
    keys         INTEGER[] NOT NULL
) WITH (toast_tuple_target = 128);
ALTER TABLE signal_grams
    ALTER COLUMN keys SET STORAGE EXTERNAL,
    ALTER COLUMN keys SET STATISTICS 0;
-- Inserted keys gather in the index's pending list and are merged into it
-- in bulk: a longer list merges fewer, larger batches, which makes the
-- indexing of many signals several times faster. The indexer merges it when
-- the queue is empty (gin_clean_pending_list), so that listings do not
-- read it for long.
CREATE INDEX signal_grams_keys ON signal_grams USING gin (keys) WITH (gin_pending_list_limit = 65536);
CREATE INDEX signal_grams_published ON signal_grams (published_ns);

-- A change of publication time moves a signal to other stretches of time:
-- it is queued as a change of its text is.
CREATE OR REPLACE FUNCTION signal_trigrams_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO signal_trigrams_pending (id)
        SELECT n.id FROM new_signals n JOIN old_signals o USING (id)
        WHERE (n.fold_text, n.fold_author, n.fold_headline, n.published_ns)
            IS DISTINCT FROM (o.fold_text, o.fold_author, o.fold_headline, o.published_ns)
        ON CONFLICT (id) DO UPDATE SET id = excluded.id;
    RETURN NULL;
END
$$;

INSERT INTO signal_trigrams_pending (id) SELECT id FROM signals ON CONFLICT (id) DO NOTHING;
