package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// BumpGeneration grows the signals' change counter; imports run it in
// their transaction.
const BumpGeneration = `UPDATE signal_generation SET n = n + 1 WHERE id = 1`

// ImportColumns are the columns of signals an import writes, in the order
// its rows give them.
var ImportColumns = []string{"id", "tag", "source", "language", "country", "author_name",
	"author_headline", "source_url", "text", "text_chars", "published_ns", "published_digits",
	"published_at_precision", "observed_ns", "observed_digits", "status", "market_only",
	"fold_text", "fold_author", "fold_headline"}

// DecidedFields are the fields of a signal an editor decides on the desk;
// an import leaves a decided one as the editor set it (signal_decisions).
var DecidedFields = []string{"status", "market_only", "tag", "country", "language"}

// UpsertSignals is an import's statement: it writes each signal of rows (a
// VALUES or SELECT of ImportColumns), replacing the one with its id, except
// the fields an editor decided. A stored signal that the file would leave
// as it is is not written at all, so that the statement's changed rows (and
// what RETURNING returns) are the signals it inserted or changed, and no
// trigger indexes an unchanged row again. The revision grows when the text
// changes, so that vectors of the old text are recognised as stale. A
// taken-down id is not written at all (the trigger signals_taken_down of
// the migrations skips it).
//
// With ImportNewOnly a stored signal is left as it is; with
// ImportOverwrite every field follows the file (the engine forgets the
// decisions, see ForgetDecisions).
func UpsertSignals(rows string, mode store.ImportMode) string {
	if mode == store.ImportNewOnly {
		return `INSERT INTO signals (` + strings.Join(ImportColumns, ", ") + `) ` + rows + ` ON CONFLICT (id) DO NOTHING`
	}
	set := make([]string, len(ImportColumns)-1)
	differs := make([]string, len(ImportColumns)-1)
	for i, c := range ImportColumns[1:] {
		value := "excluded." + c
		if slices.Contains(DecidedFields, c) && mode != store.ImportOverwrite {
			value = "CASE WHEN EXISTS (SELECT 1 FROM signal_decisions d WHERE d.id = signals.id AND d.field = '" +
				c + "') THEN signals." + c + " ELSE excluded." + c + " END"
		}
		set[i] = c + " = " + value
		differs[i] = "signals." + c + " IS DISTINCT FROM " + value
	}
	return `INSERT INTO signals (` + strings.Join(ImportColumns, ", ") + `) ` + rows + `
		ON CONFLICT (id) DO UPDATE SET ` + strings.Join(set, ", ") + `,
		revision = signals.revision + CASE WHEN signals.text IS DISTINCT FROM excluded.text THEN 1 ELSE 0 END
		WHERE ` + strings.Join(differs, " OR ")
}

// signalColumns are selected in the order scanSignal reads them; the text is
// cut to the code points of the first parameter.
const signalColumns = `id, tag, source, language, country, author_name, author_headline,
	source_url, substr(text, 1, ?), text_chars, published_ns, published_digits,
	published_at_precision, observed_ns, observed_digits, status, market_only`

// scanSignal reads signalColumns, then any extra columns into extra.
func scanSignal(row interface{ Scan(...any) error }, extra ...any) (model.Signal, error) {
	var s model.Signal
	var country sql.NullString
	var observedNS, observedDigits any
	err := row.Scan(append([]any{&s.ID, &s.Tag, &s.Source, &s.Language, &country, &s.AuthorName,
		&s.AuthorHeadline, &s.SourceURL, &s.Text, integer(&s.TextChars), integer(&s.PublishedAt.NS),
		integer(&s.PublishedAt.Digits), &s.PublishedAtPrecision, &observedNS, &observedDigits,
		&s.Status, &s.MarketOnly}, extra...)...)
	s.Country = country.String
	ns, ok := optionalInt(observedNS)
	digits, _ := optionalInt(observedDigits)
	if ok {
		s.ObservedAt = &model.Time{NS: ns, Digits: int(digits)}
	}
	return s, err
}

