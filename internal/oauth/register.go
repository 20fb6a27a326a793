package oauth

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"signals/internal/auth"
	"signals/internal/consent"
	"signals/internal/store"
	"signals/internal/throttle"
)

// RegistrationResponse is the answer to a registration (RFC 7591 §3.2.1).
type RegistrationResponse struct {
	ClientID                string   `json:"client_id"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope"`
}

// perAddress bounds registrations from one client address. A client
// registers once and keeps its client_id; a few more cover reinstalls and
// several apps behind one address. Anyone may register, and each
// registration is stored, so the bound is what keeps a stranger from
// filling the database.
var perAddress = throttle.Limit{Scope: "oauth-register address", Max: 20, Window: time.Hour}

// Register serves POST /oauth/register: dynamic registration of a public
// client. No secret is issued; PKCE protects the code instead.
func (s *Server) Register(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, fail(ErrInvalidClientMeta, "send the client metadata as application/json"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, fail(ErrInvalidClientMeta, "the body is not readable or larger than 32 KiB"))
		return
	}
	m, e := ParseRegistration(body)
	if e != nil {
		writeError(w, e)
		return
	}
	// Only registrations that would be stored are counted, so a client
	// that fixes its metadata is not refused for its mistakes.
	if err := perAddress.Take(r.Context(), s.cfg.Throttle, throttle.ClientAddress(r), s.cfg.Now()); err != nil {
		var refused *throttle.Refused
		if !errors.As(err, &refused) {
			writeError(w, s.serverError(r, err))
			return
		}
		wait := refused.RetryAfter(s.cfg.Now())
		writeError(w, &Error{Code: ErrTooManyRequests, Status: http.StatusTooManyRequests, RetryAfterSeconds: wait,
			Description: fmt.Sprintf("at most %d clients may register from one address per hour; register again after %s UTC (in %d seconds), or reuse a client_id this server issued",
				perAddress.Max, refused.RetryAt.UTC().Format("15:04"), wait)})
		return
	}
	now := s.cfg.Now().UTC().Truncate(time.Second)
	c := store.OAuthClient{ID: auth.NewID("client_"), Name: m.Name, RedirectURIs: m.RedirectURIs, CreatedAt: now}
	if err := s.cfg.Store.PutOAuthClient(r.Context(), c); err != nil {
		writeError(w, s.serverError(r, err))
		return
	}
	writeJSON(w, http.StatusCreated, RegistrationResponse{ClientID: c.ID, ClientIDIssuedAt: now.Unix(),
		ClientName: c.Name, RedirectURIs: c.RedirectURIs,
		GrantTypes: []string{GrantAuthorizationCode, GrantRefreshToken}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: "none", Scope: consent.ScopeRead + " " + consent.ScopeSearch})
}
