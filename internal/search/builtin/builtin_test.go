package builtin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/search/searchtest"
)

var sampleDocs = []search.Candidate{
	{ID: "job", Text: "We're hiring a senior machine learning engineer to build our LLM platform in Paris. Remote friendly, competitive salary.", Tag: "job", Country: "france"},
	{ID: "funding", Text: "Acme Robotics raised $40M in a Series B led by Example Ventures to scale its warehouse picking robots.", Tag: "funding"},
	{ID: "launch", Text: "Just launched our AI code assistant: it writes unit tests for your pull requests. Try it free today!", Tag: "product_launch"},
	{ID: "event", Text: "Join us at the Paris AI meetup next Thursday evening: talks on retrieval-augmented generation and agents, pizza included.", Tag: "events", Country: "france"},
	{ID: "fr-job", Text: "Nous recrutons un ingénieur en apprentissage automatique à Lyon, CDI, télétravail partiel.", Tag: "job", Country: "france"},
	{ID: "feedback", Text: "Tried the new chatbot for customer support: slow answers and it invents facts. Disappointed so far.", Tag: "product_feedback"},
}

// sampleCandidates returns sampleDocs with their vectors.
func sampleCandidates(t testing.TB, s search.Scorer) []search.Candidate {
	t.Helper()
	texts := make([]string, len(sampleDocs))
	for i, d := range sampleDocs {
		texts[i] = d.Text
	}
	vs, err := s.EmbedDocuments(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	cands := slices.Clone(sampleDocs)
	for i := range cands {
		cands[i].Vector = vs[i]
	}
	return cands
}

func TestBuiltinEmbedDocuments(t *testing.T) {
	b := mustBuiltin(t)
	tests := []struct {
		name     string
		text     string
		wantZero bool
	}{
		{"english", "robots in warehouses", false},
		{"french", "levée de fonds pour une jeune pousse", false},
		{"stop words only", "the of and", true},
		{"unknown words only", "zzqxj qqqzv", true},
		{"empty", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs, err := b.EmbedDocuments(context.Background(), []string{tc.text})
			if err != nil {
				t.Fatal(err)
			}
			v := vs[0]
			if len(v) != 100 {
				t.Fatalf("dims = %d", len(v))
			}
			var n, proj float64
			for i, x := range v {
				n += float64(x) * float64(x)
				proj += float64(x) * float64(b.vec.pc[i])
			}
			if tc.wantZero {
				if n != 0 {
					t.Errorf("norm² = %v, want 0", n)
				}
				return
			}
			if math.Abs(n-1) > 1e-5 {
				t.Errorf("norm² = %v, want 1", n)
			}
			if math.Abs(proj) > 1e-5 {
				t.Errorf("projection on the common component = %v, want 0", proj)
			}
		})
	}
}

