package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// An import sends signals in batches, each one INSERT … SELECT FROM unnest of
// column arrays … ON CONFLICT (id) DO UPDATE, all in one transaction. While
// the server writes one batch, Put fills and encodes the next, so the server
// waits for the client as little as possible.
const (
	batchRows  = 2000
	batchBytes = 8 << 20
)

// importArrays are the array types that the import sends columns as, where
// not text[].
var importArrays = map[string]string{"text_chars": "int[]", "published_ns": "bigint[]",
	"published_digits": "smallint[]", "observed_ns": "bigint[]", "observed_digits": "smallint[]",
	"market_only": "boolean[]"}

// upsertSQL writes a batch, whose rows are the elements of one array per
// column, in each mode, and returns the ids it inserted or changed. With ImportOverwrite it first forgets the
// editor's decisions on the batch's ids ($1).
var upsertSQL = func() map[store.ImportMode]string {
	params := make([]string, len(sqlstore.ImportColumns))
	for i, c := range sqlstore.ImportColumns {
		params[i] = fmt.Sprintf("$%d::%s", i+1, cmp.Or(importArrays[c], "text[]"))
	}
	m := map[store.ImportMode]string{}
	for _, mode := range store.ImportModes {
		m[mode] = sqlstore.UpsertSignals(`SELECT * FROM unnest(`+strings.Join(params, ", ")+`)`, mode) + ` RETURNING id`
	}
	m[store.ImportOverwrite] = `WITH forgotten AS (DELETE FROM signal_decisions WHERE id = ANY($1::text[])) ` + m[store.ImportOverwrite]
	return m
}()

// batch holds signals column by column, in sqlstore.ImportColumns order. An id occurs
// at most once in a batch (ON CONFLICT cannot update a row twice in one
// statement); a repeated id starts a new batch, so the later one wins.
type batch struct {
	ids, tags, sources, languages      []string
	countries                          []pgtype.Text
	authors, headlines, urls, texts    []string
	textChars                          []int32
	publishedNS                        []int64
	publishedDigits                    []int16
	precisions                         []string
	observedNS                         []pgtype.Int8
	observedDigits                     []pgtype.Int2
	statuses                           []string
	marketOnly                         []bool
	foldText, foldAuthor, foldHeadline []string
	seen                               map[string]struct{}
	bytes                              int
}

// reset empties b for reuse, dropping its references to the signals. The
// columns keep their capacity: they grow to a full batch on the first.
func (b *batch) reset() {
	clear(b.countries)
	for _, s := range []*[]string{&b.ids, &b.tags, &b.sources, &b.languages, &b.authors, &b.headlines,
		&b.urls, &b.texts, &b.precisions, &b.statuses, &b.foldText, &b.foldAuthor, &b.foldHeadline} {
		clear(*s)
		*s = (*s)[:0]
	}
	b.countries, b.observedNS, b.observedDigits = b.countries[:0], b.observedNS[:0], b.observedDigits[:0]
	b.textChars, b.publishedNS, b.publishedDigits = b.textChars[:0], b.publishedNS[:0], b.publishedDigits[:0]
	b.marketOnly = b.marketOnly[:0]
	clear(b.seen)
	b.bytes = 0
}

func (b *batch) len() int { return len(b.ids) }

