package app

import (
	"fmt"
	"os"
	"path/filepath"

	"signals/internal/store/postgres"
)

// Check reports the first setting of cfg that cannot work, changing
// nothing: it creates no file and opens no database, connection or port. serve runs it before it binds
// its port, so that a mistyped setting is reported at once, whatever holds
// the port; New runs it too.
func Check(cfg Config) error {
	if err := checkDatabase(cfg.Database); err != nil {
		return err
	}
	if err := checkRedis(cfg); err != nil {
		return err
	}
	mc, err := mailSettings(cfg)
	if err != nil {
		return err
	}
	if _, err := securityContact(cfg.SecurityContact, mc.From); err != nil {
		return err
	}
	if _, err := contactEmail(cfg.ContactEmail); err != nil {
		return err
	}
	return checkSearch(cfg.Search)
}

// checkDatabase checks that database is a PostgreSQL URL that parses, or
// a SQLite file in a folder that exists.
func checkDatabase(database string) error {
	if database == "" {
		return fmt.Errorf("SIGNALS_DATABASE is empty: set a SQLite file path or a postgres:// URL")
	}
	if isPostgres(database) {
		if err := postgres.CheckURL(database); err != nil {
			return fmt.Errorf("SIGNALS_DATABASE: %w", err)
		}
		return nil
	}
	dir := filepath.Dir(database)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("SIGNALS_DATABASE %q: the folder %s does not exist", database, dir)
	}
	return nil
}

// checkSearch checks the scorer's settings without building it: the
// builtin scorer has none, and building it decodes its vectors.
func checkSearch(c SearchConfig) error {
	if c.Provider == "" || c.Provider == "builtin" {
		return nil
	}
	_, err := NewScorer(c)
	return err
}
