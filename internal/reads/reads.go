// Package reads holds what the read surfaces of the service share: the
// requests of a listing, a search and a single signal, how they are parsed
// from a query string or a body and validated, the answers they get, and
// the paths of the JSON API. The JSON API, the MCP tools, the website and
// the OpenAPI document all read them from here, so all answer alike.
package reads

import (
	"context"
	"errors"
	"fmt"
	"signals/internal/failure"
	"signals/internal/model"
	"strings"
	"time"
)

// Paths of the API.
const (
	Prefix      = "/api/v1"
	SignalsPath = Prefix + "/signals"
	SearchPath  = SignalsPath + "/search"
	UsagePath   = Prefix + "/usage"
)

// DefaultListTimeout is how long a listing may read the store: a first
// page takes milliseconds, so a read still running after this is held up
// (a database under load, a substring walked through many signals) and
// waiting longer would only keep the request and its connection busy.
const DefaultListTimeout = 2 * time.Second

// listBusyRetryAfter is the wait a listing that ran out of time advertises.
const listBusyRetryAfter = 2

// errListDeadline is the cause of a listing's own deadline, which tells it
// apart from the request's end (the client went away) and any other.
var errListDeadline = errors.New("reads: the listing's deadline passed")

// Lister reads one page of a listing: what a listing needs of the store.
type Lister interface {
	ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error)
}

// ListWithin reads one page of q from st within timeout (0 is
// DefaultListTimeout). A read that fails because that deadline passed is
// service_busy with a wait, whatever the store made of the deadline; a
// read cut short by the client keeps its own error.
func ListWithin(ctx context.Context, st Lister, q model.ListQuery, timeout time.Duration) ([]model.Signal, bool, error) {
	if timeout <= 0 {
		timeout = DefaultListTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errListDeadline)
	defer cancel()
	list, more, err := st.ListSignals(ctx, q)
	if err != nil && errors.Is(context.Cause(ctx), errListDeadline) {
		return nil, false, failure.New(failure.CodeServiceBusy,
			fmt.Sprintf("the service is too busy to finish this listing within its deadline of %s; retry after retry_after_seconds", timeout)).
			WithRetryAfter(listBusyRetryAfter)
	}
	return list, more, err
}

// ErrNoSignal is Get's answer for every id that is not a public signal,
// alike; each medium says in its own words where good ids come from
// (NoSignal).
var ErrNoSignal = failure.NotFound("no public signal has this id")

// NoSignal is ErrNoSignal as a medium says it: where ids come from there,
// then the other form taken, the page address on the service at base.
func NoSignal(where, base string) *failure.Error {
	return failure.NotFound("no public signal has this id; pass " + where +
		", or the signal's page address, " + strings.TrimSuffix(base, "/") + PagesPath + "{id}")
}
