// Package importer reads signals from JSON Lines into the store: streamed,
// validated line by line, and written in one transaction that commits only
// when every line is valid.
package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/wire"
)

// MaxLineBytes bounds one line, so a corrupt file cannot exhaust memory.
const MaxLineBytes = 8 << 20

// ErrInvalid is returned when at least one line was invalid; nothing was
// written.
var ErrInvalid = errors.New("the file has invalid lines; nothing was imported")

// Options control reporting.
type Options struct {
	// Mode says what the import may do to signals already stored ("" is
	// store.ImportKeepDecisions).
	Mode store.ImportMode
	// Errors receives one "line N: field: reason" line per problem.
	Errors io.Writer
	// Progress, when set, receives a progress line now and then.
	Progress io.Writer
	// ProgressEvery is the interval between progress lines (default 1s).
	ProgressEvery time.Duration
}

// Result counts what an import saw.
type Result struct {
	Lines    int // non-blank lines read
	Imported int // signals written (0 unless the import committed)
	Invalid  int // lines with at least one problem
	// New, Updated and Unchanged split the file's signals (each id once)
	// by what the import did: stored a signal whose id was not stored,
	// changed a stored one, or left a stored one as it was (the file
	// holds what is stored, or the mode or an editor's decisions keep it).
	New, Updated, Unchanged int
	// TakenDown are the ids an editor took down, which the import skipped.
	TakenDown []string
	// Duplicates maps each id that more than one line holds to those
	// lines, in order; the last one wins.
	Duplicates map[string][]int
}

// Import reads JSON Lines from r and upserts them by id in one transaction.
// If any line is invalid every problem is reported, nothing is written and
// ErrInvalid is returned. Lines are read and decoded on one goroutine while
// another writes, so parsing and writing overlap.
func Import(ctx context.Context, r io.Reader, st store.Signals, opt Options) (Result, error) {
	var res Result
	tx, err := st.BeginImport(ctx, opt.Mode)
	if err != nil {
		return res, err
	}
	defer tx.Rollback()
	errOut := opt.Errors
	if errOut == nil {
		errOut = io.Discard
	}
	every := opt.ProgressEvery
	if every == 0 {
		every = time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan decoded, 256)
	readErr := make(chan error, 1)
	go func() { readErr <- decodeLines(ctx, r, lines) }()

	last := time.Now()
	seen := map[string]int{} // id -> its first line
	var order []string
	for d := range lines {
		res.Lines++
		if len(d.problems) > 0 {
			res.Invalid++
			for _, p := range d.problems {
				fmt.Fprintf(errOut, "line %d: %s\n", d.n, p)
			}
			continue
		}
		if first, ok := seen[d.signal.ID]; ok {
			if res.Duplicates == nil {
				res.Duplicates = map[string][]int{}
			}
			if len(res.Duplicates[d.signal.ID]) == 0 {
				res.Duplicates[d.signal.ID] = []int{first}
			}
			res.Duplicates[d.signal.ID] = append(res.Duplicates[d.signal.ID], d.n)
		} else {
			seen[d.signal.ID] = d.n
			order = append(order, d.signal.ID)
		}
		if res.Invalid == 0 {
			if err := tx.Put(ctx, d.signal, d.folded); err != nil {
				cancel()
				for range lines {
				}
				return res, fmt.Errorf("line %d: %w", d.n, err)
			}
		}
		if opt.Progress != nil && time.Since(last) >= every {
			last = time.Now()
			fmt.Fprintf(opt.Progress, "%d lines read, %d invalid\n", res.Lines, res.Invalid)
		}
	}
	if err := <-readErr; err != nil {
		return res, err
	}
	if res.Invalid > 0 {
		return res, ErrInvalid
	}
	// What the import does, said before it commits, against what is
	// committed now.
	existing, takenDown, err := st.KnownIDs(ctx, order)
	if err != nil {
		return res, err
	}
	if err := tx.Commit(); err != nil {
		return res, err
	}
	res.count(order, existing, takenDown, tx.Written())
	return res, nil
}

// count sorts the file's ids, each once and in file order, by what the
// import did to them: skipped as taken down, new, updated (written over a
// stored signal) or unchanged.
func (res *Result) count(order []string, existing, takenDown, written map[string]bool) {
	for _, id := range order {
		switch {
		case takenDown[id]:
			res.TakenDown = append(res.TakenDown, id)
		case !existing[id]:
			res.New++
		case written[id]:
			res.Updated++
		default:
			res.Unchanged++
		}
	}
	res.Imported = res.New + res.Updated + res.Unchanged
}

// decoded is one non-blank line, decoded and validated.
type decoded struct {
	n        int
	signal   model.Signal
	folded   model.Folded
	problems []string
}

