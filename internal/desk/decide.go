package desk

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/session"
	"signals/internal/store"
)

const (
	// maxBulk is the most signals one decision acts on: a queue page's
	// worth, with room to spare.
	maxBulk = 100
	// maxReason bounds a reason, in characters.
	maxReason = 500
)

// Actions a decision form's button names. "save" applies the corrections
// alone.
var actions = []string{"publish", "hide", "pending", "market-only", "general", "save"}

// notices confirm what a decision did, by the action the queue's address
// names after it (so that a link can show nothing but these texts).
var notices = map[string]string{
	"publish":     "Published: %s.",
	"hide":        "Hidden from every public surface: %s.",
	"pending":     "Back in the queue: %s.",
	"market-only": "Marked market-only: %s.",
	"general":     "No longer market-only: %s.",
	"save":        "Corrected: %s.",
	"delete":      "Taken down from every surface: %s. A re-import does not bring it back; the command signals signals restore does.",
}

// notice is the text of the notice for action done on n signals.
func notice(done, n string) string {
	text, ok := notices[done]
	if !ok {
		return ""
	}
	count, err := strconv.Atoi(n)
	switch {
	case err != nil || count < 0 || count > maxBulk:
		return ""
	case count == 0:
		return "Nothing changed: the signals were so already."
	case count == 1:
		return fmt.Sprintf(text, "1 signal")
	}
	return fmt.Sprintf(text, strconv.Itoa(count)+" signals")
}

// decision is a decision form, read and checked.
type decision struct {
	ids    []string
	action string
	change model.Change
	reason string
}

// readDecision reads a decision form: the signals (one, or those ticked),
// the button pressed, the corrections and the reason.
func readDecision(f url.Values) (decision, error) {
	d := decision{ids: f["id"], action: f.Get("action"), reason: strings.TrimSpace(f.Get("reason"))}
	switch {
	case len(d.ids) == 0:
		return d, failure.New(failure.CodeMissingParameter, "No signal was chosen: tick the signals to act on, then choose what to do.")
	case len(d.ids) > maxBulk:
		return d, failure.New(failure.CodeInvalidParameter, fmt.Sprintf("One decision acts on at most %d signals.", maxBulk))
	case !model.IsOneOf(d.action, actions):
		return d, failure.New(failure.CodeInvalidParameter, "The form's action must be one of: "+strings.Join(actions, ", ")+".")
	case model.Chars(d.reason) > maxReason:
		return d, failure.New(failure.CodeInvalidParameter, fmt.Sprintf("The reason is longer than %d characters.", maxReason))
	}
	status := map[string]string{"publish": model.StatusPublic, "hide": model.StatusHidden, "pending": model.StatusPending}
	if s, ok := status[d.action]; ok {
		d.change.Status = &s
	}
	if d.action == "market-only" || d.action == "general" {
		m := d.action == "market-only"
		d.change.MarketOnly = &m
	}
	if v := f.Get("tag"); v != "" {
		if err := model.CheckValues("tag", []string{v}, model.Tags, model.TagAliases); err != nil {
			return d, err
		}
		d.change.Tag = &v
	}
	if v := f.Get("language"); v != "" {
		if err := model.CheckValues("language", []string{v}, model.Languages, model.LanguageAliases); err != nil {
			return d, err
		}
		d.change.Language = &v
	}
	// A signal's own form always sends its country, "" for none; a bulk
	// form sends none, and leaves each signal's country.
	if _, ok := f["country"]; ok {
		v := strings.TrimSpace(f.Get("country"))
		if v == "none" {
			v = ""
		}
		if v != "" {
			if err := model.CheckValues("country", []string{v}, model.Countries, model.CountryAliases); err != nil {
				return d, err
			}
		}
		d.change.Country = &v
	}
	return d, nil
}

// Decide serves POST /desk/decide: one decision on one signal or on
// several, recorded in the desk log under the editor's email. The form is
// checked whole, and every signal found, before anything changes.
func (p *Pages) Decide(w http.ResponseWriter, r *http.Request) {
	d, err := readDecision(r.PostForm)
	if err != nil {
		p.refuse(w, r, "This decision was not taken", err)
		return
	}
	ctx := r.Context()
	if err := p.allStored(r, d.ids); err != nil {
		p.refuse(w, r, "This decision was not taken", err)
		return
	}
	changed := 0
	for _, id := range d.ids {
		if d.change.Empty() {
			break // "save" with nothing to correct
		}
		dec, err := p.cfg.Store.Decide(ctx, id, d.change, editor(r), d.reason, p.cfg.Now())
		if errors.Is(err, store.ErrNotFound) {
			continue // taken down by another editor meanwhile
		}
		if err != nil {
			p.internal(w, r, err)
			return
		}
		if dec.After != nil {
			changed++
		}
	}
	p.done(w, r, d.action, changed)
}

// allStored refuses ids of which one names no signal that the desk shows
// (none stored, or taken down).
func (p *Pages) allStored(r *http.Request, ids []string) error {
	existing, takenDown, err := p.cfg.Store.KnownIDs(r.Context(), ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !existing[id] || takenDown[id] {
			return failure.NotFound(fmt.Sprintf("There is no signal %q on the desk: it was never imported, or it was taken down.", id))
		}
	}
	return nil
}

// Delete serves POST /desk/delete: a takedown of one signal, with the
// reason the desk log keeps. The signal leaves every surface at once.
func (p *Pages) Delete(w http.ResponseWriter, r *http.Request) {
	id, reason := r.PostForm.Get("id"), strings.TrimSpace(r.PostForm.Get("reason"))
	var refused error
	switch {
	case id == "":
		refused = failure.New(failure.CodeMissingParameter, "No signal was named.")
	case reason == "":
		refused = failure.New(failure.CodeMissingParameter, "A takedown needs a reason: the desk log keeps it.")
	case model.Chars(reason) > maxReason:
		refused = failure.New(failure.CodeInvalidParameter, fmt.Sprintf("The reason is longer than %d characters.", maxReason))
	}
	if refused != nil {
		p.refuse(w, r, "This signal was not taken down", refused)
		return
	}
	_, err := p.cfg.Store.TakeDown(r.Context(), id, editor(r), reason, p.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		p.refuse(w, r, "This signal was not taken down", failure.NotFound(fmt.Sprintf("There is no signal %q on the desk.", id)))
		return
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	p.done(w, r, "delete", 1)
}

// done answers a decision with a redirect (303) to the queue it was taken
// on, which says what changed and leads to the next signal.
func (p *Pages) done(w http.ResponseWriter, r *http.Request, action string, changed int) {
	back := session.LocalPath(r.PostForm.Get("back"))
	if back != Path && !strings.HasPrefix(back, Path+"?") {
		back = Path
	}
	u, _ := url.Parse(back) // a local path: it parses
	q := u.Query()
	q.Set("done", action)
	q.Set("n", strconv.Itoa(changed))
	target := Path + "?" + q.Encode()
	if next := r.PostForm.Get("next"); next != "" {
		target += "#" + anchor(next)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
}
