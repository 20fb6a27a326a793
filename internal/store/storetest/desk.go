package storetest

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// runDesk runs the desk's tests.
func runDesk(t *testing.T, open Opener) {
	t.Run("DeskDecisionsAreLoggedAndKept", func(t *testing.T) { testDeskDecisions(t, open(t)) })
	t.Run("DeskTakedown", func(t *testing.T) { testDeskTakedown(t, open(t)) })
	t.Run("DeskQueueAndRoles", func(t *testing.T) { testDeskQueueAndRoles(t, open(t)) })
	t.Run("ImportModes", func(t *testing.T) { testImportModes(t, open(t)) })
}

func strp(s string) *string { return &s }

// An editor's decision changes the signal, is logged with what it was,
// and an import afterwards leaves the decided fields as the editor set
// them while it updates the others. A decision that changes nothing is
// not logged.
func testDeskDecisions(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	Put(t, st, Sig("p1", 1, func(s *model.Signal) { s.Status = model.StatusPending }), Sig("p2", 2))
	d, err := st.Decide(ctx, "p1", model.Change{Status: strp(model.StatusPublic), Tag: strp("job")}, "ed@example.org", "reviewed", now)
	if err != nil || d.Seq == 0 || d.Before["status"] != model.StatusPending || d.After["status"] != model.StatusPublic ||
		d.Before["tag"] != "funding" || d.After["tag"] != "job" {
		t.Fatalf("Decide = %+v, %v", d, err)
	}
	if got, err := st.GetSignal(ctx, "p1"); err != nil || got.Tag != "job" {
		t.Fatalf("after the decision: %+v, %v", got, err)
	}
	if again, err := st.Decide(ctx, "p1", model.Change{Tag: strp("job")}, "ed@example.org", "", now); err != nil || again.After != nil {
		t.Errorf("a decision that changes nothing: %+v, %v", again, err)
	}
	if _, err := st.Decide(ctx, "nope", model.Change{Tag: strp("job")}, "ed@example.org", "", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deciding an unknown id: %v", err)
	}
	// The file still says funding and pending, and has new text: the text
	// changes, the decided tag and status stay.
	Put(t, st, Sig("p1", 1, func(s *model.Signal) { s.Status = model.StatusPending; s.Text = "New text." }))
	got, err := st.DeskSignal(ctx, "p1")
	if err != nil || got.Tag != "job" || got.Status != model.StatusPublic || got.Text != "New text." {
		t.Errorf("after a re-import: %+v, %v", got, err)
	}
	// Undecided fields still follow the file.
	Put(t, st, Sig("p2", 2, func(s *model.Signal) { s.Tag = "events" }))
	if got, _ := st.DeskSignal(ctx, "p2"); got.Tag != "events" {
		t.Errorf("an undecided field: %+v", got)
	}
	log, err := st.DeskLog(ctx, model.LogQuery{SignalID: "p1"})
	if err != nil || len(log) != 1 || log[0].Editor != "ed@example.org" || log[0].Reason != "reviewed" ||
		log[0].Action != model.ActionSet || !log[0].At.Equal(now) {
		t.Errorf("DeskLog = %+v, %v", log, err)
	}
}

