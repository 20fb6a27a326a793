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
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

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
	client goredis.UniversalClient
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

// debugLog passes the client's own messages (failed dials, mostly) to the
// default logger at debug level: a failure that costs a request is
// reported with it, as the error that the request was answered with.
type debugLog struct{}

func (debugLog) Printf(ctx context.Context, format string, v ...any) {
	slog.Default().DebugContext(ctx, "redis client", "message", fmt.Sprintf(format, v...))
}

func init() { goredis.SetLogger(debugLog{}) }

// settings is a parsed SIGNALS_REDIS_URL: one server, or a cluster's
// seed addresses.
type settings struct {
	single  *goredis.Options
	cluster *goredis.ClusterOptions
}

// CheckURL reports whether rawURL is a setting that Open accepts, without
// connecting.
func CheckURL(rawURL string) error {
	_, err := parse(rawURL)
	return err
}

// parse reads a redis://, rediss:// or unix:// URL, several of them
// separated by commas (the seed nodes of a cluster), or a URL that names
// more nodes with addr= parameters (go-redis's cluster URL).
func parse(rawURL string) (settings, error) {
	rawURL = strings.TrimSpace(rawURL)
	if rawURL == "" {
		return settings{}, errors.New("empty: set a redis:// or rediss:// URL")
	}
	parts := strings.Split(rawURL, ",")
	if len(parts) == 1 {
		u, err := url.Parse(rawURL)
		if err != nil {
			return settings{}, errors.New("not a URL: use redis://host:port, rediss://host:port or unix:///path")
		}
		if u.Query().Has("addr") {
			o, err := goredis.ParseClusterURL(rawURL)
			if err != nil {
				return settings{}, err
			}
			return settings{cluster: o}, nil
		}
		o, err := goredis.ParseURL(rawURL)
		if err != nil {
			return settings{}, err
		}
		return settings{single: o}, nil
	}
	var first *goredis.Options
	var addrs []string
	for _, p := range parts {
		o, err := goredis.ParseURL(strings.TrimSpace(p))
		if err != nil {
			return settings{}, err
		}
		if o.Network == "unix" {
			return settings{}, errors.New("a cluster's nodes are host:port addresses, not unix sockets")
		}
		if first == nil {
			first = o
		}
		addrs = append(addrs, o.Addr)
	}
	return settings{cluster: clusterOf(first, addrs)}, nil
}

// clusterOf returns the options of a cluster client seeded with addrs and
// connecting as o does.
func clusterOf(o *goredis.Options, addrs []string) *goredis.ClusterOptions {
	return &goredis.ClusterOptions{Addrs: addrs, Username: o.Username, Password: o.Password,
		TLSConfig: o.TLSConfig, ClientName: o.ClientName}
}

// Open connects to the Redis at rawURL (see parse) and returns st with its
// quota counters there, under keys starting with prefix. A single address
// that answers as a node of a Redis Cluster is used as a seed of that
// cluster, whose other nodes the client discovers. Close closes st too.
func Open(ctx context.Context, rawURL string, st store.Store, prefix string) (*Store, error) {
	s, err := parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("store: open redis: %w", err)
	}
	var client goredis.UniversalClient
	if s.single != nil {
		tune(s.single)
		single := goredis.NewClient(s.single)
		clustered, err := isCluster(ctx, single)
		if err != nil {
			single.Close()
			return nil, fmt.Errorf("store: open redis: %w", err)
		}
		client = single
		if clustered && s.single.Network != "unix" {
			single.Close()
			s.cluster = clusterOf(s.single, []string{s.single.Addr})
		}
	}
	if s.cluster != nil {
		tuneCluster(s.cluster)
		client = goredis.NewClusterClient(s.cluster)
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if err := client.Ping(cctx).Err(); err != nil {
			client.Close()
			return nil, fmt.Errorf("store: open redis cluster: %w", err)
		}
	}
	r := &Store{Store: st, client: client, prefix: prefix, touches: map[string]time.Time{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.writeTouches()
	return r, nil
}

// isCluster asks the server whether it runs in cluster mode.
func isCluster(ctx context.Context, c *goredis.Client) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	info, err := c.Info(ctx, "cluster").Result()
	if err != nil {
		return false, err
	}
	return strings.Contains(info, "cluster_enabled:1"), nil
}

// tune bounds a client's waits (see the timeouts) and turns off its own
// retries: a script that was sent may have counted, and running it again
// would count twice.
func tune(o *goredis.Options) {
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = dialTimeout, ioTimeout, ioTimeout, ioTimeout
	o.ContextTimeoutEnabled = true
	o.MaxRetries, o.DialerRetries = -1, 1
	o.DisableIdentity = true
}

func tuneCluster(o *goredis.ClusterOptions) {
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = dialTimeout, ioTimeout, ioTimeout, ioTimeout
	o.ContextTimeoutEnabled = true
	o.MaxRetries, o.DialerRetries = -1, 1
	o.DisableIdentity = true
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
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	return wrap("ping redis", r.client.Ping(ctx).Err())
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
	r.client.Del(ctx, r.accountKey(id), r.slotsKey(id))
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
	return errors.Join(r.client.Close(), r.Store.Close())
}
