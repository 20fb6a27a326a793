package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"signals/internal/store/sqlstore"
)

// substrings is PostgreSQL's substring index (migration 0016): pg_trgm's
// GIN index over signal_text, one row for the public signals of one time.
var substrings = &sqlstore.Substrings{
	// An array, so that the planner looks the few signals up rather than
	// checking every signal's text; by their row addresses, which the
	// listing's index gives, so that each is one read of its page rather
	// than a walk down the primary key as well (one statement, one
	// snapshot: the addresses stay those of the rows it sees).
	Among: `ctid = ANY (ARRAY(SELECT ctid %s))`,
	// Every trigram of a passage of common words is common: GIN names
	// most rows, and each is read again.
	Unordered: true,
	Match:     match,
}

// match names the times whose signal_text may hold the folded substring.
// pg_trgm takes its trigrams from runs of letters and digits; a substring
// without a run of three is asked as the rows holding each of its
// characters.
//
// The substring reaches the index through a subquery of its own, which the
// planner cannot see into: every substring then has the same plan, a
// bitmap scan of the index (all it has to choose from), which the server
// plans once per connection. Seen, the pattern would have the statement
// planned anew at every run, for more time than a rare substring's whole
// reading.
func match(_ context.Context, _ sqlstore.Reader, folded string) (string, []any, bool, error) {
	const candidates = `published_ns = ANY (ARRAY(SELECT at_ns FROM signal_text WHERE %s (SELECT ?::%s)))`
	run := 0
	for _, r := range folded {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			run++
		} else {
			run = 0
		}
		if run == 3 {
			return fmt.Sprintf(candidates, `folded LIKE`, `text`), []any{"%" + likeEscaper.Replace(folded) + "%"}, true, nil
		}
	}
	chars := strings.Split(folded, "")
	slices.Sort(chars)
	chars = slices.Compact(chars)
	return fmt.Sprintf(candidates, `string_to_array(folded, NULL) @>`, `text[]`), []any{chars}, true, nil
}

// likeEscaper makes LIKE match s literally (backslash is its escape).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// indexBatch is how many pending times one statement indexes.
const indexBatch = 500

// indexStatement indexes a batch of pending times, newest first: it takes
// them from the queue (skipping those another process is indexing, or a
// change not committed yet has named), writes the public signals of each
// time as one row, drops the rows of times left without any, and returns
// how many times it took.
const indexStatement = `WITH batch AS (
	DELETE FROM signal_text_pending WHERE published_ns IN (SELECT published_ns FROM signal_text_pending
		ORDER BY published_ns DESC LIMIT $1 FOR UPDATE SKIP LOCKED)
	RETURNING published_ns
), docs AS (
	SELECT published_ns, string_agg(fold_text || U&'\E000\E000' || fold_author || U&'\E000\E000'
		|| fold_headline || U&'\E000\E000', '') AS folded
	FROM signals WHERE published_ns IN (SELECT published_ns FROM batch) AND ` + publicOnly + `
	GROUP BY published_ns
), gone AS (
	DELETE FROM signal_text WHERE at_ns IN (SELECT published_ns FROM batch EXCEPT SELECT published_ns FROM docs)
), put AS (
	INSERT INTO signal_text (at_ns, folded) SELECT published_ns, folded FROM docs
	ON CONFLICT (at_ns) DO UPDATE SET folded = excluded.folded
)
SELECT count(*) FROM batch`

// IndexSubstrings indexes the signals of every pending time and returns
// how many times it indexed. Every serving process runs it in the
// background; they share the queue.
func (db *DB) IndexSubstrings(ctx context.Context) (int, error) {
	total := 0
	for {
		var n int
		if err := db.pool.QueryRow(ctx, indexStatement, indexBatch).Scan(&n); err != nil {
			return total, sqlstore.Wrap("index substrings", err)
		}
		total += n
		if n == 0 {
			break
		}
	}
	if total > 0 {
		// Merge what GIN's pending lists took in, which every listing
		// would otherwise read, as vacuum would later.
		if _, err := db.pool.Exec(ctx, `SELECT gin_clean_pending_list('signal_text_trigrams'::regclass),
			gin_clean_pending_list('signal_text_chars'::regclass)`); err != nil {
			return total, sqlstore.Wrap("index substrings", err)
		}
	}
	if total >= indexBatch {
		if err := db.settleQueue(ctx); err != nil {
			return total, sqlstore.Wrap("index substrings", err)
		}
	}
	return total, nil
}

// settleQueue tells the planner that a large queue is now empty, as
// autovacuum would later (or never, where it is off). Without it the
// planner keeps the queue's statistics from when it was full, or with none
// reckons its rows from its pages, which the deleted rows still fill: it
// takes the queue for most of the archive, and a listing by a rare
// substring walks every signal to check the pending ones directly
// (docs/benchmarks.md). VACUUM gives the emptied pages back and records the
// queue empty; the index table's statistics are refreshed as well.
func (db *DB) settleQueue(ctx context.Context) error {
	// VACUUM runs outside a transaction, one statement at a time.
	if _, err := db.pool.Exec(ctx, `VACUUM (ANALYZE) signal_text_pending`); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `ANALYZE signal_text`)
	return err
}
