package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/auth"
	"signals/internal/label"
	"signals/internal/mail/smtptest"
	"signals/internal/model"
	"signals/internal/session"
	"signals/internal/store"
	"signals/internal/store/storetest"
)

// withSMTP sends the app's mail to srv instead of the outbox.
func withSMTP(srv *smtptest.Server) app.Option {
	return app.WithConfig(func(c *app.Config) { c.Mail.SMTPURL, c.Mail.TLS = srv.URL, srv.ClientTLS })
}

// TestSignInThroughSMTP signs in as a new person would, with the link
// read from what a real SMTP server (STARTTLS, authentication) received.
func TestSignInThroughSMTP(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	ta := apptest.Start(t, withSMTP(srv))
	b := apptest.NewBrowser(ta)

	resp, body := b.Get("/sign-in?next=" + url.QueryEscape("/account#keys"))
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(body, `name="email"`) || !strings.Contains(body, `name="next" value="/account"`) {
		t.Fatalf("sign-in form lacks its fields:\n%s", body)
	}
	resp, body = b.Post("/sign-in", url.Values{"email": {"Ada@Example.com"}, "next": {"/account?from=mail"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "Check your email") {
		t.Fatalf("answer:\n%s", body)
	}
	msg, received := srv.Last(t)
	if !received.TLS || received.To[0] != "ada@example.com" {
		t.Errorf("received over TLS %v for %v", received.TLS, received.To)
	}
	raw := string(received.Data)
	token := apptest.LinkToken(t, raw)
	for _, h := range []string{"Date", "From", "Message-Id", "To", "Subject"} {
		if msg.Header.Get(h) == "" {
			t.Errorf("the message has no %s", h)
		}
	}
	if !strings.Contains(raw, "text/plain") || !strings.Contains(raw, "text/html") {
		t.Error("the message lacks a plain text or an HTML part")
	}

	// Fetching the link (as mail scanners do) shows a form and uses nothing.
	for range 2 {
		resp, body = b.Get("/sign-in/confirm?token=" + token)
		apptest.WantPage(t, resp, body, http.StatusOK)
	}
	if !strings.Contains(body, "finish signing in as ada@example.com.") {
		t.Errorf("the confirmation page does not name the address:\n%s", body)
	}
	if !strings.Contains(body, `<form method="post" action="/sign-in/confirm">`) ||
		!strings.Contains(body, `<input type="hidden" name="token" value="`+token+`">`) {
		t.Fatalf("confirmation page:\n%s", body)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("the page whose address holds the token may leak it in Referer")
	}
	if _, err := ta.Store().AccountByEmail(context.Background(), "ada@example.com"); err == nil {
		t.Fatal("the account exists before the link was confirmed")
	}

	resp, body = b.Post("/sign-in/confirm", url.Values{"token": {token}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/account?from=mail" {
		t.Errorf("Location = %q, want the next path", loc)
	}
	checkSessionCookie(t, resp, session.SecureCookieName, true)
	acct, err := ta.Store().AccountByEmail(context.Background(), "ada@example.com")
	if err != nil || acct.VerifiedAt.IsZero() || acct.Limits != model.InitialLimits {
		t.Fatalf("account after the first sign-in: %+v, %v", acct, err)
	}
	resp, body = b.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "ada@example.com") {
		t.Errorf("the account page does not name the account:\n%s", body)
	}

	// The link works once; opened again, it says so and leads to a new one.
	other := apptest.NewBrowser(ta)
	resp, body = other.Get("/sign-in/confirm?token=" + token)
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	if !strings.Contains(body, "<h1>This sign-in link was used or has expired</h1>") ||
		!strings.Contains(body, `href="/sign-in">Ask for a new sign-in link</a>`) || strings.Contains(body, "Press the button") {
		t.Errorf("a used link's page:\n%s", body)
	}
	resp, body = other.Post("/sign-in/confirm", url.Values{"token": {token}})
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	if _, ok := other.Cookies[session.SecureCookieName]; ok {
		t.Error("a used link started a session")
	}
	// Mail holds nothing but the link: no session token.
	if strings.Contains(raw, b.Cookies[session.SecureCookieName]) {
		t.Error("the session token is in the mail")
	}
}

func checkSessionCookie(t *testing.T, resp *http.Response, name string, secure bool) {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name != name {
			continue
		}
		if !c.HttpOnly || c.Secure != secure || c.SameSite != http.SameSiteLaxMode || c.Path != "/" ||
			c.MaxAge != int(session.Lifetime/time.Second) || c.Domain != "" || !session.WellFormed(c.Value) {
			t.Errorf("session cookie %+v", c)
		}
		return
	}
	t.Errorf("no %s cookie in %v", name, resp.Header["Set-Cookie"])
}

// TestSessionCookieOnHTTP: a service on plain http names its cookie
// without the __Host- prefix, which browsers would refuse there.
func TestSessionCookieOnHTTP(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t, app.WithConfig(func(c *app.Config) { c.BaseURL = "http://signals.example" }))
	b := apptest.NewBrowser(ta)
	b.Post("/sign-in", url.Values{"email": {"h@example.com"}})
	token := regexp.MustCompile(`token=([A-Za-z0-9_-]{43})`).FindStringSubmatch(ta.Outbox()[0])[1]
	resp, body := b.Post("/sign-in/confirm", url.Values{"token": {token}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	checkSessionCookie(t, resp, session.CookieName, false)
}

// TestSignInAnswerIsTheSameForEveryone: whether an account exists does not
// show in the answer, and both are mailed a link.
func TestSignInAnswerIsTheSameForEveryone(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t) // dev@example.com exists
	b := apptest.NewBrowser(ta)
	_, existing := b.Post("/sign-in", url.Values{"email": {"dev@example.com"}})
	_, fresh := b.Post("/sign-in", url.Values{"email": {"new@example.com"}})
	if strings.ReplaceAll(existing, "dev@example.com", "X") != strings.ReplaceAll(fresh, "new@example.com", "X") {
		t.Errorf("the answers differ:\n%s\n---\n%s", existing, fresh)
	}
	if n := len(ta.Outbox()); n != 2 {
		t.Errorf("%d messages, want 2", n)
	}
	if loc := b.SignIn(t, "dev@example.com", ""); loc != "/account?notice=signed-in" {
		t.Errorf("Location = %q", loc)
	}
	if accts, _ := ta.Store().Keys(context.Background(), 1); len(accts) != 1 {
		t.Error("signing in to an existing account changed its keys")
	}
}

func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	b := apptest.NewBrowser(ta)
	for _, bad := range []string{"", "not an address", "Ada <ada@example.com>", "a@b", "a@example.com, b@example.com"} {
		resp, body := b.Post("/sign-in", url.Values{"email": {bad}})
		apptest.WantPage(t, resp, body, http.StatusBadRequest)
	}
	if n := len(ta.Outbox()); n != 0 {
		t.Errorf("%d messages for bad addresses", n)
	}
	for _, tt := range []struct{ name, next, want string }{
		{"scheme-relative", "//evil.example/account", "/account?notice=signed-in"},
		{"absolute", "https://evil.example/", "/account?notice=signed-in"},
		{"backslashes", `/\evil.example`, "/account?notice=signed-in"},
		{"local", "/developers", "/developers"},
	} {
		t.Run("next "+tt.name, func(t *testing.T) {
			if loc := apptest.NewBrowser(ta).SignIn(t, "next."+tt.name+"@example.com", tt.next); loc != tt.want {
				t.Errorf("Location = %q, want %q", loc, tt.want)
			}
		})
	}
	t.Run("expired link", func(t *testing.T) {
		b := apptest.NewBrowser(ta)
		b.Post("/sign-in", url.Values{"email": {"late@example.com"}})
		mails := ta.Outbox()
		token := apptest.LinkToken(t, mails[len(mails)-1])
		clk.Set(apptest.Noon.Add(15*time.Minute + time.Second))
		defer clk.Set(apptest.Noon)
		resp, body := b.Post("/sign-in/confirm", url.Values{"token": {token}})
		apptest.WantPage(t, resp, body, http.StatusBadRequest)
	})
	t.Run("malformed and unknown tokens", func(t *testing.T) {
		for _, token := range []string{"", "short", strings.Repeat("A", 43)} {
			resp, body := b.Post("/sign-in/confirm", url.Values{"token": {token}})
			apptest.WantPage(t, resp, body, http.StatusBadRequest)
			resp, body = b.Get("/sign-in/confirm?token=" + token)
			apptest.WantPage(t, resp, body, http.StatusBadRequest)
		}
	})
}

