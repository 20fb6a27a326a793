-- A trigram index over the folded text, author and headline, so that a
-- substring (q) of three characters or more is found without reading every
-- signal. The columns hold folded text already, so matching is exact
-- (case_sensitive 1); the table keeps no copy of the text (content='').
--
-- Tokenizing a signal's thousand trigrams costs far more than writing the
-- signal, so imports do not do it: they only mark the signal pending, and
-- the serving process indexes pending signals in the background. Until it
-- has, queries treat pending signals as candidates and check them directly.
-- (The triggers test for a pending row rather than INSERT OR IGNORE, which
-- an import's upsert would override.)
--
-- Queries ask for three of a substring's trigrams and check each candidate
-- for the whole substring, so the index needs no positions (detail = none),
-- which makes it smaller and quicker to fill.
CREATE VIRTUAL TABLE signal_trigrams USING fts5(
    fold_text, fold_author, fold_headline,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = none
);

CREATE TABLE signal_trigrams_pending (pk INTEGER PRIMARY KEY);
INSERT INTO signal_trigrams_pending (pk) SELECT pk FROM signals;

CREATE TRIGGER signals_trigrams_insert AFTER INSERT ON signals BEGIN
    INSERT INTO signal_trigrams_pending (pk) SELECT new.pk
        WHERE NOT EXISTS (SELECT 1 FROM signal_trigrams_pending WHERE pk = new.pk);
END;
CREATE TRIGGER signals_trigrams_update AFTER UPDATE OF fold_text, fold_author, fold_headline ON signals
WHEN old.fold_text IS NOT new.fold_text OR old.fold_author IS NOT new.fold_author
    OR old.fold_headline IS NOT new.fold_headline BEGIN
    INSERT INTO signal_trigrams_pending (pk) SELECT new.pk
        WHERE NOT EXISTS (SELECT 1 FROM signal_trigrams_pending WHERE pk = new.pk);
END;
CREATE TRIGGER signals_trigrams_delete AFTER DELETE ON signals BEGIN
    DELETE FROM signal_trigrams WHERE rowid = old.pk;
    DELETE FROM signal_trigrams_pending WHERE pk = old.pk;
END;
