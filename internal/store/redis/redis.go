// Package redis keeps the quota counters in Redis: the minute, day and
// daily-search counts, the concurrent search slots and the search
// reservations of every account. It wraps the store that stays the record
// of everything else (PostgreSQL) and overrides only the counting, so that
// a counted request costs one Redis round trip and no database commit.
//
// Each account's counters live under keys that share one hash tag,
// PREFIX{aID} (a hash of the windows and their counts) and
// PREFIX{aID}:slots (the search slots' leases), so that the one atomic
// script a request runs touches one slot of a Redis Cluster. Times are the
// caller's, never Redis's clock, as in the SQL stores.
package redis

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/rueidis"

	"signals/internal/store"
)

// Timeouts bound every Redis operation well under a second, so that a
// request finds out that Redis cannot be reached and is answered 503 within
// one second.
const (
	dialTimeout = 300 * time.Millisecond
	ioTimeout   = 300 * time.Millisecond
	opTimeout   = 500 * time.Millisecond
)

// DefaultPrefix starts every key the service writes.
const DefaultPrefix = "signals:"

// Store is a store whose quota counters live in Redis; everything else is
// the wrapped store's.
type Store struct {
	store.Store
	client rueidis.Client
	prefix string

	mu      sync.Mutex
	closed  bool
	touches map[string]time.Time // key id -> latest use not yet written
	stop    chan struct{}
	done    chan struct{}
}

// Error is a failure to reach Redis or to run a command there: the
// counters cannot be read or taken, so the request is answered 503.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Unreachable reports whether err is a failure of the Redis counters.
func Unreachable(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, &Error{Err: err})
}

// CheckURL reports whether rawURL is a setting that Open accepts, without
// connecting.
func CheckURL(rawURL string) error {
	_, err := parse(rawURL)
	return err
}

// parse reads a redis://, rediss:// or unix:// URL, several of them
// separated by commas (the seed nodes of a cluster), or a URL that names
// more nodes with addr= parameters.
func parse(rawURL string) (rueidis.ClientOption, error) {
	rawURL = strings.TrimSpace(rawURL)
	if rawURL == "" {
		return rueidis.ClientOption{}, errors.New("empty: set a redis:// or rediss:// URL")
	}
	parts := strings.Split(rawURL, ",")
	var first rueidis.ClientOption
	for i, p := range parts {
		o, err := rueidis.ParseURL(strings.TrimSpace(p))
		if err != nil {
			// A url.Error quotes the whole URL, its password included:
			// say only what is wrong with it.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return rueidis.ClientOption{}, fmt.Errorf("not a redis://, rediss:// or unix:// URL: %w", err)
		}
		if len(parts) > 1 && strings.HasPrefix(strings.TrimSpace(p), "unix:") {
			return rueidis.ClientOption{}, errors.New("a cluster's nodes are host:port addresses, not unix sockets")
		}
		if i == 0 {
			first = o
			continue
		}
		first.InitAddress = append(first.InitAddress, o.InitAddress...)
	}
	return first, nil
}

// Open connects to the Redis at rawURL (see parse) and returns st with its
// quota counters there, under keys starting with prefix. An address that
// answers as a node of a Redis Cluster is used as a seed of that cluster,
// whose other nodes the client discovers. Close closes st too.
//
// The client pipelines by itself: the scripts that concurrent requests run
// share a connection and its writes and reads, rather than each taking a
// connection of a pool for a round trip of its own.
func Open(ctx context.Context, rawURL string, st store.Store, prefix string) (*Store, error) {
	o, err := parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: open redis: %w", err)
	}
	tune(&o)
	client, err := rueidis.NewClient(o)
	if err != nil {
		return nil, fmt.Errorf("store: open redis: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := client.Do(cctx, client.B().Ping().Build()).Error(); err != nil {
		client.Close()
		return nil, fmt.Errorf("store: open redis: %w", err)
	}
	r := &Store{Store: st, client: client, prefix: prefix, touches: map[string]time.Time{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.writeTouches()
	return r, nil
}

// tune bounds the client's waits (see the timeouts) and turns off its
// retries: a script that was sent may have counted, and running it again
// would count twice. The counters are never cached on the client.
func tune(o *rueidis.ClientOption) {
	o.Dialer.Timeout = dialTimeout
	o.ConnWriteTimeout = ioTimeout
	o.DisableRetry = true
	o.DisableCache = true
	o.ClientSetInfo = rueidis.DisableClientSetInfo
}

// accountKey is the hash of an account's windows and counts; slotsKey is
// the sorted set of its search slots' leases. Both carry the account's hash
// tag.
func (r *Store) accountKey(id int64) string {
	return r.prefix + "{a" + strconv.FormatInt(id, 10) + "}"
}

func (r *Store) slotsKey(id int64) string { return r.accountKey(id) + ":slots" }

// Ping checks that the database and Redis both answer.
func (r *Store) Ping(ctx context.Context) error {
	if err := r.Store.Ping(ctx); err != nil {
		return err
	}
	return r.PingRedis(ctx)
}

// PingRedis checks that Redis answers.
func (r *Store) PingRedis(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	return wrap("ping redis", r.client.Do(ctx, r.client.B().Ping().Build()).Error())
}

// DeleteAccount deletes the account, then its counters, best effort: the
// account is gone either way, PostgreSQL never gives its id to another, and
// counters left behind expire with their day.
func (r *Store) DeleteAccount(ctx context.Context, id int64) error {
	if err := r.Store.DeleteAccount(ctx, id); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	r.client.Do(ctx, r.client.B().Del().Key(r.accountKey(id), r.slotsKey(id)).Build())
	return nil
}

// Close writes the pending last-used times, then closes Redis and the
// wrapped store.
func (r *Store) Close() error {
	r.mu.Lock()
	closed := r.closed
	r.closed = true
	r.mu.Unlock()
	if !closed {
		close(r.stop)
		<-r.done
	}
	r.client.Close()
	return r.Store.Close()
}