func (b *batch) add(s model.Signal, f model.Folded) {
	b.seen[s.ID] = struct{}{}
	b.ids = append(b.ids, s.ID)
	b.tags = append(b.tags, s.Tag)
	b.sources = append(b.sources, s.Source)
	b.languages = append(b.languages, s.Language)
	b.countries = append(b.countries, pgtype.Text{String: s.Country, Valid: s.Country != ""})
	b.authors = append(b.authors, s.AuthorName)
	b.headlines = append(b.headlines, s.AuthorHeadline)
	b.urls = append(b.urls, s.SourceURL)
	b.texts = append(b.texts, s.Text)
	b.textChars = append(b.textChars, int32(model.Chars(s.Text)))
	b.publishedNS = append(b.publishedNS, s.PublishedAt.NS)
	b.publishedDigits = append(b.publishedDigits, int16(s.PublishedAt.Digits))
	b.precisions = append(b.precisions, s.PublishedAtPrecision)
	var observedNS pgtype.Int8
	var observedDigits pgtype.Int2
	if o := s.ObservedAt; o != nil {
		observedNS, observedDigits = pgtype.Int8{Int64: o.NS, Valid: true}, pgtype.Int2{Int16: int16(o.Digits), Valid: true}
	}
	b.observedNS = append(b.observedNS, observedNS)
	b.observedDigits = append(b.observedDigits, observedDigits)
	b.statuses = append(b.statuses, s.Status)
	b.marketOnly = append(b.marketOnly, s.MarketOnly)
	b.foldText = append(b.foldText, f.Text)
	b.foldAuthor = append(b.foldAuthor, f.AuthorName)
	b.foldHeadline = append(b.foldHeadline, f.AuthorHeadline)
	b.bytes += len(s.ID) + len(s.AuthorName) + len(s.AuthorHeadline) + len(s.SourceURL) +
		len(s.Text) + len(f.Text) + len(f.AuthorName) + len(f.AuthorHeadline) + 64
}

func (b *batch) args() []any {
	return []any{b.ids, b.tags, b.sources, b.languages, b.countries, b.authors, b.headlines,
		b.urls, b.texts, b.textChars, b.publishedNS, b.publishedDigits, b.precisions,
		b.observedNS, b.observedDigits, b.statuses, b.marketOnly,
		b.foldText, b.foldAuthor, b.foldHeadline}
}

// encode writes the batch's parameters in binary form, for the types the
// server gave them in sd, reusing the buffers of values.
func (b *batch) encode(m *pgtype.Map, sd *pgconn.StatementDescription, values [][]byte) ([][]byte, error) {
	args := b.args()
	if len(values) != len(args) {
		values = make([][]byte, len(args))
	}
	for i, a := range args {
		v, err := m.Encode(sd.ParamOIDs[i], pgtype.BinaryFormatCode, a, values[i][:0])
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", sqlstore.ImportColumns[i], err)
		}
		values[i] = v
	}
	return values, nil
}

// BeginImport starts an import transaction on one connection of the pool.
func (db *DB) BeginImport(ctx context.Context, mode store.ImportMode) (store.ImportTx, error) {
	if mode == "" {
		mode = store.ImportKeepDecisions
	}
	query, ok := upsertSQL[mode]
	if !ok {
		return nil, fmt.Errorf("store: begin import: no import mode %q", mode)
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return nil, sqlstore.Wrap("begin import", err)
	}
	sd, err := tx.Conn().Prepare(ctx, "signals_import_"+strings.ReplaceAll(string(mode), "-", "_"), query)
	if err != nil {
		tx.Rollback(ctx)
		return nil, sqlstore.Wrap("begin import", err)
	}
	return &importTx{db: db, tx: tx, stmt: sd, cur: &batch{seen: map[string]struct{}{}}, written: map[string]bool{}}, nil
}

type importTx struct {
	db   *DB
	tx   pgx.Tx
	stmt *pgconn.StatementDescription
	cur  *batch
	// inflight receives the outcome of the batch being written, if any.
	inflight chan written
	// written holds the ids the batches written so far inserted or changed.
	written map[string]bool
	// encoded holds two sets of parameter buffers: one for the batch being
	// written, the other for the next.
	encoded [2][][]byte
	next    int
	err     error // the first failure; the transaction is then unusable
	puts    int
	done    bool
}

var errDone = errors.New("store: import already committed or rolled back")

