package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// upsertSignal writes one signal, replacing the one with its id; the
// revision grows when the text changes, so that vectors of the old text are
// recognised as stale.
const upsertSignal = `INSERT INTO signals (id, tag, source, language, country,
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
	revision = signals.revision + (signals.text IS NOT excluded.text)`

// BeginImport starts an import transaction on the writer connection: one
// prepared statement run per signal, with no round trip to pay.
func (db *DB) BeginImport(ctx context.Context) (store.ImportTx, error) {
	// A large cache keeps a big import's dirty pages in memory instead of
	// spilling them to the WAL page by page; Commit and Rollback restore it.
	if _, err := db.write.ExecContext(ctx, `PRAGMA cache_size = -262144`); err != nil {
		return nil, sqlstore.Wrap("begin import", err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, sqlstore.Wrap("begin import", err)
	}
	stmt, err := tx.PrepareContext(ctx, upsertSignal)
	if err != nil {
		tx.Rollback()
		return nil, sqlstore.Wrap("begin import", err)
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
	return sqlstore.Wrap("import signal", err)
}

func (t *importTx) Commit() error {
	t.stmt.Close()
	defer t.restoreCache()
	if _, err := t.tx.Exec(sqlstore.BumpGeneration); err != nil {
		t.tx.Rollback()
		return sqlstore.Wrap("commit import", err)
	}
	return sqlstore.Wrap("commit import", t.tx.Commit())
}

func (t *importTx) Rollback() error {
	t.stmt.Close()
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	t.restoreCache()
	return sqlstore.Wrap("roll back import", err)
}
