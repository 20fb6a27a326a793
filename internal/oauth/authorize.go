package oauth

import (
	"errors"
	"net/http"
	"net/url"
	"slices"

	"signals/internal/account"
	"signals/internal/session"
	"signals/internal/store"
)

// scopeWords say what each scope allows, in plain words.
var scopeWords = map[string]string{
	ScopeRead:   "List public signals and read them",
	ScopeSearch: "Search signals by meaning (counts against your daily searches)",
}

// check validates an authorization request and its client. Until it
// succeeds the redirect URI is not trusted, so its failures are pages.
func (s *Server) check(w http.ResponseWriter, r *http.Request, q url.Values) (AuthorizeRequest, store.OAuthClient, bool) {
	a, e := ParseAuthorize(q, s.resource)
	if e != nil {
		s.cfg.Pages.Fail(w, r, http.StatusBadRequest, "This app's request is not valid",
			"The app that sent you here made a request that Signals cannot accept: "+e.Description+" ("+e.Code+"). Nothing was shared; tell the app's developer.")
		return a, store.OAuthClient{}, false
	}
	c, err := s.cfg.Store.OAuthClient(r.Context(), a.ClientID)
	if errors.Is(err, store.ErrNotFound) {
		s.cfg.Pages.Fail(w, r, http.StatusBadRequest, "Unknown app",
			"The app that sent you here is not registered with Signals (invalid_client). Nothing was shared.")
		return a, c, false
	}
	if err != nil {
		s.internal(w, r, err)
		return a, c, false
	}
	if !slices.Contains(c.RedirectURIs, a.RedirectURI) {
		s.cfg.Pages.Fail(w, r, http.StatusBadRequest, "This app's request is not valid",
			"The redirect URI is not one that this app registered (invalid_request). Nothing was shared, and you were not sent on.")
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
		scopes := make([]account.ConsentScope, 0, len(a.Scopes))
		for _, sc := range a.Scopes {
			scopes = append(scopes, account.ConsentScope{Name: sc, Description: scopeWords[sc]})
		}
		var fields []account.Field
		values := a.Values()
		for _, name := range authorizeParams {
			if values.Has(name) {
				fields = append(fields, account.Field{Name: name, Value: values.Get(name)})
			}
		}
		s.cfg.Pages.Consent(w, r, account.Consent{ClientName: displayName(c.Name), RedirectURI: a.RedirectURI,
			Scopes: scopes, Action: AuthorizePath, Fields: fields})
	})).ServeHTTP(w, r)
}

// Decide serves POST /oauth/authorize, the consent form (after the session
// was loaded and the origin checked): allow issues a code, deny refuses;
// both go back to the client.
func (s *Server) Decide(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.cfg.Pages.Fail(w, r, http.StatusBadRequest, "Invalid form", "The consent form could not be read (invalid_request).")
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
		s.cfg.Pages.Fail(w, r, http.StatusBadRequest, "Invalid form", "Choose Allow or Deny (invalid_request).")
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

// internal logs an unexpected failure and shows a page without it.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	s.cfg.Log.Error("oauth authorize failed", "path", r.URL.Path, "err", err)
	s.cfg.Pages.Fail(w, r, http.StatusInternalServerError, "Something went wrong",
		"Signals could not answer this request. Try again in a moment (internal_error).")
}
