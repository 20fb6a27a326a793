package account

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"signals/internal/auth"
	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/session"
	"signals/internal/store"
)

// maxKeys bounds the keys one account holds at once.
const maxKeys = 25

// maxKeyName bounds the length of a key's name, in characters.
const maxKeyName = 100

// accountView is the account area.
type accountView struct {
	// NewKey is the secret of a key just created: shown on this one page.
	NewKey, NewKeyName string
	// Keys work now; Revoked keys stay listed with their revocation.
	Keys, Revoked []keyRow
	KeyName       string
	// KeyError, Rename.Error, InterestsError and DeleteError say why a
	// form was refused; the page's status is their code's.
	KeyError *failure.Error
	// Rename is a refused renaming: the key and the name typed.
	Rename struct {
		ID, Name string
		Error    *failure.Error
	}

	Usage       usageView
	Chart       template.HTML
	Days        []day
	Connections []connectionRow

	Interests      interestsView
	InterestsError *failure.Error
	DeleteError    *failure.Error
}

// status is the page's status: that of the refused form's failure, if any.
func (v *accountView) status() int {
	for _, e := range []*failure.Error{v.KeyError, v.Rename.Error, v.InterestsError, v.DeleteError} {
		if e != nil {
			return problem.Status(e.Code)
		}
	}
	return http.StatusOK
}

type keyRow struct {
	ID, Name, Hint, Created, LastUsed, Revoked string
	// NewName and RenameError are a refused renaming of this key.
	NewName     string
	RenameError *failure.Error
}

func newKeyRow(k model.APIKey) keyRow {
	return keyRow{ID: k.ID, Name: k.Name, Hint: k.Hint, Created: when(k.CreatedAt),
		LastUsed: whenPtr(k.LastUsed, "never"), Revoked: whenPtr(k.RevokedAt, "")}
}

type usageView struct {
	Requests, RequestLimit, Searches, SearchLimit, Minute, MinuteLimit, Concurrent int
	ResetAt                                                                        string
}

type connectionRow struct {
	ID, ClientName, Connected, LastUsed string
	Scopes                              []string
}

type interestsView struct {
	Chosen    bool
	Frequency string
	Summary   string
	Hour      string
	Tags      []option
	Regions   []regionOptions
}

// regionOptions are the countries of one region; Open shows them at once
// when one is chosen.
type regionOptions struct {
	Name      string
	Open      bool
	Countries []option
}

type option struct {
	Value, Label string
	Checked      bool
}

// notices confirm what a redirected action did; the query names one, so a
// link can show nothing but these fixed texts.
var notices = map[string]string{
	"signed-in":               "You are signed in.",
	"key-revoked":             "The key is revoked. Requests with it now fail.",
	"key-renamed":             "The key is renamed.",
	"interests-saved":         "Your email interests are saved.",
	"interests-stopped":       "Digests are stopped. You receive no email besides sign-in links.",
	"disconnected":            "The app is disconnected; its tokens no longer work.",
	"signed-out":              "You are signed out.",
	session.NoticeSignInAgain: "This page needs a sign-in from the last 12 hours: ask for a new link to go on.",
}

// DigestHour is the UTC hour digests are sent, shown on the page.
func (p *Pages) digestHour() string { return fmt.Sprintf("%02d:00", p.cfg.DigestHour) }

// Account serves GET /account.
func (p *Pages) Account(w http.ResponseWriter, r *http.Request) {
	p.showAccount(w, r, accountView{})
}

// showAccount fills in the account area around what an action left in v.
func (p *Pages) showAccount(w http.ResponseWriter, r *http.Request, v accountView) {
	cur, _ := session.FromContext(r.Context())
	acct := cur.Account
	ctx := r.Context()
	now := p.now()
	if err := p.fillKeys(ctx, acct.ID, &v); err != nil {
		p.internal(w, r, err)
		return
	}
	if err := p.fillUsage(ctx, acct, now, &v); err != nil {
		p.internal(w, r, err)
		return
	}
	if err := p.fillConnections(ctx, acct.ID, &v); err != nil {
		p.internal(w, r, err)
		return
	}
	if err := p.fillInterests(ctx, acct.ID, r, &v); err != nil {
		p.internal(w, r, err)
		return
	}
	p.render(w, r, v.status(), "account", view{Title: "Your account", Notice: notices[r.URL.Query().Get("notice")], Account: &v})
}

