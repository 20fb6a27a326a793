package app_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/store/sqlite"
	"signals/internal/store/storetest"
)

// dump reads the rows a backup must hold from the SQLite file at path.
func dump(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string][]string{}
	for name, query := range map[string]string{
		"signals":  `SELECT id || ' ' || status || ' ' || revision FROM signals`,
		"accounts": `SELECT id || ' ' || email FROM accounts`,
		"keys":     `SELECT id || ' ' || hex(hash) FROM api_keys`,
		"cache":    `SELECT key FROM search_cache`,
		"counters": `SELECT account_id || ' ' || day_used || ' ' || searches_used FROM usage`,
	} {
		rows, err := db.Query(query)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out[name] = append(out[name], s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		slices.Sort(out[name])
	}
	return out
}

// servedApp serves a fresh SQLite database as signals serve does, with its
// backup socket, until the test ends.
func servedApp(t *testing.T) (*app.App, string) {
	t.Helper()
	if strings.HasPrefix(os.Getenv("SIGNALS_TEST_BACKEND"), "postgres") {
		t.Skip("backup and restore copy SQLite files; PostgreSQL uses pg_dump")
	}
	cfg := apptest.Config(t)
	a, err := app.New(context.Background(), cfg, apptest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.ClaimServing(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
		a.Close()
	})
	// Serve has started once its backup socket answers.
	for range 200 {
		if c, err := net.Dial("unix", app.ControlSocket(cfg.Database)); err == nil {
			c.Close()
			break
		}
		time.Sleep(10 * time.Millisecond) // waiting for a goroutine to listen, not timing
	}
	return a, "http://" + ln.Addr().String()
}

func TestBackupUnderLoadRestoresTheMomentOfTheBackup(t *testing.T) {
	t.Parallel()
	a, base := servedApp(t)
	ctx := context.Background()
	database := a.ConfigUsed().Database
	var keys []string
	for i := range 3 {
		acct, err := a.Store().CreateAccount(ctx, fmt.Sprintf("user%d@example.com", i), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		key, _, err := auth.Issue(ctx, a.Store(), acct.ID, "load", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	storetest.Put(t, a.Store(), storetest.Sig("first", 1), storetest.Sig("second", 2))
	request := func(key, method, path, body string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	request(keys[0], http.MethodPost, "/api/v1/signals/search", `{"query":"AI funding"}`) // a search-cache row

	// Load: requests on every account and imports, until the backup is done.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, key := range keys {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				request(key, http.MethodGet, "/api/v1/signals", "")
			}
		})
	}
	wg.Go(func() {
		for batch := 0; ; batch++ {
			select {
			case <-stop:
				return
			default:
			}
			var sigs []model.Signal
			for i := range 50 {
				sigs = append(sigs, storetest.Sig(fmt.Sprintf("import-%d-%d", batch, i), 10+i))
			}
			storetest.Put(t, a.Store(), sigs...)
		}
	})
	time.Sleep(100 * time.Millisecond) // let the load run; correctness does not depend on it

	before := dump(t, database)
	counted := map[int64]int{} // requests counted in memory before the backup
	for i := range keys {
		acct, _ := a.Store().AccountByEmail(ctx, fmt.Sprintf("user%d@example.com", i))
		u, err := a.Store().Usage(ctx, acct.ID, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		counted[acct.ID] = u.DayUsed
	}
	file := filepath.Join(t.TempDir(), "backup.db")
	var notices []string
	if err := app.BackupDatabase(ctx, database, file, func(s string) { notices = append(notices, s) }); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if len(notices) > 0 {
		t.Errorf("the backup did not go through the serving process: %v", notices)
	}
	after := dump(t, database)
	backup := dump(t, file)

	for _, table := range []string{"signals", "accounts", "keys", "cache"} {
		for _, row := range before[table] {
			if !slices.Contains(backup[table], row) {
				t.Errorf("%s: %q was there before the backup, not in it", table, row)
			}
		}
		for _, row := range backup[table] {
			if !slices.Contains(after[table], row) {
				t.Errorf("%s: %q is in the backup but was never in the database", table, row)
			}
		}
	}
	for _, row := range backup["counters"] {
		var id int64
		var used, searches int
		fmt.Sscanf(row, "%d %d %d", &id, &used, &searches)
		if used < counted[id] {
			t.Errorf("account %d: the backup holds %d requests, %d were counted before it", id, used, counted[id])
		}
	}
	if len(backup["counters"]) != len(keys) || len(backup["cache"]) != 1 {
		t.Errorf("backup counters %v, cache %v", backup["counters"], backup["cache"])
	}

	// Restore into a fresh file: it holds exactly the backup.
	fresh := filepath.Join(t.TempDir(), "restored.db")
	if err := app.RestoreDatabase(ctx, file, fresh); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(backup, dump(t, fresh)); diff != "" {
		t.Errorf("restored database (-backup +restored):\n%s", diff)
	}
}

func TestRestoreRefusals(t *testing.T) {
	t.Parallel()
	a, _ := servedApp(t)
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "backup.db")
	if err := a.Backup(ctx, file); err != nil {
		t.Fatal(err)
	}
	if err := a.Backup(ctx, file); err == nil {
		t.Error("a backup overwrote an existing file")
	}
	garbage := filepath.Join(t.TempDir(), "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	tests := []struct {
		name, from, to string
		want           string
	}{
		{"while serve holds the database", file, a.ConfigUsed().Database, "stop it before restoring"},
		{"not a database", garbage, fresh, "not a database"},
		{"missing backup", filepath.Join(t.TempDir(), "none.db"), fresh, "no such file"},
		{"postgres", file, "postgres://localhost/signals", "pg_restore"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := app.RestoreDatabase(ctx, tt.from, tt.to)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if !errors.Is(app.RestoreDatabase(ctx, file, a.ConfigUsed().Database), sqlite.ErrServing) {
		t.Error("restore under serve is not ErrServing")
	}
}
