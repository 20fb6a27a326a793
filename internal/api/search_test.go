package api

import (
	"testing"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/search"
	"signals/internal/wire"
)

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "🤖": 2, "a🤖b": 4, "中文": 2} {
		if got := reads.UTF16Len(s); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// FuzzSearchBody feeds arbitrary bodies through decoding and validation:
// every refusal is a 400 problem naming what was wrong, and every accepted
// search is within the contract's limits.
func FuzzSearchBody(f *testing.F) {
	for _, s := range []string{
		`{"query":"robots"}`, `{"query":"x","tags":["job"],"limit":50}`, `{"query":"x","language":["other"]}`,
		`{"query":"x","observed_after":"2026-01-01T00:00:00.5+02:00"}`, `{"query":"\u0000"}`, `[]`, `null`,
		`{"query":"x","limit":1e9}`, `{"query":"x"} {}`, `{"query":"x","country":["canada","france"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req reads.SearchRequest
		err := wire.Decode(body, &req)
		var r search.Request
		if err == nil {
			r, err = req.Validate()
		}
		if err != nil {
			p, ok := failure.As(err)
			if !ok || problem.Status(p.Code) != 400 || p.Code == "" {
				t.Fatalf("error %v is not a 400 problem", err)
			}
			// An unknown field may be named "" (the JSON key ""); others must
			// name their parameter.
			if p.Code != failure.CodeInvalidJSON && p.Code != failure.CodeUnknownParameter && p.Param == "" {
				t.Fatalf("problem %s names no parameter", p.Code)
			}
			return
		}
		if r.Limit < 1 || r.Limit > search.MaxMatches || r.Query == "" || reads.UTF16Len(r.Query) > reads.MaxQueryUTF16 {
			t.Fatalf("accepted %+v", r)
		}
		for _, l := range r.Filter.Languages {
			if !model.IsOneOf(l, model.SearchLanguages) {
				t.Fatalf("accepted language %q", l)
			}
		}
	})
}