func (p *Pages) fillKeys(ctx context.Context, accountID int64, v *accountView) error {
	keys, err := p.cfg.Store.Keys(ctx, accountID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		row := newKeyRow(k)
		if k.RevokedAt != nil {
			v.Revoked = append(v.Revoked, row)
			continue
		}
		if k.ID == v.Rename.ID {
			row.NewName, row.RenameError = v.Rename.Name, v.Rename.Error
		}
		v.Keys = append(v.Keys, row)
	}
	return nil
}

func (p *Pages) fillUsage(ctx context.Context, acct model.Account, now time.Time, v *accountView) error {
	u, err := p.cfg.Store.Usage(ctx, acct.ID, now)
	if err != nil {
		return err
	}
	l := acct.Limits
	v.Usage = usageView{
		Requests: u.DayUsed, RequestLimit: l.DailyRequests,
		Searches: u.SearchesUsed, SearchLimit: l.DailySearches,
		Minute: u.MinuteUsed, MinuteLimit: l.MinuteRequests, Concurrent: l.ConcurrentSearches,
		ResetAt: u.DayStart.Add(24 * time.Hour).Format("15:04 UTC, Mon 2 Jan"),
	}
	today := model.DayOf(now)
	recorded, err := p.cfg.Store.DailyUsage(ctx, acct.ID, today.AddDate(0, 0, -chartDays+1), today.AddDate(0, 0, 1))
	if err != nil {
		return err
	}
	v.Days = history(recorded, today, u.DayUsed, u.SearchesUsed)
	v.Chart, err = chart(v.Days)
	slices.Reverse(v.Days) // the table reads newest first
	return err
}

func (p *Pages) fillConnections(ctx context.Context, accountID int64, v *accountView) error {
	if p.cfg.Connections == nil {
		return nil
	}
	list, err := p.cfg.Connections.Connections(ctx, accountID)
	if err != nil {
		return err
	}
	for _, c := range list {
		v.Connections = append(v.Connections, connectionRow{ID: c.ID, ClientName: c.ClientName, Scopes: c.Scopes,
			Connected: when(c.ConnectedAt), LastUsed: whenPtr(c.LastUsed, "never")})
	}
	return nil
}

// fillInterests shows the stored interests, or what a refused form held.
func (p *Pages) fillInterests(ctx context.Context, accountID int64, r *http.Request, v *accountView) error {
	in, err := p.cfg.Store.Interests(ctx, accountID)
	chosen := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	shown := in
	if v.InterestsError != nil {
		shown = interestsFrom(r)
	}
	v.Interests = interestsView{Chosen: chosen, Frequency: in.Frequency, Hour: p.digestHour(), Summary: summary(in)}
	if v.InterestsError != nil {
		v.Interests.Frequency = shown.Frequency
	}
	for _, t := range model.Tags {
		v.Interests.Tags = append(v.Interests.Tags, option{t, label.Tag(t), slices.Contains(shown.Tags, t)})
	}
	for _, r := range model.Regions {
		ro := regionOptions{Name: r.Name}
		for _, c := range r.Countries {
			o := option{c, label.Country(c), slices.Contains(shown.Countries, c)}
			ro.Open = ro.Open || o.Checked
			ro.Countries = append(ro.Countries, o)
		}
		v.Interests.Regions = append(v.Interests.Regions, ro)
	}
	return nil
}

func summary(in model.Interests) string {
	var parts []string
	list := func(keys []string, name func(string) string) string {
		out := make([]string, len(keys))
		for i, k := range keys {
			out[i] = name(k)
		}
		return strings.Join(out, ", ")
	}
	if len(in.Tags) > 0 {
		parts = append(parts, "kinds: "+list(in.Tags, label.Tag))
	}
	if len(in.Countries) > 0 {
		parts = append(parts, "countries: "+list(in.Countries, label.Country))
	}
	return strings.Join(parts, "; ")
}

func when(t time.Time) string { return label.Time(t) }

func whenPtr(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return when(*t)
}

