// Package demo provides the bundled demo data set that `serve --demo` loads,
// a deterministic generator of synthetic signals for benchmarks, and the
// encoder of the JSON Lines import format both are written in.
package demo

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"signals/internal/model"
)

//go:generate go run ./gen -o demo.jsonl

// records is the demo data set: one signal per line in the import format.
//
//go:embed demo.jsonl
var records []byte

// Records returns the demo data set as JSON Lines in the import format.
func Records() io.Reader { return bytes.NewReader(records) }

// record is one line of the import format, field for field (docs/operating.md, the import format).
// Timestamps are kept as strings so that their precision survives.
type record struct {
	ID                   string  `json:"id"`
	Tag                  string  `json:"tag"`
	Source               string  `json:"source"`
	Language             string  `json:"language"`
	Country              *string `json:"country"`
	AuthorName           string  `json:"author_name"`
	AuthorHeadline       string  `json:"author_headline"`
	SourceURL            string  `json:"source_url"`
	Text                 string  `json:"text"`
	PublishedAt          string  `json:"published_at"`
	PublishedAtPrecision string  `json:"published_at_precision"`
	ObservedAt           *string `json:"observed_at"`
	Status               string  `json:"status"`
	MarketOnly           bool    `json:"market_only"`
}

// errUTF8 is returned for strings that JSON would silently alter.
var errUTF8 = errors.New("demo: signal has a field that is not valid UTF-8")

// EncodeRecord returns s as one line of the import format, without the
// trailing newline. An unknown country ("") and a nil ObservedAt are written
// as null; timestamps keep exactly their stored precision.
func EncodeRecord(s model.Signal) ([]byte, error) {
	for _, v := range []string{s.ID, s.AuthorName, s.AuthorHeadline, s.SourceURL, s.Text} {
		if !utf8.ValidString(v) {
			return nil, errUTF8
		}
	}
	r := record{
		ID:                   s.ID,
		Tag:                  s.Tag,
		Source:               s.Source,
		Language:             s.Language,
		AuthorName:           s.AuthorName,
		AuthorHeadline:       s.AuthorHeadline,
		SourceURL:            s.SourceURL,
		Text:                 s.Text,
		PublishedAt:          s.PublishedAt.String(),
		PublishedAtPrecision: s.PublishedAtPrecision,
		Status:               s.Status,
		MarketOnly:           s.MarketOnly,
	}
	if s.Country != "" {
		r.Country = &s.Country
	}
	if s.ObservedAt != nil {
		o := s.ObservedAt.String()
		r.ObservedAt = &o
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Texts quote HTML on purpose; keep them readable in the file.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
