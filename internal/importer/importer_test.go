package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"signals/internal/model"
	"signals/internal/store/sqlite"
)

const good1 = `{"id":"a","tag":"job","source":"microblog","language":"en","country":"canada","author_name":"Ada","author_headline":"","source_url":"https://example.org/a","text":"Hiring ML engineers","published_at":"2026-10-01T10:00:00+02:00","published_at_precision":"minute","observed_at":"2026-10-01T08:05:00.123456789Z","status":"public","market_only":false}`
const good2 = `{"id":"b","tag":"funding","source":"tech_forum","language":"fr","country":null,"author_name":"Bea","source_url":"https://example.net/item?id=2","text":"Levée de fonds","published_at":"2026-10-02T10:00:00Z","published_at_precision":"day","observed_at":null}`

func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestImportValidFile(t *testing.T) {
	db := openDB(t)
	in := good1 + "\n\n" + good2 + "\r\n"
	res, err := Import(context.Background(), strings.NewReader(in), db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 2 || res.Lines != 2 {
		t.Errorf("result = %+v", res)
	}
	s, err := db.GetSignal(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	if s.PublishedAt.String() != "2026-10-01T08:00:00Z" || s.ObservedAt.String() != "2026-10-01T08:05:00.123456789Z" {
		t.Errorf("times = %s, %s", s.PublishedAt, s.ObservedAt)
	}
	// b defaults to pending: imported but not public.
	if n, _ := db.CountSignals(context.Background()); n != 2 {
		t.Errorf("count = %d", n)
	}
	if _, err := db.GetSignal(context.Background(), "b"); err == nil {
		t.Error("a signal imported without status is public; want pending")
	}
}

// TestImportCounts checks the report of a daily re-import: each id once,
// as new, updated or unchanged, and the ids on more than one line.
func TestImportCounts(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	if _, err := Import(ctx, strings.NewReader(good1+"\n"+good2+"\n"), db, Options{}); err != nil {
		t.Fatal(err)
	}
	good3 := strings.Replace(strings.Replace(good2, `"id":"b"`, `"id":"c"`, 1), "Levée", "Tour", 1)
	changed := strings.Replace(good2, "Levée de fonds", "Levée de fonds de 3 M€", 1)
	in := strings.Join([]string{good1, changed, good3, good3}, "\n")
	res, err := Import(ctx, strings.NewReader(in), db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.New != 1 || res.Updated != 1 || res.Unchanged != 1 || res.Imported != 3 || res.Lines != 4 ||
		len(res.Duplicates) != 1 || len(res.Duplicates["c"]) != 2 {
		t.Errorf("result = %+v, want c new, b updated, a unchanged, c twice", res)
	}
}

func TestImportInvalidFileWritesNothing(t *testing.T) {
	db := openDB(t)
	if _, err := Import(context.Background(), strings.NewReader(good1), db, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		strings.Replace(good2, `"id":"b"`, `"id":"c"`, 1),
		`{"id":"d","tag":"robots","source":"microblog","language":"en","author_name":"X","source_url":"ftp://x","text":"t","published_at":"2026-10-01","published_at_precision":"minute"}`,
		`not json`,
		strings.Replace(good1, `"id":"a"`, `"id":"a","extra":1`, 1),
		`{"tag":"job"}`,
		`[1,2]`,
		strings.Replace(good1, `"market_only":false`, `"market_only":"no"`, 1),
	}
	var errs bytes.Buffer
	res, err := Import(context.Background(), strings.NewReader(strings.Join(lines, "\n")), db, Options{Errors: &errs})
	if err != ErrInvalid {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if res.Invalid != 6 || res.Imported != 0 {
		t.Errorf("result = %+v", res)
	}
	for _, want := range []string{
		"line 2: tag: must be one of job, funding",
		"line 2: source_url: must be an absolute http or https URL",
		"line 2: published_at: must be an RFC 3339 timestamp",
		"line 3: line: invalid JSON",
		"line 4: extra: is not a field of a signal",
		"line 5: id: is required",
		"line 5: text: is required",
		"line 6: line: must be a JSON object",
		"line 7: market_only: must be a JSON boolean",
	} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, errs.String())
		}
	}
	if n, _ := db.CountSignals(context.Background()); n != 1 {
		t.Errorf("after a failed import the store holds %d signals, want the 1 it had", n)
	}
	s, _ := db.GetSignal(context.Background(), "a")
	if s.Text != "Hiring ML engineers" {
		t.Errorf("existing signal changed: %q", s.Text)
	}
}

func TestImportReportsOverlongLine(t *testing.T) {
	db := openDB(t)
	in := good1 + "\n" + `{"id":"` + strings.Repeat("x", MaxLineBytes) + `"}` + "\n" + good2
	var errs bytes.Buffer
	res, err := Import(context.Background(), strings.NewReader(in), db, Options{Errors: &errs})
	if err != ErrInvalid || res.Invalid != 1 || !strings.Contains(errs.String(), "line 2: line is longer than") {
		t.Errorf("err=%v res=%+v report=%s", err, res, errs.String())
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(good1))
	f.Add([]byte(good2))
	f.Add([]byte(`{"id":"","published_at":"2026-13-01T00:00:00Z"}`))
	f.Add([]byte(`{"id":"x","observed_at":"2026-10-01T00:00:00.1234567891Z"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		s, problems := Decode(line)
		if len(problems) == 0 {
			if errs := s.Validate(); len(errs) > 0 {
				t.Fatalf("accepted an invalid signal: %v", errs)
			}
			if s.PublishedAt.String() == "" {
				t.Fatal("accepted a signal without a publication time")
			}
			if _, err := model.ParseTime(s.PublishedAt.String()); err != nil {
				t.Fatalf("published_at %s does not round-trip: %v", s.PublishedAt, err)
			}
		}
	})
}

func TestImportReportsNUL(t *testing.T) {
	db := openDB(t)
	line := strings.Replace(good1, `"text":"Hiring ML engineers"`, `"text":"Hiring\u0000ML"`, 1)
	var errs bytes.Buffer
	res, err := Import(context.Background(), strings.NewReader(line), db, Options{Errors: &errs})
	if err != ErrInvalid || res.Invalid != 1 || !strings.Contains(errs.String(), "line 1: text: must not contain the NUL character") {
		t.Errorf("err=%v res=%+v report=%s", err, res, errs.String())
	}
}

// Text that is not Unicode is refused, never imported with U+FFFD in its
// place, and the whole file is refused with it.
func TestImportRefusesInvalidUTF8(t *testing.T) {
	db := openDB(t)
	lines := []string{
		good2,
		strings.Replace(good1, `"author_name":"Ada"`, "\"author_name\":\"A\xff\xfe\"", 1),
		strings.Replace(good1, `"author_headline":""`, `"author_headline":"x\ud800"`, 1),
		strings.Replace(good1, `"text":"Hiring ML engineers"`, `"text":"\udfff Hiring"`, 1),
		strings.Replace(good1, `"id":"a"`, "\"id\":\"a\xc3\"", 1),
		strings.Replace(good1, `"text":"Hiring ML engineers"`, `"text":"Hiring \ud83d\ude00"`, 1), // a pair is fine
	}
	var errs bytes.Buffer
	res, err := Import(context.Background(), strings.NewReader(strings.Join(lines, "\n")), db, Options{Errors: &errs})
	if err != ErrInvalid || res.Invalid != 4 {
		t.Errorf("err=%v res=%+v report=%s", err, res, errs.String())
	}
	for _, want := range []string{
		"line 2: author_name: invalid UTF-8",
		"line 3: author_headline: invalid UTF-8",
		"line 4: text: invalid UTF-8",
		"line 5: id: invalid UTF-8",
	} {
		if !strings.Contains(errs.String(), want+"\n") {
			t.Errorf("report lacks %q:\n%s", want, errs.String())
		}
	}
	if n, _ := db.CountSignals(context.Background()); n != 0 {
		t.Errorf("%d signals written; an invalid file writes nothing", n)
	}
}

// The ids "." and ".." are refused: URL encoders leave dots alone, so no
// path could read them. Ids that merely hold dots are fine.
func TestImportRefusesDotIDs(t *testing.T) {
	db := openDB(t)
	lines := []string{
		strings.Replace(good1, `"id":"a"`, `"id":"."`, 1),
		strings.Replace(good1, `"id":"a"`, `"id":".."`, 1),
		strings.Replace(good1, `"id":"a"`, `"id":"..."`, 1),
		strings.Replace(good1, `"id":"a"`, `"id":"a/../b"`, 1),
	}
	var errs bytes.Buffer
	res, err := Import(context.Background(), strings.NewReader(strings.Join(lines, "\n")), db, Options{Errors: &errs})
	if err != ErrInvalid || res.Invalid != 2 {
		t.Errorf("err=%v res=%+v report=%s", err, res, errs.String())
	}
	for _, want := range []string{`line 1: id: must not be "." or ".."`, `line 2: id: must not be "." or ".."`} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, errs.String())
		}
	}
	if _, err := Import(context.Background(), strings.NewReader(strings.Join(lines[2:], "\n")), db, Options{}); err != nil {
		t.Errorf("ids holding dots: %v", err)
	}
}
