package api

import "signals/internal/model"

// Signal is the JSON form of a public signal. Lists add Snippet, search
// matches add Snippet and Relevance, single reads add Text.
type Signal struct {
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
	TextCharsAlias int      `json:"textChars"`
	Snippet        *string  `json:"snippet,omitempty"`
	Relevance      *float64 `json:"relevance,omitempty"`
	Text           *string  `json:"text,omitempty"`
}

// NewSignal returns the shared metadata of s.
func NewSignal(s model.Signal) Signal {
	out := Signal{
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

// ListResponse is the body of GET /api/v1/signals and of the list_signals
// tool.
type ListResponse struct {
	Signals  []Signal `json:"signals"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
	HasMore  bool     `json:"has_more"`
	NextPage *int     `json:"next_page"`
}
