-- A trigram index over the folded text, author and headline, so that a
-- substring (q) of three characters or more is found without reading every
-- signal: LIKE '%…%' on these columns uses it, and rechecks each row.
--
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
    EXECUTE format('CREATE INDEX signals_trigrams ON signals USING gin ('
        'fold_text %1$I.gin_trgm_ops, fold_author %1$I.gin_trgm_ops, fold_headline %1$I.gin_trgm_ops)',
        ext_schema);
END
$$;
