package model

import (
	"errors"
	"net/url"
	"testing"

	"signals/internal/problem"
)

func FuzzParseListQuery(f *testing.F) {
	for _, s := range []string{
		"", "tags=job,funding&sources=microblog", "page=2&page_size=50", "q=%25_%2A",
		"observed_after=2026-10-01T00:00:00.5%2B02:00", "language=en,fr", "country=canada",
		"page_size=999999999999", "tags=&tags=,", "q=%FF", "x=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseListQuery(v)
		if err != nil {
			var p *problem.Problem
			if !errors.As(err, &p) || p.Status != 400 || p.Code == "" || p.Param == "" {
				t.Fatalf("error %v is not a 400 problem naming its parameter", err)
			}
			return
		}
		if q.Page < 1 || q.PageSize < 1 || q.PageSize > MaxPageSize {
			t.Fatalf("accepted page=%d page_size=%d", q.Page, q.PageSize)
		}
		for _, tag := range q.Tags {
			if !IsOneOf(tag, Tags) {
				t.Fatalf("accepted tag %q", tag)
			}
		}
		if q.Q != "" && (Chars(q.Q) > MaxQChars || Fold(q.Q) == "") {
			t.Fatalf("accepted q %q", q.Q)
		}
	})
}
