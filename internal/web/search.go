package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/search"
	"signals/internal/session"
)

// Searcher runs semantic searches. The site is given the service that the
// API and MCP use, so a search from a page joins their cache, their
// in-flight searches, the account's concurrency slot and its daily
// reservations exactly as theirs do.
type Searcher interface {
	Search(ctx context.Context, acct model.Account, r search.Request) (search.Result, error)
}

// UsageReader reads an account's counts of the current UTC day, for the
// searches left before one is run.
type UsageReader interface {
	Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error)
}

// searchParams are the parameters /search reads; any other (utm_*,
// fbclid…) is ignored. Each filter takes one value, a comma list or
// repeats, as the search body's arrays do.
var searchParams = []string{"query", "tags", "sources", "language", "country", "observed_after"}

// searchForm is what a /search address asks for, as sent.
type searchForm struct {
	// asked is true when the address names a query, even an empty one.
	asked                            bool
	query                            string
	tags, sources, languages, places []string
	observedAfter                    string
}

// readSearchForm reads the parameters of /search. Empty values are "any",
// as on the feed's form.
func readSearchForm(v url.Values) searchForm {
	list := func(name string) []string {
		var out []string
		for _, x := range v[name] {
			for part := range strings.SplitSeq(x, ",") {
				if part = strings.TrimSpace(part); part != "" && !slices.Contains(out, part) {
					out = append(out, part)
				}
			}
		}
		return out
	}
	_, asked := v["query"]
	return searchForm{asked: asked, query: v.Get("query"), tags: list("tags"), sources: list("sources"),
		languages: list("language"), places: list("country"), observedAfter: strings.TrimSpace(v.Get("observed_after"))}
}

// values is the form as query values, without what it does not hold.
func (f searchForm) values() url.Values {
	v := url.Values{}
	if f.asked {
		v.Set("query", f.query)
	}
	set := func(name string, values []string) {
		if len(values) > 0 {
			v.Set(name, strings.Join(values, ","))
		}
	}
	set("tags", f.tags)
	set("sources", f.sources)
	set("language", f.languages)
	set("country", f.places)
	if f.observedAfter != "" {
		v.Set("observed_after", f.observedAfter)
	}
	return v
}

// address is the /search address of the form.
func (f searchForm) address() string {
	if enc := f.values().Encode(); enc != "" {
		return SearchPath + "?" + enc
	}
	return SearchPath
}

// without is the address of the form with the named parameter cleared.
func (f searchForm) without(name string) string {
	switch name {
	case "query":
		f.asked, f.query = false, ""
	case "tags":
		f.tags = nil
	case "sources":
		f.sources = nil
	case "language":
		f.languages = nil
	case "country":
		f.places = nil
	case "observed_after":
		f.observedAfter = ""
	}
	return f.address()
}

// hidden are the filters of the form as hidden fields, so that a new
// query keeps them.
func (f searchForm) hidden() []field {
	var out []field
	for _, name := range searchParams[1:] {
		if x := f.values().Get(name); x != "" {
			out = append(out, field{Name: name, Value: x})
		}
	}
	return out
}

// field is one hidden field of a form.
type field struct{ Name, Value string }

// invalid is a value of the form that no search takes, said in words.
type invalid struct {
	Message string
	// Clear leads to the same search without the parameter at fault.
	Clear, ClearLabel string
}

