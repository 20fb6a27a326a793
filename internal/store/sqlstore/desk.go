package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// SetRole makes an account a reader or an editor.
func (q *Queries) SetRole(ctx context.Context, accountID int64, role string) error {
	return Wrap("set role", changedRow(q.exec(ctx, `UPDATE accounts SET role = ? WHERE id = ?`, role, accountID)))
}

// DeskSignal returns a signal whatever its status, its text cut to
// MaxTextChars; ErrNotFound when no signal has the id (a taken-down one
// has none).
func (q *Queries) DeskSignal(ctx context.Context, id string) (model.Signal, error) {
	s, err := scanSignal(q.queryRow(ctx, `SELECT `+signalColumns+` FROM signals WHERE id = ?`, model.MaxTextChars, id))
	return s, Wrap("desk signal", err)
}

// DeskSignals lists signals for the desk, whatever their status.
func (q *Queries) DeskSignals(ctx context.Context, dq model.DeskQuery) ([]model.Signal, error) {
	where := []string{"1 = 1"}
	args := []any{cmp.Or(dq.TextChars, model.ListSnippetChars)}
	for _, c := range []struct{ col, v string }{{"status", dq.Status}, {"tag", dq.Tag}, {"source", dq.Source}, {"language", dq.Language}} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if w := model.Fold(strings.TrimSpace(dq.Words)); w != "" {
		pos := q.dialect.Position
		where = append(where, "("+pos+"(fold_text, ?) > 0 OR "+pos+"(fold_author, ?) > 0 OR "+pos+"(fold_headline, ?) > 0)")
		args = append(args, w, w, w)
	}
	order := "published_ns DESC, id DESC"
	if dq.Status == model.StatusPending {
		order = "published_ns ASC, id ASC" // the queue: oldest first
	}
	limit := dq.Limit
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	args = append(args, limit)
	out, err := readAll(ctx, q, func(rows *sql.Rows) (model.Signal, error) { return scanSignal(rows) },
		`SELECT `+signalColumns+` FROM signals WHERE `+strings.Join(where, " AND ")+` ORDER BY `+order+` LIMIT ?`, args...)
	return out, Wrap("desk signals", err)
}

// editorial reads the fields an editor decides of a signal, in a
// transaction.
func (q *Queries) editorial(ctx context.Context, tx *sql.Tx, id string) (map[string]any, error) {
	var status, tag, language string
	var country sql.NullString
	var marketOnly bool
	err := tx.QueryRowContext(ctx, q.bind(`SELECT status, market_only, tag, country, language FROM signals WHERE id = ?`+
		q.dialect.LockRow), id).Scan(&status, &marketOnly, &tag, &country, &language)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": status, "market_only": marketOnly, "tag": tag, "country": country.String,
		"language": language}, nil
}

// Decide applies an editor's change to one signal, remembers which fields
// an editor decided (an import leaves them alone), and logs the decision.
// A change that changes nothing is not logged: the decision it returns has
// no After.
func (q *Queries) Decide(ctx context.Context, id string, c model.Change, editor, reason string, now time.Time) (model.Decision, error) {
	d := model.Decision{At: now.UTC(), Editor: editor, SignalID: id, Action: model.ActionSet, Reason: reason,
		Before: map[string]any{}, After: map[string]any{}}
	if c.Tag == nil && c.Country == nil && c.Language == nil {
		d.Action = model.ActionSetStatus // the status or market-only flag alone
	}
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		was, err := q.editorial(ctx, tx, id)
		if err != nil {
			return err
		}
		var set []string
		var args []any
		for _, f := range []struct {
			name string
			v    any
		}{{"status", c.Status}, {"market_only", c.MarketOnly}, {"tag", c.Tag}, {"country", c.Country}, {"language", c.Language}} {
			var v any
			switch p := f.v.(type) {
			case *string:
				if p == nil {
					continue
				}
				v = *p
			case *bool:
				if p == nil {
					continue
				}
				v = *p
			}
			if was[f.name] == v {
				continue
			}
			d.Before[f.name], d.After[f.name] = was[f.name], v
			set = append(set, f.name+" = ?")
			if f.name == "country" && v == "" {
				v = nil
			}
			args = append(args, v)
			if _, err := tx.ExecContext(ctx, q.bind(`INSERT INTO signal_decisions (id, field) VALUES (?, ?) ON CONFLICT DO NOTHING`),
				id, f.name); err != nil {
				return err
			}
		}
		if len(set) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, q.bind(`UPDATE signals SET `+strings.Join(set, ", ")+` WHERE id = ?`), append(args, id)...); err != nil {
			return err
		}
		if err := q.logDecision(ctx, tx, &d); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, BumpGeneration)
		return err
	})
	if len(d.After) == 0 {
		d.After = nil
	}
	return d, Wrap("decide", err)
}