func TestBuiltinEmbedCutsAndCancels(t *testing.T) {
	b := mustBuiltin(t)
	base := strings.Repeat("robot ", search.CandidateChars/6)
	long := base + strings.Repeat("funding ", 500)
	vs, err := b.EmbedDocuments(context.Background(), []string{model.Cut(long, search.CandidateChars), long})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(vs[0]) != fmt.Sprint(vs[1]) {
		t.Error("text beyond the first 1,000 code points changed the vector")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.EmbedDocuments(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := b.Score(ctx, "robots", sampleCandidates(t, b)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Score: err = %v", err)
	}
}

func TestBuiltinScore(t *testing.T) {
	b := mustBuiltin(t)
	cands := sampleCandidates(t, b)
	tests := []struct {
		name  string
		query string
		want  []string // ids expected at or above the cutoff; others below
		top   string   // id expected to rank first, if any
	}{
		{"keywords", "machine learning engineer job", []string{"job", "fr-job"}, ""},
		{"kind and place", "ML jobs in Paris", []string{"job"}, "job"},
		{"place contradicts", "AI meetups in Lyon", nil, ""},
		{"paraphrase", "startup that builds robots got investment", []string{"funding"}, "funding"},
		{"french query", "recrutement ingénieur", []string{"job", "fr-job"}, ""},
		{"keywords", "robot startup funding", []string{"funding"}, "funding"},
		{"off topic", "chocolate cake recipe", nil, ""},
		{"stop words only", "what is the", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := b.Score(context.Background(), tc.query, cands)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range cands {
				if got[i] < 0 || got[i] > 1 || math.IsNaN(got[i]) {
					t.Fatalf("%s: relevance %v out of [0,1]", c.ID, got[i])
				}
				want := strings.Contains(" "+strings.Join(tc.want, " ")+" ", " "+c.ID+" ")
				if (got[i] >= search.Cutoff) != want {
					t.Errorf("%s: relevance %.3f, want match %v", c.ID, got[i], want)
				}
				if tc.top != "" && c.ID != tc.top && got[i] >= got[slices.IndexFunc(cands, func(c search.Candidate) bool { return c.ID == tc.top })] {
					t.Errorf("%s: relevance %.3f ranks above %s", c.ID, got[i], tc.top)
				}
			}
		})
	}
}

func TestBuiltinScoreWithoutVectors(t *testing.T) {
	b := mustBuiltin(t)
	cands := sampleCandidates(t, b)
	want, err := b.Score(context.Background(), "robot startup funding", cands)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cands {
		cands[i].Vector = nil
	}
	got, err := b.Score(context.Background(), "robot startup funding", cands)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Errorf("%s: %v without vector, %v with", cands[i].ID, got[i], want[i])
		}
	}
	if got, err := b.Score(context.Background(), "robots", nil); err != nil || len(got) != 0 {
		t.Errorf("no candidates: %v, %v", got, err)
	}
}

