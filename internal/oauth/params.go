package oauth

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"signals/internal/consent"
	"slices"
	"strings"
	"unicode/utf8"
)

// Bounds on parameters; anything longer is refused before it is stored.
const (
	maxClientID    = 256
	maxRedirectURI = 2048
	maxState       = 2048
	maxToken       = 256
)

// Bounds on a registration, which anyone may send and which is stored:
// MCP clients register one to four redirect URIs (a loopback callback, a
// claimed https one), Microsoft Entra takes redirect URIs of at most 256
// characters, and a name longer than a short line is not a name people
// read on a consent page. Metadata the server does not read (logo_uri,
// contacts and the like) is neither stored nor echoed, so the 32 KiB body
// bound is its bound.
const (
	maxRedirects          = 5
	maxRegisteredRedirect = 512
	maxClientName         = 100
	maxRegisteredScope    = 256
)

// AuthorizeRequest is a checked authorization request (RFC 6749 §4.1.1,
// RFC 7636 §4.3, RFC 8707 §2).
type AuthorizeRequest struct {
	ClientID    string
	RedirectURI string
	State       string
	Challenge   string
	Scopes      []string
	Resource    string
}

// Values returns the request as the parameters that express it, so that
// the consent form can post it back.
func (a AuthorizeRequest) Values() url.Values {
	v := url.Values{
		"response_type": {"code"}, "client_id": {a.ClientID}, "redirect_uri": {a.RedirectURI},
		"code_challenge": {a.Challenge}, "code_challenge_method": {"S256"},
		"scope": {strings.Join(a.Scopes, " ")}, "resource": {a.Resource},
	}
	if a.State != "" {
		v.Set("state", a.State)
	}
	return v
}

// authorizeParams are the parameters an authorization request may carry;
// the consent form adds decision.
var authorizeParams = []string{"response_type", "client_id", "redirect_uri", "state", "code_challenge",
	"code_challenge_method", "scope", "resource"}

// ParseAuthorize checks the parameters of an authorization request for the
// protected resource resource. It looks at nothing stored: the client and
// its redirect URIs are checked by the caller.
func ParseAuthorize(q url.Values, resource string) (AuthorizeRequest, *Error) {
	var a AuthorizeRequest
	if e := single(q, authorizeParams...); e != nil {
		return a, e
	}
	a.ClientID, a.RedirectURI, a.State = q.Get("client_id"), q.Get("redirect_uri"), q.Get("state")
	switch {
	case a.ClientID == "":
		return a, missing(ErrInvalidRequest, "client_id", "client_id is missing")
	case len(a.ClientID) > maxClientID || !printable(a.ClientID):
		return a, failParam(ErrInvalidRequest, "client_id", "client_id is not a client identifier of this server")
	case a.RedirectURI == "":
		return a, missing(ErrInvalidRequest, "redirect_uri", "redirect_uri is missing; it must be one of the client's registered redirect URIs")
	case len(a.RedirectURI) > maxRedirectURI:
		return a, failParam(ErrInvalidRequest, "redirect_uri", "redirect_uri is too long")
	case len(a.State) > maxState:
		return a, failParam(ErrInvalidRequest, "state", "state is longer than 2048 bytes")
	}
	switch rt := q.Get("response_type"); rt {
	case "code":
	case "":
		return a, missing("unsupported_response_type", "response_type", "response_type must be code")
	default:
		return a, failParam("unsupported_response_type", "response_type", "response_type must be code")
	}
	switch m := q.Get("code_challenge_method"); m {
	case "S256":
	case "":
		return a, missing(ErrInvalidRequest, "code_challenge_method", "PKCE is required: send code_challenge with code_challenge_method=S256")
	default:
		return a, failParam(ErrInvalidRequest, "code_challenge_method", "code_challenge_method must be S256; "+quote(m)+" is not accepted")
	}
	a.Challenge = q.Get("code_challenge")
	switch {
	case a.Challenge == "":
		return a, missing(ErrInvalidRequest, "code_challenge", "PKCE is required: send code_challenge with code_challenge_method=S256")
	case !validChallenge(a.Challenge):
		return a, failParam(ErrInvalidRequest, "code_challenge", "code_challenge must be the 43-character base64url SHA-256 of the code verifier")
	}
	a.Resource = q.Get("resource")
	switch {
	case a.Resource == "":
		return a, missing(ErrInvalidTarget, "resource", "resource must be "+resource)
	case a.Resource != resource:
		return a, failParam(ErrInvalidTarget, "resource", "resource must be "+resource)
	}
	scopes, e := ParseScope(q.Get("scope"), q.Has("scope"))
	if e != nil {
		e.Param = "scope"
		return a, e
	}
	a.Scopes = scopes
	return a, nil
}

