package reads

import (
	"fmt"

	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/wire"
)

// The wire types of the API are described here once: the OpenAPI document
// and the MCP tool schemas are generated from them and the tables that
// follow each (see package wire).

// Enumerations of the wire formats; the named ones are OpenAPI components.
var (
	tagEnum            = wire.Enum{Name: "Tag", Values: model.Tags}
	sourceEnum         = wire.Enum{Name: "Source", Doc: "Neutral names of the external platforms.", Values: model.Sources}
	languageEnum       = wire.Enum{Name: "Language", Doc: "`other` is valid for browsing only, not for search.", Values: model.Languages, Resource: LanguagesResource}
	searchLanguageEnum = wire.Enum{Name: "SearchLanguage", Values: model.SearchLanguages}
	countryEnum        = wire.Enum{Name: "Country", Doc: "Country key: the lower-case English short name with underscores.",
		Values: model.Countries, Noun: "country keys such as canada or united_states", Pattern: "^[a-z]+(_[a-z]+)*$",
		Resource: CountriesResource}
	precisionEnum = wire.Enum{Values: model.Precisions}
)

// The MCP resources that list the values of the enumerations of signal
// fields (docs/api.md).
const (
	CountriesResource = "signals://countries"
	LanguagesResource = "signals://languages"
)

// Listed are the enumerations that MCP serves as resources, at their
// Resource.
var Listed = []wire.Enum{countryEnum, languageEnum}

// SignalMeta is what every JSON form of a public signal carries.
type SignalMeta struct {
	ID                   string      `json:"id"`
	Tag                  string      `json:"tag"`
	Source               string      `json:"source"`
	Language             string      `json:"language"`
	Country              *string     `json:"country"`
	AuthorName           string      `json:"author_name"`
	AuthorHeadline       string      `json:"author_headline"`
	SourceURL            string      `json:"source_url"`
	PublishedAt          model.Time  `json:"published_at"`
	PublishedAtPrecision string      `json:"published_at_precision"`
	ObservedAt           *model.Time `json:"observed_at"`
	TextChars            int         `json:"text_chars"`
	TextTruncated        bool        `json:"text_truncated"`
	// TextCharsAlias is the deprecated camelCase alias of TextChars.
	TextCharsAlias int `json:"textChars"`
}

func init() {
	wire.Describe[SignalMeta]("", wire.Fields{
		"id":              {Doc: "Opaque id; URL-encode it in paths.", Length: wire.Between(1, model.MaxIDChars)},
		"tag":             {Doc: "What kind of signal it is.", Enum: &tagEnum},
		"source":          {Doc: "The platform the item was collected from.", Enum: &sourceEnum},
		"language":        {Doc: "Language of the text.", Enum: &languageEnum},
		"country":         {Doc: "Country key, or null when unknown.", Enum: &countryEnum},
		"author_name":     {Doc: "The author's name on the platform."},
		"author_headline": {Doc: "The author's headline on the platform; may be empty."},
		"source_url": {Doc: "The item on its platform (http or https); gives attribution.",
			Pattern: "^[Hh][Tt][Tt][Pp][Ss]?://", Length: wire.AtMost(2048)},
		"published_at":           {Doc: "Publication time, with the precision the store holds."},
		"published_at_precision": {Doc: "Precision of `published_at`.", Enum: &precisionEnum},
		"observed_at": {Doc: "Collection time at full stored precision, or null. " +
			"Use it as given for polling with `observed_after`."},
		"text_chars":     {Doc: "Length of the full text in Unicode code points.", Range: wire.AtLeast(0)},
		"text_truncated": {Doc: fmt.Sprintf("True when the full text is longer than %d code points.", model.MaxTextChars)},
		"textChars":      {AliasOf: "text_chars"},
	})
}