// filter returns the conditions of f after the public-only predicate, and
// args with their values appended. One value is an equality, so that a
// per-filter index yields rows already in listing order.
func (q *Queries) filter(f model.Filter, args []any) (string, []any) {
	var b strings.Builder
	b.WriteString(q.dialect.PublicOnly)
	in := func(col string, values []string) {
		if len(values) == 0 {
			return
		}
		if len(values) == 1 {
			b.WriteString(" AND " + col + " = ?")
		} else {
			b.WriteString(" AND " + col + " IN (?" + strings.Repeat(", ?", len(values)-1) + ")")
		}
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

// orderSignals is the listing order: newest published first, then id
// descending.
const orderSignals = ` ORDER BY published_ns DESC, id DESC`

// ListSignals returns one page of public signals.
func (q *Queries) ListSignals(ctx context.Context, lq model.ListQuery) ([]model.Signal, bool, error) {
	where, args := q.filter(lq.Filter, []any{model.ListSnippetChars})
	var list []model.Signal
	var err error
	if lq.Q != "" {
		list, err = q.listSubstring(ctx, lq, where, args)
	} else {
		query := `SELECT ` + signalColumns + ` FROM signals WHERE ` + where + orderSignals + ` LIMIT ? OFFSET ?`
		if q.dialect.IDsFirst {
			query = `SELECT ` + signalColumns + ` FROM (SELECT id FROM signals WHERE ` + where + orderSignals +
				` LIMIT ? OFFSET ?) AS page JOIN signals USING (id)` + orderSignals
		}
		list, err = q.signals(ctx, query, append(args, lq.PageSize+1, lq.Offset())...)
	}
	if err != nil {
		return nil, false, Wrap("list signals", err)
	}
	more := len(list) > lq.PageSize
	if more {
		list = list[:lq.PageSize]
	}
	return list, more, nil
}

// SignalRefs returns the newest public signals' ids, in listing order.
func (q *Queries) SignalRefs(ctx context.Context, limit int) ([]store.SignalRef, error) {
	refs, err := readAll(ctx, q, func(rows *sql.Rows) (store.SignalRef, error) {
		var r store.SignalRef
		var ns int64
		err := rows.Scan(&r.ID, &ns)
		r.Changed = time.Unix(0, ns).UTC()
		return r, err
	}, `SELECT id, COALESCE(observed_ns, published_ns) FROM signals WHERE `+q.dialect.PublicOnly+orderSignals+` LIMIT ?`, limit)
	return refs, Wrap("signal refs", err)
}

// signals runs a read of signalColumns (see readAll).
func (q *Queries) signals(ctx context.Context, query string, args ...any) ([]model.Signal, error) {
	return readAll(ctx, q, func(rows *sql.Rows) (model.Signal, error) { return scanSignal(rows) }, query, args...)
}

// GetSignal returns one public signal with its text cut to MaxTextChars.
func (q *Queries) GetSignal(ctx context.Context, id string) (model.Signal, error) {
	s, err := scanSignal(q.queryRow(ctx, `SELECT `+signalColumns+` FROM signals WHERE id = ? AND `+q.dialect.PublicOnly,
		model.MaxTextChars, id))
	return s, Wrap("get signal", err)
}

// CountSignals counts every stored signal.
func (q *Queries) CountSignals(ctx context.Context) (int, error) {
	var n int
	err := q.queryRow(ctx, `SELECT count(*) FROM signals`).Scan(integer(&n))
	return n, Wrap("count signals", err)
}

// Generation reads the change counter of the signals.
func (q *Queries) Generation(ctx context.Context) (int64, error) {
	var n int64
	err := q.queryRow(ctx, `SELECT n FROM signal_generation WHERE id = 1`).Scan(integer(&n))
	return n, Wrap("read generation", err)
}

// Generations reads, in one query, the signals' change counter and the
// credentials' (migration 0009 in SQLite, 0011 in PostgreSQL), which grows
// whenever a key is revoked or deleted or an account changes.
func (q *Queries) Generations(ctx context.Context) (signals, credentials int64, err error) {
	err = q.queryRow(ctx, `SELECT s.n, c.n FROM signal_generation s, credential_generation c
		WHERE s.id = 1 AND c.id = 1`).Scan(integer(&signals), integer(&credentials))
	return signals, credentials, Wrap("read generations", err)
}

// SetStatus changes a signal's editorial status and grows the generation.
func (q *Queries) SetStatus(ctx context.Context, id, status string, marketOnly *bool) error {
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		err := changedRow(q.execOn(ctx, tx, `UPDATE signals SET status = ?,
			market_only = coalesce(?, market_only) WHERE id = ?`, status, marketOnly, id))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, BumpGeneration)
		return err
	})
	return Wrap("set status", err)
}