// signedIn returns the account of a request that passed session.Require.
func signedIn(r *http.Request) model.Account {
	c, _ := session.FromContext(r.Context())
	return c.Account
}

// seeAccount answers an action with 303 to the account area showing notice.
func seeAccount(w http.ResponseWriter, r *http.Request, notice, anchor string) {
	private(w)
	http.Redirect(w, r, "/account?notice="+notice+"#"+anchor, http.StatusSeeOther)
}

// CreateKey serves POST /account/keys: the answer is the account area with
// the new key, shown this once.
func (p *Pages) CreateKey(w http.ResponseWriter, r *http.Request) {
	acct := signedIn(r)
	name := strings.TrimSpace(r.PostFormValue("name"))
	v := accountView{KeyName: name, KeyError: checkKeyName(name)}
	if v.KeyError == nil {
		keys, err := p.cfg.Store.Keys(r.Context(), acct.ID)
		if err != nil {
			p.internal(w, r, err)
			return
		}
		active := 0
		for _, k := range keys {
			if k.RevokedAt == nil {
				active++
			}
		}
		if active >= maxKeys {
			v.KeyError = failure.New(failure.CodeInvalidParameter, fmt.Sprintf("An account holds at most %d keys at once; revoke one first.", maxKeys))
		}
	}
	if v.KeyError != nil {
		p.showAccount(w, r, v)
		return
	}
	secret, _, err := auth.Issue(r.Context(), p.cfg.Store, acct.ID, name, p.now())
	if err != nil {
		p.internal(w, r, err)
		return
	}
	v.NewKey, v.NewKeyName, v.KeyName = secret, name, ""
	p.showAccount(w, r, v)
}

// CheckKeyName refuses a key name as the account page does (see
// checkKeyName); operator commands name keys through it.
func CheckKeyName(name string) error {
	if refused := checkKeyName(name); refused != nil {
		return refused
	}
	return nil
}

