package sqlstore

import (
	"fmt"
	"slices"
	"strings"

	"signals/internal/build"
)

// lastMigration, when set at link time
// (-ldflags "-X signals/internal/store/sqlstore.lastMigration=0009"), leaves
// out the migrations numbered after it: the build is then as it was before
// they were written. The tests make older builds this way.
var lastMigration string

// known keeps the migrations a build knows: all, unless lastMigration
// leaves the later ones out.
func known(all []Migration) []Migration {
	if lastMigration == "" {
		return all
	}
	return slices.DeleteFunc(all, func(m Migration) bool { return m.Version[:min(len(m.Version), 4)] > lastMigration })
}

// Newest is the version of the last migration of all: the schema version
// a build expects ("" for none).
func Newest(all []Migration) string {
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1].Version
}

// AppliedBy is what a build records beside each migration it applies.
func AppliedBy() string { return build.This().String() }

// NewerSchemaError refuses a database that holds migrations this build
// does not know: a newer build migrated it. Running on a schema it does
// not know, a build would fail in ways that say nothing of the cause.
type NewerSchemaError struct {
	// Unknown are the migrations applied that this build does not know.
	Unknown []string
	// By is the build that applied the newest of them, as it recorded
	// itself ("" when it did not).
	By string
	// Expects is the newest migration this build knows.
	Expects string
}

func (e *NewerSchemaError) Error() string {
	by := "a newer build of signals"
	if e.By != "" {
		by = e.By
	}
	return fmt.Sprintf("the database was migrated by %s: its schema has %s, which this build, %s, does not know "+
		"(it expects schema %s). Nothing was changed. Run that newer build against this database, "+
		"or restore a backup taken before the upgrade to go on with this one",
		by, strings.Join(e.Unknown, ", "), build.This(), e.Expects)
}

// CheckKnown refuses, with a NewerSchemaError, a database whose applied
// migrations (version to the build that applied it, "" when not recorded)
// include one that all does not name, neither as its version nor as one it
// was renumbered from.
func CheckKnown(applied map[string]string, all []Migration) error {
	names := map[string]bool{}
	for _, m := range all {
		names[m.Version] = true
		for _, w := range append(slices.Clone(m.Was), m.Retires...) {
			names[w] = true
		}
	}
	var unknown []string
	for v := range applied {
		if !names[v] {
			unknown = append(unknown, v)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return &NewerSchemaError{Unknown: unknown, By: applied[unknown[len(unknown)-1]], Expects: Newest(all)}
}
