-- The substring index (q): FTS5's trigram tokenizer over the folded text,
-- author and headline, the index's own way of finding substrings.
--
-- A document holds every signal published at one time, and its rowid is
-- that time negated (-published_ns), so that reading the index in rowid
-- order reads the listing order, newest first: a listing stops as soon as
-- its page is full, however common the substring. (FTS5 reads a term's
-- list lazily forwards, but loads it whole to read it backwards.) Each column ends with two U+E000
-- (a private-use character), so that every occurrence of one or two
-- characters begins a trigram, which the vocabulary (signal_text_terms)
-- lists. The columns hold folded text already (case_sensitive 1), and the
-- table keeps no copy of it (content '').
--
-- It holds the public signals alone, which are all a listing shows.
--
-- Tokenizing costs far more than writing a signal, so imports only name
-- the times of the signals they change in signal_text_pending; the serving
-- process indexes them in the background, and a listing checks the
-- signals of pending times directly.
--
-- Before this migration, two home-made indexes (0007_trigrams and
-- 0008_substring_index) served q; an upgraded database drops them here.
-- retires: 0007_trigrams 0008_trigram_positions 0008_substring_index
DROP TRIGGER IF EXISTS signals_trigrams_insert;
DROP TRIGGER IF EXISTS signals_trigrams_update;
DROP TRIGGER IF EXISTS signals_trigrams_delete;
DROP TABLE IF EXISTS signal_trigrams;
DROP TABLE IF EXISTS signal_fivegrams;
DROP TABLE IF EXISTS signal_trigram_terms;
DROP TABLE IF EXISTS signal_trigrams_pending;

CREATE VIRTUAL TABLE signal_text USING fts5(
    folded, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = full
);
CREATE VIRTUAL TABLE signal_text_terms USING fts5vocab(signal_text, row);

CREATE TABLE signal_text_pending (published_ns INTEGER PRIMARY KEY);

-- The triggers test for a pending row rather than INSERT OR IGNORE, which
-- an import's upsert would override.
CREATE TRIGGER signal_text_insert AFTER INSERT ON signals BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT new.published_ns
        WHERE NOT EXISTS (SELECT 1 FROM signal_text_pending WHERE published_ns = new.published_ns);
END;
CREATE TRIGGER signal_text_update
AFTER UPDATE OF fold_text, fold_author, fold_headline, published_ns, status, market_only ON signals
WHEN old.fold_text IS NOT new.fold_text OR old.fold_author IS NOT new.fold_author
    OR old.fold_headline IS NOT new.fold_headline OR old.published_ns IS NOT new.published_ns
    OR old.status IS NOT new.status OR old.market_only IS NOT new.market_only BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT value FROM (SELECT old.published_ns AS value
        UNION SELECT new.published_ns) WHERE value NOT IN (SELECT published_ns FROM signal_text_pending);
END;
CREATE TRIGGER signal_text_delete AFTER DELETE ON signals BEGIN
    INSERT INTO signal_text_pending (published_ns) SELECT old.published_ns
        WHERE NOT EXISTS (SELECT 1 FROM signal_text_pending WHERE published_ns = old.published_ns);
END;

INSERT INTO signal_text_pending (published_ns) SELECT DISTINCT published_ns FROM signals;