// Put adds one signal to the current batch and sends the batch when it is
// full. A failure of a batch written in the background is returned by the
// next Put or by Commit.
func (t *importTx) Put(ctx context.Context, s model.Signal, f model.Folded) error {
	if t.done {
		return errDone
	}
	if t.err != nil {
		return t.err
	}
	for _, f := range [...]struct{ name, v string }{
		{"id", s.ID}, {"author_name", s.AuthorName}, {"author_headline", s.AuthorHeadline},
		{"source_url", s.SourceURL}, {"text", s.Text},
	} {
		if strings.IndexByte(f.v, 0) >= 0 {
			return sqlstore.Wrap("import signal", fmt.Errorf("%s: must not contain the NUL character (U+0000), which PostgreSQL cannot store", f.name))
		}
	}
	if _, dup := t.cur.seen[s.ID]; dup {
		if err := t.send(ctx); err != nil {
			return err
		}
	}
	t.cur.add(s, f)
	t.puts++
	if t.cur.len() >= batchRows || t.cur.bytes >= batchBytes {
		return t.send(ctx)
	}
	return nil
}

// send encodes the current batch, waits for the batch in flight, then starts
// writing the current one and empties it for the next Puts.
func (t *importTx) send(ctx context.Context) error {
	if t.cur.len() == 0 {
		return t.wait()
	}
	values, err := t.cur.encode(t.tx.Conn().TypeMap(), t.stmt, t.encoded[t.next])
	if err != nil {
		t.wait()
		if t.err == nil {
			t.err = sqlstore.Wrap("import signals", err)
		}
		return t.err
	}
	t.encoded[t.next] = values
	t.next = 1 - t.next
	t.cur.reset()
	if err := t.wait(); err != nil {
		return err
	}
	t.inflight = make(chan written, 1)
	conn := t.tx.Conn().PgConn()
	go func(done chan<- written) {
		r := conn.ExecPrepared(ctx, t.stmt.Name, values, binaryFormat, nil).Read()
		out := written{err: r.Err}
		for _, row := range r.Rows {
			out.ids = append(out.ids, string(row[0])) // text, the result's format
		}
		done <- out
	}(t.inflight)
	return nil
}

// written is the outcome of one batch: the ids it inserted or changed.
type written struct {
	ids []string
	err error
}

var binaryFormat = []int16{pgtype.BinaryFormatCode}

// wait returns once no batch is in flight, with its failure if it failed.
func (t *importTx) wait() error {
	if t.inflight != nil {
		w := <-t.inflight
		t.inflight = nil
		if w.err != nil && t.err == nil {
			t.err = sqlstore.Wrap("import signals", w.err)
		}
		for _, id := range w.ids {
			t.written[id] = true
		}
	}
	return t.err
}

// Written returns the ids the import inserted or changed.
func (t *importTx) Written() map[string]bool { return t.written }

// analyzeAfter is the size of an import after which Commit refreshes the
// planner's statistics at once instead of waiting for autovacuum.
const analyzeAfter = 50_000

// Commit writes what is left and makes every Put visible at once.
func (t *importTx) Commit() error {
	if t.done {
		return errDone
	}
	ctx := context.Background()
	err := t.send(ctx)
	if err == nil {
		err = t.wait()
	}
	t.done = true
	if err == nil {
		if _, err = t.tx.Exec(ctx, sqlstore.BumpGeneration); err != nil {
			err = sqlstore.Wrap("commit import", err)
		}
	}
	if err != nil {
		t.tx.Rollback(ctx)
		return err
	}
	err = t.tx.Commit(ctx)
	t.db.wrote()
	if err != nil {
		return sqlstore.Wrap("commit import", err)
	}
	if t.puts >= analyzeAfter {
		// Best effort: the import is committed whatever happens here.
		// The queue of times to index (signal_text_pending) as well, so
		// that listings by substring plan for it being full until the
		// indexer has emptied it.
		t.db.pool.Exec(ctx, `ANALYZE signals, signal_text_pending`)
	}
	return nil
}

// Rollback discards every Put; it is a no-op after Commit.
func (t *importTx) Rollback() error {
	if t.done {
		return nil
	}
	t.done = true
	t.wait()
	err := t.tx.Rollback(context.Background())
	if errors.Is(err, pgx.ErrTxClosed) {
		return nil
	}
	return sqlstore.Wrap("roll back import", err)
}
