package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"signals/internal/store/sqlstore"
)

// columnEnd follows each column in signal_trigrams (migration 0008), so
// that every occurrence of one or two characters begins a trigram.
const columnEnd = "\uE000\uE000"

// shortTerms bounds how many trigrams beginning with one or two characters
// are asked of the index: more, and the substring is common enough that
// walking the listing finds a page sooner.
const shortTerms = 64

// shortCandidates is how many candidates one or two characters may name.
const shortCandidates = 1500

// trigramCandidates asks the trigram index for the signals that may hold
// the folded substring, and adds the signals not indexed yet; the listing
// checks each for the whole substring. It names every candidate of the
// listing at once.
func trigramCandidates(ctx context.Context, read sqlstore.Reader, folded string, _ *sqlstore.Part, limit int) ([]string, *sqlstore.Bound, bool, error) {
	keys, ok, err := candidates(ctx, read, folded, limit)
	return keys, nil, ok, err
}

// candidates returns the candidates of the whole listing, at most limit
// of them; ok is false when there are more, or the index cannot narrow
// the substring down.
func candidates(ctx context.Context, read sqlstore.Reader, folded string, limit int) ([]string, bool, error) {
	table, match, ok, err := trigramQuery(ctx, read, folded)
	if err != nil || !ok {
		return nil, false, err
	}
	if utf8.RuneCountInString(folded) < 3 {
		// The trigrams beginning with one or two characters name many
		// signals that hold them only when they are common, which the
		// walk serves sooner.
		limit = min(limit, shortCandidates)
	}
	if match == "" {
		// No indexed signal holds the substring.
		rows, err := read.QueryContext(ctx, `SELECT pk FROM signal_trigrams_pending LIMIT ?`, limit+1)
		if err != nil {
			return nil, false, err
		}
		return sqlstore.ReadKeys(rows, limit)
	}
	rows, err := read.QueryContext(ctx, `SELECT rowid FROM `+table+` WHERE `+table+` MATCH ?
		UNION ALL SELECT pk FROM signal_trigrams_pending LIMIT ?`, match, limit+1)
	if err != nil {
		return nil, false, err
	}
	return sqlstore.ReadKeys(rows, limit)
}

// trigramQuery returns the index and the full-text query that find the
// signals that may hold the folded substring, "" when no indexed trigram
// begins with a substring of one or two characters, and ok false when the
// index cannot narrow it down.
//
// A substring of five characters or more is asked of signal_fivegrams as
// every third of its runs of five (and its last), all within the span the
// substring covers: the signals that hold it, and rarely a few more. Runs
// of five that most signals hold are far fewer than such trigrams, so
// that common words in an uncommon order name few candidates. Three or
// four characters are asked of signal_trigrams as their trigrams.
func trigramQuery(ctx context.Context, read sqlstore.Reader, folded string) (table, match string, ok bool, err error) {
	runes := []rune(folded)
	switch n := len(runes); {
	case n >= 5:
		return "signal_fivegrams", spanQuery([]rune(fiveGrams(folded))), true, nil
	case n >= 3:
		terms := []string{phrase(string(runes[:3]))}
		if n == 4 && string(runes[1:]) != string(runes[:3]) {
			terms = append(terms, phrase(string(runes[1:])))
		}
		return "signal_trigrams", strings.Join(terms, " AND "), true, nil
	}
	last := runes[len(runes)-1]
	if last == unicode.MaxRune {
		return "", "", false, nil
	}
	// The terms beginning with folded sort from folded up to, not
	// including, folded with its last character advanced by one.
	next := string(runes[:len(runes)-1]) + string(last+1)
	rows, err := read.QueryContext(ctx, `SELECT term FROM signal_trigram_terms WHERE term >= ? AND term < ? LIMIT ?`,
		folded, next, shortTerms+1)
	if err != nil {
		return "", "", false, err
	}
	terms, ok, err := sqlstore.ReadKeys(rows, shortTerms)
	if err != nil || !ok {
		return "", "", false, err
	}
	for i, t := range terms {
		terms[i] = phrase(t)
	}
	return "signal_trigrams", strings.Join(terms, " OR "), true, nil
}

