-- Two indexes find the candidates of a substring (q), so that common
-- trigrams no longer make thousands of candidates (0007 asked for three
-- trigrams of q, which common words in an order no text uses, or a common
-- passage with one letter changed, all hold):
--
-- signal_fivegrams holds each folded column written with one character per
-- run of three characters (a hash of them into the 65,534 characters from
-- U+F0000; the index is only ever asked for a q written the same way), so
-- that its trigrams are runs of five characters of the text, with their
-- positions.
-- A q of five characters or more is asked as its runs of five within the
-- span they cover in q.
--
-- signal_trigrams holds the trigrams of each column, with two U+E000 (a
-- private-use character) after it, so that every occurrence of one or two
-- characters begins a trigram, even at the end of a column and in a column
-- shorter than three characters. signal_trigram_terms lists the trigrams it
-- holds, so that one or two characters are asked as the trigrams beginning
-- with them; three or four as their trigrams. A term stays listed when its
-- last signal goes: the list is a superset, and asking for such a term
-- finds nothing.
--
-- The listing checks each candidate for the whole substring. Both indexes
-- are filled again in the background, as after an import.
DROP TABLE signal_trigrams;

CREATE VIRTUAL TABLE signal_trigrams USING fts5(
    fold_text, fold_author, fold_headline,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = none
);

CREATE VIRTUAL TABLE signal_fivegrams USING fts5(
    fold_text, fold_author, fold_headline,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = full
);

CREATE TABLE signal_trigram_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;

DROP TRIGGER signals_trigrams_delete;
CREATE TRIGGER signals_trigrams_delete AFTER DELETE ON signals BEGIN
    DELETE FROM signal_trigrams WHERE rowid = old.pk;
    DELETE FROM signal_fivegrams WHERE rowid = old.pk;
    DELETE FROM signal_trigrams_pending WHERE pk = old.pk;
END;

INSERT INTO signal_trigrams_pending (pk)
    SELECT pk FROM signals WHERE pk NOT IN (SELECT pk FROM signal_trigrams_pending);