func TestBuiltinConcurrentScores(t *testing.T) {
	b := mustBuiltin(t)
	cands := sampleCandidates(t, b)
	queries := []string{"robot funding", "machine learning job", "chatbot complaints", "AI meetup in Paris"}
	want := make([][]float64, len(queries))
	for i, q := range queries {
		s, err := b.Score(context.Background(), q, cands)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = s
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Go(func() {
			for k := range 20 {
				i := (g + k) % len(queries)
				got, err := b.Score(context.Background(), queries[i], cands)
				if err != nil || !slices.Equal(got, want[i]) {
					errs <- fmt.Sprintf("%q: %v %v, want %v", queries[i], got, err, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestBuiltinTermCache(t *testing.T) {
	b := mustBuiltin(t)
	ctx := context.Background()
	score := func(text string) float64 {
		vs, err := b.EmbedDocuments(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		cands := append(sampleCandidates(t, b), search.Candidate{ID: "edited", Text: text, Vector: vs[0], Tag: "physical_ai"})
		got, err := b.Score(ctx, "humanoid robot factory", cands)
		if err != nil {
			t.Fatal(err)
		}
		return got[len(got)-1]
	}
	before := score("Quarterly report on our bakery's sourdough sales.")
	after := score("Our humanoid robots now work two shifts in a car factory.")
	if before >= search.Cutoff || after < search.Cutoff {
		t.Errorf("relevance %.3f before and %.3f after editing the text: cached terms of the old text?", before, after)
	}
	for i := range termCacheSize + 10 {
		b.terms(search.Candidate{ID: fmt.Sprint("bulk", i), Text: "robots"})
	}
	b.cache.mu.Lock()
	n := len(b.cache.m)
	b.cache.mu.Unlock()
	if n > termCacheSize {
		t.Errorf("cache holds %d entries, limit %d", n, termCacheSize)
	}
}

func TestDecodeVectorsRejectsCorruptFiles(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"bad magic", "XXXXXXXX" + vectorsFile[8:]},
		{"truncated", vectorsFile[:len(vectorsFile)/2]},
		{"trailing bytes", vectorsFile + "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeVectors(tc.data); !errors.Is(err, errCorrupt) {
				t.Errorf("err = %v, want errCorrupt", err)
			}
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		v, err := decodeVectors(vectorsFile)
		if err != nil {
			b.Fatal(err)
		}
		t := mustTables(b)
		newAnalyzer(v, &t)
	}
}

// BenchmarkScore512 scores a full window of 512 candidates with stored
// vectors, as one search does: the demo signals, repeated to fill it. The
// window's analysed texts are cached after the first search, as they are
// between searches in service.
func BenchmarkScore512(b *testing.B) { benchScore512(b, false) }

// BenchmarkScore512Cold is BenchmarkScore512 with the cache emptied before
// each search: the first search over a new window.
func BenchmarkScore512Cold(b *testing.B) { benchScore512(b, true) }

func benchScore512(b *testing.B, cold bool) {
	s := mustBuiltin(b)
	demo := searchtest.DemoSignals(b)
	texts := make([]string, search.WindowSize)
	for i := range texts {
		texts[i] = model.Cut(demo[i%len(demo)].Text, search.CandidateChars)
	}
	vs, err := s.EmbedDocuments(context.Background(), texts)
	if err != nil {
		b.Fatal(err)
	}
	cands := make([]search.Candidate, len(texts))
	for i, text := range texts {
		cands[i] = search.Candidate{ID: fmt.Sprint(i), Text: text, Vector: vs[i]}
	}
	queries := []string{"companies hiring machine learning engineers in Europe", "humanoid robot startups raising money", "complaints about AI coding assistants"}
	i := 0
	for b.Loop() {
		if cold {
			s.cache.mu.Lock()
			clear(s.cache.m)
			s.cache.mu.Unlock()
		}
		if _, err := s.Score(context.Background(), queries[i%len(queries)], cands); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func TestRoot(t *testing.T) {
	for _, group := range [][]string{
		{"launch", "launches", "launched", "launching"},
		{"fund", "funds", "funded", "funding"},
		{"raise", "raises", "raised", "raising"},
		{"hire", "hires", "hired", "hiring"},
		{"ship", "ships", "shipped", "shipping"},
		{"run", "running"},
	} {
		want := string(root([]byte(group[0])))
		for _, w := range group[1:] {
			if got := string(root([]byte(w))); got != want {
				t.Errorf("root(%q) = %q, want %q like %q", w, got, want, group[0])
			}
		}
	}
	for _, w := range []string{"need", "seed", "speed", "thing", "bring", "red"} {
		if got := string(root([]byte(w))); got != w {
			t.Errorf("root(%q) = %q, want it unchanged", w, got)
		}
	}
}

// A query and a document without any word vector must not look alike: both
// centred vectors would be the window's negated mean.
func TestBuiltinScoreNoVectors(t *testing.T) {
	b := mustBuiltin(t)
	cands := append(sampleCandidates(t, b), search.Candidate{ID: "cjk", Text: "介護施設での実証実験を3か月行いました。"})
	vs, err := b.EmbedDocuments(context.Background(), []string{cands[len(cands)-1].Text})
	if err != nil {
		t.Fatal(err)
	}
	cands[len(cands)-1].Vector = vs[0]
	all, _, err := b.FeaturesFor(context.Background(), "zzqxj qqqzv", cands, []SoftBounds{{0.2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range all[0] {
		if f.Cos != 0 {
			t.Errorf("%s: cos %v, want 0", cands[i].ID, f.Cos)
		}
	}
}

// TestBuiltinTagMatchesItsKind checks that a signal classified under the
// kind a query asks for matches the query's words for that kind, whatever
// words its text uses.
func TestBuiltinTagMatchesItsKind(t *testing.T) {
	b := mustBuiltin(t)
	text := "Acme Robotics builds picking robots for grocery warehouses in Lyon."
	vs, err := b.EmbedDocuments(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	cands := []search.Candidate{
		{ID: "funding", Text: text, Vector: vs[0], Tag: "funding"},
		{ID: "job", Text: text, Vector: vs[0], Tag: "job"},
		{ID: "untagged", Text: text, Vector: vs[0]},
	}
	for _, tc := range []struct{ query, want string }{
		{"warehouse robot startups raising money", "funding"},
		{"vacancies at warehouse robot makers", "job"},
	} {
		scores, err := b.Score(context.Background(), tc.query, cands)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cands {
			if c.ID != tc.want && scores[i] >= scores[slices.IndexFunc(cands, func(c search.Candidate) bool { return c.ID == tc.want })] {
				t.Errorf("%q: %s scores %.3f, not below the %s signal: %v", tc.query, c.ID, scores[i], tc.want, scores)
			}
		}
	}
}

// TestConceptTagsAreTags checks that every concept group's tag is a tag.
func TestConceptTagsAreTags(t *testing.T) {
	for _, c := range mustTables(t).concepts {
		if c.tag != "" && !slices.Contains(model.Tags, c.tag) {
			t.Errorf("concept group %.30q has tag %q, not one of %v", c.words, c.tag, model.Tags)
		}
	}
}

// BenchmarkNew is the builtin scorer's whole start-up: the tables read, the
// vectors decoded, the analyser, the concept and root tables, the phrase
// index and the model name.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		t, err := defaultTables()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := load(t); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFeaturesForEachBounds checks that computing the features under many
// soft bounds at once gives, for each, what computing them under those
// bounds alone gives.
func TestFeaturesForEachBounds(t *testing.T) {
	b := mustBuiltin(t)
	cands := sampleCandidates(t, b)
	cands[1].Tag = "funding"
	bounds := []SoftBounds{{0.2, 1}, {0.4, 0.6}, {0, 0.5}, {0.3, 1.2}}
	for _, q := range []string{"startup that builds robots got investment", "machine learning engineer job", "the of", "zzqxj robots"} {
		all, browse, err := b.FeaturesFor(context.Background(), q, cands, bounds)
		if err != nil {
			t.Fatal(err)
		}
		if browse != b.Browses(q) {
			t.Errorf("%q: browse %v, Browses %v", q, browse, !browse)
		}
		for i, bd := range bounds {
			one, _, err := b.FeaturesFor(context.Background(), q, cands, []SoftBounds{bd})
			if err != nil {
				t.Fatal(err)
			}
			if want := one[0]; !slices.Equal(all[i], want) {
				t.Errorf("%q under %+v: %v, alone %v", q, bd, all[i], want)
			}
		}
	}
}

// TestExplainNamesTheFirstOfEqualWords: when several words of a signal
// match a query word alike ("robotic" and "robotics" both inflect
// "robots"), the reason names the first in the text, every time; a map's
// order once picked one at random, so one request's reasons could differ
// from the next.
func TestExplainNamesTheFirstOfEqualWords(t *testing.T) {
	b := mustBuiltin(t)
	ctx := context.Background()
	texts := []string{"robotic arms made by robotics startups", "robotics startups making robotic arms"}
	vs, err := b.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	cands := []search.Candidate{{ID: "a", Text: texts[0], Vector: vs[0]}, {ID: "b", Text: texts[1], Vector: vs[1]}}
	first, err := b.Explain(ctx, "levée de fonds pour des robots", cands)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(first[0], "robots≈robotic") || !slices.Contains(first[1], "robots≈robotics") {
		t.Fatalf("reasons %q, want robots≈robotic for the first signal and robots≈robotics for the second", first)
	}
	for range 20 {
		again, err := b.Explain(ctx, "levée de fonds pour des robots", cands)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(again, first, slices.Equal) {
			t.Fatalf("reasons %q, then %q", first, again)
		}
	}
}
