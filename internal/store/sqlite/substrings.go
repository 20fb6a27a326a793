package sqlite

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"signals/internal/store/sqlstore"
)

// substrings is SQLite's substring index (migration 0011): FTS5's trigram
// tokenizer, one document for the public signals of one time. Its rowid is
// the time negated, so that FTS5 reads the newest first in its own order:
// read backwards, it loads each term's whole list first.
var substrings = &sqlstore.Substrings{
	From:   `signal_text JOIN signals ON signals.published_ns = -signal_text.rowid`,
	Newest: `signal_text.rowid`,
	Among:  `pk IN (SELECT pk %s)`,
	Match:  match,
}

// shortTerms bounds how many trigrams beginning with one or two characters
// a listing asks the index for: with more, the substring is common enough
// that walking the listing finds a page sooner.
const shortTerms = 64

// match asks the index for a substring of three characters or more as the
// phrase of its trigrams. One or two characters are asked as the trigrams
// that begin with them, which the vocabulary lists: every occurrence
// begins one, as each column ends with two U+E000.
func match(ctx context.Context, read sqlstore.Reader, folded string) (string, []any, bool, error) {
	const cond = `signal_text MATCH ?`
	if utf8.RuneCountInString(folded) >= 3 {
		return cond, []any{phrase(folded)}, true, nil
	}
	runes := []rune(folded)
	last := runes[len(runes)-1]
	if last == unicode.MaxRune {
		return "", nil, false, nil
	}
	// The terms beginning with folded sort from folded up to, not
	// including, folded with its last character advanced by one.
	next := string(runes[:len(runes)-1]) + string(last+1)
	rows, err := read.QueryContext(ctx, `SELECT term FROM signal_text_terms WHERE term >= ? AND term < ? LIMIT ?`,
		folded, next, shortTerms+1)
	if err != nil {
		return "", nil, false, err
	}
	defer rows.Close()
	var terms []string
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			return "", nil, false, err
		}
		terms = append(terms, phrase(term))
	}
	if err := rows.Err(); err != nil || len(terms) > shortTerms {
		return "", nil, false, err
	}
	if len(terms) == 0 {
		return "", nil, true, nil
	}
	return cond, []any{strings.Join(terms, " OR ")}, true, nil
}

// phrase quotes s as an FTS5 string, which the trigram tokenizer reads as
// the phrase of its trigrams.
func phrase(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// indexBatch is how many pending times one transaction indexes: about
// 10 ms of tokenizing, so that the quota reservations, which requests wait
// for, never wait long for the one writer.
const indexBatch = 25

// IndexSubstrings indexes the signals of every pending time, newest first,
// in short transactions, and returns how many times it indexed. The serving
// process runs it in the background after imports.
func (db *DB) IndexSubstrings(ctx context.Context) (int, error) {
	const batch = `SELECT published_ns FROM signal_text_pending ORDER BY published_ns DESC LIMIT ?`
	steps := []string{
		`DELETE FROM signal_text WHERE rowid IN (SELECT -published_ns FROM (` + batch + `))`,
		`INSERT INTO signal_text (rowid, folded)
			SELECT -published_ns, group_concat(fold_text || char(57344, 57344) || fold_author || char(57344, 57344)
				|| fold_headline || char(57344, 57344), '')
			FROM signals WHERE published_ns IN (` + batch + `) AND ` + dialect.PublicOnly + `
			GROUP BY published_ns`,
		`DELETE FROM signal_text_pending WHERE published_ns IN (` + batch + `)`,
	}
	total := 0
	for {
		tx, err := db.write.BeginTx(ctx, nil)
		if err != nil {
			return total, sqlstore.Wrap("index substrings", err)
		}
		var n int64
		for _, step := range steps {
			res, err := tx.ExecContext(ctx, step, indexBatch)
			if err != nil {
				tx.Rollback()
				return total, sqlstore.Wrap("index substrings", err)
			}
			n, _ = res.RowsAffected()
		}
		if err := tx.Commit(); err != nil {
			return total, sqlstore.Wrap("index substrings", err)
		}
		total += int(n)
		if n == 0 {
			return total, nil
		}
	}
}
