package app

import (
	"context"
	"fmt"

	"signals/internal/store/postgres"
	"signals/internal/store/redis"
)

// checkRedis checks SIGNALS_REDIS_URL: a URL that parses, beside a
// PostgreSQL database. SQLite counts in its one serving process and needs
// no Redis.
func checkRedis(cfg Config) error {
	if cfg.RedisURL == "" {
		return nil
	}
	if !isPostgres(cfg.Database) {
		return fmt.Errorf("SIGNALS_REDIS_URL needs a PostgreSQL SIGNALS_DATABASE: with SQLite the counters live in its one serving process")
	}
	if err := redis.CheckURL(cfg.RedisURL); err != nil {
		return fmt.Errorf("SIGNALS_REDIS_URL: %w", err)
	}
	return nil
}

// openCounters moves the quota counters to Redis when SIGNALS_REDIS_URL is
// set: a.counters is then the store with its counters there, and a request
// that Redis cannot count is answered 503 like one the database cannot.
func (a *App) openCounters(ctx context.Context) error {
	if a.cfg.RedisURL == "" {
		return nil
	}
	r, err := redis.Open(ctx, a.cfg.RedisURL, a.store, redis.DefaultPrefix)
	if err != nil {
		return fmt.Errorf("SIGNALS_REDIS_URL: %w", err)
	}
	a.counters = r
	a.problems.Unreachable = func(err error) bool { return redis.Unreachable(err) || postgres.Unreachable(err) }
	a.log.Info("quota counters", "in", "redis")
	return nil
}
