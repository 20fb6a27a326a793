package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/store"
)

// The editor's desk from the command line: what an editor decides on the
// desk, for scripts and cron. Every decision is logged with the editor
// "operator" and prints what it changed.

// jsonFlag declares --json.
func (c *command) jsonFlag() *bool {
	return c.fs.Bool("json", false, "print JSON (one object a line) instead of a table")
}

// reasonFlag declares --reason.
func (c *command) reasonFlag() *string {
	return c.fs.String("reason", "", "why, recorded in the desk log")
}

// plain makes third-party text safe to print on a terminal, on one line:
// control and bidirectional formatting characters become spaces, runs of
// space fold, and it is cut to n code points.
func plain(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if model.Chars(s) > n {
		s = string([]rune(s)[:n-1]) + "…"
	}
	return s
}

// signalJSON is a signal as the desk commands print it: the API's fields
// and the editorial ones.
type signalJSON struct {
	ID                   string  `json:"id"`
	Status               string  `json:"status"`
	MarketOnly           bool    `json:"market_only"`
	Tag                  string  `json:"tag"`
	Source               string  `json:"source"`
	Language             string  `json:"language"`
	Country              *string `json:"country"`
	AuthorName           string  `json:"author_name"`
	AuthorHeadline       string  `json:"author_headline"`
	SourceURL            string  `json:"source_url"`
	PublishedAt          string  `json:"published_at"`
	PublishedAtPrecision string  `json:"published_at_precision"`
	ObservedAt           *string `json:"observed_at"`
	Text                 string  `json:"text"`
}

func toJSON(s model.Signal) signalJSON {
	j := signalJSON{ID: s.ID, Status: s.Status, MarketOnly: s.MarketOnly, Tag: s.Tag, Source: s.Source, Language: s.Language,
		AuthorName: s.AuthorName, AuthorHeadline: s.AuthorHeadline, SourceURL: s.SourceURL,
		PublishedAt: s.PublishedAt.String(), PublishedAtPrecision: s.PublishedAtPrecision, Text: s.Text}
	if s.Country != "" {
		j.Country = &s.Country
	}
	if s.ObservedAt != nil {
		o := s.ObservedAt.String()
		j.ObservedAt = &o
	}
	return j
}

func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func signalsList(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals list", env)
	status := c.fs.String("status", "", "pending (the queue, oldest first), public or hidden; empty: every status")
	tag := c.fs.String("tag", "", "only signals of this kind")
	limit := c.fs.Int("limit", 50, "at most this many signals (1-1000)")
	asJSON := c.jsonFlag()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	if *status != "" && !model.IsOneOf(*status, model.Statuses) {
		return fmt.Errorf("%w: --status must be pending, public or hidden", errUsage)
	}
	if err := checkValue("--tag", *tag, model.Tags, model.TagAliases); err != nil {
		return err
	}
	if *limit < 1 || *limit > 1000 {
		return fmt.Errorf("%w: --limit must be from 1 to 1000", errUsage)
	}
	return c.withStore(ctx, func(st store.Store) error {
		list, err := st.DeskSignals(ctx, model.DeskQuery{Status: *status, Tag: *tag, Limit: *limit})
		if err != nil {
			return err
		}
		if *asJSON {
			for _, s := range list {
				if err := writeJSONLine(env.Stdout, toJSON(s)); err != nil {
					return err
				}
			}
			return nil
		}
		w := tabwriter.NewWriter(env.Stdout, 2, 8, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSTATUS\tKIND\tCOUNTRY\tLANG\tPUBLISHED\tAUTHOR\tTEXT")
		for _, s := range list {
			status := s.Status
			if s.MarketOnly {
				status += " (market-only)"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", plain(s.ID, 40), status, s.Tag, dash(s.Country), s.Language,
				s.PublishedAt.Time().UTC().Format(time.DateOnly), plain(s.AuthorName, 24), plain(s.Text, 60))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "%d signals\n", len(list))
		return nil
	})
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func signalsShow(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals show", env)
	asJSON := c.jsonFlag()
	pos, err := c.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		s, err := st.DeskSignal(ctx, pos[0])
		if err != nil {
			return missing(err, "no signal with id %q (signals signals list shows the ids)", pos[0])
		}
		if *asJSON {
			return writeJSONLine(env.Stdout, toJSON(s))
		}
		log, err := st.DeskLog(ctx, model.LogQuery{SignalID: s.ID, Limit: 5})
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "id           %s\nstatus       %s\nmarket-only  %t\nkind         %s\nsource       %s\n"+
			"language     %s\ncountry      %s\nauthor       %s\nheadline     %s\nsource URL   %s\npublished    %s (%s)\n",
			plain(s.ID, 300), s.Status, s.MarketOnly, s.Tag, s.Source, s.Language, dash(s.Country), plain(s.AuthorName, 200),
			plain(s.AuthorHeadline, 500), plain(s.SourceURL, 2048), s.PublishedAt.String(), s.PublishedAtPrecision)
		fmt.Fprintf(env.Stdout, "text         %s\n", plain(s.Text, 2000))
		for _, d := range log {
			fmt.Fprintf(env.Stdout, "decided      %s\n", decisionLine(d))
		}
		return nil
	})
}