// decodeLines sends every non-blank line of r, decoded, and closes out.
func decodeLines(ctx context.Context, r io.Reader, out chan<- decoded) error {
	defer close(out)
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		var d decoded
		switch {
		case errors.Is(err, errLineTooLong):
			d = decoded{n: n, problems: []string{err.Error()}}
		case err != nil && err != io.EOF:
			return fmt.Errorf("read line %d: %w", n, err)
		case len(bytes.TrimSpace(line)) == 0:
			continue
		default:
			s, problems := Decode(line)
			d = decoded{n: n, signal: s, problems: problems}
			if len(problems) == 0 {
				d.folded = s.Folded()
			}
		}
		select {
		case out <- d:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

var errLineTooLong = fmt.Errorf("line is longer than %d bytes", MaxLineBytes)

// readLine returns the next line without its terminator. A line longer than
// MaxLineBytes is skipped whole and reported.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// record is the wire form of one line; pointers tell missing from empty.
type record struct {
	ID                   *string `json:"id"`
	Tag                  *string `json:"tag"`
	Source               *string `json:"source"`
	Language             *string `json:"language"`
	Country              *string `json:"country"`
	AuthorName           *string `json:"author_name"`
	AuthorHeadline       *string `json:"author_headline"`
	SourceURL            *string `json:"source_url"`
	Text                 *string `json:"text"`
	PublishedAt          *string `json:"published_at"`
	PublishedAtPrecision *string `json:"published_at_precision"`
	ObservedAt           *string `json:"observed_at"`
	Status               *string `json:"status"`
	MarketOnly           *bool   `json:"market_only"`
}

// Decode parses and validates one line, returning every problem found as
// "field: reason".
func Decode(line []byte) (model.Signal, []string) {
	// encoding/json would put U+FFFD in place of what is not Unicode.
	if name, bad := wire.InvalidText(line); bad {
		return model.Signal{}, []string{name + ": invalid UTF-8"}
	}
	var rec record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return model.Signal{}, []string{jsonProblem(err)}
	}
	if dec.More() {
		return model.Signal{}, []string{"line: must hold exactly one JSON object"}
	}
	var problems []string
	req := func(field string, v *string) string {
		if v == nil {
			problems = append(problems, field+": is required")
			return ""
		}
		return *v
	}
	s := model.Signal{
		ID:                   req("id", rec.ID),
		Tag:                  req("tag", rec.Tag),
		Source:               req("source", rec.Source),
		Language:             req("language", rec.Language),
		AuthorName:           req("author_name", rec.AuthorName),
		SourceURL:            req("source_url", rec.SourceURL),
		Text:                 req("text", rec.Text),
		PublishedAtPrecision: req("published_at_precision", rec.PublishedAtPrecision),
		Status:               model.StatusPending,
	}
	if rec.Country != nil {
		s.Country = *rec.Country
	}
	if rec.AuthorHeadline != nil {
		s.AuthorHeadline = *rec.AuthorHeadline
	}
	if rec.Status != nil {
		s.Status = *rec.Status
	}
	if rec.MarketOnly != nil {
		s.MarketOnly = *rec.MarketOnly
	}
	if v := req("published_at", rec.PublishedAt); rec.PublishedAt != nil {
		t, err := model.ParseTime(v)
		if err != nil {
			problems = append(problems, "published_at: "+err.Error())
		}
		s.PublishedAt = t
	}
	if rec.ObservedAt != nil {
		t, err := model.ParseTime(*rec.ObservedAt)
		if err != nil {
			problems = append(problems, "observed_at: "+err.Error()+", or null")
		}
		s.ObservedAt = &t
	}
	for _, fe := range s.Validate() {
		if rec.fieldGiven(fe.Field) {
			problems = append(problems, fe.Error())
		}
	}
	return s, problems
}

// fieldGiven reports whether a field was present, so that a missing required
// field is reported once ("is required") rather than twice.
func (r record) fieldGiven(field string) bool {
	switch field {
	case "id":
		return r.ID != nil
	case "tag":
		return r.Tag != nil
	case "source":
		return r.Source != nil
	case "language":
		return r.Language != nil
	case "author_name":
		return r.AuthorName != nil
	case "source_url":
		return r.SourceURL != nil
	case "text":
		return r.Text != nil
	case "published_at_precision":
		return r.PublishedAtPrecision != nil
	}
	return true
}

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return "line: must be a JSON object"
		}
		return te.Field + ": must be a JSON " + jsonType(te.Type.Kind().String())
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("line: invalid JSON at byte %d: %v", se.Offset, se)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return strings.Trim(f, `"`) + ": is not a field of a signal"
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return "line: invalid JSON: unexpected end"
	}
	return "line: " + strings.TrimPrefix(msg, "json: ")
}

func jsonType(kind string) string {
	switch kind {
	case "ptr", "string":
		return "string"
	case "bool":
		return "boolean"
	}
	return kind
}
