// Package layout describes a personal page that a part of the service
// other than the website renders (sign in, the account area, OAuth consent)
// and the website frames in its one layout and navigation.
package layout

import "html/template"

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

// PrivateReferrerPolicy sends no referrer from a personal page: its
// address may hold a one-time token.
const PrivateReferrerPolicy = "no-referrer"
