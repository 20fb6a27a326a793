package apptest

import (
	"context"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store/storetest"
)

// Hostile is signal text that tries every way of becoming markup.
const Hostile = "<script>alert(1)</script> [click](javascript:alert(1)) ![x](https://evil.example/x.png)\n" +
	"# Heading\n===\n~~~\n<b>bold</b> https://evil.example/a www.evil.example mail@evil.example &amp; `code` *em*\n" +
	"    indented\n> quote\n- item\n<!-- comment --> ]]> </description>"

// StartSite is Start with a small public site. Its signals are
// storetest.Sig's (published Canadian funding rounds from a microblog, in
// English) except for what is named:
//
//   - plain-1, as Sig makes it;
//   - plain-2: a job in France, in French, published to the day;
//   - evil/1: text Hostile, an author name and headline that try to become
//     markup, and a source link with & and < in its query;
//   - hidden: hidden, text "secret hidden text".
//
// It has one hub, jobs (tags=job), and one article, hello (5 October
// 2026), whose body holds a link to /developers, a script and raw HTML.
func StartSite(t testing.TB) *App {
	t.Helper()
	ta := Start(t)
	ta.Put(
		storetest.Sig("plain-1", 1),
		storetest.Sig("plain-2", 2, func(s *model.Signal) {
			s.Tag = "job"
			s.Country = "france"
			s.Language = "fr"
			s.PublishedAtPrecision = "day"
		}),
		storetest.Sig("evil/1", 3, func(s *model.Signal) {
			s.Text, s.AuthorName, s.AuthorHeadline = Hostile, `<img src=x onerror=alert(1)>`, `[x](https://evil.example/h) ## not a heading`
			s.SourceURL = "https://example.org/post?a=1&b=<2>"
		}),
		storetest.Sig("hidden", 4, func(s *model.Signal) { s.Status = model.StatusHidden; s.Text = "secret hidden text" }),
	)
	ctx := context.Background()
	if err := ta.Store().CreateHub(ctx, model.Hub{Slug: "jobs", Title: "Jobs", Description: "Hiring.", Filter: "tags=job"}); err != nil {
		t.Fatal(err)
	}
	if err := ta.Store().PutArticles(ctx, []model.Article{{Slug: "hello", Title: "Hello", Summary: "A first note.",
		PublishedAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC),
		Body:        "Some *text* and a [link](/developers).\n\n<script>alert(1)</script>\n\n<b>raw</b>\n"}}); err != nil {
		t.Fatal(err)
	}
	return ta
}
