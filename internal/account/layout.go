package account

import (
	"bytes"
	"embed"
	"html/template"

	"signals/internal/failure"
)

//go:embed templates/*.html
var templateFiles embed.FS

// view is what a page template reads: page.html uses Notice, each page
// the fields it needs. The site's layout frames the result under Title.
type view struct {
	Title    string
	SignedIn bool
	Email    string
	// Role is the signed-in account's role (model.RoleReader or
	// RoleEditor).
	Role string
	// Notice confirms what the last action did.
	Notice string
	// The sign-in form: what was typed, where to go next, what was wrong.
	FormEmail, Next string
	FormError       *failure.Error
	// App is the app whose authorization request Next is (third-party
	// text), named on the sign-in page.
	App string
	// Token is the one-time token a confirmation form posts.
	Token string
	// Account is the account area.
	Account *accountView
	// Key is the key a revocation page asks about.
	Key *keyRow
	// Consent is the OAuth consent page.
	Consent *consentView
	// formAction is one more origin the page's forms may lead to.
	formAction string
}

// pages are parsed once: each page's "content" inside page.html, which the
// site's layout then frames.
var pages = func() map[string]*template.Template {
	layout := template.Must(template.New("page.html").Funcs(funcs).ParseFS(templateFiles, "templates/page.html"))
	out := map[string]*template.Template{}
	for _, name := range []string{"sign-in", "check-email", "confirm", "account",
		"deleted", "unsubscribe", "unsubscribed", "consent", "link-gone", "revoke-key"} {
		out[name] = template.Must(template.Must(layout.Clone()).ParseFS(templateFiles, "templates/"+name+".html"))
	}
	return out
}()

var funcs = template.FuncMap{"thousands": thousands, "spelled": spelled}

func execute(name string, v view) ([]byte, error) {
	var buf bytes.Buffer
	err := pages[name].ExecuteTemplate(&buf, "page", v)
	return buf.Bytes(), err
}
