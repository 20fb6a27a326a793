package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/search"
	"signals/internal/search/searchtest"
)

// fakeEmbeddings stands in for a hosted OpenAI-compatible embeddings API. It
// embeds a text as counts of a few marker words, so cosines are predictable.
type fakeEmbeddings struct {
	mu       sync.Mutex
	requests []embeddingsRequest
	auth     []string
	paths    []string
	// respond, if set, replaces the normal answer.
	respond func(w http.ResponseWriter, req embeddingsRequest)
}

var fakeMarkers = []string{"robot", "funding", "job", "launch"}

func fakeVector(text string) []float32 {
	v := make([]float32, len(fakeMarkers)+1)
	for i, m := range fakeMarkers {
		v[i] = float32(strings.Count(strings.ToLower(text), m))
	}
	v[len(fakeMarkers)] = 0.01
	return v
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req embeddingsRequest
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()
	if f.respond != nil {
		f.respond(w, req)
		return
	}
	// searchtest answers in reverse order: clients must use the index.
	searchtest.WriteEmbeddings(w, req.Input, fakeVector)
}

func newFake(t *testing.T, f *fakeEmbeddings, suffix string) *Scorer {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	o, err := New(srv.URL+suffix, "test-embed", "sk-secret", 5*time.Second, DefaultCalibration)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestNew(t *testing.T) {
	tests := []struct {
		name, url, model string
		cal              search.Calibration
		wantErr          bool
		wantEndpoint     string
		wantModel        string
	}{
		{"base URL", "https://api.example.com", "m1", DefaultCalibration, false, "https://api.example.com/v1/embeddings", "openai/api.example.com/m1"},
		{"trailing v1", "http://localhost:11434/v1/", "nomic", DefaultCalibration, false, "http://localhost:11434/v1/embeddings", "openai/localhost:11434/nomic"},
		{"path prefix", "https://gw.example.com/llm", "m", DefaultCalibration, false, "https://gw.example.com/llm/v1/embeddings", "openai/gw.example.com/m"},
		{"relative URL", "api.example.com", "m", DefaultCalibration, true, "", ""},
		{"other scheme", "ftp://x", "m", DefaultCalibration, true, "", ""},
		{"no model", "https://api.example.com", " ", DefaultCalibration, true, "", ""},
		{"bad slope", "https://api.example.com", "m", search.Calibration{Threshold: 0.5}, true, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := New(tc.url, tc.model, "k", time.Second, tc.cal)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if o.endpoint != tc.wantEndpoint || o.Model() != tc.wantModel {
				t.Errorf("endpoint %q model %q, want %q %q", o.endpoint, o.Model(), tc.wantEndpoint, tc.wantModel)
			}
		})
	}
}

