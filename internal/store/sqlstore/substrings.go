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
	var cond string
	var matchArgs []any
	var ok bool
	match := func() error {
		return q.reading(ctx, func() (err error) {
			cond, matchArgs, ok, err = s.Match(ctx, q.read, folded)
			return err
		})
	}
	if s.Unordered {
		if err := match(); err != nil {
			return nil, err
		}
		list, err := l.unordered(ctx, filters, filterArgs, all, allArgs, cond, matchArgs, ok)
		return list[min(len(list), offset):], err
	}
	if utf8.RuneCountInString(folded) < 3 {
		among := fmt.Sprintf(s.Among, `FROM signals WHERE `+filters+orderSignals+` LIMIT ?`)
		newest, newestArgs := among+` AND `+l.holds, append(append(slices.Clone(filterArgs), newestFirst), l.holdArgs...)
		list, err := l.read(ctx, "signals", newest, newestArgs, orderSignals+` LIMIT ?`, l.need)
		if err != nil || len(list) == l.need {
			return list[min(len(list), offset):], err
		}
	}
	if err := match(); err != nil {
		return nil, err
	}
	if !ok { // the index cannot narrow it down: walk the listing
		return l.read(ctx, "signals", all, allArgs, orderSignals+` LIMIT ? OFFSET ?`, lq.PageSize+1, offset)
	}
	var list []model.Signal
	var err error
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
	pending, err := l.read(ctx, "signals", pendingOnly+all, allArgs, orderSignals+` LIMIT ?`, l.need)
	if err != nil {
		return nil, err
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

// unordered reads the matches of a listing by substring in one statement,
// for an index that names every candidate whatever the page
// (Substrings.Unordered), as three parts: the newest signals of the
// listing (filters, with filterArgs; newestFirst of them) checked
// directly; the signals of the times the index has not read since they
// changed (all, with allArgs: the filters and the substring); and the
// index's candidates (cond, with matchArgs; every signal when the index
// cannot narrow the substring down, none when no indexed text holds it),
// which the engine reads only when the newest do not fill the page, as a
// common substring's do. Each part is read in listing order, up to the matches the page needs.
//
// Its limits are written into its text, and Match hides the substring from
// the planner: the engine plans the statement once per connection, the
// same for every substring, instead of at every run, where planning would
// cost more than a rare substring's whole reading.
func (l substringListing) unordered(ctx context.Context, filters string, filterArgs []any, all string, allArgs []any,
	cond string, matchArgs []any, ok bool) ([]model.Signal, error) {
	need := strconv.Itoa(l.need)
	columns := func(part int) string {
		return `SELECT ` + signalColumns + `, ` + strconv.Itoa(part) + ` AS part FROM signals WHERE `
	}
	newest := columns(0) + fmt.Sprintf(l.q.dialect.Substrings.Among, `FROM signals WHERE `+filters+orderSignals+
		` LIMIT `+strconv.Itoa(newestFirst)) + ` AND ` + l.holds + orderSignals + ` LIMIT ` + need
	query := `WITH newest AS MATERIALIZED (` + newest + `) SELECT * FROM newest UNION ALL SELECT * FROM (` +
		columns(1) + pendingOnly + all + orderSignals + ` LIMIT ` + need + `) AS pending`
	args := append(append(append([]any{l.snippet}, filterArgs...), l.holdArgs...), l.snippet)
	args = append(args, allArgs...)
	if ok && cond != "" {
		cond += ` AND `
	}
	if !ok || cond != "" {
		query += ` UNION ALL SELECT * FROM (` + columns(2) + cond + all + orderSignals + ` LIMIT ` + need +
			`) AS candidates WHERE (SELECT count(*) FROM newest) < ` + need
		args = append(append(append(args, l.snippet), matchArgs...), allArgs...)
	}
	var newestList, rest []model.Signal
	err := l.q.reading(ctx, func() error {
		newestList, rest = nil, nil
		rows, err := l.q.read.QueryContext(ctx, l.q.bind(query), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var part int64
			s, err := scanSignal(rows, &part)
			if err != nil {
				return err
			}
			if part == 0 {
				newestList = append(newestList, s)
			} else {
				rest = append(rest, s)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	if len(newestList) == l.need {
		return inListingOrder(newestList), nil
	}
	// The candidates and the pending signals hold every match, those among
	// the newest included.
	rest = inListingOrder(rest)
	return rest[:min(len(rest), l.need)], nil
}

// inListingOrder sorts list in the listing order and drops the signals
// listed twice.
func inListingOrder(list []model.Signal) []model.Signal {
	slices.SortFunc(list, func(a, b model.Signal) int {
		return cmp.Or(cmp.Compare(b.PublishedAt.NS, a.PublishedAt.NS), cmp.Compare(b.ID, a.ID))
	})
	return slices.CompactFunc(list, func(a, b model.Signal) bool { return a.ID == b.ID })
}