// check returns what is wrong with f in words, or nil; then the search to
// run, validated by the rules the API keeps (reads.SearchRequest.Validate).
func (f searchForm) check() (*invalid, search.Request) {
	bad := func(name, message, clear string) (*invalid, search.Request) {
		return &invalid{Message: message, Clear: f.without(name), ClearLabel: clear}, search.Request{}
	}
	quote := func(s string) string { return "“" + layout.Text(s) + "”" }
	names := func(values []string, name func(string) string) string {
		out := make([]string, len(values))
		for i, v := range values {
			out[i] = name(v)
		}
		return listInWords(out, "or")
	}
	switch n := reads.UTF16Len(f.query); {
	case strings.TrimSpace(f.query) == "":
		return &invalid{Message: "Write what you are looking for, in a few words or a sentence."}, search.Request{}
	case n > reads.MaxQueryUTF16:
		return &invalid{Message: fmt.Sprintf("Your search is %s characters long; a search reads at most %s. Shorten it and search again.",
			thousands(n), thousands(reads.MaxQueryUTF16))}, search.Request{}
	case !utf8.ValidString(f.query) || strings.ContainsRune(f.query, 0):
		return &invalid{Message: "Your search holds characters that are not text. Type it again and search."}, search.Request{}
	}
	for _, t := range f.tags {
		if !model.IsOneOf(t, model.Tags) {
			return bad("tags", fmt.Sprintf("%s is not a kind of signal. The kinds are %s.",
				quote(t), names(model.Tags, label.Tag)), "Search every kind")
		}
	}
	for _, s := range f.sources {
		if !model.IsOneOf(s, model.Sources) {
			return bad("sources", fmt.Sprintf("%s is not a source of signals. The sources are %s.",
				quote(s), names(model.Sources, label.Source)), "Search every source")
		}
	}
	for _, l := range f.languages {
		if l == "other" {
			return bad("language", "A search reads signals in English or French; signals in other languages can be browsed on the feed, not searched.",
				"Search every language")
		}
		if !model.IsOneOf(l, model.SearchLanguages) {
			return bad("language", fmt.Sprintf("%s is not a language a search reads. It reads %s.",
				quote(l), names(model.SearchLanguages, label.Language)), "Search every language")
		}
	}
	for _, c := range f.places {
		if !model.ValidCountry(c) {
			return bad("country", fmt.Sprintf("%s is not a country the feed knows. Countries are written in lower-case English with underscores, such as canada or united_states.",
				quote(c)), "Search every country")
		}
	}
	req := reads.SearchRequest{Query: f.query, Tags: f.tags, Sources: f.sources, Language: f.languages, Country: f.places,
		Limit: new(search.MaxMatches)}
	if f.observedAfter != "" {
		req.ObservedAfter = &f.observedAfter
	}
	r, err := req.Validate()
	if err != nil {
		if fe, ok := failure.As(err); ok && fe.Param == "observed_after" {
			return bad("observed_after", fmt.Sprintf("%s is not a date and time with its time zone, such as 2026-11-20T09:00:00Z.",
				quote(f.observedAfter)), "Search at any date")
		}
		return &invalid{Message: "This search cannot be run as it is written. Change it and search again.",
			Clear: SearchPath, ClearLabel: "Start a new search"}, search.Request{}
	}
	return nil, r
}

// searchView is the content of the search page.
type searchView struct {
	Query string
	// Within describes the filters the search keeps; Hidden holds them.
	Within string
	Hidden []field
	// Everything is the same query without filters ("" when there are none).
	Everything string
	// SignIn leads a visitor who is not signed in to sign in and back.
	SignIn string
	// Daily is the account's daily allowance of searches.
	Daily int
	// Invalid says what is wrong with what was asked.
	Invalid *invalid
	// Refusal says why the search did not run and when to try again.
	Refusal string
	// Ran is true when a search answered; Result is what it found.
	Ran    bool
	Result searchResultView
	// Left says how many searches are left today.
	Left string
	// Prefetch marks the answer to a prefetch, which runs no search.
	Prefetch bool
	// retryAfter is the wait a refusal names, in seconds (0: none known).
	retryAfter int
}

// searchResultView is what a search answered.
type searchResultView struct {
	Status   string
	CacheHit bool
	Cache    string
	Matches  []matchView
}

// matchView is one match: the feed's card, with relevance and reasons.
type matchView struct {
	signalView
	Relevance string
	Reasons   []string
}

// searchPage serves GET /search: search by meaning for a signed-in
// person, with the API's search service, spending the account's daily
// searches but not its requests, which count the API and MCP (CONTRACT
// §8); a visitor is told how to sign in.
func (s *Site) searchPage(w http.ResponseWriter, r *http.Request) {
	// Unknown parameters are ignored (links are shared with utm_* and
	// fbclid), and so is a query string that does not parse as a whole.
	f := readSearchForm(r.URL.Query())
	v := searchView{Query: f.query, Hidden: f.hidden(), Daily: model.InitialLimits.DailySearches}
	if within := f.within(); within != "" {
		v.Within = within
		everything := searchForm{asked: f.asked, query: f.query}
		v.Everything = everything.address()
	}
	cur, signedIn := session.FromContext(r.Context())
	status := http.StatusOK
	switch {
	case !signedIn:
		// What the page does, and the way back here once signed in; no
		// search runs for a visitor.
		v.SignIn = session.SignInPath + "?" + url.Values{"next": {f.address()}}.Encode()
	case isPrefetch(r) && f.asked:
		// A prefetch is a guess at a click: it must not spend a search.
		// A status that is not 2xx keeps the browser from using it as
		// the page.
		v.Prefetch, status = true, http.StatusServiceUnavailable
	default:
		v.Daily = cur.Account.Limits.DailySearches
		status = s.runSearch(r, cur.Account, f, &v)
	}
	if status == 0 {
		return // the client left
	}
	title := "Search by meaning"
	if v.Ran {
		title = "Search: " + f.query
	}
	body, err := s.render(r, "search", view{Title: title, Section: SearchPath, NoIndex: true,
		Description: searchLede, Content: v})
	if err != nil {
		s.PrivateError(w, r, "", err)
		return
	}
	// The page depends on who asks, and a search spends their allowance:
	// nothing keeps it, and it is HTML only.
	privateHeaders(w.Header(), "")
	if v.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(v.retryAfter))
	}
	write(w, r, status, body)
}