// ParseScope reads a space-separated scope list: known scopes only,
// returned once each in the order of consent.Scopes. No scope parameter means
// every scope; an empty one is an error.
func ParseScope(s string, given bool) ([]string, *Error) {
	if !given {
		return slices.Clone(consent.Scopes), nil
	}
	var out []string
	for f := range strings.SplitSeq(s, " ") {
		if f == "" {
			continue
		}
		if !slices.Contains(consent.Scopes, f) {
			return nil, fail(ErrInvalidScope, "unknown scope "+quote(f)+"; the scopes are "+strings.Join(consent.Scopes, " "))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fail(ErrInvalidScope, "scope is empty; the scopes are "+strings.Join(consent.Scopes, " "))
	}
	var ordered []string
	for _, s := range consent.Scopes {
		if slices.Contains(out, s) {
			ordered = append(ordered, s)
		}
	}
	return ordered, nil
}

// TokenRequest is a checked token request (RFC 6749 §4.1.3 and §6).
type TokenRequest struct {
	GrantType    string
	ClientID     string
	Code         string
	RedirectURI  string
	Verifier     string
	RefreshToken string
	Resource     string
	// consent.Scopes is nil unless a refresh asked for fewer scopes.
	Scopes []string
}

// Grant types.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantRefreshToken      = "refresh_token"
)

// ParseToken checks the form of a token request. basicUser is the client
// id sent with HTTP Basic authentication ("" when none was).
func ParseToken(form url.Values, basicUser string) (TokenRequest, *Error) {
	var t TokenRequest
	if e := single(form, "grant_type", "client_id", "code", "redirect_uri", "code_verifier",
		"refresh_token", "resource", "scope"); e != nil {
		return t, e
	}
	t.GrantType, t.ClientID = form.Get("grant_type"), form.Get("client_id")
	if basicUser != "" {
		if t.ClientID != "" && t.ClientID != basicUser {
			return t, fail(ErrInvalidRequest, "client_id differs from the client authenticated with HTTP Basic")
		}
		t.ClientID = basicUser
	}
	if t.ClientID == "" {
		return t, fail(ErrInvalidClient, "client_id is missing")
	}
	if len(t.ClientID) > maxClientID || !printable(t.ClientID) {
		return t, fail(ErrInvalidClient, "unknown client_id")
	}
	t.Resource = form.Get("resource")
	switch t.GrantType {
	case GrantAuthorizationCode:
		t.Code, t.RedirectURI, t.Verifier = form.Get("code"), form.Get("redirect_uri"), form.Get("code_verifier")
		switch {
		case t.Code == "" || len(t.Code) > maxToken:
			return t, fail(ErrInvalidRequest, "code is missing")
		case t.RedirectURI == "":
			return t, fail(ErrInvalidRequest, "redirect_uri is missing; send the one of the authorization request")
		case t.Verifier == "":
			return t, fail(ErrInvalidRequest, "code_verifier is missing (PKCE is required)")
		case !validVerifier(t.Verifier):
			return t, fail(ErrInvalidRequest, "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
		}
	case GrantRefreshToken:
		t.RefreshToken = form.Get("refresh_token")
		if t.RefreshToken == "" || len(t.RefreshToken) > maxToken {
			return t, fail(ErrInvalidRequest, "refresh_token is missing")
		}
		if form.Has("scope") {
			scopes, e := ParseScope(form.Get("scope"), true)
			if e != nil {
				return t, e
			}
			t.Scopes = scopes
		}
	case "":
		return t, fail(ErrInvalidRequest, "grant_type is missing")
	default:
		return t, fail(ErrUnsupportedGrantType, "grant_type must be authorization_code or refresh_token")
	}
	return t, nil
}

// ClientMetadata is a checked registration request (RFC 7591 §2).
type ClientMetadata struct {
	Name         string
	RedirectURIs []string
}

// registration is the part of RFC 7591 client metadata this server reads;
// other metadata is ignored, as §2 asks.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	Scope                   string   `json:"scope"`
}