// checkValue refuses a value outside allowed, suggesting the closest;
// "" is no value.
func checkValue(flag, v string, allowed []string, aliases map[string]string) error {
	if v == "" || model.IsOneOf(v, allowed) {
		return nil
	}
	f, _ := failure.As(model.CheckValues(flag, []string{v}, allowed, aliases))
	return fmt.Errorf("%w: %s", errUsage, f.Detail)
}

func signalsSetStatus(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals set-status", env)
	marketOnly := c.fs.String("market-only", "", "true or false: whether the signal is market-only")
	reason := c.reasonFlag()
	asJSON := c.decisionJSONFlag()
	pos, err := c.parse(args, 2, "ID and one of public, hidden, pending")
	if err != nil {
		return err
	}
	if !model.IsOneOf(pos[1], model.Statuses) {
		return fmt.Errorf("%w: status must be public, hidden or pending", errUsage)
	}
	change := model.Change{Status: &pos[1]}
	if *marketOnly != "" {
		v, err := strconv.ParseBool(*marketOnly)
		if err != nil {
			return fmt.Errorf("%w: --market-only takes true or false", errUsage)
		}
		change.MarketOnly = &v
	}
	return decide(ctx, c, pos[0], change, *reason, *asJSON)
}

func signalsSet(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals set", env)
	tag := c.fs.String("tag", "", "the kind")
	country := c.fs.String("country", "", `the country key, or "none"`)
	language := c.fs.String("language", "", "the language")
	reason := c.reasonFlag()
	asJSON := c.decisionJSONFlag()
	pos, err := c.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	var change model.Change
	if *tag != "" {
		if err := checkValue("--tag", *tag, model.Tags, model.TagAliases); err != nil {
			return err
		}
		change.Tag = tag
	}
	if *language != "" {
		if err := checkValue("--language", *language, model.Languages, model.LanguageAliases); err != nil {
			return err
		}
		change.Language = language
	}
	if *country != "" {
		v := *country
		if v == "none" {
			v = ""
		} else if err := checkValue("--country", v, model.Countries, model.CountryAliases); err != nil {
			return err
		}
		change.Country = &v
	}
	if change.Empty() {
		return fmt.Errorf("%w: give --tag, --country or --language", errUsage)
	}
	return decide(ctx, c, pos[0], change, *reason, *asJSON)
}

// decisionJSONFlag declares --json for a command that decides.
func (c *command) decisionJSONFlag() *bool {
	return c.fs.Bool("json", false, "also print the desk log entry the decision added, as one JSON line on stdout (nothing when nothing changed)")
}

// decide applies change to signal id as the operator, and prints what it
// changed.
func decide(ctx context.Context, c *command, id string, change model.Change, reason string, asJSON bool) error {
	return c.withStore(ctx, func(st store.Store) error {
		d, err := st.Decide(ctx, id, change, model.Operator, reason, time.Now())
		if err != nil {
			return missing(err, "no signal with id %q (signals signals list shows the ids)", id)
		}
		if d.After == nil {
			fmt.Fprintf(c.env.Stderr, "signal %q unchanged: it is so already\n", id)
			return nil
		}
		fmt.Fprintf(c.env.Stderr, "signal %q: %s\n", id, changes(d))
		if asJSON {
			return writeJSONLine(c.env.Stdout, d)
		}
		return nil
	})
}