// A takedown removes the signal from every read, keeps a re-import from
// bringing it back, drops cached searches that matched it, and is undone
// by a restore; both are logged.
func testDeskTakedown(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	Put(t, st, Sig("gone", 1), Sig("stays", 2))
	if err := st.PutVectors(ctx, "m", map[string][]float32{"gone": {1, 0}, "stays": {0, 1}}); err != nil {
		t.Fatal(err)
	}
	r := store.CachedSearch{Matches: []store.Match{{ID: "gone", Relevance: 0.9}}, SearchedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := st.PutCachedSearch(ctx, "k", r); err != nil {
		t.Fatal(err)
	}
	other := store.CachedSearch{Matches: []store.Match{{ID: "stays", Relevance: 0.9}}, SearchedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := st.PutCachedSearch(ctx, "other", other); err != nil {
		t.Fatal(err)
	}
	gen, _ := st.Generation(ctx)
	d, err := st.TakeDown(ctx, "gone", model.Operator, "the author asked", now)
	if err != nil || d.Action != model.ActionDelete || d.Before["status"] != model.StatusPublic {
		t.Fatalf("TakeDown = %+v, %v", d, err)
	}
	if g, _ := st.Generation(ctx); g == gen {
		t.Error("a takedown does not move the generation")
	}
	if _, err := st.GetSignal(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetSignal after the takedown: %v", err)
	}
	if _, err := st.DeskSignal(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeskSignal after the takedown: %v", err)
	}
	if got, _ := list(t, st, model.ListQuery{}); !slices.Equal(got, []string{"stays"}) {
		t.Errorf("listed after the takedown: %v", got)
	}
	if _, ok, _ := st.CachedSearch(ctx, "k", now); ok {
		t.Error("a cached search that matched it is still served")
	}
	if _, ok, _ := st.CachedSearch(ctx, "other", now); !ok {
		t.Error("a cached search that did not match it is gone")
	}
	Put(t, st, Sig("gone", 1))
	if _, err := st.DeskSignal(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a re-import brought it back: %v", err)
	}
	if _, err := st.TakeDown(ctx, "gone", model.Operator, "again", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("taking down a taken-down id: %v", err)
	}
	d, err = st.Restore(ctx, "gone", "ed@example.org", "", now.Add(time.Minute))
	if err != nil || d.Action != model.ActionRestore {
		t.Fatalf("Restore = %+v, %v", d, err)
	}
	if got, err := st.GetSignal(ctx, "gone"); err != nil || got.Text != "Signal gone about AI funding." {
		t.Errorf("after the restore: %+v, %v", got, err)
	}
	// Its vector went with it, and is computed again.
	if need, err := st.SignalsNeedingVectors(ctx, "m", 100, 10, nil); err != nil || !slices.Equal(ids(need), []string{"gone"}) {
		t.Errorf("needing vectors after the restore: %v, %v", ids(need), err)
	}
	if _, err := st.Restore(ctx, "gone", "ed@example.org", "", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("restoring a signal that is there: %v", err)
	}
	log, err := st.DeskLog(ctx, model.LogQuery{SignalID: "gone"})
	if err != nil || len(log) != 2 || log[0].Action != model.ActionRestore || log[1].Action != model.ActionDelete ||
		log[1].Reason != "the author asked" || log[1].Editor != model.Operator {
		t.Errorf("DeskLog = %+v, %v", log, err)
	}
	if byEditor, _ := st.DeskLog(ctx, model.LogQuery{Editor: "ed@example.org"}); len(byEditor) != 1 {
		t.Errorf("the log by editor: %+v", byEditor)
	}
}

// The queue lists pending signals oldest first, whatever else is stored;
// roles are kept on the account.
func testDeskQueueAndRoles(t *testing.T, st store.Store) {
	ctx := context.Background()
	pending := func(s *model.Signal) { s.Status = model.StatusPending }
	Put(t, st, Sig("new", 3, pending), Sig("old", 1, pending), Sig("pub", 2),
		Sig("hid", 4, func(s *model.Signal) { s.Status = model.StatusHidden; s.Text = "Robots in Lyon." }))
	q, err := st.DeskSignals(ctx, model.DeskQuery{Status: model.StatusPending})
	if err != nil || !slices.Equal(ids(q), []string{"old", "new"}) {
		t.Errorf("the queue: %v, %v", ids(q), err)
	}
	if all, _ := st.DeskSignals(ctx, model.DeskQuery{}); len(all) != 4 {
		t.Errorf("every status: %v", ids(all))
	}
	if w, _ := st.DeskSignals(ctx, model.DeskQuery{Words: "ROBOTS"}); !slices.Equal(ids(w), []string{"hid"}) {
		t.Errorf("words: %v", ids(w))
	}
	a, err := st.CreateAccount(ctx, "ed@example.org", time.Now())
	if err != nil || a.Role != model.RoleReader {
		t.Fatalf("a new account: %+v, %v", a, err)
	}
	if err := st.SetRole(ctx, a.ID, model.RoleEditor); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.AccountByEmail(ctx, "ed@example.org"); got.Role != model.RoleEditor {
		t.Errorf("role %q, want editor", got.Role)
	}
	if err := st.SetRole(ctx, 9999, model.RoleEditor); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetRole of no account: %v", err)
	}
}

// new-only leaves stored signals as they are; overwrite replaces an
// editor's decisions and forgets them; no mode writes a taken-down id;
// each import tells which signals it wrote.
func testImportModes(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	wrote := func(mode store.ImportMode, want string, signals ...model.Signal) {
		t.Helper()
		got := slices.Sorted(maps.Keys(PutMode(t, st, mode, signals...)))
		if strings.Join(got, " ") != want {
			t.Errorf("%s import of %v wrote %v, want [%s]", cmp.Or(mode, "default"), ids(signals), got, want)
		}
	}
	wrote("", "a gone", Sig("a", 1), Sig("gone", 2))
	wrote("", "", Sig("a", 1), Sig("gone", 2))                                             // the same again: nothing written
	wrote("", "gone", Sig("a", 1), Sig("gone", 2, func(x *model.Signal) { x.Text = "x" })) // one changed
	if _, err := st.Decide(ctx, "a", model.Change{Tag: strp("events")}, model.Operator, "", now); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeDown(ctx, "gone", model.Operator, "asked", now); err != nil {
		t.Fatal(err)
	}
	text := func(s string) func(*model.Signal) { return func(x *model.Signal) { x.Text = s } }
	// The decided kind is kept: a file that differs only there writes nothing.
	wrote("", "", Sig("a", 1, func(x *model.Signal) { x.Tag = "job" }))
	wrote(store.ImportNewOnly, "b", Sig("a", 1, text("two")), Sig("b", 3), Sig("gone", 2))
	got, _ := st.DeskSignal(ctx, "a")
	if got.Text != "Signal a about AI funding." || got.Tag != "events" {
		t.Errorf("new-only changed a stored signal: %+v", got)
	}
	if _, err := st.DeskSignal(ctx, "b"); err != nil {
		t.Errorf("new-only did not add a new one: %v", err)
	}
	wrote(store.ImportOverwrite, "a", Sig("a", 1, text("three")), Sig("gone", 2))
	if got, _ := st.DeskSignal(ctx, "a"); got.Text != "three" || got.Tag != "funding" {
		t.Errorf("overwrite: %+v", got)
	}
	for _, mode := range store.ImportModes {
		wrote(mode, "", Sig("gone", 2))
		if _, err := st.DeskSignal(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s brought back a taken-down signal: %v", mode, err)
		}
	}
	// The overwritten decision is forgotten: the file rules again.
	Put(t, st, Sig("a", 1, func(x *model.Signal) { x.Tag = "job" }))
	if got, _ := st.DeskSignal(ctx, "a"); got.Tag != "job" {
		t.Errorf("after overwrite, the default import: %+v", got)
	}
}
