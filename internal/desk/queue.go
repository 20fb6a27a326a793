package desk

import (
	"context"
	"crypto/sha256"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/search"
	"signals/internal/store"
)

const (
	// pageSize is how many signals the queue shows at once: as many as an
	// editor reads before the page is shown again after a decision.
	pageSize = 25
	// maxSimilar is how many similar public signals each one shows.
	maxSimilar = 3
	// similarChars is how much of a similar signal's text is shown.
	similarChars = 160
	// statusAll is the status filter's value for every status.
	statusAll = "all"
)

// filters are the queue's filters, from its address.
type filters struct {
	Status, Tag, Source, Language, Words string
}

// filterNames are the queue's filters; its address may also hold what the
// last decision did (done, n) for the notice.
var filterNames = []string{"status", "tag", "source", "language", "q"}

// queueParams are every parameter of the queue's address.
var queueParams = append(filterNames[:len(filterNames):len(filterNames)], "done", "n")

// readFilters reads the queue's filters from its address; a value outside
// its list is refused with the closest allowed one.
func readFilters(q url.Values) (filters, error) {
	for name := range q {
		if !model.IsOneOf(name, queueParams) {
			return filters{}, failure.New(failure.CodeUnknownParameter,
				fmt.Sprintf("The desk has no filter %q: it filters by %s.", name, strings.Join(filterNames, ", ")))
		}
	}
	f := filters{Status: q.Get("status"), Tag: q.Get("tag"), Source: q.Get("source"), Language: q.Get("language"),
		Words: strings.TrimSpace(q.Get("q"))}
	if f.Status == "" {
		f.Status = model.StatusPending
	}
	checks := []struct {
		name, v string
		allowed []string
		aliases map[string]string
	}{
		{"status", f.Status, append([]string{statusAll}, model.Statuses...), nil},
		{"tag", f.Tag, model.Tags, model.TagAliases},
		{"source", f.Source, model.Sources, model.SourceAliases},
		{"language", f.Language, model.Languages, model.LanguageAliases},
	}
	for _, c := range checks {
		if c.v != "" && !model.IsOneOf(c.v, c.allowed) {
			return f, model.CheckValues(c.name, []string{c.v}, c.allowed, c.aliases)
		}
	}
	if model.Chars(f.Words) > 200 {
		return f, failure.New(failure.CodeInvalidParameter, "The words to look for are longer than 200 characters.")
	}
	return f, nil
}

// query is the desk store's query for f.
func (f filters) query() model.DeskQuery {
	status := f.Status
	if status == statusAll {
		status = ""
	}
	return model.DeskQuery{Status: status, Tag: f.Tag, Source: f.Source, Language: f.Language, Words: f.Words,
		Limit: pageSize, TextChars: model.MaxTextChars}
}

// address is the queue's address with f.
func (f filters) address() string {
	v := url.Values{}
	for _, p := range [][2]string{{"status", f.Status}, {"tag", f.Tag}, {"source", f.Source}, {"language", f.Language}, {"q", f.Words}} {
		if p[1] != "" && !(p[0] == "status" && p[1] == model.StatusPending) {
			v.Set(p[0], p[1])
		}
	}
	if len(v) == 0 {
		return Path
	}
	return Path + "?" + v.Encode()
}

// option is one choice of a list.
type option struct {
	Value, Label string
	Selected     bool
}

func options(values []string, labelOf func(string) string, selected string) []option {
	out := make([]option, len(values))
	for i, v := range values {
		out[i] = option{Value: v, Label: labelOf(v), Selected: v == selected}
	}
	return out
}

// item is one signal as the queue shows it. Its texts are third-party:
// the template escapes them.
type item struct {
	ID, Anchor, Next string
	// NextHref leads to the next item: "#" and its Anchor.
	NextHref                         template.URL
	Text, AuthorName, AuthorHeadline string
	SourceURL, SourceLabel           string
	Status, Published                string
	Tag, TagLabel                    string
	Country, CountryLabel            string
	Language, LanguageLabel          string
	MarketOnly                       bool
	Tags, Languages                  []option
	Similar                          []similar
	// SimilarNote says why no similar signal is listed.
	SimilarNote string
}

// similar is a public signal near an item in meaning.
type similar struct {
	Href, Text, TagLabel string
	Cosine               string
}

// queueView is the queue page.
type queueView struct {
	Filters filters
	// InForce names the filters in force, for the folded form's summary.
	InForce     string
	FilterError *failure.Error
	Back        string
	Notice      string
	Items       []item
	Full        bool
	Statuses    []option
	Tags        []option
	Sources     []option
	Languages   []option
	Countries   []option
	// BulkTags are the kinds a bulk change offers.
	BulkTags []option
}

// anchor is the id of an item's element: "s-" and its signal's id,
// escaped so that it holds no space.
func anchor(id string) string { return "s-" + url.PathEscape(id) }

// Queue serves GET /desk: the signals the filters select, pending ones
// oldest first, each with its decisions.
func (p *Pages) Queue(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := readFilters(q)
	v := queueView{Filters: f, Notice: notice(q.Get("done"), q.Get("n"))}
	if err == nil {
		v.InForce = f.inForce()
	}
	v.fillOptions()
	if err != nil {
		fe, _ := failure.As(err)
		v.FilterError = fe
		p.render(w, r, http.StatusBadRequest, "queue", "Desk", v)
		return
	}
	v.Back = f.address()
	list, err := p.cfg.Store.DeskSignals(r.Context(), f.query())
	if err != nil {
		p.internal(w, r, err)
		return
	}
	v.Full = len(list) == pageSize
	v.Items = make([]item, len(list))
	for i, s := range list {
		v.Items[i] = newItem(s)
		if i+1 < len(list) {
			v.Items[i].Next = list[i+1].ID
			v.Items[i].NextHref = template.URL("#" + anchor(list[i+1].ID)) // escaped by anchor
		}
	}
	p.findSimilar(r, list, v.Items)
	p.render(w, r, http.StatusOK, "queue", "Desk", v)
}

