package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// candidateColumns are signalColumns plus the vector under a model (joined
// only while its revision matches the signal's).
const candidateColumns = signalColumns + `, v.vector`

// Candidates returns the newest public signals within f with their vectors.
func (db *DB) Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]store.Candidate, error) {
	where, args := filterSQL(f)
	args = append([]any{textChars, vectorModel}, args...)
	args = append(args, limit)
	rows, err := db.read.QueryContext(ctx, `SELECT `+candidateColumns+` FROM signals
		LEFT JOIN signal_vectors v ON v.signal_pk = signals.pk AND v.model = ? AND v.revision = signals.revision
		WHERE `+where+` ORDER BY published_ns DESC, id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Candidate
	for rows.Next() {
		var blob []byte
		s, err := scanSignal(rows, &blob)
		if err != nil {
			return nil, err
		}
		out = append(out, store.Candidate{Signal: s, Vector: decodeVector(blob)})
	}
	return out, rows.Err()
}

// SignalsByID returns the public signals among ids.
func (db *DB) SignalsByID(ctx context.Context, ids []string, textChars int) ([]model.Signal, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{textChars}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+signalColumns+` FROM signals WHERE `+publicOnly+
		` AND id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	return collectSignals(rows)
}

// SignalsNeedingVectors returns public signals without a current vector,
// in listing order after cursor.
func (db *DB) SignalsNeedingVectors(ctx context.Context, vectorModel string, textChars, limit int, cursor *store.Cursor) ([]model.Signal, error) {
	after, args := "", []any{textChars, vectorModel, limit}
	if cursor != nil {
		after = ` AND (published_ns, id) < (?4, ?5)`
		args = append(args, cursor.PublishedNS, cursor.ID)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+signalColumns+` FROM signals
		LEFT JOIN signal_vectors v ON v.signal_pk = signals.pk AND v.model = ?2
		WHERE `+publicOnly+` AND (v.revision IS NULL OR v.revision != signals.revision)`+after+`
		ORDER BY published_ns DESC, id DESC LIMIT ?3`, args...)
	if err != nil {
		return nil, err
	}
	return collectSignals(rows)
}

// PutVectors stores vectors for the signals' current revisions.
func (db *DB) PutVectors(ctx context.Context, vectorModel string, vectors map[string][]float32) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO signal_vectors (signal_pk, model, revision, vector)
		SELECT pk, ?, revision, ? FROM signals WHERE id = ?
		ON CONFLICT (signal_pk, model) DO UPDATE SET revision = excluded.revision, vector = excluded.vector`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for id, v := range vectors {
		if _, err := stmt.ExecContext(ctx, vectorModel, encodeVector(v), id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// CachedSearch returns an unexpired cached result.
func (db *DB) CachedSearch(ctx context.Context, key string, now time.Time) (store.CachedSearch, bool, error) {
	var r store.CachedSearch
	var body string
	err := db.read.QueryRowContext(ctx, `SELECT result FROM search_cache WHERE key = ? AND expires_ns > ?`,
		key, now.UnixNano()).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// PutCachedSearch stores a result and drops expired ones.
func (db *DB) PutCachedSearch(ctx context.Context, key string, r store.CachedSearch) error {
	body, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_cache WHERE expires_ns <= ?`, r.SearchedAt.UnixNano()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_cache (key, result, expires_ns) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET result = excluded.result, expires_ns = excluded.expires_ns`,
		key, string(body), r.ExpiresAt.UnixNano()); err != nil {
		return err
	}
	return tx.Commit()
}

// ReserveSearch takes one fresh search of the account's UTC day.
func (db *DB) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	return db.change(ctx, accountID, now, func(r *usageRow) string {
		if r.SearchesUsed >= int64(dailyLimit) {
			return model.LimitSearchDay
		}
		r.SearchesUsed++
		return ""
	})
}

// slots are the running searches per account. One process serves an SQLite
// file, so they live in memory and die with it: nothing can stay stuck.
type slots struct {
	mu      sync.Mutex
	running map[int64]int
}

// AcquireSearchSlot takes one of the account's concurrent search slots.
func (db *DB) AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (func(), bool, error) {
	s := &db.slots
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		s.running = map[int64]int{}
	}
	if s.running[accountID] >= max {
		return nil, false, nil
	}
	s.running[accountID]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.running[accountID]--
			if s.running[accountID] <= 0 {
				delete(s.running, accountID)
			}
			s.mu.Unlock()
		})
	}, true, nil
}

// claims are the searches running in this process. One process serves an
// SQLite file, so memory is the whole truth; a lease still bounds a claim.
type claims struct {
	mu      sync.Mutex
	holders map[string]claim
}

type claim struct {
	token   *byte // identity of the holder
	expires time.Time
}

// ClaimSearch claims key unless another unexpired claim holds it.
func (db *DB) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	c := &db.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holders == nil {
		c.holders = map[string]claim{}
	}
	if h, ok := c.holders[key]; ok && now.Before(h.expires) {
		return nil, false, nil
	}
	me := claim{token: new(byte), expires: now.Add(lease)}
	c.holders[key] = me
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.holders[key].token == me.token {
			delete(c.holders, key)
		}
	}, true, nil
}
