package account

import (
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signals/internal/golden"
	"signals/internal/store"
)

var today = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

func TestHistory(t *testing.T) {
	recorded := []store.DayUsage{
		{Day: today.AddDate(0, 0, -29), Requests: 7, Searches: 1}, // first day shown
		{Day: today.AddDate(0, 0, -30), Requests: 99},             // too old
		{Day: today.AddDate(0, 0, -1), Requests: 12, Searches: 3},
		{Day: today, Requests: 5, Searches: 5}, // recorded history lags: replaced
	}
	days := history(recorded, today, 40, 2)
	if len(days) != chartDays {
		t.Fatalf("%d days", len(days))
	}
	for _, tt := range []struct {
		i                  int
		date               time.Time
		requests, searches int
	}{
		{0, today.AddDate(0, 0, -29), 7, 1},
		{1, today.AddDate(0, 0, -28), 0, 0},
		{28, today.AddDate(0, 0, -1), 12, 3},
		{29, today, 40, 2},
	} {
		d := days[tt.i]
		if !d.Date.Equal(tt.date) || d.Requests != tt.requests || d.Searches != tt.searches {
			t.Errorf("day %d = %+v, want %v %d %d", tt.i, d, tt.date, tt.requests, tt.searches)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tt := range []struct{ v, want int }{
		{0, 5}, {1, 5}, {5, 5}, {6, 10}, {11, 20}, {21, 50}, {51, 100}, {999, 1000}, {1001, 2000},
	} {
		if got := niceCeil(tt.v); got != tt.want {
			t.Errorf("niceCeil(%d) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// TestChart pins the SVG of a month of usage, and checks that it is well
// formed XML whose bars carry their numbers.
func TestChart(t *testing.T) {
	var recorded []store.DayUsage
	for i := range 29 {
		recorded = append(recorded, store.DayUsage{Day: today.AddDate(0, 0, -29+i), Requests: (i * 37) % 120, Searches: i % 4})
	}
	svg, err := chart(history(recorded, today, 1000, 10))
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
		t.Fatalf("not XML: %v\n%s", err, s)
	}
	for _, want := range []string{
		"<title>Thu 1 Oct: 1,000 requests</title>",
		"<title>Thu 1 Oct: 10 searches</title>",
		"<title>Wed 2 Sep: 0 requests</title>",
		"The busiest day was 1 October with 1,000 requests.",
		">1,000</text>", // the requests panel's top gridline
	} {
		if !strings.Contains(s, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if n := strings.Count(s, "<rect"); n != 2*chartDays {
		t.Errorf("%d bars, want %d", n, 2*chartDays)
	}
	golden.Text(t, filepath.Join("testdata", "chart.svg"), []byte(s+"\n"))
}
