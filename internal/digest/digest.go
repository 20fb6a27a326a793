// Package digest sends email digests: at a configured UTC hour, each
// account with email interests gets the new public signals that match them
// since its last digest, daily or weekly, once per period even when several
// processes serve the same database, and no mail when nothing is new. Every
// digest carries a one-click unsubscribe link (RFC 8058).
package digest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"signals/internal/mail"
	"signals/internal/model"
	"signals/internal/session"
	"signals/internal/store"
)

// Store is what sending digests needs.
type Store interface {
	store.Digests
	ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error)
}

// Sender sends the digests that are due.
type Sender struct {
	Store Store
	Mail  mail.Sender
	Log   *slog.Logger
	// Failed, when set, is told of each failed run of a background job
	// instead of the log (the app counts them and logs an outage once).
	Failed  func(op string, err error)
	Now     func() time.Time
	BaseURL string
	// Hour is the UTC hour (0-23) at which digests go out.
	Hour int
}

// Tuning of a run.
const (
	// MaxSignals is how many signals one digest holds.
	MaxSignals = 50
	// lease is how long a claimed digest is this process's to send; a
	// process that dies mid-send leaves it to another after this.
	lease = 10 * time.Minute
	// batch is how many due accounts one query returns.
	batch = 100
	// checkEvery is how often Run looks for due digests.
	checkEvery = time.Minute
)

// Period returns the key of the latest period of frequency that has begun
// by now, and when it began: daily periods begin every day at hour:00 UTC,
// weekly ones on Mondays at that hour. An account's first digest is that of
// the first period to begin after it chose its interests.
func Period(frequency string, hour int, now time.Time) (string, time.Time) {
	now = now.UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), hour, 0, 0, 0, time.UTC)
	if start.After(now) {
		start = start.AddDate(0, 0, -1)
	}
	if frequency == model.Weekly {
		back := (int(start.Weekday()) + 6) % 7 // days since Monday
		start = start.AddDate(0, 0, -back)
	}
	return frequency + ":" + start.Format(time.DateOnly), start
}

// Run sends due digests every minute until ctx is done.
func (s *Sender) Run(ctx context.Context) {
	t := time.NewTicker(checkEvery)
	defer t.Stop()
	for {
		if err := s.SendDue(ctx); err != nil && ctx.Err() == nil && s.Failed != nil {
			s.Failed("send digests", err)
		} else if err != nil && ctx.Err() == nil {
			s.Log.Error("background job failed", "op", "send digests", "err", err)
		} else if err == nil {
			s.Log.Debug("background job done", "op", "send digests")
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// SendDue sends every digest due now that no other process is sending. It
// goes on past one account's failure and returns the first error.
func (s *Sender) SendDue(ctx context.Context) error {
	var errs []error
	for _, f := range model.Frequencies {
		period, start := Period(f, s.Hour, s.Now())
		for {
			targets, err := s.Store.DigestsDue(ctx, f, period, start, batch)
			if err != nil {
				return errors.Join(append(errs, err)...)
			}
			claimed := 0
			for _, t := range targets {
				ok, err := s.send(ctx, t, period)
				if ok {
					claimed++
				}
				if err != nil {
					errs = append(errs, fmt.Errorf("digest for account %d: %w", t.Account.ID, err))
				}
			}
			// Accounts that others hold, or that failed, come back in the
			// next query: stop when a batch moved nothing.
			if len(targets) < batch || claimed == 0 {
				break
			}
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// send claims, composes and sends one account's digest; claimed tells
// whether this process took it.
func (s *Sender) send(ctx context.Context, t store.DigestTarget, period string) (claimed bool, err error) {
	claim := make([]byte, 16)
	rand.Read(claim)
	now := s.Now()
	ok, err := s.Store.ClaimDigest(ctx, t.Account.ID, period, claim, now, lease)
	if err != nil || !ok {
		return false, err
	}
	since := model.TimeOf(t.Interests.Since, 9)
	f := t.Interests.Filter()
	f.ObservedAfter = &since
	list, more, err := s.Store.ListSignals(ctx, model.ListQuery{Filter: f, Page: 1, PageSize: MaxSignals})
	if err != nil {
		return true, err
	}
	// Signals dated after now wait for the next digest, which starts here.
	fresh := list[:0]
	for _, sig := range list {
		if sig.ObservedAt != nil && !sig.ObservedAt.Time().After(now) {
			fresh = append(fresh, sig)
		}
	}
	if len(fresh) > 0 {
		token, hash := session.NewToken()
		if err := s.Store.PutUnsubscribe(ctx, hash, t.Account.ID, now); err != nil {
			return true, err
		}
		d := Digest{
			To: t.Account.Email, Frequency: t.Interests.Frequency, Interests: t.Interests,
			Signals: fresh, More: more, BaseURL: s.BaseURL,
			Unsubscribe: UnsubscribeURL(s.BaseURL, token),
		}
		m, err := d.Message()
		if err != nil {
			return true, err
		}
		if err := s.Mail.Send(ctx, m); err != nil {
			return true, err // the claim lapses and another run retries
		}
	}
	return true, s.Store.FinishDigest(ctx, t.Account.ID, period, claim, now, s.Now())
}

// UnsubscribePath is the one-click unsubscribe endpoint.
const UnsubscribePath = "/unsubscribe"

// UnsubscribeURL is the link that unsubscribes the holder of token.
func UnsubscribeURL(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + UnsubscribePath + "?" + url.Values{"token": {token}}.Encode()
}