// logDecision appends d to the desk log and sets its sequence number.
func (q *Queries) logDecision(ctx context.Context, tx *sql.Tx, d *model.Decision) error {
	before, err := json.Marshal(d.Before)
	if err != nil {
		return err
	}
	after, err := json.Marshal(d.After)
	if err != nil {
		return err
	}
	return tx.QueryRowContext(ctx, q.bind(`INSERT INTO desk_log (at_ns, editor, signal_id, action, before, after, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq`), d.At.UnixNano(), d.Editor, d.SignalID, d.Action,
		string(before), string(after), d.Reason).Scan(integer(&d.Seq))
}

// TakeDown removes a signal from every table that serves it (its vectors
// and substring index entries go with it; cached searches that matched it
// are dropped), keeps its id and the signal as it was so that a re-import
// does not bring it back, and logs the decision with its reason.
func (q *Queries) TakeDown(ctx context.Context, id, editor, reason string, now time.Time) (model.Decision, error) {
	d := model.Decision{At: now.UTC(), Editor: editor, SignalID: id, Action: model.ActionDelete, Reason: reason,
		After: map[string]any{"deleted": true}}
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		was, err := q.editorial(ctx, tx, id)
		if err != nil {
			return err
		}
		d.Before = was
		s, err := scanSignal(tx.QueryRowContext(ctx, q.bind(`SELECT `+signalColumns+` FROM signals WHERE id = ?`),
			1<<30, id))
		if err != nil {
			return err
		}
		kept, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, q.bind(`DELETE FROM signals WHERE id = ?`), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, q.bind(`INSERT INTO signal_takedowns (id, reason, deleted_ns, deleted_by, signal)
			VALUES (?, ?, ?, ?, ?)`), id, reason, now.UnixNano(), editor, string(kept)); err != nil {
			return err
		}
		// Cached answers that matched it; a cached answer drops a signal
		// that is gone anyway, but none is kept that names it.
		match, _ := json.Marshal(store.Match{ID: id})
		needle := strings.TrimSuffix(string(match), `,"relevance":0}`) + ","
		if _, err := tx.ExecContext(ctx, q.bind(`DELETE FROM search_cache WHERE `+q.dialect.Position+`(result, ?) > 0`), needle); err != nil {
			return err
		}
		if err := q.logDecision(ctx, tx, &d); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, BumpGeneration)
		return err
	})
	return d, Wrap("take down", err)
}