// NewSignalMeta returns the shared metadata of s.
func NewSignalMeta(s model.Signal) SignalMeta {
	out := SignalMeta{
		ID: s.ID, Tag: s.Tag, Source: s.Source, Language: s.Language,
		AuthorName: s.AuthorName, AuthorHeadline: s.AuthorHeadline, SourceURL: s.SourceURL,
		PublishedAt: s.PublishedAt, PublishedAtPrecision: s.PublishedAtPrecision,
		ObservedAt: s.ObservedAt, TextChars: s.TextChars, TextTruncated: s.TextTruncated(),
		TextCharsAlias: s.TextChars,
	}
	if s.Country != "" {
		c := s.Country
		out.Country = &c
	}
	return out
}

// ListedSignal is a signal in a list: its metadata and a snippet.
type ListedSignal struct {
	SignalMeta
	Snippet string `json:"snippet"`
}

// Signal is one signal read by id: its metadata and its text.
type Signal struct {
	SignalMeta
	Text string `json:"text"`
}

// SearchMatch is a signal that matched a search.
type SearchMatch struct {
	SignalMeta
	Snippet   string   `json:"snippet"`
	Relevance float64  `json:"relevance"`
	Matched   []string `json:"matched,omitempty"`
}

func init() {
	wire.Describe[ListedSignal]("A signal in a list.", wire.Fields{
		"snippet": {Doc: fmt.Sprintf("The first %d code points of the text.", model.ListSnippetChars), Length: wire.AtMost(model.ListSnippetChars)},
	})
	wire.Describe[Signal]("One signal with its text.", wire.Fields{
		"text": {Doc: fmt.Sprintf("The text, cut to %d code points.", model.MaxTextChars), Length: wire.AtMost(model.MaxTextChars)},
	})
	wire.Describe[SearchMatch]("A search match.", wire.Fields{
		"snippet": {Doc: fmt.Sprintf("The first %d code points of the text.", model.MatchSnippetChars), Length: wire.AtMost(model.MatchSnippetChars)},
		"relevance": {Doc: "How clearly the signal is about the query; not a probability that its claims are true.",
			Range: wire.Between(search.Cutoff, 1)},
		"matched": {Doc: "Why the signal matched, when the search model can tell: the kind of signal asked for (`tag:events`), " +
			"the country on which it agrees with the place asked for (`country:france`), names asked for, and the query's words " +
			"that the signal contains (`conference`) or matches by meaning (`hiring≈recruiting`). Absent when the model gives no reasons.",
			MaxItems: search.MaxReasons},
	})
}

// ListResponse is the body of GET /api/v1/signals and of the list_signals
// tool.
type ListResponse struct {
	Signals  []ListedSignal `json:"signals"`
	Page     int            `json:"page"`
	PageSize int            `json:"page_size"`
	HasMore  bool           `json:"has_more"`
	NextPage *int           `json:"next_page"`
}

func init() {
	wire.Describe[ListResponse]("One page of public signals.", wire.Fields{
		"signals":   {Doc: "The signals of the page, newest published first.", MaxItems: model.MaxPageSize},
		"page":      {Doc: "The page number.", Range: wire.AtLeast(1)},
		"page_size": {Doc: "Signals per page.", Range: wire.Between(1, model.MaxPageSize)},
		"has_more":  {Doc: "True when a later page holds signals."},
		"next_page": {Doc: "The next page, or null on the last page.", Range: wire.AtLeast(2)},
	})
}

// GetRequest is the input of the get_signal tool; over HTTP the id is the
// last segment of the path.
type GetRequest struct {
	ID string `json:"id"`
}

func init() {
	wire.Describe[GetRequest]("", wire.Fields{
		"id": {Doc: "An id from a list or a search, or the signal's page address.", Length: wire.Between(1, MaxIDRefChars)},
	})
}

// Validate checks a get request and returns the id to read, which may
// stand for several (IDsOf). An id that no signal can have (empty, too
// long) is not found, as over HTTP, rather than invalid.
func (r GetRequest) Validate() (string, error) {
	return r.ID, nil
}