// checkKeyName refuses a trimmed key name that is empty, too long or
// holds control characters, for creating and renaming alike.
func checkKeyName(name string) *failure.Error {
	switch {
	case name == "":
		refused := failure.Missing("name")
		refused.Detail = "Give the key a name, so that you can tell it apart later."
		return refused
	case utf8.RuneCountInString(name) > maxKeyName || !utf8.ValidString(name) || strings.ContainsFunc(name, isControl):
		refused := failure.TooLong("name", 1, maxKeyName, "characters without control characters")
		refused.Detail = fmt.Sprintf("A key name is at most %d characters, without control characters.", maxKeyName)
		return refused
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// workingKey finds the signed-in account's unrevoked key named by the
// path, or answers with a failure page. Only the account's own keys: a key
// id is no secret.
func (p *Pages) workingKey(w http.ResponseWriter, r *http.Request) (model.APIKey, bool) {
	id := r.PathValue("id")
	keys, err := p.cfg.Store.Keys(r.Context(), signedIn(r).ID)
	if err != nil {
		p.internal(w, r, err)
		return model.APIKey{}, false
	}
	i := slices.IndexFunc(keys, func(k model.APIKey) bool { return k.ID == id && k.RevokedAt == nil })
	if i < 0 {
		p.fail(w, r, "No such key", failure.NotFound("This account has no working key with that id; it may be revoked already."))
		return model.APIKey{}, false
	}
	return keys[i], true
}

// RevokeKeyForm serves GET /account/keys/{id}/revoke: the key, what
// revoking it does, and the one button that does it.
func (p *Pages) RevokeKeyForm(w http.ResponseWriter, r *http.Request) {
	k, ok := p.workingKey(w, r)
	if !ok {
		return
	}
	row := newKeyRow(k)
	p.render(w, r, http.StatusOK, "revoke-key", view{Title: "Revoke a key", Key: &row})
}

// RevokeKey serves POST /account/keys/{id}/revoke.
func (p *Pages) RevokeKey(w http.ResponseWriter, r *http.Request) {
	k, ok := p.workingKey(w, r)
	if !ok {
		return
	}
	if err := p.cfg.Store.RevokeKey(r.Context(), k.ID, p.now()); err != nil && !errors.Is(err, store.ErrNotFound) {
		p.internal(w, r, err)
		return
	}
	seeAccount(w, r, "key-revoked", "keys")
}

// RenameKey serves POST /account/keys/{id}/rename; a refused name shows
// the account area with the key's form open and the reason.
func (p *Pages) RenameKey(w http.ResponseWriter, r *http.Request) {
	k, ok := p.workingKey(w, r)
	if !ok {
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if refused := checkKeyName(name); refused != nil {
		v := accountView{}
		v.Rename.ID, v.Rename.Name, v.Rename.Error = k.ID, name, refused
		p.showAccount(w, r, v)
		return
	}
	err := p.cfg.Store.RenameKey(r.Context(), signedIn(r).ID, k.ID, name)
	if errors.Is(err, store.ErrNotFound) { // revoked meanwhile
		p.fail(w, r, "No such key", failure.NotFound("This account has no working key with that id; it may be revoked already."))
		return
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	seeAccount(w, r, "key-renamed", "keys")
}

// Disconnect serves POST /account/connections/{id}/disconnect.
func (p *Pages) Disconnect(w http.ResponseWriter, r *http.Request) {
	if p.cfg.Connections == nil {
		p.NotFound(w, r)
		return
	}
	err := p.cfg.Connections.Disconnect(r.Context(), signedIn(r).ID, r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		p.fail(w, r, "No such app", failure.NotFound("No app with that id is connected to this account."))
		return
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	seeAccount(w, r, "disconnected", "connections")
}

// interestsFrom reads the interests form.
func interestsFrom(r *http.Request) model.Interests {
	return model.Interests{
		Tags: r.PostForm["tags"], Countries: r.PostForm["countries"],
		Frequency: r.PostFormValue("frequency"),
	}
}

// SaveInterests serves POST /account/interests. Changing the interests
// keeps the point where the next digest starts.
func (p *Pages) SaveInterests(w http.ResponseWriter, r *http.Request) {
	acct := signedIn(r)
	in := interestsFrom(r)
	in.Tags, in.Countries = dedupe(in.Tags), dedupe(in.Countries)
	if err := in.Check(); err != nil {
		refused, ok := failure.As(err)
		if !ok {
			p.internal(w, r, err)
			return
		}
		p.showAccount(w, r, accountView{InterestsError: refused})
		return
	}
	in.Since = p.now()
	old, err := p.cfg.Store.Interests(r.Context(), acct.ID)
	switch {
	case err == nil:
		in.Since = old.Since
	case !errors.Is(err, store.ErrNotFound):
		p.internal(w, r, err)
		return
	}
	if err := p.cfg.Store.PutInterests(r.Context(), acct.ID, in); err != nil {
		p.internal(w, r, err)
		return
	}
	seeAccount(w, r, "interests-saved", "interests")
}

func dedupe(values []string) []string {
	out := slices.Clone(values)
	slices.Sort(out)
	return slices.Compact(out)
}

// StopInterests serves POST /account/interests/stop.
func (p *Pages) StopInterests(w http.ResponseWriter, r *http.Request) {
	if err := p.cfg.Store.DeleteInterests(r.Context(), signedIn(r).ID); err != nil {
		p.internal(w, r, err)
		return
	}
	seeAccount(w, r, "interests-stopped", "interests")
}

// Delete serves POST /account/delete: with the account's email typed as
// confirmation, everything the account owns goes at once.
func (p *Pages) Delete(w http.ResponseWriter, r *http.Request) {
	acct := signedIn(r)
	if !strings.EqualFold(strings.TrimSpace(r.PostFormValue("confirm")), acct.Email) {
		refused := invalid("confirm", "Type this account's email address exactly to delete it.")
		p.showAccount(w, r, accountView{DeleteError: refused})
		return
	}
	if err := p.cfg.Store.DeleteAccount(r.Context(), acct.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		p.internal(w, r, err)
		return
	}
	p.cfg.Sessions.End(w, r) // already gone with the account; this clears the cookie
	p.cfg.Log.Info("account deleted", "account_id", acct.ID)
	p.render(w, r.WithContext(session.Ended(r.Context())), http.StatusOK, "deleted", view{Title: "Account deleted"})
}
