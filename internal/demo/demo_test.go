package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"signals/internal/model"
)

// importFields are the fields of an import line (docs/operating.md, the import format); the demo file
// writes every one of them on every line.
var importFields = []string{
	"id", "tag", "source", "language", "country", "author_name", "author_headline", "source_url",
	"text", "published_at", "published_at_precision", "observed_at", "status", "market_only",
}

// decodeRecord decodes one import line strictly: unknown fields, missing
// fields and trailing data are errors.
func decodeRecord(line []byte) (model.Signal, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return model.Signal{}, err
	}
	for _, f := range importFields {
		if _, ok := fields[f]; !ok {
			return model.Signal{}, fmt.Errorf("%s: missing", f)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var r record
	if err := dec.Decode(&r); err != nil {
		return model.Signal{}, err
	}
	if dec.More() {
		return model.Signal{}, errors.New("more than one JSON value on the line")
	}
	s := model.Signal{
		ID: r.ID, Tag: r.Tag, Source: r.Source, Language: r.Language,
		AuthorName: r.AuthorName, AuthorHeadline: r.AuthorHeadline, SourceURL: r.SourceURL,
		Text: r.Text, TextChars: model.Chars(r.Text), PublishedAtPrecision: r.PublishedAtPrecision,
		Status: r.Status, MarketOnly: r.MarketOnly,
	}
	if r.Country != nil {
		if *r.Country == "" {
			return model.Signal{}, errors.New("country: empty string instead of null")
		}
		s.Country = *r.Country
	}
	var err error
	if s.PublishedAt, err = model.ParseTime(r.PublishedAt); err != nil {
		return model.Signal{}, fmt.Errorf("published_at: %v", err)
	}
	if r.ObservedAt != nil {
		t, err := model.ParseTime(*r.ObservedAt)
		if err != nil {
			return model.Signal{}, fmt.Errorf("observed_at: %v", err)
		}
		s.ObservedAt = &t
	}
	return s, nil
}

// readAll decodes and validates every line of r.
func readAll(t *testing.T, r io.Reader) []model.Signal {
	t.Helper()
	var out []model.Signal
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		s, err := decodeRecord(line)
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		for _, e := range s.Validate() {
			t.Errorf("line %d: %v", n, e)
		}
		again, err := EncodeRecord(s)
		if err != nil {
			t.Fatalf("line %d: EncodeRecord: %v", n, err)
		}
		if !bytes.Equal(again, line) {
			t.Errorf("line %d does not survive a decode/encode round trip:\n got %s\nwant %s", n, again, line)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func demoSignals(t *testing.T) []model.Signal {
	t.Helper()
	signals := readAll(t, Records())
	if len(signals) < 330 {
		t.Fatalf("demo data has %d signals, want at least 330", len(signals))
	}
	return signals
}

func count[T comparable](signals []model.Signal, key func(model.Signal) T) map[T]int {
	m := map[T]int{}
	for _, s := range signals {
		m[key(s)]++
	}
	return m
}

func TestRecordsDecodeValidateAndAreUnique(t *testing.T) {
	signals := demoSignals(t)
	ids := count(signals, func(s model.Signal) string { return s.ID })
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q used %d times", id, n)
		}
	}
}

func TestRecordsCoverage(t *testing.T) {
	signals := demoSignals(t)
	atLeast := func(what string, got, want int) {
		t.Helper()
		if got < want {
			t.Errorf("%s: %d, want at least %d", what, got, want)
		}
	}

	tags := count(signals, func(s model.Signal) string { return s.Tag })
	for _, tag := range model.Tags {
		atLeast("tag "+tag, tags[tag], 35)
	}
	sources := count(signals, func(s model.Signal) string { return s.Source })
	for _, src := range model.Sources {
		atLeast("source "+src, sources[src], 50)
	}
	langs := count(signals, func(s model.Signal) string { return s.Language })
	atLeast("language en (majority)", langs["en"], len(signals)/2+1)
	atLeast("language fr", langs["fr"], 40)
	atLeast("language other", langs["other"], 10)

	status := count(signals, func(s model.Signal) string {
		if s.Status == model.StatusPublic && s.MarketOnly {
			return "public, market only"
		}
		return s.Status
	})
	atLeast("status public (majority)", status[model.StatusPublic], len(signals)*3/4)
	atLeast("status hidden", status[model.StatusHidden], 8)
	atLeast("status pending", status[model.StatusPending], 8)
	atLeast("public but market_only", status["public, market only"], 8)

	countries := count(signals, func(s model.Signal) string { return s.Country })
	atLeast("countries", len(countries)-1, 12)
	atLeast("null countries", countries[""], 10)

	long := 0
	lengths := map[string]int{}
	for _, s := range signals {
		switch n := s.TextChars; {
		case n > model.MaxTextChars:
			long++
		case n < 150:
			lengths["short"]++
		case n <= 1200:
			lengths["usual"]++
		}
	}
	atLeast("texts longer than 16,000 code points", long, 3)
	atLeast("very short texts", lengths["short"], 3)
	atLeast("texts of 150 to 1,200 characters (most)", lengths["usual"], len(signals)*3/4)

	precisions := count(signals, func(s model.Signal) string { return s.PublishedAtPrecision })
	atLeast("precision second+minute (most)", precisions["second"]+precisions["minute"], len(signals)*2/3)
	for _, p := range []string{"hour", "day", "week", "month"} {
		atLeast("precision "+p, precisions[p], 3)
	}

	digits := count(signals, func(s model.Signal) int {
		if s.ObservedAt == nil {
			return -1
		}
		return s.ObservedAt.Digits
	})
	for _, d := range []int{0, 3, 6, 9} {
		atLeast(fmt.Sprintf("observed_at with %d fractional digits", d), digits[d], 20)
	}
	if n := digits[-1]; n*100 < len(signals)*3 || n*100 > len(signals)*8 {
		t.Errorf("null observed_at: %d of %d, want about 5%%", n, len(signals))
	}
}

func TestRecordsTimes(t *testing.T) {
	end := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	start := end.AddDate(0, 0, -56)
	for _, s := range demoSignals(t) {
		pub := s.PublishedAt.Time()
		// A week or month precision may start before the window.
		if pub.Before(start.AddDate(0, -1, 0)) || !pub.Before(end) {
			t.Errorf("%s: published_at %s outside the eight weeks before %s", s.ID, s.PublishedAt, end)
		}
		var cut time.Time
		switch s.PublishedAtPrecision {
		case "second":
			cut = pub.Truncate(time.Second)
		case "minute":
			cut = pub.Truncate(time.Minute)
		case "hour":
			cut = pub.Truncate(time.Hour)
		case "day":
			cut = time.Date(pub.Year(), pub.Month(), pub.Day(), 0, 0, 0, 0, time.UTC)
		case "week":
			cut = time.Date(pub.Year(), pub.Month(), pub.Day(), 0, 0, 0, 0, time.UTC)
			if pub.Weekday() != time.Monday {
				t.Errorf("%s: week precision on a %s", s.ID, pub.Weekday())
			}
		case "month":
			cut = time.Date(pub.Year(), pub.Month(), 1, 0, 0, 0, 0, time.UTC)
		}
		if !pub.Equal(cut) {
			t.Errorf("%s: published_at %s has more detail than its precision %s", s.ID, s.PublishedAt, s.PublishedAtPrecision)
		}
		if s.ObservedAt != nil && !s.ObservedAt.Time().After(pub) {
			t.Errorf("%s: observed_at %s not after published_at %s", s.ID, s.ObservedAt, s.PublishedAt)
		}
	}
}

func TestRecordsIDsAndLinks(t *testing.T) {
	signals := demoSignals(t)
	needEncoding := map[string]bool{"/": false, ":": false, "?": false, "#": false, "%": false, "+": false, " ": false, "non-ASCII": false}
	plain := 0
	for _, s := range signals {
		for k := range needEncoding {
			if strings.Contains(s.ID, k) {
				needEncoding[k] = true
			}
		}
		if strings.IndexFunc(s.ID, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
			needEncoding["non-ASCII"] = true
		}
		if len(s.ID) == len("pn-2026-10-0001") && s.ID[2] == '-' && s.ID[7] == '-' && s.ID[10] == '-' {
			plain++
		}

		u, err := url.Parse(s.SourceURL)
		if err != nil {
			t.Errorf("%s: %v", s.ID, err)
			continue
		}
		want := map[string]string{
			"professional_network": "example.com/in/posts/",
			"microblog":            "example.org/@",
			"tech_forum":           "example.net/item",
		}[s.Source]
		if u.Scheme != "https" || !strings.HasPrefix(u.Host+u.Path, want) {
			t.Errorf("%s: source_url %s, want https://%s… for %s", s.ID, s.SourceURL, want, s.Source)
		}
	}
	for k, seen := range needEncoding {
		if !seen {
			t.Errorf("no id contains %q", k)
		}
	}
	if plain*2 < len(signals) {
		t.Errorf("%d plain ids like pn-2026-10-0001, want most of %d", plain, len(signals))
	}
}

// The service must treat text as untrusted; the demo data carries the
// usual attempts so that every surface is exercised.
func TestRecordsCarryUntrustedContent(t *testing.T) {
	signals := demoSignals(t)
	public := slices.DeleteFunc(slices.Clone(signals), func(s model.Signal) bool { return !s.Public() })
	for _, needle := range []string{
		"Ignore previous instructions", "<script>alert(1)</script>", "](javascript:", "**", "onerror=",
	} {
		if !slices.ContainsFunc(public, func(s model.Signal) bool { return strings.Contains(s.Text, needle) }) {
			t.Errorf("no public text contains %q", needle)
		}
	}
	scripts := map[string]*unicode.RangeTable{"Han": unicode.Han, "Hiragana": unicode.Hiragana, "Arabic": unicode.Arabic}
	for name, table := range scripts {
		if !slices.ContainsFunc(signals, func(s model.Signal) bool {
			return strings.ContainsFunc(s.Text, func(r rune) bool { return unicode.Is(table, r) })
		}) {
			t.Errorf("no text uses the %s script", name)
		}
	}
	emoji := 0
	for _, s := range signals {
		if strings.ContainsFunc(s.Text, func(r rune) bool { return r >= 0x1F300 && r <= 0x1FAFF }) {
			emoji++
		}
	}
	if emoji < 20 {
		t.Errorf("%d texts with emoji, want at least 20", emoji)
	}
}

func TestEncodeRecord(t *testing.T) {
	obs, _ := model.ParseTime("2026-10-01T12:00:00.120Z")
	base := model.Signal{
		ID: "a b/c", Tag: "job", Source: "microblog", Language: "en", AuthorName: "A",
		SourceURL: "https://example.org/@a/1", Text: "<b>hi</b> & bye",
		PublishedAt: model.TimeOf(time.Date(2026, 10, 1, 9, 30, 0, 0, time.UTC), 0), PublishedAtPrecision: "minute",
		Status: "public",
	}
	tests := []struct {
		name string
		edit func(*model.Signal)
		want string
	}{
		{
			name: "nulls",
			edit: func(*model.Signal) {},
			want: `{"id":"a b/c","tag":"job","source":"microblog","language":"en","country":null,"author_name":"A","author_headline":"","source_url":"https://example.org/@a/1","text":"<b>hi</b> & bye","published_at":"2026-10-01T09:30:00Z","published_at_precision":"minute","observed_at":null,"status":"public","market_only":false}`,
		},
		{
			name: "values keep their precision",
			edit: func(s *model.Signal) { s.Country = "france"; s.ObservedAt = &obs; s.MarketOnly = true },
			want: `{"id":"a b/c","tag":"job","source":"microblog","language":"en","country":"france","author_name":"A","author_headline":"","source_url":"https://example.org/@a/1","text":"<b>hi</b> & bye","published_at":"2026-10-01T09:30:00Z","published_at_precision":"minute","observed_at":"2026-10-01T12:00:00.120Z","status":"public","market_only":true}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			got, err := EncodeRecord(s)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("EncodeRecord:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	t.Run("invalid UTF-8", func(t *testing.T) {
		s := base
		s.Text = "bad \xff"
		if _, err := EncodeRecord(s); err == nil {
			t.Error("EncodeRecord accepted invalid UTF-8")
		}
	})
}

func TestSyntheticValidAndVaried(t *testing.T) {
	const n = 5000
	var signals []model.Signal
	for s := range Synthetic(n, 7) {
		for _, e := range s.Validate() {
			t.Fatalf("%s: %v", s.ID, e)
		}
		if s.TextChars != model.Chars(s.Text) || s.TextChars < syntheticMinChars || s.TextChars > syntheticMaxChars {
			t.Fatalf("%s: text of %d code points (TextChars %d), want %d to %d", s.ID, model.Chars(s.Text), s.TextChars, syntheticMinChars, syntheticMaxChars)
		}
		if strings.Contains(s.Text, "{") {
			t.Fatalf("%s: unfilled placeholder in %q", s.ID, s.Text)
		}
		signals = append(signals, s)
	}
	if len(signals) != n {
		t.Fatalf("got %d signals, want %d", len(signals), n)
	}
	for what, values := range map[string][]string{"tag": model.Tags, "source": model.Sources, "language": model.Languages, "precision": model.Precisions} {
		seen := count(signals, func(s model.Signal) string {
			return map[string]string{"tag": s.Tag, "source": s.Source, "language": s.Language, "precision": s.PublishedAtPrecision}[what]
		})
		for _, v := range values {
			if seen[v] < 5 {
				t.Errorf("%s %s: %d signals", what, v, seen[v])
			}
		}
	}
	if c := count(signals, func(s model.Signal) string { return s.Country }); len(c) < 30 || c[""] == 0 {
		t.Errorf("%d distinct countries (null: %d), want at least 30 and some null", len(c), c[""])
	}
	if ids := count(signals, func(s model.Signal) string { return s.ID }); len(ids) != n {
		t.Errorf("%d distinct ids for %d signals", len(ids), n)
	}
	public := count(signals, func(s model.Signal) bool { return s.Public() })[true]
	if public*100 < n*85 || public*100 > n*95 {
		t.Errorf("%d of %d public, want about 90%%", public, n)
	}
}

func TestSyntheticDeterministic(t *testing.T) {
	encode := func(seed int64) []byte {
		var buf bytes.Buffer
		if err := WriteSynthetic(&buf, 500, seed); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := encode(42), encode(42)
	if !bytes.Equal(a, b) {
		t.Error("same seed gave different output")
	}
	if bytes.Equal(a, encode(43)) {
		t.Error("different seeds gave the same output")
	}
	got := readAll(t, bytes.NewReader(a))
	if len(got) != 500 {
		t.Errorf("WriteSynthetic wrote %d lines, want 500", len(got))
	}
	i := 0
	for s := range Synthetic(500, 42) {
		if !equalSignals(s, got[i]) {
			t.Fatalf("signal %d differs between Synthetic and WriteSynthetic:\n%+v\n%+v", i, s, got[i])
		}
		i++
	}
}

func TestSyntheticStopsEarly(t *testing.T) {
	n := 0
	for range Synthetic(1000, 1) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("iterated %d times, want 3", n)
	}
}

func equalSignals(a, b model.Signal) bool {
	if (a.ObservedAt == nil) != (b.ObservedAt == nil) || a.ObservedAt != nil && *a.ObservedAt != *b.ObservedAt {
		return false
	}
	a.ObservedAt, b.ObservedAt = nil, nil
	return a == b
}

func BenchmarkSynthetic(b *testing.B) {
	for b.Loop() {
		for range Synthetic(1000, 1) {
		}
	}
}

// The article for agents gives the page sizes of a Markdown feed view as
// the listing has them: a default page, and the most one page holds.
func TestAgentArticlePageSizes(t *testing.T) {
	b, err := fs.ReadFile(Articles(), "signals-for-agents.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		fmt.Sprintf("%d snippets by default", model.DefaultPageSize),
		fmt.Sprintf("up to %d with `page_size=%d`", model.MaxPageSize, model.MaxPageSize),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the article does not say %q", want)
		}
	}
}
