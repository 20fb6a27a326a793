package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/store/sqlstore"
)

// Every request checks the signals' and credentials' generations, to know
// whether what it has cached (a key's account, a rendered list) still
// holds. Reading them from the database would cost a round trip per
// request; instead each process listens on the channel that migration 0015
// announces every change on, and keeps them in memory:
//
//   - a listener connection, apart from the pool, runs LISTEN, then reads
//     both generations, and reads them again whenever a change is announced
//     and every generationCheck (a backstop: a connection that died without
//     a word is found out by that read's deadline);
//   - while the listener is down, requests read the generations from the
//     database as before, and the listener connects again every second;
//   - a write committed by this process marks them stale, so that the next
//     request reads them itself instead of waiting for the announcement:
//     a key revoked through this process is refused by its very next
//     request, and through another process once the announcement arrives
//     (a few milliseconds).
//
// Generations only grow, so whichever read lands last, the larger value is
// kept.

// generationChannel is the channel of migration 0015.
const generationChannel = "signals_generations"

// generationCheck is how often the listener reads the generations even
// when nothing was announced, and how long it waits for that read.
const generationCheck = time.Second

// generationPair is the signals' and the credentials' generation.
type generationPair struct{ signals, credentials int64 }

// Generations returns the signals' and credentials' generations, from
// memory while the listener holds them and this process wrote nothing since.
func (db *DB) Generations(ctx context.Context) (signals, credentials int64, err error) {
	if p, ok := db.remembered(); ok {
		return p.signals, p.credentials, nil
	}
	// Cleared before the read: a write committed after it marks them again.
	db.stale.Store(false)
	signals, credentials, err = db.Queries.Generations(ctx)
	if err == nil {
		db.learn(generationPair{signals, credentials}, false)
	}
	return signals, credentials, err
}

// Generation returns the signals' generation (see Generations).
func (db *DB) Generation(ctx context.Context) (int64, error) {
	if p, ok := db.remembered(); ok {
		return p.signals, nil
	}
	return db.Queries.Generation(ctx)
}

// remembered returns the generations held in memory, if the listener holds
// them and this process wrote nothing since.
func (db *DB) remembered() (generationPair, bool) {
	if p := db.gens.Load(); p != nil && !db.stale.Load() {
		return *p, true
	}
	return generationPair{}, false
}

// wrote marks the generations held in memory stale after this process
// committed a write that may have moved them.
func (db *DB) wrote() { db.stale.Store(true) }

// learn keeps p, each generation the larger of p's and the one held. A
// read by a request (listening false) is kept only while the listener
// holds the generations: otherwise no announcement would correct it.
func (db *DB) learn(p generationPair, listening bool) {
	for {
		old := db.gens.Load()
		if old == nil && !listening {
			return
		}
		next := p
		if old != nil {
			next = generationPair{max(old.signals, p.signals), max(old.credentials, p.credentials)}
			if next == *old {
				return
			}
		}
		if db.gens.CompareAndSwap(old, &next) {
			return
		}
	}
}

// watchGenerations runs the listener until ctx ends, connecting again a
// second after it fails.
func (db *DB) watchGenerations(ctx context.Context, cfg *pgx.ConnConfig) {
	defer close(db.watched)
	for {
		// Whatever ended it, requests read the generations themselves
		// until the listener holds them again.
		db.listen(ctx, cfg)
		db.gens.Store(nil)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// listen holds one listener connection: LISTEN, then a read of both
// generations after each announcement and every generationCheck. It
// returns when the connection fails.
func (db *DB) listen(ctx context.Context, cfg *pgx.ConnConfig) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	db.listener.Store(conn.PgConn().PID())
	if _, err := conn.Exec(ctx, "LISTEN "+generationChannel); err != nil {
		return err
	}
	for {
		// Read after LISTEN took effect: whatever commits from now on is
		// announced, and what committed before is in this read.
		readCtx, cancel := context.WithTimeout(ctx, generationCheck)
		var p generationPair
		err := conn.QueryRow(readCtx, `SELECT s.n, c.n FROM signal_generation s, credential_generation c
			WHERE s.id = 1 AND c.id = 1`).Scan(&p.signals, &p.credentials)
		cancel()
		if err != nil {
			return sqlstore.Wrap("read generations", err)
		}
		db.learn(p, true)
		waitCtx, cancel := context.WithTimeout(ctx, generationCheck)
		_, err = conn.WaitForNotification(waitCtx)
		cancel()
		if err != nil && !(errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil) {
			return err
		}
	}
}
