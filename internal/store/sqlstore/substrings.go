package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"signals/internal/model"
)

// newestFirst is how many of the newest signals of a listing are read
// first for a substring of one or two characters, which an index can only
// narrow down by its vocabulary or characters: such a substring is most
// often common, and a page of it is found among them.
const newestFirst = 100

// listSubstring returns the signals of the page of lq, and the one after
// it when there is one, that hold its substring, among those meeting where
// (with args, the snippet length first). The index names the times whose
// signals may hold the substring, newest first; the position of the
// substring in each column decides, so that the index only ever narrows
// the listing and never changes an answer. Signals changed since the
// index last read them (signal_text_pending) are checked directly.
func (q *Queries) listSubstring(ctx context.Context, lq model.ListQuery, where string, args []any) ([]model.Signal, error) {
	folded := model.Fold(lq.Q)
	// A position, not LIKE: % and _ match only themselves.
	contains := func(col string) string { return q.dialect.Position + "(" + col + ", ?) > 0" }
	holds := `(` + contains("fold_text") + ` OR ` + contains("fold_author") + ` OR ` + contains("fold_headline") + `)`
	filters, filterArgs := where, args
	where = filters + ` AND ` + holds
	args = append(slices.Clone(args), folded, folded, folded)
	offset, need := lq.Offset(), lq.Offset()+lq.PageSize+1
	walk := func() ([]model.Signal, error) {
		return q.listPage(ctx, `SELECT `+signalColumns+` FROM signals WHERE `+where+orderSignals+` LIMIT ? OFFSET ?`,
			args, lq.PageSize+1, offset)
	}
	s := q.dialect.Substrings
	if s == nil {
		return walk()
	}
	window := s.NewestFirst
	if utf8.RuneCountInString(folded) < 3 {
		window = max(window, newestFirst)
	}
	if window > 0 {
		among := fmt.Sprintf(s.Among, `SELECT `+q.dialect.SignalKey+` FROM signals WHERE `+filters+orderSignals+` LIMIT ?`)
		list, err := q.signals(ctx, need, `SELECT `+signalColumns+` FROM signals WHERE `+among+` AND `+holds+orderSignals+` LIMIT ?`,
			append(append(slices.Clone(filterArgs), window), folded, folded, folded, need)...)
		if err != nil || len(list) == need {
			return list[min(len(list), offset):], err
		}
	}
	var cond string
	var matchArgs []any
	ok := false
	err := q.reading(ctx, func() error {
		var err error
		cond, matchArgs, ok, err = s.Match(ctx, q.read, folded)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !ok {
		return walk()
	}
	var list []model.Signal
	if cond != "" {
		a := append(append(append([]any{args[0]}, matchArgs...), args[1:]...), need)
		list, err = q.signals(ctx, need, `SELECT `+signalColumns+` FROM `+s.From+` WHERE `+cond+` AND `+where+
			` ORDER BY `+s.Newest+` LIMIT ?`, a...)
		if err != nil {
			return nil, err
		}
		if len(list) == need {
			// The index orders by time alone: the signals of the last
			// time not read yet may have higher ids.
			last := list[need-1].PublishedAt.NS
			rest, err := q.signals(ctx, need, `SELECT `+signalColumns+` FROM signals WHERE published_ns = ? AND `+where,
				append([]any{args[0], last}, args[1:]...)...)
			if err != nil {
				return nil, err
			}
			list = append(list, rest...)
		}
	}
	pending, err := q.signals(ctx, need, `SELECT `+signalColumns+` FROM signals
		WHERE published_ns IN (SELECT published_ns FROM signal_text_pending) AND `+where+orderSignals+` LIMIT ?`,
		append(args, need)...)
	if err != nil {
		return nil, err
	}
	list = inListingOrder(append(list, pending...))
	return list[min(len(list), offset):min(len(list), need)], nil
}

// inListingOrder sorts list in the listing order and drops the signals
// listed twice.
func inListingOrder(list []model.Signal) []model.Signal {
	slices.SortFunc(list, func(a, b model.Signal) int {
		return cmp.Or(cmp.Compare(b.PublishedAt.NS, a.PublishedAt.NS), cmp.Compare(b.ID, a.ID))
	})
	return slices.CompactFunc(list, func(a, b model.Signal) bool { return a.ID == b.ID })
}