func TestOpenAIEmbedDocumentsBatches(t *testing.T) {
	tests := []struct {
		name      string
		n, batch  int
		wantSizes []int
	}{
		{"none", 0, 64, nil},
		{"one batch", 3, 64, []int{3}},
		{"exact batches", 128, 64, []int{64, 64}},
		{"remainder", 130, 64, []int{64, 64, 2}},
		{"small batch", 5, 2, []int{2, 2, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeEmbeddings{}
			o := newFake(t, f, "")
			o.Batch = tc.batch
			texts := make([]string, tc.n)
			for i := range texts {
				texts[i] = strings.Repeat("robot ", i%3) + strings.Repeat("job ", i%5)
			}
			vs, err := o.EmbedDocuments(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != tc.n {
				t.Fatalf("%d vectors for %d texts", len(vs), tc.n)
			}
			for i, v := range vs {
				if want := fakeVector(texts[i]); fmt.Sprint(v) != fmt.Sprint(want) {
					t.Fatalf("vector %d = %v, want %v (order lost?)", i, v, want)
				}
			}
			var sizes []int
			for i, r := range f.requests {
				sizes = append(sizes, len(r.Input))
				if r.Model != "test-embed" || f.auth[i] != "Bearer sk-secret" || f.paths[i] != "/v1/embeddings" {
					t.Errorf("request %d: model %q auth %q path %q", i, r.Model, f.auth[i], f.paths[i])
				}
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.wantSizes) {
				t.Errorf("batch sizes %v, want %v", sizes, tc.wantSizes)
			}
		})
	}
}

func TestOpenAICutsLongTexts(t *testing.T) {
	f := &fakeEmbeddings{}
	o := newFake(t, f, "/v1")
	long := strings.Repeat("é", search.CandidateChars+50)
	if _, err := o.EmbedDocuments(context.Background(), []string{long, ""}); err != nil {
		t.Fatal(err)
	}
	in := f.requests[0].Input
	if n := len([]rune(in[0])); n != search.CandidateChars {
		t.Errorf("sent %d code points, want %d", n, search.CandidateChars)
	}
	if in[1] != " " {
		t.Errorf("empty text sent as %q, want a space", in[1])
	}
}

func TestOpenAIErrors(t *testing.T) {
	writeJSON := func(body string) func(http.ResponseWriter, embeddingsRequest) {
		return func(w http.ResponseWriter, _ embeddingsRequest) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}
	}
	tests := []struct {
		name    string
		respond func(http.ResponseWriter, embeddingsRequest)
		want    string
	}{
		{"unauthorized", func(w http.ResponseWriter, _ embeddingsRequest) {
			http.Error(w, `{"error":{"message":"Incorrect API key provided: sk-secret"}}`, http.StatusUnauthorized)
		}, "401"},
		{"server error", func(w http.ResponseWriter, _ embeddingsRequest) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		}, "503"},
		{"not JSON", writeJSON("<html>hi</html>"), "malformed"},
		{"too few vectors", writeJSON(`{"data":[{"index":0,"embedding":[1,2]}]}`), "returned 1 vectors for 2 texts"},
		{"repeated index", writeJSON(`{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`), "bad or repeated index"},
		{"index out of range", writeJSON(`{"data":[{"index":0,"embedding":[1,2]},{"index":5,"embedding":[1,2]}]}`), "bad or repeated index"},
		{"ragged vectors", writeJSON(`{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`), "inconsistent length"},
		{"empty vector", writeJSON(`{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`), "inconsistent length"},
		{"error object", writeJSON(`{"error":{"message":"nope"}}`), "returned 0 vectors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := newFake(t, &fakeEmbeddings{respond: tc.respond}, "")
			_, err := o.EmbedDocuments(context.Background(), []string{"a", "b"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error reveals the API key: %v", err)
			}
		})
	}
}

