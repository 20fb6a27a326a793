package api

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

var listQueryStrings = []string{
	"",
	"page_size=20&tags=funding,job",
	"tags=job&tags=funding&page_size=20",
	"tags=funding,job&page_size=20",
	"q=robot&page=2",
	"language=fr&sources=professional_network",
	"country=canada&observed_after=2026-01-01T00:00:00Z",
	"page_size=0",
	"page_size=101",
	"tags=not_a_tag",
	"language=en,fr",
	"unknown=1",
	"q=%ZZ",
	"page=-1",
}

func TestParsedQueriesAnswerAsParsing(t *testing.T) {
	var p parsedQueries
	for round := range 3 {
		for _, raw := range listQueryStrings {
			q, key, err := p.parse(raw)
			want, werr := parseList(raw)
			wq, wkey := want.q, want.key
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("round %d, %q: error %v; want %v", round, raw, err, werr)
			}
			if !reflect.DeepEqual(q, wq) || key != wkey {
				t.Errorf("round %d, %q: %+v %q; want %+v %q", round, raw, q, key, wq, wkey)
			}
		}
	}
	// Only the valid strings are kept.
	valid := 0
	for _, raw := range listQueryStrings {
		if _, err := parseList(raw); err == nil {
			valid++
		}
	}
	if n := p.kept.Load(); n != int64(valid) {
		t.Errorf("kept %d query strings; want the %d valid ones", n, valid)
	}
}

func TestParsedQueriesStayBounded(t *testing.T) {
	var p parsedQueries
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 * maxParsedQueries {
				raw := fmt.Sprintf("q=made-up-%d-%d&page_size=%d", g, i, 1+i%50)
				q, key, err := p.parse(raw)
				if err != nil {
					t.Error(err)
					return
				}
				if want := fmt.Sprintf("made-up-%d-%d", g, i); q.Q != want || key == "" {
					t.Errorf("%q: q %q key %q", raw, q.Q, key)
					return
				}
			}
		})
	}
	wg.Wait()
	n := 0
	p.m.Load().Range(func(any, any) bool { n++; return true })
	// Goroutines that add while another starts a new set may leave a few
	// more than the bound in the set they added to.
	if n > maxParsedQueries+4 {
		t.Errorf("%d query strings kept; want at most about %d", n, maxParsedQueries)
	}
}
