package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"signals/internal/model"
	"signals/internal/store"
)

const publicOnly = `status = 'public' AND market_only = 0`

// signalColumns are selected in the order scanSignal reads them; the text
// column is cut to the caller's length.
const signalColumns = `id, tag, source, language, country, author_name, author_headline,
	source_url, substr(text, 1, ?), text_chars, published_ns, published_digits,
	published_at_precision, observed_ns, observed_digits, status, market_only`

func scanSignal(row interface{ Scan(...any) error }, extra ...any) (model.Signal, error) {
	var s model.Signal
	var country sql.NullString
	var observedNS, observedDigits sql.NullInt64
	err := row.Scan(append([]any{&s.ID, &s.Tag, &s.Source, &s.Language, &country, &s.AuthorName,
		&s.AuthorHeadline, &s.SourceURL, &s.Text, &s.TextChars, &s.PublishedAt.NS,
		&s.PublishedAt.Digits, &s.PublishedAtPrecision, &observedNS, &observedDigits,
		&s.Status, &s.MarketOnly}, extra...)...)
	s.Country = country.String
	if observedNS.Valid {
		s.ObservedAt = &model.Time{NS: observedNS.Int64, Digits: int(observedDigits.Int64)}
	}
	return s, err
}

// collectSignals scans and closes rows of signalColumns.
func collectSignals(rows *sql.Rows) ([]model.Signal, error) {
	defer rows.Close()
	var out []model.Signal
	for rows.Next() {
		s, err := scanSignal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ListSignals returns one page of public signals.
func (db *DB) ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
	where, args := filterSQL(q.Filter)
	args = append([]any{model.ListSnippetChars}, args...)
	if q.Q != "" {
		folded := model.Fold(q.Q)
		where += ` AND (instr(fold_text, ?) > 0 OR instr(fold_author, ?) > 0 OR instr(fold_headline, ?) > 0)`
		args = append(args, folded, folded, folded)
	}
	args = append(args, q.PageSize+1, q.Offset())
	rows, err := db.read.QueryContext(ctx, `SELECT `+signalColumns+` FROM signals WHERE `+where+
		` ORDER BY published_ns DESC, id DESC LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, false, err
	}
	list, err := collectSignals(rows)
	if err != nil {
		return nil, false, err
	}
	more := len(list) > q.PageSize
	if more {
		list = list[:q.PageSize]
	}
	return list, more, nil
}

// filterSQL builds the WHERE clause shared by listing and search candidates.
func filterSQL(f model.Filter) (string, []any) {
	var b strings.Builder
	b.WriteString(publicOnly)
	var args []any
	in := func(col string, values []string) {
		if len(values) == 0 {
			return
		}
		b.WriteString(" AND " + col + " IN (?" + strings.Repeat(", ?", len(values)-1) + ")")
		for _, v := range values {
			args = append(args, v)
		}
	}
	in("tag", f.Tags)
	in("source", f.Sources)
	in("language", f.Languages)
	in("country", f.Countries)
	if f.ObservedAfter != nil {
		b.WriteString(" AND observed_ns > ?")
		args = append(args, f.ObservedAfter.NS)
	}
	return b.String(), args
}

// GetSignal returns one public signal with its text cut to MaxTextChars.
func (db *DB) GetSignal(ctx context.Context, id string) (model.Signal, error) {
	row := db.read.QueryRowContext(ctx, `SELECT `+signalColumns+` FROM signals WHERE id = ? AND `+publicOnly,
		model.MaxTextChars, id)
	s, err := scanSignal(row)
	if errors.Is(err, sql.ErrNoRows) {
		return s, store.ErrNotFound
	}
	return s, err
}

// CountSignals counts every stored signal.
func (db *DB) CountSignals(ctx context.Context) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM signals`).Scan(&n)
	return n, err
}

// SetStatus changes a signal's editorial status.
func (db *DB) SetStatus(ctx context.Context, id, status string, marketOnly *bool) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`UPDATE signals SET status = ?, market_only = coalesce(?, market_only) WHERE id = ?`,
		status, marketOnly, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	if _, err := tx.ExecContext(ctx, bumpGeneration); err != nil {
		return err
	}
	return tx.Commit()
}

const bumpGeneration = `UPDATE signal_generation SET n = n + 1 WHERE id = 1`

// Generation reads the change counter of the signals.
func (db *DB) Generation(ctx context.Context) (int64, error) {
	var n int64
	err := db.read.QueryRowContext(ctx, `SELECT n FROM signal_generation WHERE id = 1`).Scan(&n)
	return n, err
}

// BeginImport starts an import transaction on the writer connection.
func (db *DB) BeginImport(ctx context.Context) (store.ImportTx, error) {
	// A large cache keeps a big import's dirty pages in memory instead of
	// spilling them to the WAL page by page; Commit and Rollback restore it.
	if _, err := db.write.ExecContext(ctx, `PRAGMA cache_size = -262144`); err != nil {
		return nil, err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO signals (id, tag, source, language, country,
		author_name, author_headline, source_url, text, text_chars, published_ns, published_digits,
		published_at_precision, observed_ns, observed_digits, status, market_only,
		fold_text, fold_author, fold_headline)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET tag = excluded.tag, source = excluded.source,
		language = excluded.language, country = excluded.country,
		author_name = excluded.author_name, author_headline = excluded.author_headline,
		source_url = excluded.source_url, text = excluded.text, text_chars = excluded.text_chars,
		published_ns = excluded.published_ns, published_digits = excluded.published_digits,
		published_at_precision = excluded.published_at_precision,
		observed_ns = excluded.observed_ns, observed_digits = excluded.observed_digits,
		status = excluded.status, market_only = excluded.market_only,
		fold_text = excluded.fold_text, fold_author = excluded.fold_author,
		fold_headline = excluded.fold_headline,
		revision = signals.revision + (signals.text IS NOT excluded.text)`)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	return &importTx{db: db, tx: tx, stmt: stmt}, nil
}

type importTx struct {
	db   *DB
	tx   *sql.Tx
	stmt *sql.Stmt
}

// restoreCache returns the writer connection to its usual cache size.
func (t *importTx) restoreCache() {
	t.db.write.Exec(`PRAGMA cache_size = ` + writerCacheSize)
}

func (t *importTx) Put(ctx context.Context, s model.Signal, f model.Folded) error {
	var country any
	if s.Country != "" {
		country = s.Country
	}
	var observedNS, observedDigits any
	if s.ObservedAt != nil {
		observedNS, observedDigits = s.ObservedAt.NS, s.ObservedAt.Digits
	}
	_, err := t.stmt.ExecContext(ctx, s.ID, s.Tag, s.Source, s.Language, country,
		s.AuthorName, s.AuthorHeadline, s.SourceURL, s.Text, model.Chars(s.Text),
		s.PublishedAt.NS, s.PublishedAt.Digits, s.PublishedAtPrecision, observedNS,
		observedDigits, s.Status, s.MarketOnly,
		f.Text, f.AuthorName, f.AuthorHeadline)
	return err
}

func (t *importTx) Commit() error {
	t.stmt.Close()
	defer t.restoreCache()
	if _, err := t.tx.Exec(bumpGeneration); err != nil {
		t.tx.Rollback()
		return err
	}
	return t.tx.Commit()
}

func (t *importTx) Rollback() error {
	t.stmt.Close()
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	t.restoreCache()
	return err
}
