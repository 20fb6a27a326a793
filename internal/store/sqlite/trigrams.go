package sqlite

import (
	"context"
	"slices"
	"strings"

	"signals/internal/store/sqlstore"
)

// trigramCandidates asks the index for the signals holding three of the
// trigrams of folded, its first, middle and last, and adds the signals not
// indexed yet. Each candidate is checked for the whole substring, so three
// trigrams narrow it down well enough, and reading every trigram's list
// would cost more than the check it saves.
func trigramCandidates(ctx context.Context, read sqlstore.Reader, folded string, limit int) ([]string, bool, error) {
	runes := []rune(folded)
	if len(runes) < 3 {
		return nil, false, nil
	}
	var terms []string
	for _, i := range []int{0, (len(runes) - 3) / 2, len(runes) - 3} {
		t := `"` + strings.ReplaceAll(string(runes[i:i+3]), `"`, `""`) + `"`
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	rows, err := read.QueryContext(ctx, `SELECT rowid FROM signal_trigrams WHERE signal_trigrams MATCH ?
		UNION ALL SELECT pk FROM signal_trigrams_pending LIMIT ?`, strings.Join(terms, " AND "), limit+1)
	if err != nil {
		return nil, false, err
	}
	return sqlstore.ReadKeys(rows, limit)
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
	res, err := tx.ExecContext(ctx, `INSERT INTO signal_trigrams (rowid, fold_text, fold_author, fold_headline)
		SELECT pk, fold_text, fold_author, fold_headline FROM signals WHERE pk IN (`+batch+`)`, trigramBatch)
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
	// Pending rows of deleted signals are removed with them; count what
	// left the queue so that the caller stops when it is empty.
	if m, _ := done.RowsAffected(); m > n {
		n = m
	}
	return int(n), nil
}
