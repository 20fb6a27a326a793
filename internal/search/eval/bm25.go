package eval

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"

	_ "modernc.org/sqlite" // the BM25 baseline is SQLite's FTS5

	"signals/internal/model"
	"signals/internal/search"
)

// BM25 is the baseline a scorer is measured against: plain keyword search,
// SQLite FTS5 ranked by its bm25() function, over the same signals, in an
// in-memory database, each signal on the first search.CandidateChars code
// points that semantic search scores.
type BM25 struct {
	db   *sql.DB
	docs int
}

// BM25Top is how many signals the baseline returns for a query.
const BM25Top = 10

// NewBM25 indexes docs. Close it when done.
func NewBM25(ctx context.Context, docs []Doc) (*BM25, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	b := &BM25{db: db, docs: len(docs)}
	if err := b.load(ctx, docs); err != nil {
		db.Close()
		return nil, fmt.Errorf("eval: BM25 baseline: %w", err)
	}
	return b, nil
}

func (b *BM25) load(ctx context.Context, docs []Doc) error {
	if _, err := b.db.ExecContext(ctx, `CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, text, tokenize = 'unicode61 remove_diacritics 2')`); err != nil {
		return err
	}
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, d := range docs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO docs (id, text) VALUES (?, ?)`, d.ID, model.Cut(d.Text, search.CandidateChars)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Close releases the index.
func (b *BM25) Close() error { return b.db.Close() }

// Search returns the ids of the BM25Top signals that rank best for query,
// any of whose words they contain.
func (b *BM25) Search(ctx context.Context, query string) ([]string, error) {
	match := bm25Match(query)
	if match == "" {
		return nil, nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?`, match, BM25Top)
	if err != nil {
		return nil, fmt.Errorf("eval: BM25 %q: %w", match, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// bm25Match is the FTS5 query of any of the words of query, each quoted.
func bm25Match(query string) string {
	words := strings.FieldsFunc(query, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		words[i] = `"` + w + `"`
	}
	return strings.Join(words, " OR ")
}

// EvaluateBM25 reports on set with the baseline: what it returns for a
// query is its top BM25Top.
func EvaluateBM25(ctx context.Context, b *BM25, docs []Doc, set Set) (Report, error) {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return evaluateRankings(fmt.Sprintf("BM25 (SQLite FTS5), top %d", BM25Top), ids, set, func(q int) (ranking, error) {
		top, err := b.Search(ctx, set.Queries[q].Query)
		if err != nil {
			return ranking{}, err
		}
		return ranking{ids: top, scores: make([]float64, len(top)), returned: len(top)}, nil
	})
}
