package oauth

import (
	"crypto/subtle"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"signals/internal/auth"
	"signals/internal/store"
)

// maxBody bounds the bodies of the token, registration and revocation
// endpoints, as the API bounds its JSON bodies.
const maxBody = 32 << 10

// TokenResponse is a successful token answer (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// readForm reads an application/x-www-form-urlencoded body and the client
// id of HTTP Basic authentication, if any (a public client's secret is
// empty).
func readForm(w http.ResponseWriter, r *http.Request) (url.Values, string, *Error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		return nil, "", fail(ErrInvalidRequest, "send the parameters as application/x-www-form-urlencoded")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return nil, "", fail(ErrInvalidRequest, "the body is not readable or larger than 32 KiB")
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, "", fail(ErrInvalidRequest, "the body is not a valid form")
	}
	user, secret, basic := r.BasicAuth()
	if basic {
		if secret != "" {
			return nil, "", fail(ErrInvalidClient, "clients here are public: send client_id without a secret")
		}
		if user, err = url.QueryUnescape(user); err != nil { // RFC 6749 §2.3.1
			return nil, "", fail(ErrInvalidClient, "unknown client_id")
		}
	}
	return form, user, nil
}

// Token serves POST /oauth/token.
func (s *Server) Token(w http.ResponseWriter, r *http.Request) {
	form, user, e := readForm(w, r)
	if e == nil {
		var req TokenRequest
		if req, e = ParseToken(form, user); e == nil {
			var resp TokenResponse
			if resp, e = s.token(r, req); e == nil {
				writeJSON(w, http.StatusOK, resp)
				return
			}
		}
	}
	writeError(w, e)
}

func (s *Server) token(r *http.Request, req TokenRequest) (TokenResponse, *Error) {
	if _, err := s.cfg.Store.OAuthClient(r.Context(), req.ClientID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return TokenResponse{}, fail(ErrInvalidClient, "unknown client_id; register at "+s.issuer+RegisterPath)
		}
		return TokenResponse{}, s.serverError(r, err)
	}
	if req.Resource != "" && req.Resource != s.resource {
		return TokenResponse{}, fail(ErrInvalidTarget, "resource must be "+s.resource)
	}
	if req.GrantType == GrantAuthorizationCode {
		return s.exchange(r, req)
	}
	return s.refresh(r, req)
}

// exchange redeems an authorization code.
func (s *Server) exchange(r *http.Request, req TokenRequest) (TokenResponse, *Error) {
	ctx, now := r.Context(), s.cfg.Now().UTC()
	hash := auth.Hash(req.Code)
	c, err := s.cfg.Store.OAuthCode(ctx, hash, now)
	switch {
	case errors.Is(err, store.ErrReused):
		return TokenResponse{}, fail(ErrInvalidGrant, "the code was used already; the tokens issued for it are revoked")
	case errors.Is(err, store.ErrNotFound) || (err == nil && !auth.Equal(c.Hash, hash)):
		return TokenResponse{}, fail(ErrInvalidGrant, "the code is not valid or expired")
	case err != nil:
		return TokenResponse{}, s.serverError(r, err)
	}
	switch {
	case c.ClientID != req.ClientID:
		return TokenResponse{}, fail(ErrInvalidGrant, "the code was issued to another client")
	case c.RedirectURI != req.RedirectURI:
		return TokenResponse{}, fail(ErrInvalidGrant, "redirect_uri differs from the authorization request's")
	case req.Resource != "" && c.Resource != req.Resource:
		return TokenResponse{}, fail(ErrInvalidTarget, "resource differs from the authorization request's")
	case subtle.ConstantTimeCompare([]byte(s256(req.Verifier)), []byte(c.Challenge)) != 1:
		return TokenResponse{}, fail(ErrInvalidGrant, "code_verifier does not match the code_challenge")
	}
	g := store.OAuthGrant{ID: auth.NewID("conn_"), AccountID: c.AccountID, ClientID: c.ClientID, Scopes: c.Scopes,
		Resource: c.Resource, CreatedAt: c.ConsentedAt, ExpiresAt: c.ConsentedAt.Add(ConnectionLifetime)}
	resp, tokens := issue(g, now)
	err = s.cfg.Store.RedeemOAuthCode(ctx, hash, g, tokens, now)
	if errors.Is(err, store.ErrReused) {
		return TokenResponse{}, fail(ErrInvalidGrant, "the code was used already; the tokens issued for it are revoked")
	}
	if err != nil {
		return TokenResponse{}, s.serverError(r, err)
	}
	return resp, nil
}

