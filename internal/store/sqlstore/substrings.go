package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"signals/internal/model"
)

// newestFirst is how many of the newest signals of a listing are read
// first for a substring of one or two characters, which an index can only
// narrow down by its vocabulary or characters, and for every substring
// where the index names all its candidates whatever the page
// (Substrings.Unordered): such a substring is most often common, and a
// page of it is found among them. More cost every substring they do not
// answer more than they save the common ones (docs/benchmarks.md).
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
	l := substringListing{q: q, snippet: args[0], need: lq.Offset() + lq.PageSize + 1,
		holds:    `(` + contains("fold_text") + ` OR ` + contains("fold_author") + ` OR ` + contains("fold_headline") + `)`,
		holdArgs: []any{folded, folded, folded}}
	filters, filterArgs := where, args[1:]
	all, allArgs := filters+` AND `+l.holds, append(slices.Clone(filterArgs), l.holdArgs...)
	offset := lq.Offset()
	s := q.dialect.Substrings
	var pending []model.Signal
	readPending := true
	if s.Unordered || utf8.RuneCountInString(folded) < 3 {
		among := fmt.Sprintf(s.Among, `FROM signals WHERE `+filters+orderSignals+` LIMIT ?`)
		newest, newestArgs := among+` AND `+l.holds, append(append(slices.Clone(filterArgs), newestFirst), l.holdArgs...)
		var list []model.Signal
		var err error
		if s.Unordered {
			// The pending times are read in the same statement, one round
			// trip less for every substring the newest do not answer.
			list, pending, err = l.newestAndPending(ctx, newest, newestArgs, all, allArgs)
			readPending = false
		} else {
			list, err = l.read(ctx, "signals", newest, newestArgs, orderSignals+` LIMIT ?`, l.need)
		}
		if err != nil || len(list) == l.need {
			return list[min(len(list), offset):], err
		}
	}
	var cond string
	var matchArgs []any
	var ok bool
	err := q.reading(ctx, func() (err error) {
		cond, matchArgs, ok, err = s.Match(ctx, q.read, folded)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !ok { // the index cannot narrow it down: walk the listing
		return l.read(ctx, "signals", all, allArgs, orderSignals+` LIMIT ? OFFSET ?`, lq.PageSize+1, offset)
	}
	var list []model.Signal
	if cond != "" {
		if list, err = l.read(ctx, s.From, cond+` AND `+all, append(slices.Clone(matchArgs), allArgs...),
			` ORDER BY `+s.Newest+` LIMIT ?`, l.need); err != nil {
			return nil, err
		}
		if len(list) == l.need {
			// The index orders by time alone: the signals of the last
			// time not read yet may have higher ids.
			rest, err := l.read(ctx, "signals", `published_ns = ? AND `+all,
				append([]any{list[l.need-1].PublishedAt.NS}, allArgs...), "")
			if err != nil {
				return nil, err
			}
			list = append(list, rest...)
		}
	}
	if readPending {
		if pending, err = l.read(ctx, "signals", pendingOnly+all, allArgs, orderSignals+` LIMIT ?`, l.need); err != nil {
			return nil, err
		}
	}
	list = inListingOrder(append(list, pending...))
	return list[min(len(list), offset):min(len(list), l.need)], nil
}

// A substringListing is a listing by substring being read: the snippet
// length of its columns, the condition that a signal holds the substring
// with its arguments, and how many matches the page needs (those before
// it, its own, and one more).
type substringListing struct {
	q        *Queries
	snippet  any
	holds    string
	holdArgs []any
	need     int
}

// read runs SELECT signalColumns FROM from WHERE where, then tail (an
// order, a limit), with the arguments in that order.
func (l substringListing) read(ctx context.Context, from, where string, whereArgs []any, tail string, tailArgs ...any) ([]model.Signal, error) {
	args := append(append([]any{l.snippet}, whereArgs...), tailArgs...)
	return l.q.signals(ctx, `SELECT `+signalColumns+` FROM `+from+` WHERE `+where+tail, args...)
}

// pendingOnly keeps the signals of the times the index has not read since
// they changed.
const pendingOnly = `published_ns IN (SELECT published_ns FROM signal_text_pending) AND `

// newestAndPending reads, in one statement, the signals meeting newest
// (with newestArgs) and those of pending times meeting all (with allArgs),
// each in listing order and up to the matches the page needs. Each part
// keeps its own plan; neither holds the index's probe, which is planned
// anew at every run.
func (l substringListing) newestAndPending(ctx context.Context, newest string, newestArgs []any, all string, allArgs []any) (list, pending []model.Signal, err error) {
	part := func(n int, where string) string {
		return `SELECT * FROM (SELECT ` + signalColumns + `, ` + strconv.Itoa(n) + ` AS part FROM signals WHERE ` + where +
			orderSignals + ` LIMIT ?) AS part` + strconv.Itoa(n)
	}
	args := append(append([]any{l.snippet}, newestArgs...), l.need, l.snippet)
	args = append(append(args, allArgs...), l.need)
	err = l.q.reading(ctx, func() error {
		list, pending = nil, nil
		rows, err := l.q.read.QueryContext(ctx, l.q.bind(part(0, newest)+` UNION ALL `+part(1, pendingOnly+all)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n int64
			s, err := scanSignal(rows, &n)
			if err != nil {
				return err
			}
			if n == 0 {
				list = append(list, s)
			} else {
				pending = append(pending, s)
			}
		}
		// Each part was read in its order; the union keeps no order.
		list = inListingOrder(list)
		return rows.Err()
	})
	return list, pending, err
}

// inListingOrder sorts list in the listing order and drops the signals
// listed twice.
func inListingOrder(list []model.Signal) []model.Signal {
	slices.SortFunc(list, func(a, b model.Signal) int {
		return cmp.Or(cmp.Compare(b.PublishedAt.NS, a.PublishedAt.NS), cmp.Compare(b.ID, a.ID))
	})
	return slices.CompactFunc(list, func(a, b model.Signal) bool { return a.ID == b.ID })
}
