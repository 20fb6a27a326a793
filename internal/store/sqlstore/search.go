package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// currentVector matches a row v of signal_vectors to the signal it holds a
// vector of, under the model of the next parameter, if it was computed for
// the signal's current text.
func (q *Queries) currentVector() string {
	d := q.dialect
	return `v.` + d.VectorKey + ` = signals.` + d.SignalKey + ` AND v.model = ? AND v.revision = signals.revision`
}

// Candidates returns the newest public signals within f with their vectors
// under vectorModel (nil when missing or computed for an older text).
func (q *Queries) Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]store.Candidate, error) {
	where, args := q.filter(f, []any{textChars, vectorModel})
	vectors := q.dialect.Vectors
	out, err := readAll(ctx, q, func(rows *sql.Rows) (store.Candidate, error) {
		var blob sql.RawBytes
		s, err := scanSignal(rows, &blob)
		if err != nil {
			return store.Candidate{}, err
		}
		v, err := vectors.Decode(blob)
		return store.Candidate{Signal: s, Vector: v}, err
	}, `SELECT `+signalColumns+`, `+vectors.Select+` FROM signals LEFT JOIN signal_vectors v ON `+
		q.currentVector()+` WHERE `+where+orderSignals+` LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, Wrap("search candidates", err)
	}
	if out == nil {
		out = []store.Candidate{}
	}
	return out, nil
}

// SignalVector returns the vector stored under vectorModel for the public
// signal id's current text; nil when there is none.
func (q *Queries) SignalVector(ctx context.Context, id, vectorModel string) ([]float32, error) {
	var blob []byte
	err := q.queryRow(ctx, `SELECT `+q.dialect.Vectors.Select+` FROM signals JOIN signal_vectors v ON `+q.currentVector()+
		` WHERE signals.id = ? AND `+q.dialect.PublicOnly, vectorModel, id).Scan(&blob)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, Wrap("signal vector", err)
	}
	v, err := q.dialect.Vectors.Decode(blob)
	return v, Wrap("signal vector", err)
}

// SignalsByID returns the public signals among ids.
func (q *Queries) SignalsByID(ctx context.Context, ids []string, textChars int) ([]model.Signal, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 1+len(ids))
	args = append(args, textChars)
	for _, id := range ids {
		args = append(args, id)
	}
	list, err := q.signals(ctx, `SELECT `+signalColumns+` FROM signals WHERE `+q.dialect.PublicOnly+
		` AND id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	return list, Wrap("signals by id", err)
}

// SignalsNeedingVectors returns public signals without a current vector,
// in listing order after cursor.
func (q *Queries) SignalsNeedingVectors(ctx context.Context, vectorModel string, textChars, limit int, cursor *store.Cursor) ([]model.Signal, error) {
	after, args := "", []any{textChars, vectorModel}
	if cursor != nil {
		after = ` AND (published_ns, id) < (?, ?)`
		args = append(args, cursor.PublishedNS, cursor.ID)
	}
	list, err := q.signals(ctx, `SELECT `+signalColumns+` FROM signals WHERE `+q.dialect.PublicOnly+
		` AND NOT EXISTS (SELECT 1 FROM signal_vectors v WHERE `+q.currentVector()+`)`+after+orderSignals+` LIMIT ?`,
		append(args, limit)...)
	return list, Wrap("signals needing vectors", err)
}

// PutVectors stores vectors for the signals' current revisions; ids no
// longer stored are skipped.
func (q *Queries) PutVectors(ctx context.Context, vectorModel string, vectors map[string][]float32) error {
	if len(vectors) == 0 {
		return nil
	}
	d := q.dialect
	args := make([][]any, 0, len(vectors))
	for id, v := range vectors {
		args = append(args, []any{vectorModel, d.Vectors.Encode(v), id})
	}
	return Wrap("put vectors", q.execEach(ctx, `INSERT INTO signal_vectors (`+d.VectorKey+`, model, revision, vector)
		SELECT `+d.SignalKey+`, ?, revision, ? FROM signals WHERE id = ?
		ON CONFLICT (`+d.VectorKey+`, model) DO UPDATE SET revision = excluded.revision, vector = excluded.vector`, args))
}

// CachedSearch returns an unexpired cached result.
func (q *Queries) CachedSearch(ctx context.Context, key string, now time.Time) (store.CachedSearch, bool, error) {
	var r store.CachedSearch
	var body []byte
	err := q.queryRow(ctx, `SELECT result FROM search_cache WHERE key = ? AND expires_ns > ?`,
		key, now.UnixNano()).Scan(&body)
	if errors.Is(err, store.ErrNotFound) {
		return r, false, nil
	}
	if err == nil {
		err = json.Unmarshal(body, &r)
	}
	if err != nil {
		return store.CachedSearch{}, false, Wrap("cached search", err)
	}
	return r, true, nil
}

// PutCachedSearch stores a result and drops expired ones.
func (q *Queries) PutCachedSearch(ctx context.Context, key string, r store.CachedSearch) error {
	body, err := json.Marshal(r)
	if err != nil {
		return Wrap("put cached search", err)
	}
	return Wrap("put cached search", q.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q.bind(`DELETE FROM search_cache WHERE expires_ns <= ?`),
			r.SearchedAt.UnixNano()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, q.bind(`INSERT INTO search_cache (key, result, expires_ns) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET result = excluded.result, expires_ns = excluded.expires_ns`),
			key, string(body), r.ExpiresAt.UnixNano())
		return err
	}))
}
