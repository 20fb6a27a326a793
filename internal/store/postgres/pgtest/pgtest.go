// Package pgtest gives tests a fresh PostgreSQL schema on the server named
// by SIGNALS_TEST_POSTGRES. Without it tests skip, except under CI, where
// they fail: CI must run them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable holding the test server's connection string.
const EnvURL = "SIGNALS_TEST_POSTGRES"

// ServerURL returns the test server's connection string, or skips the test
// (fails it under CI) when there is none.
func ServerURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(EnvURL + " is not set, and CI requires the PostgreSQL tests")
		}
		t.Skip(EnvURL + " is not set; PostgreSQL tests skipped")
	}
	return u
}

// WithParam returns the connection string with one more parameter, in URL
// or keyword/value form.
func WithParam(conn, key, value string) string {
	if u, err := url.Parse(conn); err == nil && strings.Contains(conn, "://") {
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return conn + " " + key + "=" + value
}

// RandomName returns prefix followed by 16 random hex digits.
func RandomName(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Exec runs one statement on its own connection to the server.
func Exec(t testing.TB, conn, sql string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// sharedExtensions installs the extensions the migrations use in the
// public schema, once per server: a schema's migrations would otherwise
// install them in that schema, and dropping it would drop them for every
// other test. Tests in other processes may install them at the same time.
func sharedExtensions(t testing.TB, conn string) {
	t.Helper()
	extensionsOnce.Do(func() {
		ctx := context.Background()
		c, err := pgx.Connect(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		for range 3 {
			if _, err = c.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`); err == nil {
				return
			}
		}
		t.Fatalf("create extension pg_trgm: %v", err)
	})
}

var extensionsOnce sync.Once

// FreshSchema creates an empty schema, dropped when the test ends, and
// returns the connection string that selects it. Stores opened on it must
// be closed by cleanups registered later (they run first).
func FreshSchema(t testing.TB) string {
	t.Helper()
	base := ServerURL(t)
	schema := RandomName("signals_test_")
	sharedExtensions(t, base)
	Exec(t, base, `CREATE SCHEMA `+schema)
	t.Cleanup(func() { Exec(t, base, `DROP SCHEMA `+schema+` CASCADE`) })
	return WithParam(base, "search_path", schema)
}

// FreshDatabase creates an empty database on the server, dropped when the
// test ends, and returns the connection string that selects it: for a test
// that must make its database refuse connections without touching the
// tests that share the server's.
func FreshDatabase(t testing.TB) string {
	t.Helper()
	base := ServerURL(t)
	u, err := url.Parse(base)
	if err != nil || !strings.Contains(base, "://") {
		t.Fatalf("%s is not a URL: %v", EnvURL, err)
	}
	name := RandomName("signals_test_")
	Exec(t, base, `CREATE DATABASE `+name)
	t.Cleanup(func() { Exec(t, base, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`) })
	u.Path = "/" + name
	return u.String()
}
