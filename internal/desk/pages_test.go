package desk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// pending is a pending signal published minutes after the test base: the
// queue shows pending signals oldest first.
func pending(id string, minutes int, opts ...func(*model.Signal)) model.Signal {
	return storetest.Sig(id, minutes, append([]func(*model.Signal){func(s *model.Signal) { s.Status = model.StatusPending }}, opts...)...)
}

// editorBrowser signs email in, made an editor first, and returns its
// browser.
func editorBrowser(t *testing.T, ta *apptest.App, email string) *apptest.Browser {
	t.Helper()
	b := apptest.NewBrowser(ta)
	b.SignIn(t, email, "")
	setRole(t, ta, email, model.RoleEditor)
	return b
}

func setRole(t *testing.T, ta *apptest.App, email, role string) {
	t.Helper()
	ctx := context.Background()
	acct, err := ta.Store().AccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	if err := ta.Store().SetRole(ctx, acct.ID, role); err != nil {
		t.Fatal(err)
	}
}

// sameSite are the headers a browser sends with a form of this site.
var sameSite = []string{"Origin", "https://signals.example", "Sec-Fetch-Site", "same-origin"}

// queueOrder lists the signal ids of a queue page, in order.
var queueItem = regexp.MustCompile(`<article id="s-([^"]+)" class="desk-item"`)

func queueOrder(body string) []string {
	var ids []string
	for _, m := range queueItem.FindAllStringSubmatch(body, -1) {
		id, _ := url.PathUnescape(html.UnescapeString(m[1]))
		ids = append(ids, id)
	}
	return ids
}

