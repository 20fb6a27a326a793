package account

import (
	"net/http"
	"net/url"
	"strings"

	"signals/internal/consent"
	"signals/internal/layout"
	"signals/internal/session"
)

// consentView is the consent page's part of a view.
type consentView struct {
	consent.Consent
	RedirectHost string
	// Here is this page's own address, where signing in as someone else
	// returns to.
	Here string
}

// ConsentPages are the pages of the OAuth authorization endpoint: the
// consent page and the endpoint's error pages, in the site's layout.
type ConsentPages struct{ frame }

// NewConsentPages returns the consent pages, framed by l.
func NewConsentPages(l layout.Frame) ConsentPages { return ConsentPages{frame{l}} }

// Consent shows the OAuth consent page of docs/accounts-and-mail.md. The form may send
// the browser on to the client's redirect URI, so that URI's origin is the
// one other place the page's forms may lead to.
func (p ConsentPages) Consent(w http.ResponseWriter, r *http.Request, c consent.Consent) {
	u, err := url.Parse(c.RedirectURI)
	if err != nil || u.Host == "" {
		p.fail(w, r, "This app's request is not valid", invalid("redirect_uri", "The redirect URI is not valid."))
		return
	}
	// The title cannot hold <bdi>: first-strong and pop directional
	// isolates (U+2068, U+2069) keep the name's bidi controls inside it.
	v := view{Title: "Allow \u2068" + c.ClientName + "\u2069?", Consent: &consentView{Consent: c, RedirectHost: u.Host, Here: session.LocalPath(r.URL.RequestURI())}}
	if cspSource(u.Host) {
		v.formAction = u.Scheme + "://" + u.Host
	}
	p.render(w, r, http.StatusOK, "consent", v)
}

// Fail shows the error page of err under the heading title ("" for the
// title of err's code): its status and code are those of err's failure
// code, and any other error is an internal_error.
func (p ConsentPages) Fail(w http.ResponseWriter, r *http.Request, title string, err error) {
	p.fail(w, r, title, err)
}

// cspSource reports whether a host may be written into a CSP header as is.
func cspSource(host string) bool {
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return host != ""
}
