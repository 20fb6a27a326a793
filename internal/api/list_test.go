package api_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/store/storetest"
)

func TestListGolden(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	resp, body := ta.Get("/api/v1/signals?page_size=3")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	apptest.Golden(t, "list_page1", body)
	if resp.Header.Get("Deprecation") == "" {
		t.Error("response with camelCase aliases has no Deprecation header")
	}
	resp, body = ta.Get("/api/v1/signals?page_size=3&page=2")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	got := apptest.Decode[reads.ListResponse](t, body)
	if len(got.Signals) != 1 || got.HasMore || got.NextPage != nil {
		t.Errorf("page 2 = %+v", got)
	}
}

func TestListFilters(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{apptest.OddID, "tf-3", "pn-2", "mb-1"}},
		{"tags=job,events", []string{apptest.OddID, "pn-2"}},
		{"tags=job&tags=events", []string{apptest.OddID, "pn-2"}},
		{"tags=job,%20events", []string{apptest.OddID, "pn-2"}},
		{"sources=microblog&tags=funding,events", []string{apptest.OddID, "mb-1"}},
		{"language=fr", []string{"pn-2"}},
		{"country=canada", []string{apptest.OddID, "mb-1"}},
		{"country=canada&tags=funding", []string{"mb-1"}},
		{"q=MONTR%C3%89AL", []string{"mb-1"}},
		{"q=claire", []string{"pn-2"}},
		{"q=%3Cscript%3E", []string{"tf-3"}},
		{"observed_after=2026-10-01T12:02:01Z", []string{apptest.OddID}},
		{"observed_after=2026-10-01T13:02:01%2B01:00", []string{apptest.OddID}},
		{"observed_after=2026-10-01T12:02:00.999Z", []string{apptest.OddID, "pn-2"}},
		{"page_size=1&page=4", []string{"mb-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			resp, body := ta.Get("/api/v1/signals?" + tt.query)
			apptest.WantStatus(t, resp, body, http.StatusOK)
			var got []string
			for _, s := range apptest.Decode[reads.ListResponse](t, body).Signals {
				got = append(got, s.ID)
			}
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestListRejectsInvalidParameters(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	tests := []struct {
		name, query string
		code        failure.Code
		param       string
	}{
		{"page_size_zero", "page_size=0", failure.CodeInvalidParameter, "page_size"},
		{"page_size_too_big", "page_size=51", failure.CodeInvalidParameter, "page_size"},
		{"page_size_not_number", "page_size=ten", failure.CodeInvalidParameter, "page_size"},
		{"page_zero", "page=0", failure.CodeInvalidParameter, "page"},
		{"unknown_tag", "tags=job,robots", failure.CodeInvalidParameter, "tags"},
		{"unknown_source", "sources=newspaper", failure.CodeInvalidParameter, "sources"},
		{"unknown_language", "language=de", failure.CodeInvalidParameter, "language"},
		{"two_languages", "language=en,fr", failure.CodeInvalidParameter, "language"},
		{"unknown_country", "country=narnia", failure.CodeInvalidParameter, "country"},
		{"observed_after_no_zone", "observed_after=2026-10-01T12:00:00", failure.CodeInvalidParameter, "observed_after"},
		{"q_empty", "q=", failure.CodeInvalidParameter, "q"},
		{"q_too_long", "q=" + strings.Repeat("x", 201), failure.CodeInvalidParameter, "q"},
		{"unknown_parameter", "api_key=abc", failure.CodeUnknownParameter, "api_key"},
		{"camel_case_parameter", "pageSize=2", failure.CodeUnknownParameter, "pageSize"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ta.Get("/api/v1/signals?" + tt.query)
			apptest.WantStatus(t, resp, body, http.StatusBadRequest)
			p := apptest.Decode[problem.Problem](t, body)
			if p.Code != tt.code || p.Param != tt.param || p.ValidationMessage == "" {
				t.Errorf("problem = %+v", p)
			}
			if tt.code == failure.CodeInvalidParameter && p.AllowedValues == nil && p.Minimum == nil && tt.param != "observed_after" {
				t.Errorf("no allowed values or range in %s", body)
			}
			switch tt.name {
			case "page_size_too_big", "unknown_tag", "unknown_parameter", "observed_after_no_zone":
				apptest.Golden(t, "error_"+tt.name, body)
			}
		})
	}
}

// docs/api.md: a listing with q reaches at most 10,000 results deep; a page
// beyond is 400 invalid_parameter naming page, with the deepest page at
// its page_size as the maximum. Without q any page may be asked for.
func TestListWithQReachesTenThousandDeep(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	for _, tt := range []struct {
		query   string
		maximum int64 // 0: the page is listed
	}{
		{"q=robot&page=500", 0},
		{"q=robot&page=501", 500},
		{"q=robot&page_size=50&page=200", 0},
		{"q=robot&page_size=50&page=201", 200},
		{"q=robot&page_size=3&page=3333", 0}, // 9,999 deep
		{"q=robot&page_size=3&page=3334", 3333},
		{"q=robot&page_size=1&page=10001", 10000},
		{"q=robot&page=1000000", 500},
		{"page=501", 0},
		{"page_size=50&page=1000000", 0},
	} {
		t.Run(tt.query, func(t *testing.T) {
			resp, body := ta.Get("/api/v1/signals?" + tt.query)
			if tt.maximum == 0 {
				apptest.WantStatus(t, resp, body, http.StatusOK)
				return
			}
			apptest.WantStatus(t, resp, body, http.StatusBadRequest)
			p := apptest.Decode[problem.Problem](t, body)
			if p.Code != failure.CodeInvalidParameter || p.Param != "page" || p.Maximum == nil || *p.Maximum != tt.maximum ||
				p.Minimum == nil || *p.Minimum != 1 || !strings.Contains(p.ValidationMessage, "10000 results deep") {
				t.Errorf("problem = %s", body)
			}
		})
	}
	_, body := ta.Get("/api/v1/signals?q=robot&page=501")
	apptest.Golden(t, "error_page_too_deep", body)
}

func TestGetSignal(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	resp, body := ta.Get("/api/v1/signals/" + url.PathEscape(apptest.OddID))
	apptest.WantStatus(t, resp, body, http.StatusOK)
	apptest.Golden(t, "get_odd_id", body)

	resp, body = ta.Get("/api/v1/signals/tf-3")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	s := apptest.Decode[reads.Signal](t, body)
	if model.Chars(s.Text) != model.MaxTextChars || !s.TextTruncated || s.TextChars != 1200*14+25 {
		t.Errorf("long text: %d code points, truncated=%v, text_chars=%d", model.Chars(s.Text), s.TextTruncated, s.TextChars)
	}
	if strings.Contains(string(body), `"snippet"`) {
		t.Error("single read carries a snippet")
	}

	_, missing := ta.Get("/api/v1/signals/nope")
	for _, id := range []string{"hidden-5", "pending-6", "market-7", "nope", strings.Repeat("x", 300)} {
		resp, body := ta.Get("/api/v1/signals/" + url.PathEscape(id))
		apptest.WantStatus(t, resp, body, http.StatusNotFound)
		if string(body) != string(missing) {
			t.Errorf("%s: 404 body differs from a missing id's:\n%s\n%s", id, body, missing)
		}
	}
	apptest.Golden(t, "error_not_found", missing)
}

func TestListSnippetsNeverSplitCodePoints(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(storetest.Sig("emoji", 1, func(s *model.Signal) { s.Text = strings.Repeat("🤖", 700) }))
	_, body := ta.Get("/api/v1/signals")
	s := apptest.Decode[reads.ListResponse](t, body).Signals[0]
	if s.Snippet != strings.Repeat("🤖", 600) || s.TextChars != 700 || s.TextTruncated {
		t.Errorf("snippet has %d code points, text_chars=%d", model.Chars(s.Snippet), s.TextChars)
	}
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	keys, _ := ta.Store().Keys(context.Background(), 1)
	// The key with its last character changed: its checksum no longer holds.
	last := "x"
	if strings.HasSuffix(ta.Key, last) {
		last = "y"
	}
	tests := []struct {
		name, auth string
		code       failure.Code
		challenge  string
	}{
		{"missing", "", failure.CodeMissingCredentials, `Bearer realm="signals"`},
		{"wrong_scheme", "Basic " + ta.Key, failure.CodeInvalidCredentials, `Bearer realm="signals", error="invalid_token"`},
		{"bad_checksum", "Bearer " + ta.Key[:len(ta.Key)-1] + last, failure.CodeInvalidCredentials, `error="invalid_token"`},
		{"garbage", "Bearer hello", failure.CodeInvalidCredentials, `error="invalid_token"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ta.Get("/api/v1/signals", "Authorization", tt.auth)
			apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
			if p := apptest.Decode[problem.Problem](t, body); p.Code != tt.code {
				t.Errorf("code = %s, want %s", p.Code, tt.code)
			}
			if h := resp.Header.Get("WWW-Authenticate"); !strings.Contains(h, tt.challenge) {
				t.Errorf("WWW-Authenticate = %q, want it to contain %q", h, tt.challenge)
			}
		})
	}
	t.Run("key_in_query_is_ignored", func(t *testing.T) {
		resp, body := ta.Get("/api/v1/signals?api_key="+url.QueryEscape(ta.Key), "Authorization", "")
		apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
	})
	t.Run("limits_changed", func(t *testing.T) {
		// The key was looked up before; new limits apply at once.
		resp, body := ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		limits := model.Limits{DailyRequests: 500, MinuteRequests: 7, DailySearches: 10, ConcurrentSearches: 1}
		if err := ta.Store().SetLimits(context.Background(), keys[0].AccountID, limits); err != nil {
			t.Fatal(err)
		}
		resp, body = ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if got := resp.Header.Get("RateLimit-Policy"); !strings.Contains(got, "q=7;") {
			t.Errorf("RateLimit-Policy = %q after the limits changed", got)
		}
	})
	t.Run("revoked", func(t *testing.T) {
		resp, body := ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if err := ta.Store().RevokeKey(context.Background(), keys[0].ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		resp, body = ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
	})
}

func TestMethodsAndUnknownPaths(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	tests := []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodPost, "/api/v1/signals", http.StatusMethodNotAllowed, "GET, HEAD"},
		{http.MethodDelete, "/api/v1/signals/x", http.StatusMethodNotAllowed, "GET, HEAD"},
		{http.MethodGet, "/api/v1/nothing", http.StatusNotFound, ""},
		{http.MethodGet, "/api/v2/signals", http.StatusNotFound, ""},
		{http.MethodPost, "/api/v1/", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp, body := ta.Do(tt.method, tt.path, nil)
			apptest.WantStatus(t, resp, body, tt.status)
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
	resp, body := ta.Do(http.MethodPut, "/api/v1/signals", nil)
	apptest.WantStatus(t, resp, body, http.StatusMethodNotAllowed)
	apptest.Golden(t, "error_method_not_allowed", body)

	resp, body = ta.Do(http.MethodHead, "/api/v1/signals", nil)
	if resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("HEAD = %d with %d bytes", resp.StatusCode, len(body))
	}
}

// TestMalformedQueryEncoding: a query pair that url.ParseQuery would drop
// in silence (bad percent-encoding, a semicolon) is refused, naming its
// parameter, on every API endpoint that reads a query.
func TestMalformedQueryEncoding(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	queries := []struct{ query, param string }{
		{"page_size=2&tags=job%ZZ", "tags"},
		{"page_size=2;tags=job", "page_size"},
		{"page_size=%zz", "page_size"},
		{"page_size=2&%zz=1", "%zz"},
	}
	for _, path := range []string{"/api/v1/signals", "/api/v1/usage", "/api/v1/signals/mb-1"} {
		for _, q := range queries {
			t.Run(path+"?"+q.query, func(t *testing.T) {
				resp, body := ta.Get(path + "?" + q.query)
				apptest.WantStatus(t, resp, body, http.StatusBadRequest)
				p := apptest.Decode[problem.Problem](t, body)
				if p.Code != failure.CodeInvalidParameter || p.Param != q.param || p.ValidationMessage == "" {
					t.Errorf("problem = %+v; want invalid_parameter naming %s", p, q.param)
				}
			})
		}
	}
	// Pages and feeds read such a pair as written when they use its
	// parameter, and explain the value; they ignore any other.
	for _, tt := range []struct {
		path   string
		status int
		says   string
	}{
		{"/?page_size=2&tags=job%ZZ", 400, "“job%ZZ” is not a kind of signal we list."},
		{"/?page_size=2;tags=job", 400, "“2;tags=job” is not a page size."},
		{"/?page_size=%zz", 400, "“%zz” is not a page size."},
		{"/?page_size=2&%zz=1", 200, ""},
		{"/hubs/jobs?page_size=2&tags=job%ZZ", 200, ""},
		{"/hubs/jobs?page_size=2;tags=job", 400, "“2;tags=job” is not a page size."},
		{"/hubs/jobs?page_size=%zz", 400, "“%zz” is not a page size."},
		{"/hubs/jobs?page_size=2&%zz=1", 200, ""},
		{"/feed.json?page_size=2&tags=job%ZZ", 400, "“job%ZZ” is not a kind of signal we list."},
		{"/feed.atom?tags=job;page_size=2", 400, "“job;page_size=2” is not a kind of signal we list."},
		{"/feed.atom?page_size=%zz", 200, ""},
		{"/hubs/jobs/feed.rss?page_size=2&tags=job%ZZ", 200, ""},
		{"/hubs/jobs/feed.rss?%zz=1", 200, ""},
	} {
		t.Run(tt.path, func(t *testing.T) {
			resp, body := ta.Get(tt.path, "Authorization", "")
			if resp.StatusCode != tt.status || !bytes.Contains(body, []byte(tt.says)) ||
				bytes.Contains(body, []byte(failure.CodeInvalidParameter)) {
				t.Errorf("%d %s, want %d saying %q\n%.3000s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.status, tt.says, body)
			}
		})
	}
	// A well-formed query is read as before.
	resp, body := ta.Get("/api/v1/signals?page_size=1&tags=job%2Cfunding")
	apptest.WantStatus(t, resp, body, http.StatusOK)
}
