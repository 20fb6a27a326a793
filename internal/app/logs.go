package app

import (
	"context"
	"log/slog"
)

// demoted logs l's INFO lines at DEBUG. The MCP SDK logs every stateless
// request's connection and session ("server connecting", "session
// connected", "disconnected") at INFO; the access log already has one INFO
// line per request, so those belong to debugging. Warnings and errors keep
// their level.
func demoted(l *slog.Logger) *slog.Logger { return slog.New(demote{l.Handler()}) }

type demote struct{ slog.Handler }

func (d demote) Enabled(ctx context.Context, level slog.Level) bool {
	return d.Handler.Enabled(ctx, demotedLevel(level))
}

func (d demote) Handle(ctx context.Context, r slog.Record) error {
	r.Level = demotedLevel(r.Level)
	return d.Handler.Handle(ctx, r)
}

func (d demote) WithAttrs(attrs []slog.Attr) slog.Handler { return demote{d.Handler.WithAttrs(attrs)} }

func (d demote) WithGroup(name string) slog.Handler { return demote{d.Handler.WithGroup(name)} }

func demotedLevel(l slog.Level) slog.Level {
	if l == slog.LevelInfo {
		return slog.LevelDebug
	}
	return l
}
