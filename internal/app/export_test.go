package app

import (
	"context"
	"log/slog"
)

// What the tests of package app_test (the wiring, through apptest) reach
// inside an App.

// WithConfig changes the configuration an App is built with.
func WithConfig(f func(*Config)) Option { return func(a *App) { f(&a.cfg) } }

// WithLogger makes an App log to l.
func WithLogger(l *slog.Logger) Option { return func(a *App) { a.log = l } }

// ConfigUsed is the configuration a was built with.
func (a *App) ConfigUsed() Config { return a.cfg }

// FlushUsage writes the usage a recorded and has not written yet.
func (a *App) FlushUsage(ctx context.Context) error { return a.usage.Flush(ctx) }

// SendDueDigests sends the digests that are due now.
func (a *App) SendDueDigests(ctx context.Context) error { return a.digests.SendDue(ctx) }

// Sweep runs the hourly clean-up once.
func (a *App) Sweep(ctx context.Context) { a.sweep(ctx) }

// RoutePatterns lists the route table's patterns, as registered.
func (a *App) RoutePatterns() []string {
	var out []string
	for _, rt := range a.table {
		out = append(out, rt.pattern)
	}
	return out
}

// SecurityContact is securityContact, for its table test.
var SecurityContact = securityContact

// BufferedResponse is bufferedResponse, for its test.
type BufferedResponse = bufferedResponse

// Answered is the status and body written to b.
func (b *BufferedResponse) Answered() (int, string) { return b.status, b.body.String() }
