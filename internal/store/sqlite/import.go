package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// upsertSignal writes one signal (see sqlstore.UpsertSignals).
var upsertSignal = sqlstore.UpsertSignals(`VALUES (?` + strings.Repeat(", ?", len(sqlstore.ImportColumns)-1) + `)`)

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

// importTx is an import's transaction, whose prepared statement
// database/sql closes when it commits or rolls back.
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
	defer t.restoreCache()
	if _, err := t.tx.Exec(sqlstore.BumpGeneration); err != nil {
		t.tx.Rollback()
		return sqlstore.Wrap("commit import", err)
	}
	return sqlstore.Wrap("commit import", t.tx.Commit())
}

func (t *importTx) Rollback() error {
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	t.restoreCache()
	return sqlstore.Wrap("roll back import", err)
}
