package apptest

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Browser is a person's browser on a test app: it keeps cookies (the app's
// BaseURL is https, so they are Secure; the test server is http, so the
// browser keeps them by hand) and does not follow redirects.
type Browser struct {
	// Cookies holds the cookies the app set, by name.
	Cookies map[string]string
	// Client sends the requests; it follows no redirect.
	Client *http.Client
	ta     *App
}

// NewBrowser is a browser with no cookie on ta.
func NewBrowser(ta *App) *Browser {
	return &Browser{ta: ta, Cookies: map[string]string{}, Client: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// NewBrowserFrom is a browser whose connections come from ip, a loopback
// address of its own, so that the app sees another client address.
func NewBrowserFrom(ta *App, ip string) *Browser {
	b := NewBrowser(ta)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	b.Client.Transport = &http.Transport{DialContext: dialer.DialContext}
	return b
}

// SignedIn returns a browser signed in as Email, the test app's account.
func SignedIn(t testing.TB, ta *App) *Browser {
	t.Helper()
	b := NewBrowser(ta)
	b.SignIn(t, Email, "")
	return b
}

// Do sends a request (a form body when form is not nil) with the
// browser's cookies and header pairs, and returns the response and body.
// It checks nothing.
func (b *Browser) Do(method, path string, form url.Values, header ...string) (*http.Response, string) {
	b.ta.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.ta.URL+path, body)
	if err != nil {
		b.ta.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for name, value := range b.Cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		b.ta.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.ta.t.Fatal(err)
	}
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 {
			delete(b.Cookies, c.Name)
		} else {
			b.Cookies[c.Name] = c.Value
		}
	}
	return resp, string(raw)
}

// Get is Do with GET.
func (b *Browser) Get(path string, header ...string) (*http.Response, string) {
	b.ta.t.Helper()
	return b.Do(http.MethodGet, path, nil, header...)
}

// Post is Do with POST and form.
func (b *Browser) Post(path string, form url.Values, header ...string) (*http.Response, string) {
	b.ta.t.Helper()
	return b.Do(http.MethodPost, path, form, header...)
}

// MustGet gets a private page that must be 200 (see WantPage) and returns
// its body.
func (b *Browser) MustGet(t testing.TB, path string) string {
	t.Helper()
	resp, body := b.Get(path)
	WantPage(t, resp, body, http.StatusOK)
	return body
}

// WantPage checks that a response is a private HTML page with status: its
// Content-Type is HTML (unless it is a 303) and its Cache-Control no-store.
func WantPage(t testing.TB, resp *http.Response, body string, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d\n%s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); status != http.StatusSeeOther && ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q, want HTML", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
}

var linkPattern = regexp.MustCompile(regexp.QuoteMeta(BaseURL+"/sign-in/confirm?token=") + `([A-Za-z0-9_-]{43})\r?\n`)

// LinkToken returns the token of the one sign-in link, on a line of its
// own, in a raw message.
func LinkToken(t testing.TB, raw string) string {
	t.Helper()
	m := linkPattern.FindAllStringSubmatch(raw, -1)
	if len(m) != 1 {
		t.Fatalf("the message holds %d sign-in links on a line of their own, want 1:\n%s", len(m), raw)
	}
	return m[0][1]
}

// SignIn asks for a link for email, reads it from the outbox and confirms
// it, checking that each step is a private page; it returns where the
// confirmation redirected.
func (b *Browser) SignIn(t testing.TB, email, next string) string {
	t.Helper()
	before := len(b.ta.Outbox())
	form := url.Values{"email": {email}}
	if next != "" {
		form.Set("next", next)
	}
	resp, body := b.Post("/sign-in", form)
	WantPage(t, resp, body, http.StatusOK)
	mails := b.ta.Outbox()
	if len(mails) != before+1 {
		t.Fatalf("%d new messages in the outbox, want 1", len(mails)-before)
	}
	token := LinkToken(t, mails[len(mails)-1])
	resp, body = b.Get("/sign-in/confirm?token=" + token)
	WantPage(t, resp, body, http.StatusOK)
	resp, body = b.Post("/sign-in/confirm", url.Values{"token": {token}})
	WantPage(t, resp, body, http.StatusSeeOther)
	return resp.Header.Get("Location")
}
