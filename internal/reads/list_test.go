package reads

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
)

func FuzzParseListQuery(f *testing.F) {
	for _, s := range []string{
		"", "tags=job,funding&sources=microblog", "page=2&page_size=50", "q=%25_%2A",
		"observed_after=2026-10-01T00:00:00.5%2B02:00", "language=en,fr", "country=canada",
		"page_size=999999999999", "tags=&tags=,", "q=%FF", "x=1", "q=ab&page=201&page_size=50",
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
			p, ok := failure.As(err)
			if !ok || problem.Status(p.Code) != 400 || p.Param == "" {
				t.Fatalf("error %v is not a 400 problem naming its parameter", err)
			}
			return
		}
		if q.Page < 1 || q.PageSize < 1 || q.PageSize > model.MaxPageSize {
			t.Fatalf("accepted page=%d page_size=%d", q.Page, q.PageSize)
		}
		for _, tag := range q.Tags {
			if !model.IsOneOf(tag, model.Tags) {
				t.Fatalf("accepted tag %q", tag)
			}
		}
		if q.Q != "" && (model.Chars(q.Q) > model.MaxQChars || model.Fold(q.Q) == "") {
			t.Fatalf("accepted q %q", q.Q)
		}
		if q.Q != "" && q.Page*q.PageSize > model.MaxQDepth {
			t.Fatalf("accepted page=%d page_size=%d with q, deeper than %d", q.Page, q.PageSize, model.MaxQDepth)
		}
	})
}

// TestListQueryAndArgumentsAgree: the query string and the typed request
// of the same listing give the same page to list.
func TestListQueryAndArgumentsAgree(t *testing.T) {
	q, p, size := "robots", 2, 5
	for _, tc := range []struct {
		query string
		req   ListRequest
	}{
		{"", ListRequest{}},
		{"tags=job,funding&tags=+events+", ListRequest{Tags: []string{"funding", "events", "job"}}},
		{"language=+fr&country=canada", ListRequest{Language: []string{"fr"}, Country: []string{"canada"}}},
		{"language=", ListRequest{Language: []string{}}},
		{"q=robots&page=2&page_size=05", ListRequest{Q: &q, Page: &p, PageSize: &size}},
	} {
		v, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		fromQuery, err := ParseListQuery(v)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		fromArgs, err := tc.req.Validate()
		if err != nil {
			t.Fatalf("%+v: %v", tc.req, err)
		}
		if got, want := fmtQuery(fromQuery), fmtQuery(fromArgs); got != want {
			t.Errorf("%s: %s, arguments give %s", tc.query, got, want)
		}
	}
}

func fmtQuery(q model.ListQuery) string {
	var after int64
	if q.ObservedAfter != nil {
		after = q.ObservedAfter.NS
	}
	return fmt.Sprint(q.Tags, q.Sources, q.Languages, q.Countries, q.Q, after, q.Page, q.PageSize)
}

// listerFunc is a store's listing as a function.
type listerFunc func(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error)

func (f listerFunc) ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
	return f(ctx, q)
}

// A listing that outlives its own deadline is service_busy with a wait; one
// cut short by its client, or failing otherwise, keeps its error.
func TestListWithin(t *testing.T) {
	// blocked is a store that answers only when the listing's context ends,
	// with the error a database driver gives then.
	blocked := listerFunc(func(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
		<-ctx.Done()
		return nil, false, fmt.Errorf("store: list signals: %w", ctx.Err())
	})
	q := model.ListQuery{Q: "robot", Page: 1, PageSize: 20}

	_, _, err := ListWithin(context.Background(), blocked, q, time.Millisecond)
	if f, ok := failure.As(err); !ok || f.Code != failure.CodeServiceBusy || f.RetryAfterSeconds != listBusyRetryAfter {
		t.Errorf("past the deadline: %v", err)
	}

	gone, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = ListWithin(gone, blocked, q, time.Hour)
	if !errors.Is(err, context.Canceled) || failure.Is(err, failure.CodeServiceBusy) {
		t.Errorf("client gone: %v; want its own cancellation", err)
	}

	late, stop := context.WithTimeout(context.Background(), time.Millisecond)
	defer stop()
	_, _, err = ListWithin(late, blocked, q, time.Hour)
	if !errors.Is(err, context.DeadlineExceeded) || failure.Is(err, failure.CodeServiceBusy) {
		t.Errorf("the request's own deadline: %v; want it, not the listing's", err)
	}

	broken := errors.New("disk on fire")
	_, _, err = ListWithin(context.Background(), listerFunc(func(context.Context, model.ListQuery) ([]model.Signal, bool, error) {
		return nil, false, broken
	}), q, time.Hour)
	if !errors.Is(err, broken) {
		t.Errorf("failing store: %v", err)
	}
}
