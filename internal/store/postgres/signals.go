package postgres

import (
	"context"
	"strconv"
	"strings"

	"signals/internal/model"
	"signals/internal/store"
)

// publicOnly is the predicate of the partial indexes, repeated literally so
// that the planner can use them.
const publicOnly = `status = 'public' AND NOT market_only`

// signalColumns are selected in the order scanSignal reads them; the text is
// cut to the code points given by parameter $1.
const signalColumns = `id, tag, source, language, country, author_name, author_headline,
	source_url, substr(text, 1, $1), text_chars, published_ns, published_digits,
	published_at_precision, observed_ns, observed_digits, status, market_only`

// scanSignal reads signalColumns, then any extra columns into extra.
func scanSignal(row interface{ Scan(...any) error }, extra ...any) (model.Signal, error) {
	var s model.Signal
	var country *string
	var observedNS *int64
	var observedDigits *int
	err := row.Scan(append([]any{&s.ID, &s.Tag, &s.Source, &s.Language, &country, &s.AuthorName,
		&s.AuthorHeadline, &s.SourceURL, &s.Text, &s.TextChars, &s.PublishedAt.NS,
		&s.PublishedAt.Digits, &s.PublishedAtPrecision, &observedNS, &observedDigits,
		&s.Status, &s.MarketOnly}, extra...)...)
	if country != nil {
		s.Country = *country
	}
	if observedNS != nil && observedDigits != nil {
		s.ObservedAt = &model.Time{NS: *observedNS, Digits: *observedDigits}
	}
	return s, err
}

// args collects positional parameters and names them $1, $2, ….
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// filterSQL appends the conditions of f to the public-only predicate. One
// value is an equality, so that the per-filter index yields rows already in
// listing order; several are = ANY.
func filterSQL(f model.Filter, a *args) string {
	var b strings.Builder
	b.WriteString(publicOnly)
	in := func(col string, values []string) {
		switch len(values) {
		case 0:
		case 1:
			b.WriteString(" AND " + col + " = " + a.add(values[0]))
		default:
			b.WriteString(" AND " + col + " = ANY(" + a.add(values) + "::text[])")
		}
	}
	in("tag", f.Tags)
	in("source", f.Sources)
	in("language", f.Languages)
	in("country", f.Countries)
	if f.ObservedAfter != nil {
		b.WriteString(" AND observed_ns > " + a.add(f.ObservedAfter.NS))
	}
	return b.String()
}

// ListSignals returns one page of public signals.
func (db *DB) ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
	a := args{model.ListSnippetChars}
	where := filterSQL(q.Filter, &a)
	if q.Q != "" {
		// strpos, not LIKE: % and _ match only themselves.
		p := a.add(model.Fold(q.Q))
		where += ` AND (strpos(fold_text, ` + p + `) > 0 OR strpos(fold_author, ` + p +
			`) > 0 OR strpos(fold_headline, ` + p + `) > 0)`
	}
	const order = ` ORDER BY published_ns DESC, id DESC`
	page := order + ` LIMIT ` + a.add(q.PageSize+1) + ` OFFSET ` + a.add(q.Offset())
	var sql string
	if q.Q == "" {
		// Find the page's ids first: the listing indexes hold every column
		// that needs, so rows that do not match and rows before the page
		// are skipped in the index alone (an index-only scan once vacuum has
		// marked the table's pages visible); only the rows shown are read.
		sql = `SELECT ` + signalColumns + ` FROM (SELECT id FROM signals WHERE ` + where + page +
			`) AS page JOIN signals USING (id)` + order
	} else {
		sql = `SELECT ` + signalColumns + ` FROM signals WHERE ` + where + page
	}
	rows, err := db.pool.Query(ctx, sql, a...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	list := make([]model.Signal, 0, q.PageSize+1)
	for rows.Next() {
		s, err := scanSignal(rows)
		if err != nil {
			return nil, false, err
		}
		list = append(list, s)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	more := len(list) > q.PageSize
	if more {
		list = list[:q.PageSize]
	}
	return list, more, nil
}

// GetSignal returns one public signal with its text cut to MaxTextChars.
func (db *DB) GetSignal(ctx context.Context, id string) (model.Signal, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+signalColumns+` FROM signals WHERE id = $2 AND `+publicOnly,
		model.MaxTextChars, id)
	s, err := scanSignal(row)
	return s, notFound(err)
}

// CountSignals counts every stored signal.
func (db *DB) CountSignals(ctx context.Context) (int, error) {
	var n int
	err := db.pool.QueryRow(ctx, `SELECT count(*) FROM signals`).Scan(&n)
	return n, err
}

// SetStatus changes a signal's editorial status.
func (db *DB) SetStatus(ctx context.Context, id, status string, marketOnly *bool) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx,
		`UPDATE signals SET status = $1, market_only = coalesce($2, market_only) WHERE id = $3`,
		status, marketOnly, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	if _, err := tx.Exec(ctx, bumpGeneration); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

const bumpGeneration = `UPDATE signal_generation SET n = n + 1 WHERE id = 1`

// Generation reads the change counter of the signals.
func (db *DB) Generation(ctx context.Context) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT n FROM signal_generation WHERE id = 1`).Scan(&n)
	return n, err
}