// searchLede says what the search does.
var searchLede = fmt.Sprintf("Finds signals by what they are about, not only by the words they use: each search reads the newest %d signals inside its filters and keeps those that are clearly about your query.", search.WindowSize)

// runSearch fills v for a signed-in person and returns the page's status,
// 0 when the client left. HEAD runs no search: it only says what GET
// would be about.
func (s *Site) runSearch(r *http.Request, acct model.Account, f searchForm, v *searchView) int {
	ctx := r.Context()
	now := s.now()
	if !f.asked || r.Method == http.MethodHead {
		left, err := s.searchesLeft(ctx, acct, now)
		if err != nil {
			v.Refusal = unavailable
			return http.StatusServiceUnavailable
		}
		v.Left = left
		return http.StatusOK
	}
	bad, req := f.check()
	if bad != nil {
		v.Invalid = bad
		if left, err := s.searchesLeft(ctx, acct, now); err == nil {
			v.Left = left
		}
		return http.StatusBadRequest
	}
	res, err := s.cfg.Search.Search(ctx, acct, req)
	if err != nil {
		if ctx.Err() != nil {
			return 0
		}
		return s.refusal(r, acct, now, err, v)
	}
	v.Ran = true
	v.Result = newSearchResultView(res)
	v.Left = searchesLeftSentence(res.SearchesRemaining, acct.Limits.DailySearches, now)
	return http.StatusOK
}

// unavailable is said when the service cannot answer at all.
const unavailable = "The search cannot be reached just now; nothing was counted. Try again in a minute."

// refusal says in words why a search did not run, and when it can.
func (s *Site) refusal(r *http.Request, acct model.Account, now time.Time, err error, v *searchView) int {
	fe, ok := failure.As(err)
	if !ok {
		s.cfg.Log.Error("semantic search from a page", "err", err)
		v.Refusal = "The search failed on our side. Try again in a minute."
		return http.StatusInternalServerError
	}
	wait := time.Duration(fe.RetryAfterSeconds) * time.Second
	switch fe.Code {
	case failure.CodeSearchLimitReached:
		used, back := fmt.Sprintf("your %d searches", acct.Limits.DailySearches), "They come back"
		if acct.Limits.DailySearches == 1 {
			used, back = "your one search", "It comes back"
		}
		v.Refusal = fmt.Sprintf("You have used %s for today. %s at %s, in %s. A search already run recently still answers from the cache.",
			used, back, now.Add(wait).UTC().Format("15:04 UTC"), durationInWords(wait))
	case failure.CodeSearchInProgress:
		v.Refusal = "Another search of yours is still running, and an account runs one at a time. Try again in a few seconds, when it has finished; nothing was counted."
	case failure.CodeServiceBusy:
		v.Refusal = fmt.Sprintf("The search is busy with other people's searches; nothing was counted. Try again in %s.", durationInWords(max(wait, time.Second)))
	case failure.CodeSearchTimeout:
		v.Refusal = "The search took too long and was stopped. It counted as one of today's searches; searching again uses another."
	case failure.CodeSearchFailed:
		v.Refusal = "The search failed. It counted as one of today's searches; searching again uses another."
	default:
		v.Refusal = unavailable
	}
	v.retryAfter = fe.RetryAfterSeconds
	if left, err := s.searchesLeft(r.Context(), acct, now); err == nil {
		v.Left = left
	}
	return problem.Status(fe.Code) // as the API answers it
}

// within describes the filters of f in words ("" for none).
func (f searchForm) within() string {
	parts := valueParts(f.tags, f.sources, f.languages, f.places, func(names []string) string {
		return listInWords(names, "or")
	})
	if f.observedAfter != "" {
		parts = append(parts, "collected after "+f.observedAfter)
	}
	return layout.Text(strings.Join(parts, "; "))
}

// searchesLeft says how many searches acct has left today.
func (s *Site) searchesLeft(ctx context.Context, acct model.Account, now time.Time) (string, error) {
	u, err := s.cfg.Usage.Usage(ctx, acct.ID, now)
	if err != nil {
		return "", err
	}
	return searchesLeftSentence(max(acct.Limits.DailySearches-u.SearchesUsed, 0), acct.Limits.DailySearches, now), nil
}

