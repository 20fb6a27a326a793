package account

import (
	"bytes"
	"fmt"
	"html/template"
	"time"

	"signals/internal/store"
)

// chartDays is how many UTC days the usage chart shows, today included.
const chartDays = 30

// day is one UTC day of the chart.
type day struct {
	Date               time.Time
	Requests, Searches int
}

// history lays the recorded days out on the chartDays days that end with
// today, days without use at zero; today's counts are the authoritative
// current ones rather than the recorded history.
func history(recorded []store.DayUsage, today time.Time, requestsToday, searchesToday int) []day {
	byDay := map[time.Time]store.DayUsage{}
	for _, r := range recorded {
		byDay[r.Day.UTC()] = r
	}
	out := make([]day, chartDays)
	for i := range out {
		d := today.AddDate(0, 0, i-chartDays+1)
		out[i] = day{Date: d, Requests: byDay[d].Requests, Searches: byDay[d].Searches}
	}
	out[chartDays-1].Requests, out[chartDays-1].Searches = requestsToday, searchesToday
	return out
}

// Geometry of one panel of the chart. Heights are in pixels; across, the
// plot spans the whole width and places its bars in percent of it, so that
// the chart fits any screen while its text stays at its drawn size.
const (
	panelHeight = 150
	panelGap    = 16 // between the two panels
	plotTop     = 34
	plotBottom  = panelHeight - 22
)

// panel is one series drawn as bars.
type panel struct {
	ID, Title, Desc, Unit string
	Y                     int // top of the panel
	Max                   int // value of the top gridline
	Bars                  []bar
	Labels                []xLabel
}

type bar struct {
	X, W float64 // percent of the width
	Y, H float64
	Tip  string
}

type xLabel struct {
	X            float64 // percent of the width
	Anchor, Text string
}

// chart renders the usage of days as an SVG image of two bar panels,
// requests and fresh searches, readable without JavaScript or CSS: every
// bar has a tooltip and the image a text description; the page adds the
// same numbers as a table.
func chart(days []day) (template.HTML, error) {
	requests := make([]int, len(days))
	searches := make([]int, len(days))
	for i, d := range days {
		requests[i], searches[i] = d.Requests, d.Searches
	}
	panels := []panel{
		newPanel("requests", "Requests per UTC day", "request", "requests", days, requests, 0),
		newPanel("searches", "Fresh semantic searches per UTC day", "search", "searches", days, searches, panelHeight+panelGap),
	}
	var buf bytes.Buffer
	err := chartTemplate.Execute(&buf, map[string]any{
		"Height": 2*panelHeight + panelGap, "Panels": panels, "Top": plotTop, "Bottom": plotBottom,
	})
	return template.HTML(buf.String()), err
}

func newPanel(id, title, one, many string, days []day, values []int, y int) panel {
	p := panel{ID: id, Title: title, Y: y, Max: niceCeil(maxOf(values))}
	slot := 100 / float64(len(days))
	total, best, bestAt := 0, 0, -1
	for i, v := range values {
		total += v
		if v > best {
			best, bestAt = v, i
		}
		h := float64(v) / float64(p.Max) * float64(plotBottom-plotTop)
		if v > 0 && h < 1 {
			h = 1 // a day with use is never invisible
		}
		p.Bars = append(p.Bars, bar{
			X: float64(i)*slot + slot*0.15, W: slot * 0.7,
			Y: float64(plotBottom) - h, H: h,
			Tip: fmt.Sprintf("%s: %s", days[i].Date.Format("Mon 2 Jan"), count(v, one, many)),
		})
	}
	// The first and last labels align with the chart's edges, so that
	// they show whole at any width.
	mid := len(days) / 2
	p.Labels = []xLabel{
		{X: 0, Anchor: "start", Text: days[0].Date.Format("2 Jan")},
		{X: (float64(mid) + 0.5) * slot, Anchor: "middle", Text: days[mid].Date.Format("2 Jan")},
		{X: 100, Anchor: "end", Text: "today"},
	}
	p.Desc = fmt.Sprintf("%s over the last %d days, from %s to today (UTC).", capital(count(total, one, many)),
		len(days), days[0].Date.Format("2 January"))
	if bestAt >= 0 {
		p.Desc += fmt.Sprintf(" The busiest day was %s with %s.", days[bestAt].Date.Format("2 January"), count(best, one, many))
	}
	return p
}

func maxOf(values []int) int {
	m := 0
	for _, v := range values {
		m = max(m, v)
	}
	return m
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten (at least 5), so
// that the top gridline reads as a round number.
func niceCeil(v int) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if n := m * p; n >= v && n >= 5 {
				return n
			}
		}
	}
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%s %s", thousands(n), many)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

var chartTemplate = template.Must(template.New("chart").Funcs(template.FuncMap{
	"add":       func(a, b int) int { return a + b },
	"thousands": thousands,
	"f":         func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"pct":       func(v float64) string { return fmt.Sprintf("%.2f%%", v) },
}).Parse(`<svg class="chart" width="100%" height="{{.Height}}" role="group" aria-label="Usage over the last 30 days" xmlns="http://www.w3.org/2000/svg">
{{- $c := .}}
{{- range $p := .Panels}}
<g role="img" aria-labelledby="chart-{{.ID}}-title chart-{{.ID}}-desc" transform="translate(0 {{.Y}})">
<title id="chart-{{.ID}}-title">{{.Title}}</title>
<desc id="chart-{{.ID}}-desc">{{.Desc}}</desc>
<text x="0" y="14" class="chart-title" fill="currentColor" font-size="13" font-weight="600">{{.Title}}</text>
<text x="0" y="{{add $c.Top -5}}" font-size="11" fill="currentColor">{{thousands .Max}}</text>
<line x1="0" x2="100%" y1="{{$c.Top}}" y2="{{$c.Top}}" class="chart-grid" stroke="currentColor" stroke-opacity="0.25" stroke-dasharray="3 3"/>
<line x1="0" x2="100%" y1="{{$c.Bottom}}" y2="{{$c.Bottom}}" class="chart-axis" stroke="currentColor" stroke-opacity="0.6"/>
{{- range .Bars}}
<rect x="{{pct .X}}" y="{{f .Y}}" width="{{pct .W}}" height="{{f .H}}" class="chart-bar chart-bar-{{$p.ID}}" fill="currentColor"><title>{{.Tip}}</title></rect>
{{- end}}
{{- range .Labels}}
<text x="{{pct .X}}" y="{{add $c.Bottom 16}}" text-anchor="{{.Anchor}}" font-size="11" fill="currentColor">{{.Text}}</text>
{{- end}}
</g>
{{- end}}
</svg>`))
