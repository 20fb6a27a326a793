package account

import (
	"errors"
	"net/http"

	"signals/internal/auth"
	"signals/internal/failure"
	"signals/internal/session"
	"signals/internal/store"
)

// UnsubscribeForm serves GET /unsubscribe?token=…: a page with one button,
// since fetching a link must not change anything.
func (p *Pages) UnsubscribeForm(w http.ResponseWriter, r *http.Request) {
	p.tokenForm(w, r, "unsubscribe", "Unsubscribe", p.badUnsubscribe)
}

// Unsubscribe serves POST /unsubscribe: RFC 8058 one-click unsubscription
// (the token in the URL, "List-Unsubscribe=One-Click" in the body, sent by
// a mail provider) and the page's own form alike. The token is the only
// authority needed: no session, no sign-in.
func (p *Pages) Unsubscribe(w http.ResponseWriter, r *http.Request) {
	token := r.FormValue("token")
	if !session.WellFormed(token) {
		p.badUnsubscribe(w, r)
		return
	}
	hash := auth.Hash(token)
	accountID, stored, err := p.cfg.Store.AccountByUnsubscribe(r.Context(), hash)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !auth.Equal(stored, hash)) {
		p.badUnsubscribe(w, r)
		return
	}
	if err == nil {
		err = p.cfg.Store.DeleteInterests(r.Context(), accountID)
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	p.render(w, r, http.StatusOK, "unsubscribed", view{Title: "Unsubscribed"})
}

func (p *Pages) badUnsubscribe(w http.ResponseWriter, r *http.Request) {
	p.fail(w, r, "This unsubscribe link does not work", failure.NotFound(
		"The link is not one we sent, or its account was deleted. Signed in, you can stop digests in your account's email interests."))
}