// refresh rotates a refresh token. A token that was used already ends its
// whole connection: one of the two holders is not the client.
func (s *Server) refresh(r *http.Request, req TokenRequest) (TokenResponse, *Error) {
	ctx, now := r.Context(), s.cfg.Now().UTC()
	hash := auth.Hash(req.RefreshToken)
	t, g, _, err := s.cfg.Store.OAuthToken(ctx, hash, now)
	reused := fail(ErrInvalidGrant, "the refresh token was used already; the connection is revoked: authorize again")
	switch {
	case errors.Is(err, store.ErrReused):
		return TokenResponse{}, reused
	case errors.Is(err, store.ErrNotFound) || (err == nil && (!auth.Equal(t.Hash, hash) || t.Kind != store.RefreshToken)):
		return TokenResponse{}, fail(ErrInvalidGrant, "the refresh token is not valid, expired or was revoked")
	case err != nil:
		return TokenResponse{}, s.serverError(r, err)
	}
	if g.ClientID != req.ClientID {
		return TokenResponse{}, fail(ErrInvalidGrant, "the refresh token was issued to another client")
	}
	if req.Resource != "" && g.Resource != req.Resource {
		return TokenResponse{}, fail(ErrInvalidTarget, "resource differs from the connection's")
	}
	for _, sc := range req.Scopes {
		if !strings.Contains(" "+strings.Join(g.Scopes, " ")+" ", " "+sc+" ") {
			return TokenResponse{}, fail(ErrInvalidScope, "scope "+sc+" was not granted; authorize again to ask for it")
		}
	}
	resp, tokens := issue(g, now)
	err = s.cfg.Store.RotateOAuthRefresh(ctx, hash, tokens, now)
	if errors.Is(err, store.ErrReused) {
		return TokenResponse{}, reused
	}
	if err != nil {
		return TokenResponse{}, s.serverError(r, err)
	}
	return resp, nil
}

// issue makes a new access and refresh token of grant g: the access token
// for an hour, both at most until the connection ends.
func issue(g store.OAuthGrant, now time.Time) (TokenResponse, []store.OAuthToken) {
	access, accessHash := newSecret(accessPrefix)
	refresh, refreshHash := newSecret(refreshPrefix)
	accessEnd := now.Add(AccessLifetime)
	if g.ExpiresAt.Before(accessEnd) {
		accessEnd = g.ExpiresAt
	}
	return TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(accessEnd.Sub(now).Seconds()),
			RefreshToken: refresh, Scope: strings.Join(g.Scopes, " ")},
		[]store.OAuthToken{
			{Hash: accessHash, GrantID: g.ID, Kind: store.AccessToken, ExpiresAt: accessEnd},
			{Hash: refreshHash, GrantID: g.ID, Kind: store.RefreshToken, ExpiresAt: g.ExpiresAt},
		}
}

// unavailableRetryAfter is the wait, in seconds, advertised when the
// database cannot be reached, as the other endpoints advertise it.
const unavailableRetryAfter = 1

// serverError logs an unexpected failure; the client sees server_error, or
// temporarily_unavailable (503) when the database cannot be reached: a
// dropped connection was retried already where that was safe.
func (s *Server) serverError(r *http.Request, err error) *Error {
	if s.cfg.Unreachable != nil && s.cfg.Unreachable(err) {
		s.cfg.Log.Warn("database unreachable", "path", r.URL.Path, "err", err)
		return &Error{Code: ErrTemporarilyUnavailable, Description: "the database cannot be reached; try again in a second",
			Status: http.StatusServiceUnavailable}
	}
	s.cfg.Log.Error("oauth request failed", "path", r.URL.Path, "err", err)
	return &Error{Code: ErrServerError, Description: "the server could not answer; try again", Status: http.StatusInternalServerError}
}

// Revoke serves POST /oauth/revoke (RFC 7009): revoking an access or a
// refresh token ends its whole connection. Unknown tokens are answered
// like known ones, as §2.2 asks.
func (s *Server) Revoke(w http.ResponseWriter, r *http.Request) {
	form, user, e := readForm(w, r)
	if e == nil {
		e = s.revoke(r, form, user)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, struct{}{})
}

func (s *Server) revoke(r *http.Request, form url.Values, user string) *Error {
	if e := single(form, "token", "token_type_hint", "client_id"); e != nil {
		return e
	}
	token, clientID := form.Get("token"), form.Get("client_id")
	if user != "" {
		clientID = user
	}
	if token == "" {
		return fail(ErrInvalidRequest, "token is missing")
	}
	if len(token) > maxToken {
		return nil
	}
	ctx, now := r.Context(), s.cfg.Now().UTC()
	hash := auth.Hash(token)
	t, g, _, err := s.cfg.Store.OAuthToken(ctx, hash, now)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrReused) || (err == nil && !auth.Equal(t.Hash, hash)) {
		return nil
	}
	if err != nil {
		return s.serverError(r, err)
	}
	if clientID != "" && clientID != g.ClientID {
		return nil // another client's token: not this client's to end (§2.1)
	}
	if err := s.cfg.Store.RevokeOAuthGrant(ctx, g.AccountID, g.ID, now); err != nil && !errors.Is(err, store.ErrNotFound) {
		return s.serverError(r, err)
	}
	return nil
}
