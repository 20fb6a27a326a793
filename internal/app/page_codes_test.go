package app_test

import (
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/problem"
)

// codeShown finds the error codes a page names: in the status line and the
// documentation link of an error page, and any "(snake_case)" code written
// into a sentence.
var codeShown = []*regexp.Regexp{
	regexp.MustCompile(`code <code>([^<]*)</code>`),
	regexp.MustCompile(`/developers/errors#([^"]*)"`),
	regexp.MustCompile(`\(([a-z]+(?:_[a-z]+)+)\)`),
}

// wantListedCode checks a refused page: every code it shows is one of
// failure.Codes, and an error page shows its code, whose status is the
// page's (problem.Status).
func wantListedCode(t *testing.T, name string, resp *http.Response, body string, inline bool) {
	t.Helper()
	if resp.StatusCode < 400 {
		t.Errorf("%s: status %d, want a refusal", name, resp.StatusCode)
		return
	}
	shown := map[string]bool{}
	for _, re := range codeShown {
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			shown[m[1]] = true
		}
	}
	listed := map[string]bool{}
	for _, c := range failure.Codes {
		listed[string(c.Code)] = true
	}
	for code := range shown {
		if !listed[code] {
			t.Errorf("%s: the page shows the code %q, which is not in failure.Codes", name, code)
		} else if s := problem.Status(failure.Code(code)); s != resp.StatusCode {
			t.Errorf("%s: the page shows %s (status %d) with status %d", name, code, s, resp.StatusCode)
		}
	}
	switch {
	case inline && len(shown) > 0:
		t.Errorf("%s: a form refused in place names codes %v", name, shown)
	case !inline && len(shown) != 1:
		t.Errorf("%s: an error page names the codes %v, want its one code", name, shown)
	}
	if !strings.Contains(body, `class="site-header"`) {
		t.Errorf("%s: the page is not in the site's layout", name)
	}
}

// TestAccountPagesShowListedCodes drives every refusal of the sign-in
// pages, the account area and the OAuth authorization endpoint: the codes
// their pages show are the service's stable codes, with their statuses.
func TestAccountPagesShowListedCodes(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	anonymous := apptest.NewBrowser(ta)
	b := apptest.SignedIn(t, ta)
	same := []string{"Origin", "https://signals.example"}
	client := apptest.RegisterClient(t, ta.URL, "C")
	good := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {apptest.Redirect},
		"code_challenge": {strings.Repeat("a", 43)}, "code_challenge_method": {"S256"}, "resource": {apptest.Resource},
		"scope": {"signals:read"}, "state": {"x"}}
	authorize := func(param string, value ...string) string {
		q := url.Values{}
		for k, v := range good {
			q[k] = v
		}
		if value == nil {
			q.Del(param)
		} else {
			q[param] = value
		}
		return "/oauth/authorize?" + q.Encode()
	}
	for _, tt := range []struct {
		name   string
		b      *apptest.Browser
		method string
		path   string
		form   url.Values
		header []string
		inline bool
	}{
		{"cross-site form", b, http.MethodPost, "/account/keys", url.Values{"name": {"x"}}, []string{"Origin", "https://evil.example"}, false},
		{"method", b, http.MethodDelete, "/account", nil, nil, false},
		{"method on sign-in", anonymous, http.MethodPut, "/sign-in", nil, nil, false},
		{"unknown account page", b, http.MethodGet, "/account/nothing", nil, nil, false},
		{"malformed link", anonymous, http.MethodGet, "/sign-in/confirm?token=short", nil, nil, false},
		{"unknown link", anonymous, http.MethodPost, "/sign-in/confirm", url.Values{"token": {strings.Repeat("A", 43)}}, same, false},
		{"unknown key", b, http.MethodPost, "/account/keys/nokey/revoke", url.Values{}, same, false},
		{"unknown connection", b, http.MethodPost, "/account/connections/nothing/disconnect", url.Values{}, same, false},
		{"unsubscribe link", anonymous, http.MethodGet, "/unsubscribe?token=short", nil, nil, false},
		{"unknown client", b, http.MethodGet, authorize("client_id", "client_unknown"), nil, nil, false},
		{"redirect not registered", b, http.MethodGet, authorize("redirect_uri", "https://evil.example/cb"), nil, nil, false},
		{"no challenge", b, http.MethodGet, authorize("code_challenge"), nil, nil, false},
		{"plain challenge", b, http.MethodGet, authorize("code_challenge_method", "plain"), nil, nil, false},
		{"other resource", b, http.MethodGet, authorize("resource", "https://signals.example/api/v1"), nil, nil, false},
		{"unknown scope", b, http.MethodGet, authorize("scope", "admin"), nil, nil, false},
		{"token response", b, http.MethodGet, authorize("response_type", "token"), nil, nil, false},
		{"repeated state", b, http.MethodGet, authorize("state", "a", "b"), nil, nil, false},
		{"no decision", b, http.MethodPost, "/oauth/authorize", good, same, false},
		{"bad email", anonymous, http.MethodPost, "/sign-in", url.Values{"email": {"not an address"}}, same, true},
		{"key without a name", b, http.MethodPost, "/account/keys", url.Values{"name": {" "}}, same, true},
		{"interests without a choice", b, http.MethodPost, "/account/interests", url.Values{"frequency": {"daily"}}, same, true},
		{"interests at another frequency", b, http.MethodPost, "/account/interests", url.Values{"tags": {"job"}, "frequency": {"hourly"}}, same, true},
		{"delete without the email", b, http.MethodPost, "/account/delete", url.Values{"confirm": {"someone@example.com"}}, same, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := tt.b.Do(tt.method, tt.path, tt.form, tt.header...)
			wantListedCode(t, tt.name, resp, body, tt.inline)
		})
	}

	t.Run("throttled sign-in", func(t *testing.T) {
		var resp *http.Response
		var body string
		for range perEmailLimit + 1 {
			resp, body = anonymous.Post("/sign-in", url.Values{"email": {"often@example.com"}}, same...)
		}
		wantListedCode(t, "throttled sign-in", resp, body, false)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Errorf("status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	})

	t.Run("mail server down", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		down := apptest.Start(t, app.WithConfig(func(c *app.Config) { c.Mail.SMTPURL = "smtp://user:pass@" + addr }))
		resp, body := apptest.NewBrowser(down).Post("/sign-in", url.Values{"email": {"ada@example.com"}})
		wantListedCode(t, "mail server down", resp, body, false)
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("status %d, want 503", resp.StatusCode)
		}
	})
}
