package app

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"signals/internal/failure"
)

// maxForm bounds the body of a form, as the API bounds its JSON bodies.
const maxForm = 32 << 10

// forms guards the forms of the account area and of the OAuth consent
// page: a form is read whole, within maxForm, before its handler runs,
// and one that changes something is refused when it comes from another
// site. Refusals are pages.
type forms struct {
	origins *http.CrossOriginProtection
	// refuse writes the error page of err under the heading title.
	refuse func(w http.ResponseWriter, r *http.Request, title string, err error)
}

// newForms returns the guards of the forms of the service at base.
func newForms(base string, refuse func(w http.ResponseWriter, r *http.Request, title string, err error)) (*forms, error) {
	f := &forms{origins: http.NewCrossOriginProtection(), refuse: refuse}
	// Behind a reverse proxy the Host header may differ from the public
	// address; forms posted from that address are the service's own.
	if err := f.origins.AddTrustedOrigin(origin(strings.TrimRight(base, "/"))); err != nil {
		return nil, fmt.Errorf("account: base URL: %w", err)
	}
	f.origins.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse(w, r, "This form came from another site", failure.New(failure.CodeForbiddenOrigin,
			"Forms that change your account work only from this site's own pages. Nothing was changed."))
	}))
	return f, nil
}

// origin is the scheme and host of a base URL.
func origin(base string) string {
	scheme, rest, _ := strings.Cut(base, "://")
	host, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + host
}

// changes guards a form that changes something: it is read (read), and
// refused with a 403 page when it comes from another site
// (http.CrossOriginProtection); nothing reaches h then.
func (f *forms) changes(h http.Handler) http.Handler { return f.read(f.origins.Handler(h)) }

// read reads a posted form whole before h runs, so that h finds its
// fields parsed. A form past maxForm is a 413 page (payload_too_large)
// rather than a form that reads as empty and is refused for a missing
// field.
func (f *forms) read(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		}
		if err := readForm(r); err != nil {
			if err.Code == failure.CodePayloadTooLarge {
				// What is left of the body is not read: the
				// connection cannot carry another request.
				w.Header().Set("Connection", "close")
			}
			f.refuse(w, r, "", err)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// readForm reads a posted form whole. A body declared larger than maxForm
// is refused without reading it (it may never finish arriving); one that
// only turns out larger is refused when the limit is reached.
func readForm(r *http.Request) *failure.Error {
	if r.ContentLength > maxForm {
		return formError(&http.MaxBytesError{Limit: maxForm})
	}
	var err error
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		err = r.ParseMultipartForm(maxForm)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return formError(err)
	}
	return nil
}

// formError is the failure of a form that could not be read.
func formError(err error) *failure.Error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return failure.New(failure.CodePayloadTooLarge, fmt.Sprintf("The form is larger than %d KiB.", maxForm>>10))
	}
	return failure.New(failure.CodeInvalidParameter, "The form could not be read.")
}
