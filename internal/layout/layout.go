// Package layout describes a personal page that a part of the service
// other than the website renders (sign in, the account area, OAuth consent)
// and the website frames in its one layout and navigation.
package layout

import (
	"html/template"
	"net/http"
	"strings"
)

// Page is a personal page handed to the website's layout.
type Page struct {
	Title string
	// Section names the navigation entry to mark current ("/account",
	// "/sign-in"; "" for none).
	Section string
	// Body is the page's main content, already rendered (and escaped) by
	// its owner.
	Body template.HTML
	// FormAction is one more origin the page's forms may lead to ("" for
	// none): an OAuth consent form answers with a redirect to the client.
	FormAction string
}

// Frame frames a package's personal pages in the website's one layout and
// navigation, and renders their failures; the website (web.Site) is one.
type Frame interface {
	// WritePrivate writes a personal page with status.
	WritePrivate(w http.ResponseWriter, r *http.Request, status int, p Page)
	// PrivateError writes the error page of err, whose status and code
	// come from its failure code, under the heading title ("" for the
	// code's title).
	PrivateError(w http.ResponseWriter, r *http.Request, title string, err error)
}

// PrivateReferrerPolicy sends no referrer from a personal page: its
// address may hold a one-time token.
const PrivateReferrerPolicy = "no-referrer"

// Text drops from untrusted text what an HTML page cannot hold: C0 and C1
// control characters other than tab and line feed, and Unicode
// noncharacters (HTML §13.2.5, "control-character-in-input-stream"). The
// page's template escapes the rest. Feeds and Markdown drop the same
// characters in their own escaping.
func Text(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case r < ' ' || r >= 0x7f && r < 0xa0,
			r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
			return -1
		}
		return r
	}, s)
}
