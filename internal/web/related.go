package web

import (
	"context"

	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/search"
)

// Related signals are read from the vectors that semantic search stores for
// each public signal: no query is embedded and no search is run or counted.
const (
	// maxRelated is the most related signals a page lists.
	maxRelated = 5
	// relatedWindow is how many of the newest public signals are compared
	// with a signal: the window a semantic search scores.
	relatedWindow = search.WindowSize
	// relatedChars is how much of a related signal's text is read: enough
	// for its heading (maxHeadingChars) and what precedes it.
	relatedChars = 2 * maxHeadingChars
)

// relatedNote says how the related signals were chosen.
const relatedNote = "The public signals nearest to this one in meaning, among the newest 512, " +
	"compared by the vectors that semantic search keeps for each signal."

// Why a page lists no related signal.
const (
	relatedNoneClose  = "No other recent public signal is close enough in meaning to this one to list here."
	relatedNotIndexed = "Related signals appear once this signal has been indexed for semantic search, within a minute of its publication."
)

// relatedView is one related signal as a page lists it.
type relatedView struct {
	Heading, Href                   string
	TagLabel, Published, AuthorName string
}

// related returns up to maxRelated public signals nearest to sig by the
// cosine of their stored vectors, at least Config.RelatedCosine, nearest
// first (newest first among equals), each linking back to back; or, when
// there is none, the sentence that says why.
func (s *Site) related(ctx context.Context, sig model.Signal, back string) ([]relatedView, string, error) {
	if s.cfg.VectorModel == "" {
		return nil, relatedNotIndexed, nil
	}
	own, err := s.cfg.Store.SignalVector(ctx, sig.ID, s.cfg.VectorModel)
	if err != nil {
		return nil, "", err
	}
	if own == nil {
		return nil, relatedNotIndexed, nil
	}
	cands, err := s.cfg.Store.Candidates(ctx, model.Filter{}, s.cfg.VectorModel, relatedChars, relatedWindow)
	if err != nil {
		return nil, "", err
	}
	near := search.Nearest(own, cands, sig.ID, s.cfg.RelatedCosine, maxRelated)
	if len(near) == 0 {
		return nil, relatedNoneClose, nil
	}
	out := make([]relatedView, 0, maxRelated)
	for _, n := range near {
		heading, _ := signalHeading(n.Signal)
		out = append(out, relatedView{Heading: heading, Href: withFrom(SignalPath(n.Signal.ID), back),
			TagLabel: label.Tag(n.Signal.Tag), Published: publishedLabel(n.Signal.PublishedAt, n.Signal.PublishedAtPrecision),
			AuthorName: layout.Text(n.Signal.AuthorName)})
	}
	return out, "", nil
}