// TestDeskDecidesThroughForms takes the desk's decisions as a browser
// without JavaScript does, through its forms, and checks each one on the
// API, the feed and the log.
func TestDeskDecidesThroughForms(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(pending("p-new", 30), pending("p-old", 10), pending("p-mid", 20, func(s *model.Signal) { s.Tag = "job" }),
		pending("p-4", 40), pending("p-5", 50), storetest.Sig("public-1", 5))
	b := editorBrowser(t, ta, "ed@example.com")

	resp, body := b.Get("/desk")
	apptest.WantPage(t, resp, body, http.StatusOK)
	if got := strings.Join(queueOrder(body), " "); got != "p-old p-mid p-new p-4 p-5" {
		t.Fatalf("queue order %q, want the pending signals oldest first", got)
	}

	// Publish the oldest: the answer leads to the next one.
	resp, body = b.Post("/desk/decide", url.Values{"id": {"p-old"}, "action": {"publish"}, "next": {"p-mid"},
		"back": {"/desk"}, "tag": {"funding"}, "country": {"canada"}, "language": {"en"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/desk?done=publish&n=1#s-p-mid" {
		t.Fatalf("after publishing: Location %q", loc)
	}
	_, body = b.Get("/desk?done=publish&n=1")
	if !strings.Contains(body, "Published: 1 signal.") || strings.Contains(body, `id="s-p-old"`) {
		t.Fatalf("queue after publishing lacks the notice or still lists p-old:\n%s", body)
	}
	if resp, _ := ta.Get("/api/v1/signals/p-old"); resp.StatusCode != http.StatusOK {
		t.Fatalf("published signal: API status %d", resp.StatusCode)
	}

	// Hide one, change another's kind and country, take one down.
	resp, body = b.Post("/desk/decide", url.Values{"id": {"p-mid"}, "action": {"hide"}, "back": {"/desk"}, "reason": {"off topic"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	resp, body = b.Post("/desk/decide", url.Values{"id": {"p-new"}, "action": {"save"}, "back": {"/desk"},
		"tag": {"events"}, "country": {"france"}, "language": {"fr"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	resp, body = b.Post("/desk/delete", url.Values{"id": {"public-1"}, "reason": {"the author asked"}, "back": {"/desk"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if resp, _ := ta.Get("/api/v1/signals/public-1"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("taken-down signal: API status %d, want 404", resp.StatusCode)
	}
	if resp, _ := ta.Get("/signals/public-1"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("taken-down signal: page status %d, want 404", resp.StatusCode)
	}

	// Bulk: publish two at once, as market-only afterwards.
	resp, body = b.Post("/desk/decide", url.Values{"id": {"p-4", "p-5"}, "action": {"publish"}, "back": {"/desk"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/desk?done=publish&n=2" {
		t.Fatalf("after a bulk decision: Location %q", loc)
	}
	resp, body = b.Post("/desk/decide", url.Values{"id": {"p-4", "p-5"}, "action": {"market-only"}, "back": {"/desk?status=public"}}, sameSite...)
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/desk?done=market-only&n=2&status=public" {
		t.Fatalf("after a bulk decision on a filtered queue: Location %q", loc)
	}

	// The queue is empty; the public feed shows what was published and
	// none of the rest.
	_, body = b.Get("/desk")
	if len(queueOrder(body)) != 1 || !strings.Contains(body, `id="s-p-new"`) {
		t.Fatalf("queue after the decisions holds %v, want p-new (corrected, still pending)", queueOrder(body))
	}
	_, list := ta.Get("/api/v1/signals?page_size=50")
	var page struct {
		Signals []struct {
			ID string `json:"id"`
		} `json:"signals"`
	}
	if err := json.Unmarshal(list, &page); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range page.Signals {
		got = append(got, s.ID)
	}
	if strings.Join(got, " ") != "p-old" {
		t.Fatalf("public listing %v, want only p-old (p-4 and p-5 are market-only, public-1 taken down)", got)
	}
	_, feed := ta.Get("/feed.rss")
	if !strings.Contains(string(feed), "/signals/p-old") || strings.Contains(string(feed), "public-1") {
		t.Fatalf("feed after the decisions:\n%s", feed)
	}

	// The log names every decision with its editor; the export has them
	// oldest first.
	resp, body = b.Get("/desk/log")
	apptest.WantPage(t, resp, body, http.StatusOK)
	for _, want := range []string{"status pending → public", "status pending → hidden", "off topic", "kind Funding → Events",
		"country Canada → France", "taken down", "the author asked", "ed@example.com"} {
		if !strings.Contains(html.UnescapeString(body), want) {
			t.Errorf("desk log lacks %q", want)
		}
	}
	resp, body = b.Get("/desk/log?signal=p-new")
	apptest.WantPage(t, resp, body, http.StatusOK)
	if strings.Count(body, "<tr>") != 2 { // the header and one decision
		t.Errorf("log of one signal: %d rows", strings.Count(body, "<tr>")-1)
	}
	resp, export := b.Get("/desk/log.jsonl")
	if ct := resp.Header.Get("Content-Type"); ct != "application/jsonl; charset=utf-8" {
		t.Errorf("export Content-Type %q", ct)
	}
	var actions []string
	sc := bufio.NewScanner(strings.NewReader(export))
	for sc.Scan() {
		var d model.Decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		if d.Editor != "ed@example.com" || d.At.IsZero() {
			t.Errorf("export line %q", sc.Text())
		}
		actions = append(actions, d.SignalID+":"+d.Action)
	}
	if want := "p-old:set p-mid:set-status p-new:set public-1:delete p-4:set-status p-5:set-status p-4:set-status p-5:set-status"; strings.Join(actions, " ") != want {
		t.Errorf("export holds %q, want %q", strings.Join(actions, " "), want)
	}
}

// TestDeskRefusesBadForms checks that a bad decision is a 4xx page with
// a stable code, and changes nothing.
func TestDeskRefusesBadForms(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(pending("a", 1), pending("b", 2))
	b := editorBrowser(t, ta, "ed@example.com")
	for _, tt := range []struct {
		path   string
		form   url.Values
		status int
		code   string
	}{
		{"/desk/decide", url.Values{"action": {"publish"}}, 400, "missing_parameter"},
		{"/desk/decide", url.Values{"id": {"a"}, "action": {"launch"}}, 400, "invalid_parameter"},
		{"/desk/decide", url.Values{"id": {"a"}, "action": {"save"}, "tag": {"fundraising"}}, 400, "invalid_parameter"},
		{"/desk/decide", url.Values{"id": {"a"}, "action": {"save"}, "country": {"atlantis"}}, 400, "invalid_parameter"},
		{"/desk/decide", url.Values{"id": {"a", "nope"}, "action": {"publish"}}, 404, "not_found"},
		{"/desk/decide", url.Values{"id": {"a"}, "action": {"publish"}, "reason": {strings.Repeat("x", 501)}}, 400, "invalid_parameter"},
		{"/desk/delete", url.Values{"id": {"a"}}, 400, "missing_parameter"},
		{"/desk/delete", url.Values{"id": {"nope"}, "reason": {"gone"}}, 404, "not_found"},
	} {
		resp, body := b.Post(tt.path, tt.form, sameSite...)
		apptest.WantPage(t, resp, body, tt.status)
		if !strings.Contains(body, tt.code) {
			t.Errorf("POST %s %v: page does not name %s:\n%s", tt.path, tt.form, tt.code, body)
		}
	}
	resp, body := b.Get("/desk?status=published")
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	resp, body = b.Get("/desk?sort=new")
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	if log, err := ta.Store().DeskLog(context.Background(), model.LogQuery{}); err != nil || len(log) != 0 {
		t.Fatalf("refused forms logged %d decisions (%v)", len(log), err)
	}
	if _, body := b.Get("/desk"); strings.Join(queueOrder(body), " ") != "a b" {
		t.Fatalf("refused forms changed the queue: %v", queueOrder(body))
	}
}

// deskRoutes are every desk route with a request that would act.
var deskRoutes = []struct {
	method, path string
	form         url.Values
}{
	{"GET", "/desk", nil},
	{"GET", "/desk?status=all&q=signal", nil},
	{"POST", "/desk/decide", url.Values{"id": {"a"}, "action": {"publish"}}},
	{"POST", "/desk/delete", url.Values{"id": {"a"}, "reason": {"asked"}}},
	{"GET", "/desk/log", nil},
	{"GET", "/desk/log.jsonl", nil},
}

// TestDeskAuthorization sends every desk route as each kind of visitor
// and checks the documented refusal: anonymous visitors and API keys or
// OAuth tokens (which the desk never reads) are sent to sign in, readers
// get the 404 of a private page, editors whose sign-in is older than 12
// hours are sent to sign in again, and forms from another site are
// refused; only a fresh editor acts, and nothing else changes a signal.
func TestDeskAuthorization(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	ta.Put(pending("a", 1))
	base := ta.URL

	reader := apptest.NewBrowser(ta)
	reader.SignIn(t, "reader@example.com", "")
	stale := editorBrowser(t, ta, "stale@example.com")
	// An OAuth token of every scope, granted by the editor herself.
	var tokens []string
	for _, scopes := range [][]string{{"signals:read"}, {"signals:search"}, {"signals:read", "signals:search"}} {
		tok, _ := apptest.Authorize(t, stale, apptest.OAuthConfig(base, apptest.RegisterClient(t, base, "Agent"), scopes...))
		tokens = append(tokens, tok.AccessToken)
	}
	clk.Set(apptest.Noon.Add(12*time.Hour + time.Minute))
	fresh := editorBrowser(t, ta, "fresh@example.com")
	anonymous := apptest.NewBrowser(ta)

	signInTarget := func(r struct {
		method, path string
		form         url.Values
	}) string {
		if r.method != http.MethodGet {
			return "/sign-in"
		}
		return "/sign-in?next=" + url.QueryEscape(r.path)
	}
	for _, r := range deskRoutes {
		for _, v := range []struct {
			who     string
			b       *apptest.Browser
			header  []string
			status  int
			locates string
		}{
			{"anonymous", anonymous, sameSite, http.StatusSeeOther, signInTarget(r)},
			{"API key", anonymous, append([]string{"Authorization", "Bearer " + ta.Key}, sameSite...), http.StatusSeeOther, signInTarget(r)},
			{"OAuth read token", anonymous, append([]string{"Authorization", "Bearer " + tokens[0]}, sameSite...), http.StatusSeeOther, signInTarget(r)},
			{"OAuth search token", anonymous, append([]string{"Authorization", "Bearer " + tokens[1]}, sameSite...), http.StatusSeeOther, signInTarget(r)},
			{"OAuth token of both scopes", anonymous, append([]string{"Authorization", "Bearer " + tokens[2]}, sameSite...), http.StatusSeeOther, signInTarget(r)},
			{"reader", reader, sameSite, http.StatusNotFound, ""},
			{"stale editor", stale, sameSite, http.StatusSeeOther, ""},
		} {
			resp, body := v.b.Do(r.method, r.path, r.form, v.header...)
			if resp.StatusCode != v.status {
				t.Errorf("%s %s as %s: status %d, want %d", r.method, r.path, v.who, resp.StatusCode, v.status)
				continue
			}
			if v.status == http.StatusNotFound && !strings.Contains(body, "not_found") {
				t.Errorf("%s %s as %s: the 404 page does not name not_found", r.method, r.path, v.who)
			}
			loc := resp.Header.Get("Location")
			switch {
			case v.status != http.StatusSeeOther:
			case v.who == "stale editor":
				u, _ := url.Parse(loc)
				if u.Path != "/sign-in" || u.Query().Get("notice") != "sign-in-again" ||
					(r.method == http.MethodGet && u.Query().Get("next") != r.path) {
					t.Errorf("%s %s as %s: Location %q, want a sign-in again leading back", r.method, r.path, v.who, loc)
				}
			case loc != v.locates:
				t.Errorf("%s %s as %s: Location %q, want %q", r.method, r.path, v.who, loc, v.locates)
			}
		}
		if r.method == http.MethodPost {
			resp, body := fresh.Do(r.method, r.path, r.form, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
			apptest.WantPage(t, resp, body, http.StatusForbidden)
			if !strings.Contains(body, "forbidden_origin") {
				t.Errorf("%s %s from another site: page does not name forbidden_origin", r.method, r.path)
			}
		}
	}
	// Nor does the API take a decision, with a key or a token.
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		for _, credential := range append([]string{ta.Key}, tokens...) {
			resp, _ := anonymous.Do(method, "/api/v1/signals/a", url.Values{"status": {"public"}}, "Authorization", "Bearer "+credential)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s /api/v1/signals/a: status %d, want 405", method, resp.StatusCode)
			}
		}
	}
	if log, err := ta.Store().DeskLog(context.Background(), model.LogQuery{}); err != nil || len(log) != 0 {
		t.Fatalf("refused requests logged %d decisions (%v)", len(log), err)
	}
	// The stale editor's page after signing in again is the desk.
	stale.SignIn(t, "stale@example.com", "/desk")
	if resp, body := stale.Get("/desk"); resp.StatusCode != http.StatusOK {
		t.Fatalf("stale editor signed in again: status %d\n%s", resp.StatusCode, body)
	}
	// The fresh editor acts on every route.
	for _, r := range deskRoutes {
		resp, body := fresh.Do(r.method, r.path, r.form, sameSite...)
		want := http.StatusOK
		if r.method == http.MethodPost {
			want = http.StatusSeeOther
		}
		if resp.StatusCode != want {
			t.Errorf("%s %s as a fresh editor: status %d, want %d\n%s", r.method, r.path, resp.StatusCode, want, body)
		}
	}
	// A former editor gets the 404 at once.
	setRole(t, ta, "fresh@example.com", model.RoleReader)
	if resp, _ := fresh.Get("/desk"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("former editor: status %d, want 404", resp.StatusCode)
	}
}
