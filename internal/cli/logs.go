package cli

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// logFlags adds the log level and format of a long-running command.
func (c *command) logFlags() {
	c.stringVar(&c.logLevel, "log-level", "SIGNALS_LOG_LEVEL", "info", "least level logged: debug, info, warn or error")
	c.stringVar(&c.logFormat, "log-format", "SIGNALS_LOG_FORMAT", "text", "log line format: text (logfmt) or json")
}

// logger logs to stderr at the level and in the format asked (by
// logFlags; INFO as text for commands without them).
func (c *command) logger() (*slog.Logger, error) {
	return c.loggerTo(c.env.Stderr)
}

// loggerTo is logger writing to w.
func (c *command) loggerTo(w io.Writer) (*slog.Logger, error) {
	if c.logLevel == "" && c.logFormat == "" {
		c.logLevel, c.logFormat = "info", "text"
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, fmt.Errorf("%w: --log-level ($SIGNALS_LOG_LEVEL) is debug, info, warn or error; got %q", errUsage, c.logLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(c.logFormat) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("%w: --log-format ($SIGNALS_LOG_FORMAT) is text or json; got %q", errUsage, c.logFormat)
}
