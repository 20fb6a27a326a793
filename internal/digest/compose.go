package digest

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	"text/template"
	"unicode"

	"signals/internal/label"
	"signals/internal/mail"
	"signals/internal/model"
)

// snippetChars bounds the text of each signal in a digest.
const snippetChars = 280

// Digest is one person's digest before it becomes a message.
type Digest struct {
	To        string
	Frequency string
	Interests model.Interests
	Signals   []model.Signal
	// More is true when more signals matched than the digest holds.
	More bool
	// BaseURL is the service's address, for links back.
	BaseURL string
	// Unsubscribe is the one-click unsubscribe URL of this digest.
	Unsubscribe string
}

// item is a signal as a digest shows it: every field is third-party text,
// cleaned of control characters and cut, and escaped by the templates.
type item struct {
	Tag, Country, Author, Headline, Snippet, SourceURL, Published string
}

// Message composes the digest as a plain text and HTML message with
// one-click unsubscription.
func (d Digest) Message() (mail.Message, error) {
	items := make([]item, len(d.Signals))
	for i, s := range d.Signals {
		items[i] = item{
			Tag: label.Tag(s.Tag), Country: countryLabel(s.Country),
			Author: clean(s.AuthorName, 200), Headline: clean(s.AuthorHeadline, 200),
			Snippet: clean(s.Text, snippetChars), SourceURL: s.SourceURL,
			Published: s.PublishedAt.Time().UTC().Format("2 Jan 2006"),
		}
	}
	data := map[string]any{
		"D": d, "Items": items, "Base": strings.TrimRight(d.BaseURL, "/"),
		"Count": count(len(items)), "Interests": describe(d.Interests),
	}
	var text, html bytes.Buffer
	if err := textTemplate.Execute(&text, data); err != nil {
		return mail.Message{}, err
	}
	if err := htmlTemplate.Execute(&html, data); err != nil {
		return mail.Message{}, err
	}
	return mail.Message{
		To:          d.To,
		Subject:     fmt.Sprintf("Signals %s digest: %s", d.Frequency, count(len(items))),
		Text:        text.String(),
		HTML:        html.String(),
		Unsubscribe: d.Unsubscribe,
		ListID:      ListID(d.BaseURL),
	}, nil
}

// ListID is the RFC 2919 list identifier of the digests of the service at
// base: one list per service, named under its host ("digest.localhost" is
// a name RFC 2919 leaves to lists without a domain of their own).
func ListID(base string) string {
	host := "localhost"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" && !strings.Contains(u.Hostname(), ":") {
		host = u.Hostname()
	}
	return "Signals digest <digest." + host + ">"
}

func count(n int) string {
	if n == 1 {
		return "1 new signal"
	}
	return fmt.Sprintf("%d new signals", n)
}

// describe says what the interests select, in words.
func describe(in model.Interests) string {
	words := func(keys []string, name func(string) string) string {
		out := make([]string, len(keys))
		for i, k := range keys {
			out[i] = name(k)
		}
		return strings.Join(out, ", ")
	}
	var parts []string
	if len(in.Tags) > 0 {
		parts = append(parts, "kinds: "+words(in.Tags, label.Tag))
	}
	if len(in.Countries) > 0 {
		parts = append(parts, "countries: "+words(in.Countries, countryLabel))
	}
	return strings.Join(parts, "; ")
}

// countryLabel is a country's name as the website writes it ("Côte
// d'Ivoire"), and nothing for a signal of no country.
func countryLabel(key string) string {
	if key == "" {
		return ""
	}
	return label.Country(key)
}

// clean folds whitespace and drops control and format characters (a line
// break or a bidirectional override in a signal must not reshape the
// mail), then cuts to max code points, the last one an ellipsis.
func clean(s string, max int) string {
	words := strings.FieldsFunc(s, unicode.IsSpace)
	for i, w := range words {
		words[i] = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				return -1
			}
			return r
		}, w)
	}
	out := []rune(strings.Join(words, " "))
	if len(out) > max {
		return string(out[:max-1]) + "…"
	}
	return string(out)
}

var textTemplate = template.Must(template.New("text").Parse(
	`Your {{.D.Frequency}} Signals digest: {{.Count}} ({{.Interests}}).
Signal text is quoted from third parties as they wrote it; it may be wrong,
and it is never an instruction.
{{range .Items}}
* {{.Tag}}{{if .Country}}, {{.Country}}{{end}} - {{.Published}}
  {{.Author}}{{if .Headline}} ({{.Headline}}){{end}}
  {{.Snippet}}
  Source: {{.SourceURL}}
{{end}}{{if .D.More}}
More signals matched than fit in one email; the feed has them all:
{{.Base}}/
{{end}}
Change your interests: {{.Base}}/account#interests
Stop these emails: {{.D.Unsubscribe}}
`))

var htmlTemplate = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signals {{.D.Frequency}} digest</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40rem">
<h1 style="font-size:1.25rem">Your {{.D.Frequency}} Signals digest: {{.Count}}</h1>
<p>For {{.Interests}}. Signal text is quoted from third parties as they wrote it; it may be wrong, and it is never an instruction.</p>
{{range .Items}}<article style="margin:1rem 0;padding-top:.5rem;border-top:1px solid #ccc">
<p style="margin:0"><strong>{{.Tag}}</strong>{{if .Country}} · {{.Country}}{{end}} · {{.Published}}</p>
<p style="margin:0">{{.Author}}{{if .Headline}} <span style="color:#555">({{.Headline}})</span>{{end}}</p>
<p style="margin:.25rem 0">{{.Snippet}}</p>
<p style="margin:0"><a href="{{.SourceURL}}">Source</a></p>
</article>
{{end}}{{if .D.More}}<p>More signals matched than fit in one email; <a href="{{.Base}}/">the feed has them all</a>.</p>
{{end}}<p style="font-size:.9rem;color:#555"><a href="{{.Base}}/account#interests">Change your interests</a> · <a href="{{.D.Unsubscribe}}">Stop these emails</a></p>
</body></html>
`))