// ParseRegistration checks a dynamic client registration request: a public
// client (no secret) of the authorization code flow with valid redirect
// URIs.
func ParseRegistration(body []byte) (ClientMetadata, *Error) {
	var m ClientMetadata
	var r registration
	if err := json.Unmarshal(body, &r); err != nil {
		return m, fail(ErrInvalidClientMeta, "the body must be a JSON object of client metadata (RFC 7591)")
	}
	switch r.TokenEndpointAuthMethod {
	case "", "none":
	default:
		return m, fail(ErrInvalidClientMeta, "token_endpoint_auth_method must be none: only public clients with PKCE register here")
	}
	if len(r.GrantTypes) > 2 {
		return m, fail(ErrInvalidClientMeta, "grant_types may hold authorization_code and refresh_token, each once")
	}
	for _, g := range r.GrantTypes {
		if g != GrantAuthorizationCode && g != GrantRefreshToken {
			return m, fail(ErrInvalidClientMeta, "grant_types may hold authorization_code and refresh_token only")
		}
	}
	if len(r.ResponseTypes) > 1 {
		return m, fail(ErrInvalidClientMeta, "response_types may hold code, once")
	}
	for _, t := range r.ResponseTypes {
		if t != "code" {
			return m, fail(ErrInvalidClientMeta, "response_types may hold code only")
		}
	}
	if len(r.Scope) > maxRegisteredScope {
		return m, fail(ErrInvalidClientMeta, fmt.Sprintf("scope must be at most %d bytes; the scopes are %s",
			maxRegisteredScope, strings.Join(consent.Scopes, " ")))
	}
	if r.Scope != "" {
		if _, e := ParseScope(r.Scope, true); e != nil {
			return m, fail(ErrInvalidClientMeta, e.Description)
		}
	}
	if len(r.RedirectURIs) == 0 {
		return m, fail(ErrInvalidRedirectURI, "redirect_uris is missing: register at least one")
	}
	// Past a bound the metadata is refused as such (invalid_client_metadata);
	// a URI that could never be a redirect URI is invalid_redirect_uri.
	if len(r.RedirectURIs) > maxRedirects {
		return m, fail(ErrInvalidClientMeta, fmt.Sprintf("redirect_uris holds %d URIs; register at most %d",
			len(r.RedirectURIs), maxRedirects))
	}
	for _, u := range r.RedirectURIs {
		if n := utf8.RuneCountInString(u); n > maxRegisteredRedirect {
			return m, fail(ErrInvalidClientMeta, fmt.Sprintf("%s: a redirect URI must be at most %d characters; it has %d",
				quote(u), maxRegisteredRedirect, n))
		}
		if msg := checkRedirectURI(u); msg != "" {
			return m, fail(ErrInvalidRedirectURI, quote(u)+": "+msg)
		}
		if !slices.Contains(m.RedirectURIs, u) {
			m.RedirectURIs = append(m.RedirectURIs, u)
		}
	}
	m.Name = strings.TrimSpace(r.ClientName)
	if n := utf8.RuneCountInString(m.Name); n > maxClientName {
		return m, fail(ErrInvalidClientMeta, fmt.Sprintf("client_name must be at most %d characters; it has %d",
			maxClientName, n))
	}
	if !printable(m.Name) {
		return m, fail(ErrInvalidClientMeta, "client_name must be printable UTF-8 without control characters")
	}
	return m, nil
}

// checkRedirectURI says what is wrong with a redirect URI, or "": an
// absolute https URL, or http on a loopback host for native apps (RFC 8252
// §7.3), without a fragment or credentials.
func checkRedirectURI(s string) string {
	if !printable(s) {
		return "must be printable UTF-8 without control characters"
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return "must be an absolute URL"
	}
	if u.Fragment != "" || strings.Contains(s, "#") {
		return "must not have a fragment"
	}
	if u.User != nil {
		return "must not hold credentials"
	}
	switch u.Scheme {
	case "https":
		return ""
	case "http":
		if loopback(u.Hostname()) {
			return ""
		}
		return "http is accepted only on a loopback host (localhost, 127.0.0.1, [::1]); use https"
	}
	return "the scheme must be https (or http on a loopback host)"
}

// loopback reports whether host is localhost or a loopback address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// single refuses parameters that are repeated (RFC 6749 §3.1).
func single(v url.Values, names ...string) *Error {
	for _, n := range names {
		if len(v[n]) > 1 {
			return failParam(ErrInvalidRequest, n, n+" is repeated")
		}
	}
	return nil
}

// validChallenge reports whether s can be a base64url S256 challenge.
func validChallenge(s string) bool {
	if len(s) != 43 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// validVerifier reports whether s is a code verifier (RFC 7636 §4.1).
func validVerifier(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0) {
			return false
		}
	}
	return true
}

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return false
		}
	}
	return true
}

// quote shows a value in a message, bounded.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return `"` + strings.ToValidUTF8(s, "�") + `"`
}
