package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"signals/internal/consent"
	"signals/internal/failure"
	"signals/internal/session"
	"signals/internal/store"
)

// scopeWords say what each scope allows, in plain words.
var scopeWords = map[string]string{
	consent.ScopeRead:   "List public signals and read them",
	consent.ScopeSearch: "Search signals by meaning (counts against your daily searches)",
}

// check validates an authorization request and its client. Until it
// succeeds the redirect URI is not trusted, so its failures are pages.
func (s *Server) check(w http.ResponseWriter, r *http.Request, q url.Values) (AuthorizeRequest, store.OAuthClient, bool) {
	a, e := ParseAuthorize(q, s.resource)
	if e != nil {
		refused := e.Failure()
		refused.Detail = "The app that sent you here made a request that Signals cannot accept: " + e.Description +
			". Nothing was shared; tell the app's developer."
		s.cfg.Pages.Fail(w, r, "This app's request is not valid", refused)
		return a, store.OAuthClient{}, false
	}
	c, err := s.cfg.Store.OAuthClient(r.Context(), a.ClientID)
	if errors.Is(err, store.ErrNotFound) {
		refused := failure.Malformed("client_id", "is not a client registered here")
		refused.Detail = "The app that sent you here is not registered with Signals. Nothing was shared."
		s.cfg.Pages.Fail(w, r, "Unknown app", refused)
		return a, c, false
	}
	if err != nil {
		s.internal(w, r, err)
		return a, c, false
	}
	if !slices.Contains(c.RedirectURIs, a.RedirectURI) {
		refused := failure.Malformed("redirect_uri", "is not one of the client's registered redirect URIs")
		refused.Detail = "The redirect URI is not one that this app registered. Nothing was shared, and you were not sent on."
		s.cfg.Pages.Fail(w, r, "This app's request is not valid", refused)
		return a, c, false
	}
	return a, c, true
}

// Authorize serves GET /oauth/authorize (after the session was loaded):
// check the request, then send the person to sign in, or show consent.
func (s *Server) Authorize(w http.ResponseWriter, r *http.Request) {
	a, c, ok := s.check(w, r, r.URL.Query())
	if !ok {
		return
	}
	session.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scopes := make([]consent.Scope, 0, len(a.Scopes))
		for _, sc := range a.Scopes {
			scopes = append(scopes, consent.Scope{Name: sc, Description: scopeWords[sc]})
		}
		var fields []consent.Field
		values := a.Values()
		for _, name := range authorizeParams {
			if values.Has(name) {
				fields = append(fields, consent.Field{Name: name, Value: values.Get(name)})
			}
		}
		s.cfg.Pages.Consent(w, r, consent.Consent{ClientName: displayName(c.Name), RedirectURI: a.RedirectURI,
			Scopes: scopes, Action: AuthorizePath, Fields: fields})
	})).ServeHTTP(w, r)
}

// Decide serves POST /oauth/authorize, the consent form (after the session
// was loaded and the origin checked): allow issues a code, deny refuses;
// both go back to the client.
func (s *Server) Decide(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.cfg.Pages.Fail(w, r, "Invalid form", failure.New(failure.CodeInvalidParameter, "The consent form could not be read."))
		return
	}
	form := r.PostForm
	decision := form.Get("decision")
	form.Del("decision")
	a, _, ok := s.check(w, r, form)
	if !ok {
		return
	}
	cur, signedIn := session.FromContext(r.Context())
	if !signedIn {
		// The session ended while the page was open: sign in, then consent again.
		http.Redirect(w, r, session.SignInPath+"?"+url.Values{"next": {AuthorizePath + "?" + a.Values().Encode()}}.Encode(),
			http.StatusSeeOther)
		return
	}
	answer := url.Values{"iss": {s.issuer}}
	if a.State != "" {
		answer.Set("state", a.State)
	}
	switch decision {
	case "allow":
		code, hash := newSecret(codePrefix)
		now := s.cfg.Now().UTC()
		err := s.cfg.Store.PutOAuthCode(r.Context(), store.OAuthCode{Hash: hash, ClientID: a.ClientID,
			AccountID: cur.Account.ID, RedirectURI: a.RedirectURI, Challenge: a.Challenge, Scopes: a.Scopes,
			Resource: a.Resource, ConsentedAt: now, ExpiresAt: now.Add(CodeLifetime)})
		if err != nil {
			s.internal(w, r, err)
			return
		}
		answer.Set("code", code)
	case "deny":
		answer.Set("error", ErrAccessDenied)
		answer.Set("error_description", "the account owner denied access")
	default:
		refused := failure.Invalid("decision", "must be allow or deny", []string{"allow", "deny"})
		refused.Detail = "Choose Allow or Deny."
		s.cfg.Pages.Fail(w, r, "Invalid form", refused)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, withQuery(a.RedirectURI, answer), http.StatusFound)
}

// withQuery adds parameters to a redirect URI, keeping its own query.
func withQuery(uri string, v url.Values) string {
	u, _ := url.Parse(uri) // registered URIs were parsed at registration
	q := u.Query()
	for k, vs := range v {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// internal answers an unexpected failure with a page that gives the
// request id, never the failure, which the page's renderer logs.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	s.cfg.Pages.Fail(w, r, "Something went wrong", fmt.Errorf("oauth authorize: %w", err))
}
