// Package model holds the domain of the service: signals, their visibility,
// filters, accounts and limits. It does no I/O.
package model

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Enumerations of a signal's fields, in the order the documentation lists them.
var (
	Tags       = []string{"job", "funding", "product_launch", "product_feedback", "physical_ai", "events", "other"}
	Sources    = []string{"professional_network", "microblog", "tech_forum"}
	Languages  = []string{"en", "fr", "other"}
	Precisions = []string{"second", "minute", "hour", "day", "week", "month", "year"}
	Statuses   = []string{StatusPending, StatusPublic, StatusHidden}
	// SearchLanguages are the languages semantic search accepts; "other" is
	// for browsing only.
	SearchLanguages = []string{"en", "fr"}
)

// Other words for the values of the filters, written as keys (lower case,
// words joined by _), so that a refused value can suggest the one it
// means: "fundraising" is refused with funding suggested. Spelling is
// handled apart (failure.Suggest); these are words of the same meaning. A
// word is listed only where one value clearly owns it.
var (
	TagAliases = map[string]string{
		"fundraising": "funding", "fundraise": "funding", "raise": "funding", "raised": "funding",
		"raising": "funding", "investment": "funding", "investments": "funding", "investor": "funding",
		"investors": "funding", "financing": "funding", "round": "funding", "funding_round": "funding",
		"seed": "funding", "series_a": "funding", "series_b": "funding", "venture": "funding",
		"venture_capital": "funding", "vc": "funding", "levee_de_fonds": "funding", "levée_de_fonds": "funding",
		"financement": "funding",
		"hiring":      "job", "hire": "job", "jobs": "job", "job_offer": "job", "job_offers": "job",
		"career": "job", "careers": "job", "recruiting": "job", "recruitment": "job", "vacancy": "job",
		"vacancies": "job", "position": "job", "positions": "job", "opening": "job", "openings": "job",
		"emploi": "job", "emplois": "job", "recrutement": "job", "poste": "job",
		"launch": "product_launch", "launches": "product_launch", "launched": "product_launch",
		"release": "product_launch", "releases": "product_launch", "new_product": "product_launch",
		"product": "product_launch", "lancement": "product_launch",
		"feedback": "product_feedback", "review": "product_feedback", "reviews": "product_feedback",
		"opinion": "product_feedback", "complaint": "product_feedback", "complaints": "product_feedback",
		"avis":  "product_feedback",
		"robot": "physical_ai", "robots": "physical_ai", "robotics": "physical_ai", "humanoid": "physical_ai",
		"humanoids": "physical_ai", "embodied_ai": "physical_ai", "drones": "physical_ai",
		"autonomous_vehicles": "physical_ai", "self_driving": "physical_ai", "robotique": "physical_ai",
		"event": "events", "conference": "events", "conferences": "events", "meetup": "events",
		"meetups": "events", "webinar": "events", "webinars": "events", "hackathon": "events",
		"summit": "events", "workshop": "events", "workshops": "events", "evenement": "events",
		"événement": "events", "évènement": "events", "evenements": "events", "événements": "events",
		"misc": "other", "miscellaneous": "other",
	}
	SourceAliases = map[string]string{
		"linkedin": "professional_network", "xing": "professional_network",
		"professional": "professional_network", "network": "professional_network",
		"twitter": "microblog", "x": "microblog", "tweets": "microblog", "mastodon": "microblog",
		"bluesky": "microblog", "threads": "microblog", "microblogging": "microblog",
		"hacker_news": "tech_forum", "hackernews": "tech_forum", "hn": "tech_forum",
		"reddit": "tech_forum", "lobsters": "tech_forum", "forum": "tech_forum", "forums": "tech_forum",
	}
	LanguageAliases = map[string]string{
		"english": "en", "anglais": "en", "eng": "en", "en_us": "en", "en_gb": "en",
		"french": "fr", "français": "fr", "francais": "fr", "fra": "fr", "fre": "fr", "fr_fr": "fr", "fr_ca": "fr",
	}
)

// Editorial statuses.
const (
	StatusPending = "pending"
	StatusPublic  = "public"
	StatusHidden  = "hidden"
)

// Lengths, in Unicode code points unless said otherwise.
const (
	MaxIDChars        = 256
	ListSnippetChars  = 600
	MatchSnippetChars = 280
	MaxTextChars      = 16000
	CandidateChars    = 1000
)

// Signal is one collected item as stored. Text holds what the store returned:
// the whole text on import, a cut of it on reads.
type Signal struct {
	ID                   string
	Tag                  string
	Source               string
	Language             string
	Country              string // "" when unknown
	AuthorName           string
	AuthorHeadline       string
	SourceURL            string
	Text                 string
	TextChars            int
	PublishedAt          Time
	PublishedAtPrecision string
	ObservedAt           *Time
	Status               string
	MarketOnly           bool
}

// Public reports whether the signal may be shown anywhere.
func (s Signal) Public() bool { return s.Status == StatusPublic && !s.MarketOnly }

// TextTruncated reports whether a single read cuts the text.
func (s Signal) TextTruncated() bool { return s.TextChars > MaxTextChars }

// Cut returns the first n code points of s, never splitting one.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Chars counts the code points of s.
func Chars(s string) int { return utf8.RuneCountInString(s) }

// IsOneOf reports whether v is one of values.
func IsOneOf(v string, values []string) bool { return slices.Contains(values, v) }

// Sorted returns a sorted copy of values without duplicates.
func Sorted(values []string) []string {
	c := slices.Clone(values)
	slices.Sort(c)
	return slices.Compact(c)
}

// SplitList splits repeated and comma-separated values into one list,
// trimming spaces and dropping empty items.
func SplitList(values []string) []string {
	var out []string
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// SafeURL returns a source link that is an absolute http(s) URL with every
// byte that could end a Markdown link or an HTML attribute percent-encoded,
// or "" when the stored value is not one (imports refuse those).
func SafeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	s := u.String()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`<>()[]"'\`+"`", c) >= 0 {
			b.WriteString("%")
			b.WriteString(strings.ToUpper(string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
