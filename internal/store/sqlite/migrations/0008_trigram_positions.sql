-- The trigram index keeps where each trigram occurs (detail = full), so
-- that a substring of three characters or more is asked as a phrase of its
-- trigrams and the index names the signals that hold it exactly, instead
-- of every signal that holds its trigrams somewhere (0007). That made
-- substrings of common words in an order no text uses, or a common passage
-- with one letter changed, check thousands of signals one by one.
--
-- Each column is indexed with two U+E000 (a private-use character) after
-- it, so that every occurrence of one or two characters begins a trigram,
-- even at the end of a column and in a column shorter than three
-- characters. signal_trigram_terms lists the trigrams the index holds, so
-- that a q of one or two characters is asked as the trigrams beginning
-- with it. A term stays listed when its last signal goes: the list is a
-- superset, and asking the index for such a term finds nothing.
--
-- The index is filled again in the background, as after an import.
DROP TABLE signal_trigrams;

CREATE VIRTUAL TABLE signal_trigrams USING fts5(
    fold_text, fold_author, fold_headline,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = full
);

CREATE TABLE signal_trigram_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;

INSERT INTO signal_trigrams_pending (pk)
    SELECT pk FROM signals WHERE pk NOT IN (SELECT pk FROM signal_trigrams_pending);
