package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// upsertSignal writes one signal in each mode (see sqlstore.UpsertSignals).
var upsertSignal = func() map[store.ImportMode]string {
	m := map[store.ImportMode]string{}
	for _, mode := range store.ImportModes {
		m[mode] = sqlstore.UpsertSignals(`VALUES (?`+strings.Repeat(", ?", len(sqlstore.ImportColumns)-1)+`)`, mode)
	}
	return m
}()

// BeginImport starts an import transaction on the writer connection: one
// prepared statement run per signal, with no round trip to pay.
func (db *DB) BeginImport(ctx context.Context, mode store.ImportMode) (store.ImportTx, error) {
	if mode == "" {
		mode = store.ImportKeepDecisions
	}
	query, ok := upsertSignal[mode]
	if !ok {
		return nil, fmt.Errorf("store: begin import: no import mode %q", mode)
	}
	// A large cache keeps a big import's dirty pages in memory instead of
	// spilling them to the WAL page by page; Commit and Rollback restore it.
	if _, err := db.write.ExecContext(ctx, `PRAGMA cache_size = -262144`); err != nil {
		return nil, sqlstore.Wrap("begin import", err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, sqlstore.Wrap("begin import", err)
	}
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		tx.Rollback()
		return nil, sqlstore.Wrap("begin import", err)
	}
	t := &importTx{db: db, tx: tx, stmt: stmt, written: map[string]bool{}}
	if mode == store.ImportOverwrite {
		if t.forget, err = tx.PrepareContext(ctx, `DELETE FROM signal_decisions WHERE id = ?`); err != nil {
			tx.Rollback()
			return nil, sqlstore.Wrap("begin import", err)
		}
	}
	return t, nil
}

// importTx is an import's transaction, whose prepared statement
// database/sql closes when it commits or rolls back.
type importTx struct {
	db   *DB
	tx   *sql.Tx
	stmt *sql.Stmt
	// forget, with ImportOverwrite, forgets the editor's decisions on the
	// signal it writes.
	forget *sql.Stmt
	// written holds the ids the import inserted or changed.
	written map[string]bool
}

// Written returns the ids the import inserted or changed.
func (t *importTx) Written() map[string]bool { return t.written }

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
	if t.forget != nil {
		if _, err := t.forget.ExecContext(ctx, s.ID); err != nil {
			return sqlstore.Wrap("import signal", err)
		}
	}
	res, err := t.stmt.ExecContext(ctx, s.ID, s.Tag, s.Source, s.Language, country,
		s.AuthorName, s.AuthorHeadline, s.SourceURL, s.Text, model.Chars(s.Text),
		s.PublishedAt.NS, s.PublishedAt.Digits, s.PublishedAtPrecision, observedNS,
		observedDigits, s.Status, s.MarketOnly,
		f.Text, f.AuthorName, f.AuthorHeadline)
	if err != nil {
		return sqlstore.Wrap("import signal", err)
	}
	// One row when the statement inserted or changed the signal; none
	// when it left it as it was (or the id was taken down).
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		t.written[s.ID] = true
	}
	return nil
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
