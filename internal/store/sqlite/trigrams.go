package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"signals/internal/store/sqlstore"
)

// columnEnd follows each column in the trigram index (migration 0008), so
// that every occurrence of one or two characters begins a trigram.
const columnEnd = "\uE000\uE000"

// shortTerms bounds how many trigrams beginning with one or two characters
// are asked of the index: more, and the substring is common enough that
// walking the listing finds a page sooner.
const shortTerms = 64

// trigramCandidates asks the trigram index for the signals that may hold
// the folded substring, and adds the signals not indexed yet; the listing
// checks each for the whole substring.
func trigramCandidates(ctx context.Context, read sqlstore.Reader, folded string, limit int) ([]string, bool, error) {
	match, ok, err := trigramQuery(ctx, read, folded)
	if err != nil || !ok {
		return nil, false, err
	}
	if match == "" {
		// No indexed signal holds the substring.
		rows, err := read.QueryContext(ctx, `SELECT pk FROM signal_trigrams_pending LIMIT ?`, limit+1)
		if err != nil {
			return nil, false, err
		}
		return sqlstore.ReadKeys(rows, limit)
	}
	rows, err := read.QueryContext(ctx, `SELECT rowid FROM signal_trigrams WHERE signal_trigrams MATCH ?
		UNION ALL SELECT pk FROM signal_trigrams_pending LIMIT ?`, match, limit+1)
	if err != nil {
		return nil, false, err
	}
	return sqlstore.ReadKeys(rows, limit)
}

// trigramQuery returns the full-text query that finds the signals that
// may hold the folded substring, "" when no indexed trigram begins with a
// substring of one or two characters, and ok false when the index cannot
// narrow it down.
//
// A substring of three characters or more is asked as every third of its
// trigrams (and its last), all within the span the substring covers: the
// signals holding it, and rarely a few more. The whole phrase of its
// trigrams would be exact, but reading where each common trigram occurs
// costs about twice as much, and measured slower than checking the few
// extra signals.
func trigramQuery(ctx context.Context, read sqlstore.Reader, folded string) (match string, ok bool, err error) {
	runes := []rune(folded)
	if n := len(runes); n >= 3 {
		var terms []string
		for i := 0; ; i += 3 {
			t := phrase(string(runes[min(i, n-3) : min(i, n-3)+3]))
			if !slices.Contains(terms, t) {
				terms = append(terms, t)
			}
			if i >= n-3 {
				break
			}
		}
		if len(terms) == 1 {
			return terms[0], true, nil
		}
		// NEAR's distance counts the trigrams between the first and the
		// last, which begin n-3 characters apart.
		return fmt.Sprintf("NEAR(%s, %d)", strings.Join(terms, " "), n-4), true, nil
	}
	last := runes[len(runes)-1]
	if last == unicode.MaxRune {
		return "", false, nil
	}
	// The terms beginning with folded sort from folded up to, not
	// including, folded with its last character advanced by one.
	next := string(runes[:len(runes)-1]) + string(last+1)
	rows, err := read.QueryContext(ctx, `SELECT term FROM signal_trigram_terms WHERE term >= ? AND term < ? LIMIT ?`,
		folded, next, shortTerms+1)
	if err != nil {
		return "", false, err
	}
	terms, ok, err := sqlstore.ReadKeys(rows, shortTerms)
	if err != nil || !ok {
		return "", false, err
	}
	for i, t := range terms {
		terms[i] = phrase(t)
	}
	return strings.Join(terms, " OR "), true, nil
}

// phrase quotes s as an FTS5 string, which the trigram tokenizer reads as
// the phrase of its trigrams.
func phrase(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// trigramBatch is how many pending signals one transaction indexes: about
// 10 ms of tokenizing, so that the quota reservations, which requests wait
// for, never wait long for the one writer.
const trigramBatch = 25

// IndexTrigrams adds every pending signal to the trigram index (migration
// 0007), in short transactions, and returns how many it indexed. The
// serving process runs it in the background after imports.
func (db *DB) IndexTrigrams(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := db.indexTrigramBatch(ctx)
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

func (db *DB) indexTrigramBatch(ctx context.Context) (int, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	defer tx.Rollback()
	const batch = `SELECT pk FROM signal_trigrams_pending ORDER BY pk LIMIT ?`
	// A signal indexed before and changed since leaves its old trigrams
	// first.
	if _, err := tx.ExecContext(ctx, `DELETE FROM signal_trigrams WHERE rowid IN (`+batch+`)`, trigramBatch); err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	fresh, err := db.terms.add(ctx, tx, batch)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO signal_trigrams (rowid, fold_text, fold_author, fold_headline)
		SELECT pk, fold_text || ?1, fold_author || ?1, fold_headline || ?1 FROM signals WHERE pk IN (`+batch+`)`,
		columnEnd, trigramBatch)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	n, _ := res.RowsAffected()
	done, err := tx.ExecContext(ctx, `DELETE FROM signal_trigrams_pending WHERE pk IN (`+batch+`)`, trigramBatch)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	db.terms.commit(fresh)
	// Pending rows of deleted signals are removed with them; count what
	// left the queue so that the caller stops when it is empty.
	if m, _ := done.RowsAffected(); m > n {
		n = m
	}
	return int(n), nil
}

// trigramTerms is the set of trigrams signal_trigram_terms lists, read on
// first use, so that indexing a signal writes only the terms new to it.
type trigramTerms struct {
	mu   sync.Mutex
	read bool
	set  map[string]struct{}
}

// add lists, in tx, the trigrams of the signals that batch selects that
// are not listed yet, and returns them for commit.
func (t *trigramTerms) add(ctx context.Context, tx *sql.Tx, batch string) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.read {
		set, err := readTerms(ctx, tx)
		if err != nil {
			return nil, err
		}
		t.set, t.read = set, true
	}
	rows, err := tx.QueryContext(ctx, `SELECT fold_text || ?1, fold_author || ?1, fold_headline || ?1
		FROM signals WHERE pk IN (`+batch+`)`, columnEnd, trigramBatch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]struct{}{}
	var fresh []string
	for rows.Next() {
		var cols [3]string
		if err := rows.Scan(&cols[0], &cols[1], &cols[2]); err != nil {
			return nil, err
		}
		for _, col := range cols {
			eachTrigram(col, func(term string) {
				if _, ok := t.set[term]; ok {
					return
				}
				if _, ok := seen[term]; ok {
					return
				}
				term = strings.Clone(term)
				seen[term] = struct{}{}
				fresh = append(fresh, term)
			})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, term := range fresh {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO signal_trigram_terms (term) VALUES (?)`, term); err != nil {
			return nil, err
		}
	}
	return fresh, nil
}

// commit records terms as listed, once the transaction that listed them
// has committed.
func (t *trigramTerms) commit(terms []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, term := range terms {
		t.set[term] = struct{}{}
	}
}

func readTerms(ctx context.Context, tx *sql.Tx) (map[string]struct{}, error) {
	rows, err := tx.QueryContext(ctx, `SELECT term FROM signal_trigram_terms`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := map[string]struct{}{}
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			return nil, err
		}
		set[term] = struct{}{}
	}
	return set, rows.Err()
}

// eachTrigram calls fn with every run of three characters of s, in order,
// as the trigram tokenizer reads them.
func eachTrigram(s string, fn func(string)) {
	var at [3]int // byte offsets of the last three characters begun
	n := 0
	for i := range s {
		if n >= 3 {
			fn(s[at[(n-3)%3]:i])
		}
		at[n%3] = i
		n++
	}
	if n >= 3 {
		fn(s[at[(n-3)%3]:])
	}
}
