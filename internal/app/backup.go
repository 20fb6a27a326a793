package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"signals/internal/store/sqlite"
)

// Backups of an SQLite database go through the process that serves it. That
// process holds state the file does not have yet: the daily usage history
// (written every 5 s; the quota counters on disk are reservations that
// already cover every request answered). Asked over a Unix socket beside
// the database, it writes the history and then copies the database, so the
// copy is current as of the moment it was asked; a
// signal-and-wait scheme would give no acknowledgement and no error. The
// socket is the serving user's alone (mode 0600), as the database is.

// ErrNoBackup means the store is not one this program copies.
var ErrNoBackup = errors.New("signals backup copies SQLite databases; back PostgreSQL up with pg_dump (see docs/postgresql.md)")

// ControlSocket is the Unix socket through which the process serving the
// SQLite database at path takes backups.
func ControlSocket(path string) string { return path + ".control" }

// Backup writes a consistent copy of the app's SQLite database to the new
// file path, with everything this process has counted so far.
func (a *App) Backup(ctx context.Context, path string) error {
	db, ok := a.store.(*sqlite.DB)
	if !ok {
		return ErrNoBackup
	}
	if err := a.usage.Flush(ctx); err != nil {
		return fmt.Errorf("backup: record daily usage: %w", err)
	}
	if err := db.Backup(ctx, path); err != nil {
		return err
	}
	a.log.Info("backup written", "file", path)
	return nil
}

// serveControl answers backup requests on the control socket until ctx is
// done. It serves only a process that claimed the database.
func (a *App) serveControl(ctx context.Context) (stop func()) {
	db, ok := a.store.(*sqlite.DB)
	if !ok || !a.claimed {
		return func() {}
	}
	path := ControlSocket(db.Path())
	os.Remove(path) // a socket left by a process that died; the serve lock is ours
	ln, err := net.Listen("unix", path)
	if err != nil {
		a.log.Warn("backup socket", "op", "listen", "path", path, "err", err)
		return func() {}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		a.log.Warn("backup socket", "op", "chmod", "path", path, "err", err)
		return func() {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /backup", func(w http.ResponseWriter, r *http.Request) {
		var req backupRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.File == "" {
			http.Error(w, "a JSON body with the backup file is required", http.StatusBadRequest)
			return
		}
		if err := a.Backup(r.Context(), req.File); err != nil {
			a.log.Error("backup", "file", req.File, "err", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	return func() {
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
		<-done
		os.Remove(path)
	}
}

type backupRequest struct {
	File string `json:"file"`
}

// BackupDatabase copies the SQLite database at database to the new file
// path. When a serve process holds the database, that process takes the
// copy, so that it holds every count made so far; otherwise this process
// opens the database and copies it. notice receives what the operator
// should know.
func BackupDatabase(ctx context.Context, database, path string, notice func(string)) error {
	if isPostgres(database) {
		return ErrNoBackup
	}
	served, err := backupThroughServer(ctx, database, path)
	if served || err != nil {
		return err
	}
	db, err := sqlite.Open(ctx, database)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.ClaimServing(); err != nil {
		if !errors.Is(err, sqlite.ErrServedElsewhere) {
			return err
		}
		notice("the serving process did not answer on " + ControlSocket(database) +
			"; the copy holds its daily usage history as last written (every 5 s)")
	}
	return db.Backup(ctx, path)
}

// backupThroughServer asks the process serving database for the copy; it
// reports false when no process answers.
func backupThroughServer(ctx context.Context, database, path string) (bool, error) {
	socket := ControlSocket(database)
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		},
	}}
	body, _ := json.Marshal(backupRequest{File: path})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://signals/backup", bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, nil // no server: the caller copies the file itself
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return true, fmt.Errorf("the serving process could not back up: %s", strings.TrimSpace(string(msg)))
	}
	return true, nil
}

// RestoreDatabase replaces the SQLite database at database by the backup at
// from, after checking the backup; it refuses while a serve process holds
// the database.
func RestoreDatabase(ctx context.Context, from, database string) error {
	if isPostgres(database) {
		return errors.New("signals restore replaces SQLite databases; restore PostgreSQL with pg_restore (see docs/postgresql.md)")
	}
	return sqlite.Restore(ctx, from, database)
}
