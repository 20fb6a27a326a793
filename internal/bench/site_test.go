package bench

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// servePage runs one anonymous request through the whole handler with an
// Accept header and fails on non-200.
func (f *fixture) servePage(b *testing.B, target, accept string) {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("Accept", accept)
	rec := httptest.NewRecorder()
	f.app.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
	}
}

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// BenchmarkSiteHome renders the public feed page with the filter mixes of
// the API benchmark.
func BenchmarkSiteHome(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) { f.servePage(b, "/?"+filters[i%len(filters)], browserAccept) })
}

// BenchmarkSiteMarkdown renders the same views as Markdown, at the largest
// page an agent can ask for (50 snippets).
func BenchmarkSiteMarkdown(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) { f.servePage(b, "/?page_size=50&"+filters[i%len(filters)], "text/markdown") })
}

// BenchmarkSiteMarkdownUncached renders a Markdown view afresh each time,
// as after every change of the data.
func BenchmarkSiteMarkdownUncached(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) {
		f.servePage(b, "/?page_size=50&observed_after=2000-01-01T00:00:00."+pad9(i)+"Z", "text/markdown")
	})
}

// BenchmarkSiteFeed serves the three feeds with the filter mixes: after
// the first request of each, from the cache (one generation read).
func BenchmarkSiteFeed(b *testing.B) {
	f := loadFixture(b)
	formats := []string{"json", "rss", "atom"}
	timed(b, func(i int) {
		filter := filters[i%len(filters)]
		if filter == "page=40" {
			filter = "q=robot"
		}
		f.servePage(b, "/feed."+formats[i%len(formats)]+"?"+filter, "*/*")
	})
}

// BenchmarkSiteFeedUncached renders a feed afresh each time, as after
// every change of the data.
func BenchmarkSiteFeedUncached(b *testing.B) {
	f := loadFixture(b)
	formats := []string{"json", "rss", "atom"}
	timed(b, func(i int) {
		f.servePage(b, "/feed."+formats[i%len(formats)]+"?observed_after=2000-01-01T00:00:00."+pad9(i)+"Z", "*/*")
	})
}

// pad9 writes i as nine digits, making each feed request's filter unique.
func pad9(i int) string {
	s := "000000000"
	d := []byte(s)
	for j := 8; j >= 0 && i > 0; j-- {
		d[j] = byte('0' + i%10)
		i /= 10
	}
	return string(d)
}