// Restore brings back a taken-down signal as it was when it was taken
// down, and logs it; ErrNotFound when the id was not taken down.
func (q *Queries) Restore(ctx context.Context, id, editor, reason string, now time.Time) (model.Decision, error) {
	d := model.Decision{At: now.UTC(), Editor: editor, SignalID: id, Action: model.ActionRestore, Reason: reason,
		Before: map[string]any{"deleted": true}}
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		var kept string
		err := tx.QueryRowContext(ctx, q.bind(`SELECT signal FROM signal_takedowns WHERE id = ?`), id).Scan(&kept)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		var s model.Signal
		if err := json.Unmarshal([]byte(kept), &s); err != nil {
			return fmt.Errorf("the kept signal: %w", err)
		}
		if _, err := tx.ExecContext(ctx, q.bind(`DELETE FROM signal_takedowns WHERE id = ?`), id); err != nil {
			return err
		}
		f := s.Folded()
		var country, observedNS, observedDigits any
		if s.Country != "" {
			country = s.Country
		}
		if s.ObservedAt != nil {
			observedNS, observedDigits = s.ObservedAt.NS, s.ObservedAt.Digits
		}
		if _, err := tx.ExecContext(ctx, q.bind(`INSERT INTO signals (`+strings.Join(ImportColumns, ", ")+`) VALUES (?`+
			strings.Repeat(", ?", len(ImportColumns)-1)+`)`),
			s.ID, s.Tag, s.Source, s.Language, country, s.AuthorName, s.AuthorHeadline, s.SourceURL, s.Text,
			model.Chars(s.Text), s.PublishedAt.NS, s.PublishedAt.Digits, s.PublishedAtPrecision, observedNS,
			observedDigits, s.Status, s.MarketOnly, f.Text, f.AuthorName, f.AuthorHeadline); err != nil {
			return err
		}
		d.After = map[string]any{"status": s.Status, "market_only": s.MarketOnly, "tag": s.Tag, "country": s.Country,
			"language": s.Language}
		if err := q.logDecision(ctx, tx, &d); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, BumpGeneration)
		return err
	})
	return d, Wrap("restore", err)
}

// DeskLog returns desk log entries, newest first.
func (q *Queries) DeskLog(ctx context.Context, lq model.LogQuery) ([]model.Decision, error) {
	where := []string{"1 = 1"}
	var args []any
	if lq.SignalID != "" {
		where, args = append(where, "signal_id = ?"), append(args, lq.SignalID)
	}
	if lq.Editor != "" {
		where, args = append(where, "editor = ?"), append(args, lq.Editor)
	}
	limit := ""
	if lq.Limit > 0 {
		limit = " LIMIT " + strconv.Itoa(lq.Limit)
	}
	out, err := readAll(ctx, q, func(rows *sql.Rows) (model.Decision, error) {
		var d model.Decision
		var at int64
		var before, after string
		if err := rows.Scan(integer(&d.Seq), integer(&at), &d.Editor, &d.SignalID, &d.Action, &before, &after, &d.Reason); err != nil {
			return d, err
		}
		d.At = time.Unix(0, at).UTC()
		return d, errors.Join(json.Unmarshal([]byte(before), &d.Before), json.Unmarshal([]byte(after), &d.After))
	}, `SELECT seq, at_ns, editor, signal_id, action, before, after, reason FROM desk_log WHERE `+
		strings.Join(where, " AND ")+` ORDER BY seq DESC`+limit, args...)
	return out, Wrap("desk log", err)
}

// KnownIDs tells which of ids name a stored signal and which a taken-down
// one, as committed now: what an import reports before it commits.
func (q *Queries) KnownIDs(ctx context.Context, ids []string) (existing, takenDown map[string]bool, err error) {
	existing, takenDown = map[string]bool{}, map[string]bool{}
	const batch = 500
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		marks := "?" + strings.Repeat(", ?", len(part)-1)
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		for _, t := range []struct {
			table string
			into  map[string]bool
		}{{"signals", existing}, {"signal_takedowns", takenDown}} {
			found, err := readAll(ctx, q, func(rows *sql.Rows) (string, error) {
				var id string
				return id, rows.Scan(&id)
			}, `SELECT id FROM `+t.table+` WHERE id IN (`+marks+`)`, args...)
			if err != nil {
				return nil, nil, Wrap("known ids", err)
			}
			for _, id := range found {
				t.into[id] = true
			}
		}
	}
	return existing, takenDown, nil
}
