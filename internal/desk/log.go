package desk

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
)

// logShown is how many decisions the log page shows, newest first; the
// export holds them all.
const logShown = 500

// logFilters are the log's filters: one signal, one editor.
type logFilters struct{ Signal, Editor string }

// readLogFilters reads the log's filters from its address.
func readLogFilters(q url.Values) (logFilters, error) {
	for name := range q {
		if name != "signal" && name != "editor" {
			return logFilters{}, failure.New(failure.CodeUnknownParameter,
				fmt.Sprintf("The desk log has no filter %q: it filters by signal and editor.", name))
		}
	}
	f := logFilters{Signal: q.Get("signal"), Editor: strings.TrimSpace(q.Get("editor"))}
	if model.Chars(f.Signal) > model.MaxIDChars || model.Chars(f.Editor) > 320 {
		return f, failure.New(failure.CodeInvalidParameter, "A filter of the desk log is longer than any signal id or email.")
	}
	return f, nil
}

func (f logFilters) query(limit int) model.LogQuery {
	return model.LogQuery{SignalID: f.Signal, Editor: f.Editor, Limit: limit}
}

// exportAddress is the export's address with f.
func (f logFilters) exportAddress() string {
	v := url.Values{}
	if f.Signal != "" {
		v.Set("signal", f.Signal)
	}
	if f.Editor != "" {
		v.Set("editor", f.Editor)
	}
	if len(v) == 0 {
		return ExportPath
	}
	return ExportPath + "?" + v.Encode()
}

// entry is one decision as the log page shows it.
type entry struct {
	At, Editor, EditorHref string
	SignalID, SignalHref   string
	What                   string
	Reason                 string
}

// logView is the log page.
type logView struct {
	Filters     logFilters
	FilterError *failure.Error
	Entries     []entry
	More        bool
	Export      string
}

// Log serves GET /desk/log: decisions newest first, of one signal or one
// editor when the filters say so.
func (p *Pages) Log(w http.ResponseWriter, r *http.Request) {
	f, err := readLogFilters(r.URL.Query())
	v := logView{Filters: f, Export: f.exportAddress()}
	if err != nil {
		v.FilterError, _ = failure.As(err)
		p.render(w, r, http.StatusBadRequest, "log", "Desk log", v)
		return
	}
	log, err := p.cfg.Store.DeskLog(r.Context(), f.query(logShown+1))
	if err != nil {
		p.internal(w, r, err)
		return
	}
	if len(log) > logShown {
		log, v.More = log[:logShown], true
	}
	for _, d := range log {
		v.Entries = append(v.Entries, entry{At: label.Time(d.At), Editor: d.Editor,
			EditorHref: LogPath + "?" + url.Values{"editor": {d.Editor}}.Encode(), SignalID: layout.Text(d.SignalID),
			SignalHref: LogPath + "?" + url.Values{"signal": {d.SignalID}}.Encode(), What: what(d), Reason: layout.Text(d.Reason)})
	}
	p.render(w, r, http.StatusOK, "log", "Desk log", v)
}

// what says what a decision did: "status pending → public; kind Funding →
// Job", "taken down", "restored".
func what(d model.Decision) string {
	switch d.Action {
	case model.ActionDelete:
		return "taken down"
	case model.ActionRestore:
		return "restored"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d.After)) {
		parts = append(parts, fmt.Sprintf("%s %s → %s", fieldName(k), value(k, d.Before[k]), value(k, d.After[k])))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

func fieldName(k string) string {
	switch k {
	case "tag":
		return "kind"
	case "market_only":
		return "market-only"
	}
	return k
}

func value(k string, v any) string {
	s := fmt.Sprint(v)
	switch {
	case v == nil || s == "":
		return "none"
	case k == "tag":
		return label.Tag(s)
	case k == "country":
		return label.Country(s)
	case k == "language":
		return label.Language(s)
	case k == "market_only" && s == "true":
		return "yes"
	case k == "market_only":
		return "no"
	}
	return s
}

// Export serves GET /desk/log.jsonl: the log's decisions, oldest first,
// one JSON object a line (the same lines as signals desk log --json).
func (p *Pages) Export(w http.ResponseWriter, r *http.Request) {
	f, err := readLogFilters(r.URL.Query())
	if err != nil {
		p.refuse(w, r, "", err)
		return
	}
	log, err := p.cfg.Store.DeskLog(r.Context(), f.query(0))
	if err != nil {
		p.internal(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/jsonl; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="desk-log.jsonl"`)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", layout.PrivateReferrerPolicy)
	enc := json.NewEncoder(w)
	for i := len(log) - 1; i >= 0; i-- {
		if err := enc.Encode(log[i]); err != nil {
			return // the client left
		}
	}
}
