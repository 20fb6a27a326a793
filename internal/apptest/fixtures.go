package apptest

import (
	"strings"

	"signals/internal/model"
	"signals/internal/store/storetest"
)

// OddID is a signal id with every character a path or a query mangles.
const OddID = "pn/2026:10?x#1%2+b ü"

// Fixtures is a small archive covering every visibility and a long text.
// Each signal is storetest.Sig's (a published Canadian funding round from
// a microblog, in English) except for what it names:
//
//   - mb-1: its text, a seed round in Montréal;
//   - pn-2: a job in France, in French, from a professional network, with
//     an author and no headline;
//   - tf-3: a product launch from a tech forum with no country, no
//     observation time, a publication date to the day and a text of over
//     16,000 characters ending in a script tag;
//   - OddID: an event, with an emoji;
//   - hidden-5, pending-6: hidden and pending;
//   - market-7: market-only.
func Fixtures() []model.Signal {
	sig := storetest.Sig
	return []model.Signal{
		sig("mb-1", 1, func(s *model.Signal) { s.Text = "Seed round for a robotics startup in Montréal." }),
		sig("pn-2", 2, func(s *model.Signal) {
			s.Tag, s.Source, s.Language, s.Country = "job", "professional_network", "fr", "france"
			s.Text, s.AuthorName, s.AuthorHeadline = "Nous recrutons une ingénieure ML à Paris.", "Claire Exemple", ""
		}),
		sig("tf-3", 3, func(s *model.Signal) {
			s.Tag, s.Source, s.Country = "product_launch", "tech_forum", ""
			s.Text = strings.Repeat("Launch notes. ", 1200) + "<script>alert(1)</script>"
			s.ObservedAt = nil
			s.PublishedAtPrecision = "day"
		}),
		sig(OddID, 4, func(s *model.Signal) { s.Tag, s.Text = "events", "Meetup on agents 🤖 next week" }),
		sig("hidden-5", 5, func(s *model.Signal) { s.Status = model.StatusHidden }),
		sig("pending-6", 6, func(s *model.Signal) { s.Status = model.StatusPending }),
		sig("market-7", 7, func(s *model.Signal) { s.MarketOnly = true }),
	}
}