// changes says what a decision changed: "status pending → public, tag
// funding → job".
func changes(d model.Decision) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d.After)) {
		parts = append(parts, fmt.Sprintf("%s %v → %v", k, show(d.Before[k]), show(d.After[k])))
	}
	return strings.Join(parts, ", ")
}

func show(v any) string {
	if v == nil || v == "" {
		return "none"
	}
	return plain(fmt.Sprint(v), 80)
}

func signalsDelete(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals delete", env)
	reason := c.reasonFlag()
	asJSON := c.decisionJSONFlag()
	pos, err := c.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	if strings.TrimSpace(*reason) == "" {
		return fmt.Errorf("%w: a takedown needs --reason (the desk log keeps it)", errUsage)
	}
	return c.withStore(ctx, func(st store.Store) error {
		d, err := st.TakeDown(ctx, pos[0], model.Operator, *reason, time.Now())
		if err != nil {
			return missing(err, "no signal with id %q (signals signals list shows the ids)", pos[0])
		}
		fmt.Fprintf(env.Stderr, "signal %q taken down from every surface; a re-import will not bring it back "+
			"(signals signals restore %s undoes it)\n", pos[0], shellQuote(pos[0]))
		if *asJSON {
			return writeJSONLine(env.Stdout, d)
		}
		return nil
	})
}

func signalsRestore(ctx context.Context, args []string, env Env) error {
	c := newCommand("signals restore", env)
	reason := c.reasonFlag()
	asJSON := c.decisionJSONFlag()
	pos, err := c.parse(args, 1, "ID")
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		d, err := st.Restore(ctx, pos[0], model.Operator, *reason, time.Now())
		if err != nil {
			return missing(err, "signal %q was not taken down", pos[0])
		}
		fmt.Fprintf(env.Stderr, "signal %q restored as it was: status %v\n", pos[0], d.After["status"])
		if *asJSON {
			return writeJSONLine(env.Stdout, d)
		}
		return nil
	})
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func decisionLine(d model.Decision) string {
	what := changes(d)
	switch d.Action {
	case model.ActionDelete:
		what = "taken down"
	case model.ActionRestore:
		what = "restored"
	}
	line := fmt.Sprintf("%s  %s  %s  %s", d.At.Format(time.RFC3339), d.Editor, plain(d.SignalID, 60), what)
	if d.Reason != "" {
		line += "  (" + plain(d.Reason, 200) + ")"
	}
	return line
}

func deskLog(ctx context.Context, args []string, env Env) error {
	c := newCommand("desk log", env)
	signal := c.fs.String("signal", "", "only the decisions on this signal")
	editor := c.fs.String("editor", "", `only this editor's decisions (an email, or "operator")`)
	asJSON := c.fs.Bool("json", false, "print JSON Lines, oldest first: the log's export")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		log, err := st.DeskLog(ctx, model.LogQuery{SignalID: *signal, Editor: *editor})
		if err != nil {
			return err
		}
		if *asJSON {
			for i := len(log) - 1; i >= 0; i-- {
				if err := writeJSONLine(env.Stdout, log[i]); err != nil {
					return err
				}
			}
			return nil
		}
		for _, d := range log {
			fmt.Fprintln(env.Stdout, decisionLine(d))
		}
		fmt.Fprintf(env.Stderr, "%d decisions\n", len(log))
		return nil
	})
}

func accountsSetRole(ctx context.Context, args []string, env Env) error {
	c := newCommand("accounts set-role", env)
	email := c.emailFlag()
	pos, err := c.parse(args, 1, "editor or reader")
	if err != nil {
		return err
	}
	if !model.IsOneOf(pos[0], model.Roles) {
		return fmt.Errorf("%w: the role is editor or reader, not %q", errUsage, pos[0])
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		if a.Role == pos[0] {
			fmt.Fprintf(env.Stderr, "%s is %s already\n", a.Email, a.Role)
			return nil
		}
		if err := st.SetRole(ctx, a.ID, pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "%s: role %s → %s\n", a.Email, a.Role, pos[0])
		return nil
	})
}

// quotedList writes ids quoted and safe for a terminal, at most 20 of them.
func quotedList(ids []string) string {
	var parts []string
	for i, id := range ids {
		if i == 20 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ids)-20))
			break
		}
		parts = append(parts, strconv.Quote(plain(id, 80)))
	}
	return strings.Join(parts, ", ")
}