func TestOpenAIContext(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
		want    error
	}{
		{"caller cancels", 0, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, context.DeadlineExceeded},
		{"already cancelled", 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
		{"scorer timeout", 50 * time.Millisecond, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, context.DeadlineExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			slow := func(w http.ResponseWriter, _ embeddingsRequest) {
				select {
				case <-release:
				case <-time.After(5 * time.Second):
				}
			}
			o := newFake(t, &fakeEmbeddings{respond: slow}, "")
			t.Cleanup(func() { close(release) }) // before the server closes
			o.timeout = tc.timeout
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			_, err := o.Score(ctx, "robot", []search.Candidate{{ID: "x", Text: "robot"}})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestOpenAIScore(t *testing.T) {
	f := &fakeEmbeddings{}
	o := newFake(t, f, "")
	docs := []string{"robot robot", "funding round", "robot funding", "launch"}
	vs, err := o.EmbedDocuments(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	cands := make([]search.Candidate, len(docs))
	for i := range docs {
		cands[i] = search.Candidate{ID: fmt.Sprint(i), Text: docs[i], Vector: vs[i]}
	}
	cands[3].Vector = nil // embedded on the fly
	before := len(f.requests)
	got, err := o.Score(context.Background(), "robot", cands)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests) - before; n != 1 {
		t.Errorf("Score sent %d requests, want 1", n)
	}
	if in := f.requests[len(f.requests)-1].Input; len(in) != 2 || in[0] != "robot" || in[1] != "launch" {
		t.Errorf("Score sent %q, want the query and the candidate without a vector", in)
	}
	cal := DefaultCalibration
	for i, want := range []float64{
		cal.Relevance(search.Cosine(fakeVector("robot"), fakeVector(docs[0]))),
		cal.Relevance(search.Cosine(fakeVector("robot"), fakeVector(docs[1]))),
		cal.Relevance(search.Cosine(fakeVector("robot"), fakeVector(docs[2]))),
		cal.Relevance(search.Cosine(fakeVector("robot"), fakeVector(docs[3]))),
	} {
		if math.Abs(got[i]-want) > 1e-9 {
			t.Errorf("relevance %d = %v, want %v", i, got[i], want)
		}
	}
	if got[0] < search.Cutoff || got[1] >= search.Cutoff || got[2] < 0.5 {
		t.Errorf("relevances %v: want the robot text to match and the funding one not", got)
	}
	before = len(f.requests)
	if got, err := o.Score(context.Background(), "robot", nil); err != nil || len(got) != 0 || len(f.requests) != before {
		t.Errorf("no candidates: %v, %v, %d requests", got, err, len(f.requests)-before)
	}
}

func TestCalibration(t *testing.T) {
	tests := []struct {
		name string
		cal  search.Calibration
		cos  float64
		want float64
	}{
		{"threshold gives the cutoff", search.Calibration{Threshold: 0.5, Slope: 20}, 0.5, search.Cutoff},
		{"other threshold", search.Calibration{Threshold: 0.7, Slope: 10}, 0.7, search.Cutoff},
		{"far below", search.Calibration{Threshold: 0.5, Slope: 20}, 0.1, search.Logistic(20*(0.1-0.5) + math.Log(search.Cutoff/(1-search.Cutoff)))},
		{"identical text", search.Calibration{Threshold: 0.5, Slope: 20}, 1, search.Logistic(20*0.5 + math.Log(search.Cutoff/(1-search.Cutoff)))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cal.Relevance(tc.cos); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("relevance(%v) = %v, want %v", tc.cos, got, tc.want)
			}
		})
	}
}

func TestCalibrationValidate(t *testing.T) {
	for _, cal := range []search.Calibration{{Threshold: 1.5, Slope: 20}, {Threshold: -1.01, Slope: 20}, {Threshold: math.NaN(), Slope: 20}, {Threshold: 0.5, Slope: 0}, {Threshold: 0.5, Slope: -3}, {Threshold: 0.5, Slope: math.Inf(1)}, {Threshold: 0.5, Slope: math.NaN()}} {
		if err := cal.Validate(); err == nil {
			t.Errorf("%+v: no error", cal)
		}
		if _, err := New("http://localhost:11434", "m", "", 0, cal); err == nil {
			t.Errorf("NewOpenAI with %+v: no error", cal)
		}
	}
	for _, cal := range []search.Calibration{{Threshold: -1, Slope: 0.1}, {Threshold: 1, Slope: 100}, DefaultCalibration} {
		if err := cal.Validate(); err != nil {
			t.Errorf("%+v: %v", cal, err)
		}
	}
}

// TestEmbedLeavesTheTextsAlone checks that blank texts are sent as a space
// without changing the caller's slice.
func TestEmbedLeavesTheTextsAlone(t *testing.T) {
	f := &fakeEmbeddings{}
	o := newFake(t, f, "")
	texts := []string{"robot", "", " \t"}
	if _, err := o.embed(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	if want := []string{"robot", "", " \t"}; !slices.Equal(texts, want) {
		t.Errorf("texts became %q, want %q", texts, want)
	}
	if in := f.requests[0].Input; !slices.Equal(in, []string{"robot", " ", " "}) {
		t.Errorf("sent %q, want blank texts as one space", in)
	}
}