// TestSignInAddressesNobodyMeans: an address with an invisible character
// or at an IP address is refused on the form with a 400 and nothing is
// mailed; a local part that mixes scripts is mailed, and the page and the
// mail and the confirmation page spell it out, so that a look-alike shows.
func TestSignInAddressesNobodyMeans(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	ta := apptest.Start(t, withSMTP(srv))
	b := apptest.NewBrowser(ta)
	for _, tt := range []struct{ name, email, detail, shown string }{
		{"zero-width space", "kate@example.com\u200b", "invisible character (U+200B)", "kate@example.com"},
		{"bidi override", "\u202ekate@example.com", "invisible character (U+202E)", "kate@example.com"},
		{"address literal", "kate@[127.0.0.1]", "at an IP address", "kate@[127.0.0.1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := b.Post("/sign-in", url.Values{"email": {tt.email}})
			apptest.WantPage(t, resp, body, http.StatusBadRequest)
			if !strings.Contains(body, `<p id="email-error" class="error">`) || !strings.Contains(html.UnescapeString(body), tt.detail) {
				t.Errorf("the form does not say what is wrong (%q):\n%s", tt.detail, body)
			}
			// The form shows the address again, without what cannot be seen.
			if !strings.Contains(body, `value="`+tt.shown+`"`) {
				t.Errorf("the form does not show %q again:\n%s", tt.shown, body)
			}
		})
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d messages for addresses nobody means", n)
	}

	const lookalike = "kat\u0435@example.com" // a Cyrillic е
	const spelled = "kat[U+0435 Cyrillic]@example.com"
	resp, body := b.Post("/sign-in", url.Values{"email": {"KAT\u0415@EXAMPLE.COM"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	if page := html.UnescapeString(body); !strings.Contains(page, lookalike) || !strings.Contains(page, spelled) {
		t.Errorf("the page does not spell the address out:\n%s", body)
	}
	msg, received := srv.Last(t)
	if !slices.Equal(received.To, []string{lookalike}) {
		t.Fatalf("mailed to %q, want %q", received.To, lookalike)
	}
	text, htmlPart := mailParts(t, msg)
	for part, content := range map[string]string{"text": text, "HTML": html.UnescapeString(htmlPart)} {
		if !strings.Contains(content, spelled) {
			t.Errorf("the %s part does not spell the address out:\n%s", part, content)
		}
	}
	// The address is not ASCII, so the text part is quoted-printable.
	token := apptest.LinkToken(t, text)
	resp, body = b.Get("/sign-in/confirm?token=" + token)
	apptest.WantPage(t, resp, body, http.StatusOK)
	if page := html.UnescapeString(body); !strings.Contains(page, "signing in as "+lookalike) || !strings.Contains(page, spelled) {
		t.Errorf("the confirmation page does not spell the address out:\n%s", body)
	}
	resp, body = b.Post("/sign-in/confirm", url.Values{"token": {token}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if _, err := ta.Store().AccountByEmail(context.Background(), lookalike); err != nil {
		t.Errorf("the look-alike's account: %v", err)
	}
	if _, err := ta.Store().AccountByEmail(context.Background(), "kate@example.com"); err == nil {
		t.Error("the look-alike signed in as kate@example.com")
	}
}

// TestSignInThrottle: a person can ask for several links in a row; then
// requests are refused per email from this client, and per client
// address, with a 429 page that says when to retry, and no mail.
func TestSignInThrottle(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	b := apptest.NewBrowser(ta)
	for i := range perEmailLimit {
		resp, body := b.Post("/sign-in", url.Values{"email": {"again@example.com"}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d for one email: %d\n%s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := b.Post("/sign-in", url.Values{"email": {"AGAIN@example.com"}})
	apptest.WantPage(t, resp, body, http.StatusTooManyRequests)
	if ra := resp.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After = %q", ra)
	}
	if n := len(ta.Outbox()); n != perEmailLimit {
		t.Errorf("%d messages, want %d", n, perEmailLimit)
	}
	// Another address from the same client still works, until the
	// client's own limit.
	for i := perEmailLimit + 1; i < perAddressLimit; i++ {
		resp, body := b.Post("/sign-in", url.Values{"email": {"p" + nth(i) + "@example.com"}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d from one client: %d\n%s", i, resp.StatusCode, body)
		}
	}
	resp, body = b.Post("/sign-in", url.Values{"email": {"one-more@example.com"}})
	apptest.WantPage(t, resp, body, http.StatusTooManyRequests)
	// The next window starts afresh.
	clk.Set(apptest.Noon.Add(time.Hour))
	resp, body = b.Post("/sign-in", url.Values{"email": {"again@example.com"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
}

// The throttle's limits, as the account package sets them: per client
// and email, per client, and per email in a window of a link's lifetime.
const (
	perEmailLimit      = 3
	perAddressLimit    = 30
	perEmailFromAnyone = 8
)

// TestStrangersCannotBlockSignIn: strangers asking for links for someone's
// address, from many client addresses and through two replicas, neither
// lock the owner out nor mail the inbox past its bound. Whenever the
// owner's own request is refused, a link the strangers caused is in the
// owner's inbox and works; and the next window mails the owner again.
func TestStrangersCannotBlockSignIn(t *testing.T) {
	t.Parallel()
	const kate = "kate@example.com"
	for _, tt := range []struct {
		name      string
		strangers int // distinct client addresses
		each      int // requests from each
		mailed    int // messages to kate from the strangers' requests
		owner     int // status of the owner's request after them
	}{
		{"six strangers", 6, 1, 6, http.StatusOK},
		{"one stranger asking twenty times", 1, 20, perEmailLimit, http.StatusOK},
		{"a flood from forty addresses", 40, 2, perEmailFromAnyone, http.StatusTooManyRequests},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := smtptest.Start(t)
			clk := apptest.NewClock(apptest.Noon)
			first := apptest.Start(t, app.WithClock(clk.Now), withSMTP(srv))
			replicas := []*apptest.App{first, first.Replica(t, app.WithClock(clk.Now), withSMTP(srv))}
			for i := range tt.strangers {
				b := apptest.NewBrowserFrom(replicas[i%2], fmt.Sprintf("127.0.1.%d", i+1))
				for range tt.each {
					resp, body := b.Post("/sign-in", url.Values{"email": {kate}})
					if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusTooManyRequests {
						t.Fatalf("stranger %d: %d\n%s", i, resp.StatusCode, body)
					}
				}
			}
			if n := len(mailsTo(srv, kate)); n != tt.mailed {
				t.Fatalf("%d messages to %s from strangers' requests, want %d", n, kate, tt.mailed)
			}

			owner := apptest.NewBrowserFrom(first, "127.0.2.1")
			resp, body := owner.Post("/sign-in", url.Values{"email": {kate}})
			apptest.WantPage(t, resp, body, tt.owner)
			inbox := mailsTo(srv, kate)
			if tt.owner == http.StatusTooManyRequests {
				if n := len(inbox); n != tt.mailed {
					t.Errorf("a refused request was mailed: %d messages", n)
				}
				if !strings.Contains(body, "use the latest one in that inbox") {
					t.Errorf("the 429 page does not send the owner to the links already mailed:\n%s", body)
				}
				if ra, _ := strconv.Atoi(resp.Header.Get("Retry-After")); ra < 1 || ra > 15*60 {
					t.Errorf("Retry-After = %q, want at most the link lifetime", resp.Header.Get("Retry-After"))
				}
			}
			// The latest link in the inbox signs the owner in, whoever asked for it.
			token := apptest.LinkToken(t, string(inbox[len(inbox)-1].Data))
			resp, body = owner.Post("/sign-in/confirm", url.Values{"token": {token}})
			apptest.WantPage(t, resp, body, http.StatusSeeOther)

			clk.Set(apptest.Noon.Add(15 * time.Minute))
			resp, body = apptest.NewBrowserFrom(replicas[1], "127.0.2.2").Post("/sign-in", url.Values{"email": {kate}})
			apptest.WantPage(t, resp, body, http.StatusOK)
			if n := len(mailsTo(srv, kate)); n != len(inbox)+1 {
				t.Errorf("%d messages after the window, want %d", n, len(inbox)+1)
			}
		})
	}
}

// mailsTo is what srv received for to, oldest first.
func mailsTo(srv *smtptest.Server, to string) []smtptest.Received {
	var out []smtptest.Received
	for _, m := range srv.Messages() {
		if slices.Contains(m.To, to) {
			out = append(out, m)
		}
	}
	return out
}

func nth(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// TestCrossSiteFormsChangeNothing posts every form that changes state from
// another site: each is refused with 403 before it runs.
func TestCrossSiteFormsChangeNothing(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	ctx := context.Background()
	keys, _ := ta.Store().Keys(ctx, 1)
	mails := len(ta.Outbox())
	for _, tt := range []struct {
		path string
		form url.Values
	}{
		{"/sign-in", url.Values{"email": {"x@example.com"}}},
		{"/sign-in/confirm", url.Values{"token": {strings.Repeat("A", 43)}}},
		{"/sign-out", url.Values{}},
		{"/account/keys", url.Values{"name": {"stolen"}}},
		{"/account/keys/" + keys[0].ID + "/revoke", url.Values{}},
		{"/account/keys/" + keys[0].ID + "/rename", url.Values{"name": {"stolen"}}},
		{"/account/interests", url.Values{"tags": {"job"}, "frequency": {"daily"}}},
		{"/account/interests/stop", url.Values{}},
		{"/account/delete", url.Values{"confirm": {"dev@example.com"}}},
	} {
		for _, h := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Origin", "https://evil.example"},
		} {
			resp, body := b.Post(tt.path, tt.form, h...)
			apptest.WantPage(t, resp, body, http.StatusForbidden)
			if !strings.Contains(body, "forbidden_origin") {
				t.Errorf("%s: the 403 page does not name its code", tt.path)
			}
		}
	}
	if after, _ := ta.Store().Keys(ctx, 1); len(after) != len(keys) || after[0].RevokedAt != nil || after[0].Name != keys[0].Name {
		t.Errorf("keys changed: %+v", after)
	}
	if _, err := ta.Store().Interests(ctx, 1); err == nil {
		t.Error("interests were saved")
	}
	if n := len(ta.Outbox()); n != mails {
		t.Errorf("%d messages were sent", n-mails)
	}
	resp, body := b.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusOK) // still signed in, account still there
	// The service's own pages post same-origin.
	resp, body = b.Post("/account/keys", url.Values{"name": {"mine"}}, "Sec-Fetch-Site", "same-origin", "Origin", "https://signals.example")
	apptest.WantPage(t, resp, body, http.StatusOK)
}

// TestKeysInTheAccount creates a key, uses it, and revokes it.
func TestKeysInTheAccount(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	// Requests with the operator's key count against the account.
	for range 3 {
		resp, body := ta.Get("/api/v1/usage")
		apptest.WantStatus(t, resp, body, http.StatusOK)
	}

	resp, body := b.Post("/account/keys", url.Values{"name": {"laptop <script>"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	secret := regexp.MustCompile(`sig_[0-9A-Za-z]{38}`).FindString(body)
	if secret == "" || !auth.WellFormed(secret) {
		t.Fatalf("the answer does not show the new key:\n%s", body)
	}
	// The copy button copies the element holding the key, with the site's
	// own script; it stays hidden without JavaScript.
	if !strings.Contains(body, `id="new-key">`+secret+`<`) || !strings.Contains(body, `data-copy="new-key" hidden>`) ||
		!regexp.MustCompile(`<script[^>]+src="/assets/site\.[^"]*js"`).MatchString(body) {
		t.Errorf("the new key has no copy button:\n%s", body)
	}
	if strings.Contains(body, "laptop <script>") {
		t.Error("the key's name is not escaped")
	}
	resp, raw := ta.Get("/api/v1/usage", "Authorization", "Bearer "+secret)
	apptest.WantStatus(t, resp, raw, http.StatusOK)
	u := apptest.Decode[struct {
		DailyRequests struct{ Used int } `json:"daily_requests"`
	}](t, raw)
	if u.DailyRequests.Used != 4 {
		t.Errorf("the new key sees %d requests today, want 4: usage is per account", u.DailyRequests.Used)
	}

	resp, body = b.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusOK)
	if strings.Contains(body, secret) {
		t.Fatal("the key is shown again")
	}
	if !strings.Contains(body, "laptop &lt;script&gt;") || !strings.Contains(body, auth.Hint(secret)) {
		t.Errorf("the key list lacks the new key's name or prefix:\n%s", body)
	}
	keys, _ := ta.Store().Keys(context.Background(), 1)
	var id string
	for _, k := range keys {
		if k.Name == "laptop <script>" {
			id = k.ID
		}
	}
	// Revoke leads to a page that asks first; only its form revokes.
	revoke := "/account/keys/" + id + "/revoke"
	if !strings.Contains(body, `href="`+revoke+`"`) || strings.Contains(body, `action="`+revoke+`"`) {
		t.Errorf("the account page does not lead to a confirmation before revoking:\n%s", body)
	}
	resp, body = b.Get(revoke)
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(body, `method="post" action="`+revoke+`"`) || !strings.Contains(body, "laptop &lt;script&gt;") {
		t.Errorf("the confirmation does not name the key or lacks its form:\n%s", body)
	}
	resp, raw = ta.Get("/api/v1/usage", "Authorization", "Bearer "+secret)
	apptest.WantStatus(t, resp, raw, http.StatusOK) // asking revokes nothing
	resp, body = b.Post(revoke, url.Values{})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	resp, raw = ta.Get("/api/v1/usage", "Authorization", "Bearer "+secret)
	apptest.WantStatus(t, resp, raw, http.StatusUnauthorized)
	resp, body = b.Post(revoke, url.Values{})
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	resp, body = b.Get(revoke)
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	resp, body = b.Post("/account/keys/"+id+"/rename", url.Values{"name": {"again"}})
	apptest.WantPage(t, resp, body, http.StatusNotFound)

	// The revoked key stays listed, with the time of its revocation, and
	// nothing more to do with it.
	keys, _ = ta.Store().Keys(context.Background(), 1)
	i := slices.IndexFunc(keys, func(k model.APIKey) bool { return k.ID == id })
	if i < 0 || keys[i].RevokedAt == nil || keys[i].Name != "laptop <script>" {
		t.Fatalf("the revoked key is not kept: %+v", keys)
	}
	body = b.MustGet(t, "/account")
	revokedRow := regexp.MustCompile(`<tr>\s*<td><bdi>laptop &lt;script&gt;</bdi></td><td data-label="Starts with"><code>[^<]+</code></td><td data-label="Created">[^<]+</td><td data-label="Revoked">` +
		regexp.QuoteMeta(label.Time(*keys[i].RevokedAt)) + `</td>\s*</tr>`)
	if !strings.Contains(body, "Revoked keys") || !revokedRow.MatchString(body) {
		t.Errorf("the revoked key is not listed as revoked with its date:\n%s", body)
	}
	if strings.Contains(body, revoke) || strings.Contains(body, "/account/keys/"+id+"/rename") {
		t.Error("the revoked key can still be revoked or renamed from the account page")
	}

	// Another account's key is not this account's to revoke.
	other, _ := ta.Store().CreateAccount(context.Background(), "other@example.com", time.Now())
	otherKey, k, _ := auth.Issue(context.Background(), ta.Store(), other.ID, "theirs", time.Now())
	resp, body = b.Post("/account/keys/"+k.ID+"/revoke", url.Values{})
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	resp, body = b.Get("/account/keys/" + k.ID + "/revoke")
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	resp, body = b.Post("/account/keys/"+k.ID+"/rename", url.Values{"name": {"stolen"}})
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	if theirs, _ := ta.Store().Keys(context.Background(), other.ID); theirs[0].Name != "theirs" {
		t.Errorf("another account's key was renamed to %q", theirs[0].Name)
	}
	resp, raw = ta.Get("/api/v1/usage", "Authorization", "Bearer "+otherKey)
	apptest.WantStatus(t, resp, raw, http.StatusOK)

	resp, body = b.Post("/account/keys", url.Values{"name": {"  "}})
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	resp, body = b.Post("/account/keys", url.Values{"name": {"big"}, "pad": {strings.Repeat("x", 40<<10)}})
	apptest.WantPage(t, resp, body, http.StatusRequestEntityTooLarge)
}

// TestRenameKey renames a key from the account area, bounded and escaped
// as names are at creation.
func TestRenameKey(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	ctx := context.Background()
	resp, body := b.Post("/account/keys", url.Values{"name": {"old"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	keys, _ := ta.Store().Keys(ctx, 1)
	id := keys[0].ID
	rename := "/account/keys/" + id + "/rename"
	body = b.MustGet(t, "/account")
	if !strings.Contains(body, `action="`+rename+`"`) {
		t.Fatalf("the key has no rename form:\n%s", body)
	}

	resp, body = b.Post(rename, url.Values{"name": {"  <b>new</b>  "}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/account?notice=key-renamed#keys" {
		t.Errorf("Location = %q", loc)
	}
	if keys, _ := ta.Store().Keys(ctx, 1); keys[0].Name != "<b>new</b>" {
		t.Errorf("name = %q, want <b>new</b>", keys[0].Name)
	}
	body = b.MustGet(t, "/account?notice=key-renamed")
	if !strings.Contains(body, "&lt;b&gt;new&lt;/b&gt;") || strings.Contains(body, "<b>new</b>") {
		t.Errorf("the new name is missing or not escaped:\n%s", body)
	}

	for _, tt := range []struct{ name, value string }{
		{"empty", "   "},
		{"too long", strings.Repeat("é", 101)},
		{"control character", "new\x1bname"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := b.Post(rename, url.Values{"name": {tt.value}})
			apptest.WantPage(t, resp, body, http.StatusBadRequest)
			if !strings.Contains(body, `id="rename-error"`) || !strings.Contains(body, "<details open>") {
				t.Errorf("the refused name is not explained at its form:\n%s", body)
			}
			if keys, _ := ta.Store().Keys(ctx, 1); keys[0].Name != "<b>new</b>" {
				t.Errorf("name = %q after a refused rename", keys[0].Name)
			}
		})
	}
	resp, body = b.Post("/account/keys/key_none/rename", url.Values{"name": {"x"}})
	apptest.WantPage(t, resp, body, http.StatusNotFound)
}

func TestAccountPages(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	anonymous := apptest.NewBrowser(ta)
	resp, body := anonymous.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/sign-in?next=%2Faccount" {
		t.Errorf("Location = %q", loc)
	}
	resp, body = anonymous.Post("/account/keys", url.Values{"name": {"x"}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)

	b := apptest.SignedIn(t, ta)
	resp, body = b.Get("/account", "Accept", "text/markdown")
	apptest.WantPage(t, resp, body, http.StatusOK) // private pages never negotiate Markdown
	resp, body = b.Do(http.MethodDelete, "/account", nil)
	apptest.WantPage(t, resp, body, http.StatusMethodNotAllowed)
	if allow := resp.Header.Get("Allow"); allow != "GET, HEAD" {
		t.Errorf("Allow = %q", allow)
	}
	resp, body = b.Get("/sign-out")
	apptest.WantPage(t, resp, body, http.StatusMethodNotAllowed)
	resp, body = b.Get("/account/nothing")
	apptest.WantPage(t, resp, body, http.StatusNotFound)
	resp, body = b.Do(http.MethodHead, "/account", nil)
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(b.MustGet(t, "/account"), "No app is connected.") {
		t.Error("the connections section is missing")
	}
}

// TestSignOutEndsTheSessionOnTheServer: the cookie of a session that was
// signed out no longer signs anyone in, even if a copy of it is replayed.
func TestSignOutEndsTheSessionOnTheServer(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	stolen := b.Cookies[session.SecureCookieName]
	resp, body := b.Post("/sign-out", url.Values{})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if _, ok := b.Cookies[session.SecureCookieName]; ok {
		t.Error("the cookie was not cleared")
	}
	replay := apptest.NewBrowser(ta)
	replay.Cookies[session.SecureCookieName] = stolen
	resp, body = replay.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
}

// TestSessionRenewsOnUse: a session in use lives on past its first 30 days.
func TestSessionRenewsOnUse(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	b := apptest.SignedIn(t, ta)
	clk.Set(apptest.Noon.Add(20 * 24 * time.Hour))
	resp, body := b.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusOK)
	checkSessionCookie(t, resp, session.SecureCookieName, true)
	clk.Set(apptest.Noon.Add(45 * 24 * time.Hour))
	b.MustGet(t, "/account")
	idle := apptest.NewBrowser(ta)
	idle.SignIn(t, "idle@example.com", "")
	clk.Set(apptest.Noon.Add(90 * 24 * time.Hour))
	resp, body = idle.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
}

// TestUsageChart: the account area shows today's usage against the
// account's actual limits, and 30 days of history as an SVG chart.
func TestUsageChart(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	ctx := context.Background()
	if err := ta.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 5000, MinuteRequests: 45, DailySearches: 12, ConcurrentSearches: 2}); err != nil {
		t.Fatal(err)
	}
	b := apptest.SignedIn(t, ta)
	for range 7 {
		ta.Get("/api/v1/usage")
	}
	if err := ta.FlushUsage(ctx); err != nil {
		t.Fatal(err)
	}
	today := model.DayOf(apptest.Noon)
	days, err := ta.Store().DailyUsage(ctx, 1, today, today.AddDate(0, 0, 1))
	if err != nil || len(days) != 1 || days[0].Requests != 7 {
		t.Fatalf("recorded today: %+v, %v; want 7 requests", days, err)
	}
	if err := ta.Store().AddDailyUsage(ctx, []store.DayUsage{
		{AccountID: 1, Day: today.AddDate(0, 0, -3), Requests: 321, Searches: 4},
		{AccountID: 1, Day: today.AddDate(0, 0, -40), Requests: 999},
	}); err != nil {
		t.Fatal(err)
	}
	body := b.MustGet(t, "/account")
	for _, want := range []string{
		"<td>5,000</td>", "<td>12</td>", "<td>45</td>", "00:00 UTC, Sun 22 Nov",
		"<svg", "<title>Wed 18 Nov: 321 requests</title>", "<title>Wed 18 Nov: 4 searches</title>",
		"<title>Sat 21 Nov: 7 requests</title>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the account page lacks %q", want)
		}
	}
	if strings.Contains(body, ": 999 requests") {
		t.Error("the chart shows a day older than 30 days")
	}
}

// TestDeleteAccount: deleting revokes keys and sessions at once and
// removes the data; the email can sign up again as a new account.
func TestDeleteAccount(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ctx := context.Background()
	b := apptest.SignedIn(t, ta)
	second := apptest.SignedIn(t, ta) // another browser's session
	b.Post("/account/interests", url.Values{"tags": {"job"}, "frequency": {"daily"}})

	resp, body := b.Post("/account/delete", url.Values{"confirm": {"someone@example.com"}})
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	resp, body = b.Post("/account/delete", url.Values{"confirm": {"DEV@example.com"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "deleted") || strings.Contains(body, "Sign out") {
		t.Errorf("answer:\n%s", body)
	}
	resp, raw := ta.Get("/api/v1/usage")
	apptest.WantStatus(t, resp, raw, http.StatusUnauthorized)
	resp, body = second.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if _, err := ta.Store().AccountByEmail(ctx, "dev@example.com"); err == nil {
		t.Fatal("the account is still there")
	}

	again := apptest.NewBrowser(ta)
	again.SignIn(t, "dev@example.com", "")
	acct, err := ta.Store().AccountByEmail(ctx, "dev@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if keys, _ := ta.Store().Keys(ctx, acct.ID); len(keys) != 0 {
		t.Errorf("the new account has %d keys", len(keys))
	}
	if _, err := ta.Store().Interests(ctx, acct.ID); err == nil {
		t.Error("the new account has the old one's interests")
	}
}

// digestMails returns the messages of the outbox that are digests.
func digestMails(t *testing.T, ta *apptest.App) []*mail.Message {
	t.Helper()
	var out []*mail.Message
	for _, raw := range ta.Outbox() {
		m, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Header.Get("Subject"), "digest") {
			m.Body = io.NopCloser(strings.NewReader(raw))
			out = append(out, m)
		}
	}
	return out
}

// TestInterestsAndDigests chooses interests, receives a digest of what is
// new, and unsubscribes with one click and no session.
func TestInterestsAndDigests(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(time.Date(2026, 10, 1, 6, 0, 0, 0, time.UTC))
	ta := apptest.Start(t, app.WithClock(clk.Now))
	ctx := context.Background()
	b := apptest.SignedIn(t, ta)
	if body := b.MustGet(t, "/account"); !strings.Contains(body, "You receive no email from us besides sign-in links") {
		t.Error("a new account shows interests it never chose")
	}
	resp, body := b.Post("/account/interests", url.Values{"frequency": {"daily"}})
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	resp, body = b.Post("/account/interests", url.Values{"tags": {"funding", "nonsense"}, "frequency": {"daily"}})
	apptest.WantPage(t, resp, body, http.StatusBadRequest)
	resp, body = b.Post("/account/interests", url.Values{"tags": {"funding"}, "countries": {"canada"}, "frequency": {"daily"}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	if body := b.MustGet(t, "/account"); !strings.Contains(body, "<strong>daily</strong> digest") {
		t.Errorf("the page does not show the chosen interests:\n%s", body)
	}

	observed := func(at time.Time) func(*model.Signal) {
		return func(s *model.Signal) { o := model.TimeOf(at, 0); s.ObservedAt = &o }
	}
	storetest.Put(t, ta.Store(),
		storetest.Sig("old", 1, observed(clk.Now().Add(-time.Hour))),           // before the interests
		storetest.Sig("new-match", 2, observed(clk.Now().Add(30*time.Minute))), // funding, canada
		storetest.Sig("new-job", 3, observed(clk.Now().Add(30*time.Minute)), func(s *model.Signal) { s.Tag = "job" }),
		storetest.Sig("new-hidden", 4, observed(clk.Now().Add(30*time.Minute)), func(s *model.Signal) { s.Status = model.StatusHidden }),
	)
	// Before the hour, the period under way began before the interests
	// were chosen: the first digest is the next period's.
	clk.Set(time.Date(2026, 10, 1, 6, 59, 0, 0, time.UTC))
	sendDue(t, ta)
	if n := len(digestMails(t, ta)); n != 0 {
		t.Fatalf("%d digests before the first period of the interests", n)
	}
	clk.Set(time.Date(2026, 10, 1, 7, 0, 30, 0, time.UTC))
	sendDue(t, ta)
	sendDue(t, ta) // once per period
	mails := digestMails(t, ta)
	if len(mails) != 1 {
		t.Fatalf("%d digests, want 1", len(mails))
	}
	m := mails[0]
	raw, _ := io.ReadAll(m.Body)
	if !bytes.Contains(raw, []byte("https://example.org/new-match")) ||
		bytes.Contains(raw, []byte("example.org/new-job")) || bytes.Contains(raw, []byte("example.org/old")) ||
		bytes.Contains(raw, []byte("new-hidden")) {
		t.Errorf("digest holds the wrong signals:\n%s", raw)
	}
	unsub := m.Header.Get("List-Unsubscribe")
	if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" ||
		!regexp.MustCompile(`^<https://signals\.example/unsubscribe\?token=[A-Za-z0-9_-]{43}>$`).MatchString(unsub) {
		t.Fatalf("List-Unsubscribe %q, List-Unsubscribe-Post %q", unsub, m.Header.Get("List-Unsubscribe-Post"))
	}

	// The next day, nothing new: no mail.
	clk.Set(time.Date(2026, 10, 2, 7, 5, 0, 0, time.UTC))
	sendDue(t, ta)
	if n := len(digestMails(t, ta)); n != 1 {
		t.Fatalf("%d digests after a day with nothing new, want still 1", n)
	}

	// One click, as a mail provider posts it: no cookie, no Origin.
	u, _ := url.Parse(strings.Trim(unsub, "<>"))
	provider := apptest.NewBrowser(ta)
	resp, body = provider.Get(u.RequestURI())
	apptest.WantPage(t, resp, body, http.StatusOK)
	if _, err := ta.Store().Interests(ctx, 1); err != nil {
		t.Fatal("fetching the unsubscribe link unsubscribed")
	}
	resp, body = provider.Post(u.RequestURI(), url.Values{"List-Unsubscribe": {"One-Click"}})
	apptest.WantPage(t, resp, body, http.StatusOK)
	if _, err := ta.Store().Interests(ctx, 1); err == nil {
		t.Error("still subscribed after one-click unsubscription")
	}
	resp, body = provider.Post("/unsubscribe?token="+strings.Repeat("A", 43), url.Values{"List-Unsubscribe": {"One-Click"}})
	apptest.WantPage(t, resp, body, http.StatusNotFound)
}

func sendDue(t *testing.T, ta *apptest.App) {
	t.Helper()
	if err := ta.SendDueDigests(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestDigestsOnceAcrossProcesses runs the digest senders of two apps on one
// database at the same moment: each account gets one digest.
func TestDigestsOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 10, 1, 7, 1, 0, 0, time.UTC)
	clk := apptest.NewClock(at.Add(-2 * time.Hour))
	first := apptest.Start(t, app.WithClock(clk.Now))
	second, err := app.New(context.Background(), first.Config, first.Log, app.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ctx := context.Background()
	var signals []model.Signal
	for i := range 20 {
		email := "p" + nth(i) + "@example.com"
		acct, err := first.Store().CreateAccount(ctx, email, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := first.Store().PutInterests(ctx, acct.ID, model.Interests{Tags: []string{"funding"}, Frequency: model.Daily, Since: clk.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	obs := model.TimeOf(at.Add(-time.Hour), 0)
	signals = append(signals, storetest.Sig("s", 1, func(s *model.Signal) { s.ObservedAt = &obs }))
	storetest.Put(t, first.Store(), signals...)
	clk.Set(at)
	errs := make(chan error, 2)
	go func() { errs <- first.SendDueDigests(ctx) }()
	go func() { errs <- second.SendDueDigests(ctx) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	to := map[string]int{}
	for _, m := range digestMails(t, first) {
		to[m.Header.Get("To")]++
	}
	if len(to) != 20 {
		t.Errorf("%d accounts got a digest, want 20", len(to))
	}
	for addr, n := range to {
		if n != 1 {
			t.Errorf("%s got %d digests", addr, n)
		}
	}
}

// TestSecretsNeverReachTheLog signs in, creates a key and unsubscribes
// with the log captured: no token, link or key appears in it.
func TestSecretsNeverReachTheLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	ta := apptest.Start(t, app.WithLogger(slogTo(&logs)))
	b := apptest.NewBrowser(ta)
	b.SignIn(t, "log@example.com", "")
	mails := ta.Outbox()
	token := apptest.LinkToken(t, mails[len(mails)-1])
	_, body := b.Post("/account/keys", url.Values{"name": {"k"}})
	key := regexp.MustCompile(`sig_[0-9A-Za-z]{38}`).FindString(body)
	for _, secret := range []string{token, key, b.Cookies[session.SecureCookieName]} {
		if secret == "" || strings.Contains(logs.String(), secret) {
			t.Errorf("secret %q is empty or in the log:\n%s", secret, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "mail sent") {
		t.Errorf("the log does not say where mail went:\n%s", logs.String())
	}
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// TestOversizedFormsAre413: every form of the site, signed in where it
// needs a session, answers a body past 32 KiB with a 413 page
// (payload_too_large) and changes nothing: whether the size is declared
// (40 KB, or 10 MB that never arrive) or only shows while the body is read.
func TestOversizedFormsAre413(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	ctx := context.Background()
	keys, _ := ta.Store().Keys(ctx, 1)
	mails := len(ta.Outbox())
	big := url.Values{"email": {strings.Repeat("a", 40<<10) + "@example.com"}, "name": {strings.Repeat("n", 40<<10)}}.Encode()
	paths := []string{
		"/sign-in", "/sign-in/confirm", "/sign-out",
		"/account/keys", "/account/keys/" + keys[0].ID + "/revoke", "/account/connections/1/disconnect",
		"/account/interests", "/account/interests/stop", "/account/delete",
		"/unsubscribe?token=" + strings.Repeat("A", 43), "/oauth/authorize",
	}
	for _, tt := range []struct {
		name string
		body func() io.Reader // a reader without a length is sent chunked
	}{
		{"declared", func() io.Reader { return strings.NewReader(big) }},
		{"chunked", func() io.Reader { return struct{ io.Reader }{strings.NewReader(big)} }},
	} {
		for _, path := range paths {
			t.Run(tt.name+" "+path, func(t *testing.T) {
				req, err := http.NewRequest(http.MethodPost, ta.URL+path, tt.body())
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				for name, value := range b.Cookies {
					req.AddCookie(&http.Cookie{Name: name, Value: value})
				}
				resp, err := b.Client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				apptest.WantPage(t, resp, string(raw), http.StatusRequestEntityTooLarge)
				if !strings.Contains(string(raw), "payload_too_large") {
					t.Errorf("the 413 page does not name its code:\n%s", raw)
				}
			})
		}
	}
	t.Run("10 MB declared", func(t *testing.T) {
		addr := serve(t, ta)
		for _, path := range []string{"/sign-in", "/account/keys"} {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: signals.example\r\nCookie: %s=%s\r\n"+
				"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\nemail=a",
				path, session.SecureCookieName, b.Cookies[session.SecureCookieName], 10<<20)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("%s: no answer within 5 s: %v", path, err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(raw), "payload_too_large") {
				t.Errorf("%s: %d\n%s", path, resp.StatusCode, raw)
			}
		}
	})
	if after, _ := ta.Store().Keys(ctx, 1); len(after) != len(keys) || after[0].RevokedAt != nil {
		t.Errorf("keys changed: %+v", after)
	}
	if n := len(ta.Outbox()); n != mails {
		t.Errorf("%d messages were sent", n-mails)
	}
	resp, body := b.Get("/account")
	apptest.WantPage(t, resp, body, http.StatusOK) // still signed in, account still there
}

// mailParts returns the decoded plain text and HTML parts of a message.
func mailParts(t *testing.T, msg *mail.Message) (text, html string) {
	t.Helper()
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			return text, html
		}
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(p)
		if p.Header.Get("Content-Transfer-Encoding") == "base64" {
			raw, err = base64.StdEncoding.DecodeString(strings.ReplaceAll(string(raw), "\r\n", ""))
		}
		if err != nil {
			t.Fatal(err)
		}
		switch mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); mt {
		case "text/plain":
			text = string(raw)
		case "text/html":
			html = string(raw)
		}
	}
}

// TestInterestsFormReadsAsTheFeed names kinds and countries as the feed's
// filters do, and lists countries as checkboxes grouped by region.
func TestInterestsFormReadsAsTheFeed(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	body := b.MustGet(t, "/account")
	for _, want := range []string{
		`<label for="tag-physical_ai">Physical AI</label>`,
		`<summary>Africa</summary>`, `<legend class="visually-hidden">Africa</legend>`,
		`<summary>Americas</summary>`, `<summary>Asia</summary>`, `<summary>Europe</summary>`, `<summary>Oceania</summary>`,
		`<input type="checkbox" id="country-cote_d_ivoire" name="countries" value="cote_d_ivoire"><label for="country-cote_d_ivoire">Côte d&#39;Ivoire</label>`,
		`<label for="country-guinea_bissau">Guinea-Bissau</label>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the account page lacks %s", want)
		}
	}
	if strings.Contains(body, "<select") {
		t.Error("countries are still a select list")
	}
	resp, body := b.Post("/account/interests", url.Values{"tags": {"physical_ai"}, "countries": {"cote_d_ivoire", "canada"}, "frequency": {"weekly"}})
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	body = b.MustGet(t, "/account")
	for _, want := range []string{
		"(kinds: Physical AI; countries: Canada, Côte d&#39;Ivoire)",
		`<details open>
<summary>Africa</summary>`,
		`<input type="checkbox" id="country-cote_d_ivoire" name="countries" value="cote_d_ivoire" checked>`,
		`<input type="checkbox" id="country-canada" name="countries" value="canada" checked>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("after saving, the account page lacks %s", want)
		}
	}
	if strings.Contains(body, "<details open>\n<summary>Europe</summary>") {
		t.Error("a region with no chosen country is open")
	}
}