// spanQuery asks for every third trigram of runes (and the last), in
// order or not, within the span they cover in runes. Every part of the
// substring is in one of them: a rare run of five, such as a changed
// letter makes, is never left out.
func spanQuery(runes []rune) string {
	n := len(runes)
	var at []int
	for i := 0; ; i += 3 {
		at = append(at, min(i, n-3))
		if i >= n-3 {
			break
		}
	}
	var terms []string
	for _, i := range at {
		if t := phrase(string(runes[i : i+3])); !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	if len(terms) == 1 {
		return terms[0]
	}
	// NEAR's distance counts the trigrams between the first and the last,
	// which begin n-3 characters apart.
	return fmt.Sprintf("NEAR(%s, %d)", strings.Join(terms, " "), n-4)
}

// fiveGrams writes s with one character per run of three of its
// characters: a hash of the run into plane 15's private-use characters.
// The trigrams of the result are then the runs of five characters of s;
// two runs may share a character, which only widens the candidates.
func fiveGrams(s string) string {
	var b strings.Builder
	eachTrigram(s, func(run string) {
		h := uint32(2166136261) // FNV-1a
		for i := 0; i < len(run); i++ {
			h = (h ^ uint32(run[i])) * 16777619
		}
		b.WriteRune(rune(0xF0000 + h%65534))
	})
	return b.String()
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

// IndexTrigrams adds every pending signal to the substring indexes
// (migrations 0007 and 0008), in short transactions, and returns how many
// it indexed. The
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
	// A signal indexed before and changed since leaves its old entries
	// first.
	for _, table := range []string{"signal_trigrams", "signal_fivegrams"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE rowid IN (`+batch+`)`, trigramBatch); err != nil {
			return 0, sqlstore.Wrap("index trigrams", err)
		}
	}
	pending, err := readPending(ctx, tx, batch)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	fresh, err := db.terms.add(ctx, tx, pending)
	if err != nil {
		return 0, sqlstore.Wrap("index trigrams", err)
	}
	for _, p := range pending {
		if _, err := tx.ExecContext(ctx, `INSERT INTO signal_trigrams (rowid, fold_text, fold_author, fold_headline)
			VALUES (?, ?, ?, ?)`, p.pk, p.cols[0]+columnEnd, p.cols[1]+columnEnd, p.cols[2]+columnEnd); err != nil {
			return 0, sqlstore.Wrap("index trigrams", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO signal_fivegrams (rowid, fold_text, fold_author, fold_headline)
			VALUES (?, ?, ?, ?)`, p.pk, fiveGrams(p.cols[0]), fiveGrams(p.cols[1]), fiveGrams(p.cols[2])); err != nil {
			return 0, sqlstore.Wrap("index trigrams", err)
		}
	}
	n := int64(len(pending))
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

// pendingSignal is one signal to index: its key and folded text, author
// and headline.
type pendingSignal struct {
	pk   int64
	cols [3]string
}

// readPending reads the signals that batch selects.
func readPending(ctx context.Context, tx *sql.Tx, batch string) ([]pendingSignal, error) {
	rows, err := tx.QueryContext(ctx, `SELECT pk, fold_text, fold_author, fold_headline
		FROM signals WHERE pk IN (`+batch+`)`, trigramBatch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pendingSignal
	for rows.Next() {
		var p pendingSignal
		if err := rows.Scan(&p.pk, &p.cols[0], &p.cols[1], &p.cols[2]); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// trigramTerms is the set of trigrams signal_trigram_terms lists, read on
// first use, so that indexing a signal writes only the terms new to it.
type trigramTerms struct {
	mu   sync.Mutex
	read bool
	set  map[string]struct{}
}

// add lists, in tx, the trigrams of the pending signals (each column with
// columnEnd after it, as indexed) that are not listed yet, and returns them
// for commit.
func (t *trigramTerms) add(ctx context.Context, tx *sql.Tx, pending []pendingSignal) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.read {
		set, err := readTerms(ctx, tx)
		if err != nil {
			return nil, err
		}
		t.set, t.read = set, true
	}
	seen := map[string]struct{}{}
	var fresh []string
	for _, p := range pending {
		for _, col := range p.cols {
			eachTrigram(col+columnEnd, func(term string) {
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