// searchesLeftSentence says how many of the daily searches are left, and
// when they come back.
func searchesLeftSentence(left, daily int, now time.Time) string {
	midnight := model.DayOf(now).Add(24 * time.Hour)
	back := fmt.Sprintf("they come back at 00:00 UTC, in %s", durationInWords(midnight.Sub(now)))
	switch {
	case left == 0:
		return fmt.Sprintf("No searches left today (of %d); %s.", daily, back)
	case left == 1:
		return fmt.Sprintf("1 search left today (of %d); %s.", daily, back)
	}
	return fmt.Sprintf("%d searches left today (of %d); %s.", left, daily, back)
}

func newSearchResultView(res search.Result) searchResultView {
	v := searchResultView{CacheHit: res.CacheHit}
	switch n := len(res.Matches); n {
	case 0:
		v.Status = fmt.Sprintf("No signal is clearly about this, among the %d read.", res.CandidatesConsidered)
	case 1:
		v.Status = fmt.Sprintf("1 signal is clearly about this, among the %d read.", res.CandidatesConsidered)
	default:
		v.Status = fmt.Sprintf("%d signals are clearly about this, among the %d read, best first.", n, res.CandidatesConsidered)
	}
	if res.CacheHit {
		v.Cache = fmt.Sprintf("From the cache: the same search ran at %s, so this one cost nothing.", label.Time(res.SearchedAt))
	}
	for _, m := range res.Matches {
		mv := matchView{signalView: newSignalView(m.Signal), Relevance: strconv.FormatFloat(m.Relevance, 'f', 2, 64)}
		// A match shows the API's snippet of a match.
		mv.Snippet = layout.Text(model.Cut(m.Signal.Text, model.MatchSnippetChars))
		mv.Cut = m.Signal.TextChars > model.MatchSnippetChars
		for _, why := range m.Why {
			mv.Reasons = append(mv.Reasons, reasonInWords(why))
		}
		v.Matches = append(v.Matches, mv)
	}
	return v
}

// reasonInWords says one reason a scorer gave for a match: "tag:events" →
// "kind Events", "country:france" → "country France",
// "hiring≈recruiting" → "“hiring”, as “recruiting”", a word → "“word”".
func reasonInWords(why string) string {
	if tag, ok := strings.CutPrefix(why, "tag:"); ok {
		return "kind " + label.Tag(tag)
	}
	if c, ok := strings.CutPrefix(why, "country:"); ok {
		return "country " + label.Country(c)
	}
	if asked, found, ok := strings.Cut(why, "≈"); ok {
		return "“" + layout.Text(asked) + "”, as “" + layout.Text(found) + "”"
	}
	return "“" + layout.Text(why) + "”"
}

// durationInWords says a wait in hours and minutes ("3 hours 12 minutes"),
// rounded up to the minute so that it is never too short, or in seconds
// under a minute.
func durationInWords(d time.Duration) string {
	if d < time.Minute {
		return seconds(max(int(d.Round(time.Second)/time.Second), 1))
	}
	m := int((d + time.Minute - 1) / time.Minute)
	h, m := m/60, m%60
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + one + "s"
	}
	switch {
	case h == 0:
		return unit(m, "minute")
	case m == 0:
		return unit(h, "hour")
	}
	return unit(h, "hour") + " " + unit(m, "minute")
}

// thousands writes n with a comma between thousands: 1200 → "1,200".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// listInWords joins items as a sentence does: "a, b or c".
func listInWords(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// searchBox is the feed's form that leads to /search with the feed's
// filters, for everyone: a visitor who is not signed in is told there what
// it does and how to sign in.
func (s *Site) searchBox(r *http.Request, q model.ListQuery) (template.HTML, error) {
	f := searchForm{query: q.Q, tags: q.Tags, sources: q.Sources, languages: q.Languages, places: q.Countries}
	if q.ObservedAfter != nil {
		f.observedAfter = q.ObservedAfter.String()
	}
	_, signedIn := session.FromContext(r.Context())
	var buf bytes.Buffer
	err := s.layouts["searchbox"].ExecuteTemplate(&buf, "searchbox", struct {
		Query    string
		Hidden   []field
		SignedIn bool
		// SignIn signs a visitor in and comes back to the feed.
		SignIn string
	}{q.Q, f.hidden(), signedIn, session.SignInPath + "?" + url.Values{"next": {withQuery("/", model.CanonicalQuery(q))}}.Encode()})
	return template.HTML(buf.String()), err
}
