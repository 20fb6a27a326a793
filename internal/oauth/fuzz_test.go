package oauth

import (
	"net/url"
	"signals/internal/consent"
	"slices"
	"strings"
	"testing"
)

// FuzzParseAuthorize checks that whatever an authorization request holds,
// an accepted one satisfies every rule the handler relies on.
func FuzzParseAuthorize(f *testing.F) {
	f.Add("response_type=code&client_id=client_1&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_challenge=" +
		strings.Repeat("A", 43) + "&code_challenge_method=S256&resource=https%3A%2F%2Fs.example%2Fmcp&scope=signals%3Aread&state=x")
	f.Add("code_challenge_method=plain&scope=+&client_id=%00")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		a, e := ParseAuthorize(q, "https://s.example/mcp")
		if e != nil {
			if e.Code == "" || e.Description == "" {
				t.Fatalf("error without code or description: %+v", e)
			}
			return
		}
		if a.Resource != "https://s.example/mcp" || !validChallenge(a.Challenge) || q.Get("code_challenge_method") != "S256" ||
			a.ClientID == "" || a.RedirectURI == "" || len(a.Scopes) == 0 {
			t.Fatalf("accepted %q as %+v", raw, a)
		}
		for _, s := range a.Scopes {
			if !slices.Contains(consent.Scopes, s) {
				t.Fatalf("accepted scope %q", s)
			}
		}
		// The consent form posts the request back: it must read the same.
		again, e := ParseAuthorize(a.Values(), "https://s.example/mcp")
		if e != nil || !slices.Equal(again.Scopes, a.Scopes) || again.State != a.State || again.RedirectURI != a.RedirectURI {
			t.Fatalf("round trip of %+v: %+v %v", a, again, e)
		}
	})
}

// FuzzParseToken checks that an accepted token request has what its grant
// type needs.
func FuzzParseToken(f *testing.F) {
	f.Add("grant_type=authorization_code&code=sigoc_x&redirect_uri=https%3A%2F%2Fa.example%2Fcb&client_id=c&code_verifier="+strings.Repeat("v", 43), "")
	f.Add("grant_type=refresh_token&refresh_token=sigor_x&scope=signals%3Asearch", "c")
	f.Add("grant_type=password&username=a&password=b", "")
	f.Fuzz(func(t *testing.T, raw, basic string) {
		form, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		req, e := ParseToken(form, basic)
		if e != nil {
			if e.Code == "" || (e.Status != 400 && e.Status != 401) {
				t.Fatalf("bad error %+v", e)
			}
			return
		}
		if req.ClientID == "" {
			t.Fatal("accepted without a client")
		}
		switch req.GrantType {
		case GrantAuthorizationCode:
			if req.Code == "" || req.RedirectURI == "" || !validVerifier(req.Verifier) {
				t.Fatalf("accepted code request %+v", req)
			}
		case GrantRefreshToken:
			if req.RefreshToken == "" {
				t.Fatalf("accepted refresh request %+v", req)
			}
		default:
			t.Fatalf("accepted grant type %q", req.GrantType)
		}
	})
}

// FuzzParseRegistration checks that an accepted registration names only
// redirect URIs that are https or http on a loopback host.
func FuzzParseRegistration(f *testing.F) {
	f.Add(`{"client_name":"A","redirect_uris":["https://a.example/cb","http://127.0.0.1:33418/cb"]}`)
	f.Add(`{"redirect_uris":["http://localhost/cb"],"token_endpoint_auth_method":"none","grant_types":["authorization_code"]}`)
	f.Add(`{"redirect_uris":["javascript:alert(1)"]}`)
	f.Fuzz(func(t *testing.T, body string) {
		m, e := ParseRegistration([]byte(body))
		if e != nil {
			if e.Code != ErrInvalidClientMeta && e.Code != ErrInvalidRedirectURI {
				t.Fatalf("code %q", e.Code)
			}
			return
		}
		if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > maxRedirects || !printable(m.Name) {
			t.Fatalf("accepted %+v", m)
		}
		for _, raw := range m.RedirectURIs {
			u, err := url.Parse(raw)
			if err != nil || u.Fragment != "" || strings.Contains(raw, "\n") ||
				!(u.Scheme == "https" || u.Scheme == "http" && loopback(u.Hostname())) {
				t.Fatalf("accepted redirect URI %q", raw)
			}
		}
	})
}