// inForce names the filters in force: "Pending, Funding, “robots”".
func (f filters) inForce() string {
	status := "Any status"
	if f.Status != statusAll {
		status = strings.ToUpper(f.Status[:1]) + f.Status[1:]
	}
	parts := []string{status}
	for _, p := range [][2]string{{f.Tag, label.Tag(f.Tag)}, {f.Source, label.Source(f.Source)}, {f.Language, label.Language(f.Language)},
		{f.Words, "“" + f.Words + "”"}} {
		if p[0] != "" {
			parts = append(parts, p[1])
		}
	}
	return strings.Join(parts, ", ")
}

func (v *queueView) fillOptions() {
	v.Statuses = options(append(model.Statuses[:len(model.Statuses):len(model.Statuses)], statusAll), func(s string) string {
		if s == statusAll {
			return "Any status"
		}
		return strings.ToUpper(s[:1]) + s[1:]
	}, v.Filters.Status)
	v.Tags = options(model.Tags, label.Tag, v.Filters.Tag)
	v.Sources = options(model.Sources, label.Source, v.Filters.Source)
	v.Languages = options(model.Languages, label.Language, v.Filters.Language)
	v.Countries = options(model.Countries, label.Country, "")
	v.BulkTags = options(model.Tags, label.Tag, "")
}

func newItem(s model.Signal) item {
	it := item{ID: s.ID, Anchor: anchor(s.ID), Text: layout.Text(s.Text), AuthorName: layout.Text(s.AuthorName),
		AuthorHeadline: layout.Text(s.AuthorHeadline), SourceURL: model.SafeURL(s.SourceURL), SourceLabel: label.Source(s.Source),
		Status: s.Status, Published: label.Time(s.PublishedAt.Time()), Tag: s.Tag, TagLabel: label.Tag(s.Tag),
		Country: s.Country, Language: s.Language, LanguageLabel: label.Language(s.Language), MarketOnly: s.MarketOnly,
		Tags: options(model.Tags, label.Tag, s.Tag), Languages: options(model.Languages, label.Language, s.Language)}
	if s.Country != "" {
		it.CountryLabel = label.Country(s.Country)
	}
	return it
}

// findSimilar lists, under each pending item, the public signals nearest
// to it in meaning: its text is embedded as the indexer embeds a signal,
// and compared with the vectors stored for the newest public signals. A
// scorer that fails leaves the lists empty, with a note; the queue still
// works.
func (p *Pages) findSimilar(r *http.Request, list []model.Signal, items []item) {
	var texts []string
	var at []int
	for i, s := range list {
		if s.Status == model.StatusPending {
			texts = append(texts, model.Cut(s.Text, search.CandidateChars))
			at = append(at, i)
		}
	}
	if len(texts) == 0 {
		return
	}
	note := func(s string) {
		for _, i := range at {
			items[i].SimilarNote = s
		}
	}
	if p.cfg.Embed == nil {
		note("Similar signals need semantic search, which is off.")
		return
	}
	ctx := r.Context()
	vectors, err := p.embed(ctx, texts)
	var cands []store.Candidate
	if err == nil {
		cands, err = p.cfg.Store.Candidates(ctx, model.Filter{}, p.cfg.VectorModel, 2*similarChars, search.WindowSize)
	}
	if err != nil {
		p.cfg.Log.Warn("desk: finding similar signals", "err", err)
		note("Similar signals could not be found just now.")
		return
	}
	for k, i := range at {
		for _, n := range search.Nearest(vectors[k], cands, list[i].ID, p.cfg.RelatedCosine, maxSimilar) {
			items[i].Similar = append(items[i].Similar, similar{Href: reads.PagePath(n.Signal.ID),
				Text: layout.Text(snippet(n.Signal.Text)), TagLabel: label.Tag(n.Signal.Tag),
				Cosine: fmt.Sprintf("%.2f", n.Cosine)})
		}
		if len(items[i].Similar) == 0 {
			items[i].SimilarNote = "No recent public signal is close to this one in meaning."
		}
	}
}

// snippet is the start of a similar signal's text, on one line, with "…"
// where it was cut.
func snippet(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if model.Chars(text) <= similarChars {
		return text
	}
	return model.Cut(text, similarChars-1) + "…"
}

// maxKeptVectors bounds the pending texts whose vectors the desk keeps.
const maxKeptVectors = 1024

// embed returns the vectors of texts, embedding only those the desk has
// not embedded before: the queue is shown again after every decision,
// mostly with the same pending signals.
func (p *Pages) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var missing []string
	var at []int
	p.kept.Lock()
	for i, t := range texts {
		if v, ok := p.kept.vectors[sha256.Sum256([]byte(t))]; ok {
			out[i] = v
		} else {
			missing = append(missing, t)
			at = append(at, i)
		}
	}
	p.kept.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := p.cfg.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	p.kept.Lock()
	defer p.kept.Unlock()
	if p.kept.vectors == nil || len(p.kept.vectors)+len(missing) > maxKeptVectors {
		p.kept.vectors = map[[sha256.Size]byte][]float32{}
	}
	for k, i := range at {
		out[i] = vecs[k]
		p.kept.vectors[sha256.Sum256([]byte(missing[k]))] = vecs[k]
	}
	return out, nil
}
