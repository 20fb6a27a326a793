package apptest

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

const (
	// Resource is the MCP endpoint of a test app, the resource its
	// tokens are for.
	Resource = BaseURL + "/mcp"
	// Redirect is the redirect URI of the OAuth clients tests register.
	Redirect = "http://127.0.0.1:9/callback"
)

// RegisterClient registers a public OAuth client of the app at base with
// one redirect URI (Redirect) and name, and returns its client id.
func RegisterClient(t testing.TB, base, name string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{Redirect},
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
	resp, err := http.Post(base+"/oauth/register", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d %s", resp.StatusCode, raw)
	}
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	json.Unmarshal(raw, &out)
	if out.ClientID == "" || out.ClientSecret != "" {
		t.Fatalf("registration answer %s", raw)
	}
	return out.ClientID
}

// OAuthConfig is a golang.org/x/oauth2 client of the app at base.
func OAuthConfig(base, clientID string, scopes ...string) *oauth2.Config {
	return &oauth2.Config{ClientID: clientID, RedirectURL: Redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: base + "/oauth/authorize", TokenURL: base + "/oauth/token",
			AuthStyle: oauth2.AuthStyleInParams}}
}

// HiddenField finds a form's hidden fields: their name and their value,
// escaped as HTML.
var HiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// Consent follows an authorization URL as the signed-in browser, answers
// the consent page with decision ("allow" or "deny") and returns the
// redirect's parameters. It checks that the page offers both buttons and
// that the answer redirects to Redirect.
func Consent(t testing.TB, b *Browser, authURL, decision string) url.Values {
	t.Helper()
	u, _ := url.Parse(authURL)
	resp, body := b.Get(u.RequestURI())
	WantPage(t, resp, body, http.StatusOK)
	for _, want := range []string{`<button type="submit" name="decision" value="allow">`, `name="decision" value="deny">`} {
		if !strings.Contains(body, want) {
			t.Fatalf("consent page lacks %s:\n%s", want, body)
		}
	}
	form := url.Values{"decision": {decision}}
	for _, m := range HiddenField.FindAllStringSubmatch(body, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	resp, body = b.Post("/oauth/authorize", form, "Origin", BaseURL)
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("consent answer %d:\n%s", resp.StatusCode, body)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), Redirect+"?") {
		t.Fatalf("redirect to %q", resp.Header.Get("Location"))
	}
	return loc.Query()
}

// Authorize runs the authorization code flow with PKCE through x/oauth2
// and the browser, allowing at the consent page, and returns the token and
// the code it was exchanged for. It checks the redirect's state and iss.
func Authorize(t testing.TB, b *Browser, conf *oauth2.Config) (*oauth2.Token, string) {
	t.Helper()
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", Resource))
	q := Consent(t, b, authURL, "allow")
	if q.Get("state") != "st4te" || q.Get("iss") != BaseURL || q.Get("code") == "" {
		t.Fatalf("redirect parameters %v", q)
	}
	tok, err := conf.Exchange(context.Background(), q.Get("code"), oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("resource", Resource))
	if err != nil {
		t.Fatal(err)
	}
	return tok, q.Get("code")
}
