package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
)

// Pages and feeds are forgiving where the JSON API is strict (STYLE 17):
// links to them get shared with utm_*, fbclid, gclid or ref added, so a
// page reads the parameters it uses and ignores any other, and explains a
// bad value of one it uses in words, with a link that clears it.

// Parameters of the pages and feeds, in the order of their addresses
// (model.CanonicalQuery's).
var (
	// feedParams are those of the public feed's page.
	feedParams = append(slices.Clone(model.FilterParams), "page_size", "page")
	// hubParams are those of a hub's page: its filter is fixed.
	hubParams = []string{"page_size", "page"}
)

// usedParams returns the values of the named parameters in a raw query
// string. Every other parameter is ignored, whatever it holds; a name or
// value that is not valid percent-encoding is read as written, so that a
// value a page uses is explained rather than refused.
func usedParams(raw string, names []string) url.Values {
	v := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		key, value, _ := strings.Cut(pair, "=")
		if name := unescape(key); slices.Contains(names, name) {
			v[name] = append(v[name], unescape(value))
		}
	}
	return v
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// blank reports whether a value says nothing: a form's empty field, or
// spaces alone.
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// hasBlank reports whether v holds a blank value.
func hasBlank(v url.Values) bool {
	for _, values := range v {
		if slices.ContainsFunc(values, blank) {
			return true
		}
	}
	return false
}

// withoutBlank drops the blank values of v: an empty field means "any".
func withoutBlank(v url.Values) url.Values {
	out := url.Values{}
	for name, values := range v {
		for _, x := range values {
			if !blank(x) {
				out[name] = append(out[name], x)
			}
		}
	}
	return out
}

// encodeIn writes v as a query string with its parameters in order, every
// value kept (commas, which separate values, unescaped).
func encodeIn(v url.Values, order []string) string {
	var parts []string
	for _, name := range order {
		for _, x := range v[name] {
			parts = append(parts, name+"="+strings.ReplaceAll(url.QueryEscape(x), "%2C", ","))
		}
	}
	return strings.Join(parts, "&")
}

// withQuery joins a path and a query string.
func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// badValue explains a bad value of a parameter that a page or feed uses,
// in the words of its filter form: never a code, never an API field name.
type badValue struct {
	// Param is the parameter, so that the form can put the explanation
	// next to its field.
	Param string
	// Given says what is wrong with the value given, quoting it.
	Given string
	// Rule says what is allowed, in words.
	Rule string
	// Choices spell out an enumeration for a reader without the form (a
	// Markdown reader, a feed reader); Rule then points at the list.
	Choices []option
	// Clear is the same address without the bad value: the path and
	// query, with only the page's parameters. ClearText names what
	// following it does.
	Clear, ClearText string
}

// badTitle heads a page that explains bad.
func badTitle(bad []*badValue) string {
	for _, b := range bad {
		if b.Param != "page" && b.Param != "page_size" {
			return "Filter not valid"
		}
	}
	return "Page not valid"
}

// badText writes the explanations for a reader without the filter form:
// the choices spelled out, and the clearing links absolute from base.
func badText(bad []*badValue, base string) string {
	var s strings.Builder
	for i, b := range bad {
		if i > 0 {
			s.WriteString("\n")
		}
		rule := b.Rule
		if len(b.Choices) > 0 {
			names := make([]string, len(b.Choices))
			for i, c := range b.Choices {
				names[i] = c.Label + " (" + c.Value + ")"
			}
			rule = "Choose from: " + strings.Join(names, ", ") + "."
		}
		fmt.Fprintf(&s, "%s %s\n%s: %s%s\n", b.Given, rule, b.ClearText, base, b.Clear)
	}
	return s.String()
}

// badMarkdown writes the explanations as a Markdown document; each value
// given is escaped, since it comes from whoever wrote the link.
func badMarkdown(bad []*badValue, base string) []byte {
	var s strings.Builder
	fmt.Fprintf(&s, "# %s\n", badTitle(bad))
	for _, b := range bad {
		fmt.Fprintf(&s, "\n%s %s\n", mdText(b.Given), b.Rule)
		if len(b.Choices) > 0 {
			s.WriteString("\nChoices:")
			for i, c := range b.Choices {
				if i > 0 {
					s.WriteString(",")
				}
				fmt.Fprintf(&s, " %s (`%s`)", c.Label, c.Value)
			}
			s.WriteString(".\n")
		}
		fmt.Fprintf(&s, "\n%s: <%s>\n", b.ClearText, model.SafeURL(base+b.Clear))
	}
	return []byte(s.String())
}

// explainAll explains every bad value of v, the used parameters of the
// page at path, in order: parse's failure err is explained, its parameter
// set aside and v parsed again, until it parses. Each clearing link drops
// only its own value.
func explainAll(err error, parse func(url.Values) error, path string, v url.Values, order, countries []string) []*badValue {
	var bad []*badValue
	rest := v
	for range order {
		f, ok := failure.As(err)
		if !ok || len(rest[f.Param]) == 0 {
			break
		}
		bad = append(bad, explain(f, path, v, order, countries))
		rest = without(rest, f.Param)
		if err = parse(rest); err == nil {
			break
		}
	}
	return bad
}

// without is v less one parameter.
func without(v url.Values, name string) url.Values {
	out := url.Values{}
	for n, values := range v {
		if n != name {
			out[n] = values
		}
	}
	return out
}

// explain turns the failure of a page's parameter into words, for the page
// at path whose used parameters were v (in order). countries are those of
// the public signals, offered when a country is not one we list.
func explain(f *failure.Error, path string, v url.Values, order []string, countries []string) *badValue {
	given := v[f.Param]
	b := &badValue{Param: f.Param, ClearText: "Show the feed without it"}
	rest := without(v, f.Param)
	switch f.Param {
	case "tags", "sources":
		explainList(b, given, rest)
	case "language", "country":
		explainChoice(b, given, countries)
	case "q":
		explainWords(b, given)
	case "observed_after":
		b.Given = quote(strings.Join(given, ", ")) + " is not a time we can read."
		b.Rule = "Collected after takes one date and time with its time zone, such as 2026-10-01T12:00:00Z."
	case "page":
		explainPage(b, f, given, v)
	case "page_size":
		b.ClearText = fmt.Sprintf("Show %d signals a page", model.DefaultPageSize)
		b.Given = quote(strings.Join(given, ", ")) + " is not a page size."
		b.Rule = fmt.Sprintf("Page size must be a whole number from 1 to %d.", model.MaxPageSize)
	default:
		// A parameter the page uses without a message of its own: say what
		// it accepts as the failure does, without its code.
		b.Given = quote(strings.Join(given, ", ")) + " is not a value this page can use."
		b.Rule = ""
	}
	b.Clear = withQuery(path, encodeIn(rest, order))
	return b
}

// explainList explains a list of kinds or sources (b.Param) given, some
// of which we do not list; clearing it keeps in rest those we do.
func explainList(b *badValue, given []string, rest url.Values) {
	allowed, name, one, many, field := model.Tags, label.Tag, "a kind of signal", "kinds of signal", "kinds"
	if b.Param == "sources" {
		allowed, name, one, many, field = model.Sources, label.Source, "a source", "sources", "sources"
	}
	var bad, good []string
	for _, x := range model.SplitList(given) {
		if slices.Contains(allowed, x) {
			good = append(good, x)
		} else {
			bad = append(bad, x)
		}
	}
	if len(good) > 0 {
		rest[b.Param] = []string{strings.Join(good, ",")}
		b.ClearText = "Show the feed without " + quoteAll(bad)
	}
	if len(bad) == 1 {
		b.Given = quote(bad[0]) + " is not " + one + " we list."
	} else {
		b.Given = quoteAll(bad) + " are not " + many + " we list."
	}
	b.Rule = "Choose " + field + " from the list."
	b.Choices = choices(allowed, name)
}

// explainChoice explains a language or a country (b.Param) given that we
// do not list, or given more than once; countries are those offered.
func explainChoice(b *badValue, given, countries []string) {
	noun, field := "a language", "language"
	b.Choices = choices(model.Languages, label.Language)
	if b.Param == "country" {
		noun, field = "a country", "country"
		b.Choices = choices(countries, label.Country)
	}
	if values := model.SplitList(given); len(values) > 1 {
		b.Given = strings.ToUpper(field[:1]) + field[1:] + " takes one choice, and this address gives " +
			strconv.Itoa(len(values)) + ": " + quoteAll(values) + "."
	} else {
		b.Given = quote(strings.Join(given, "")) + " is not " + noun + " we list."
	}
	b.Rule = "Choose " + noun + " from the list."
}

// explainWords explains words (q) given more than once, too long, or not
// text.
func explainWords(b *badValue, given []string) {
	b.ClearText = "Show the feed without these words"
	switch n := model.Chars(strings.Join(given, "")); {
	case len(given) > 1:
		b.Given = "Words are given " + strconv.Itoa(len(given)) + " times in this address."
		b.Rule = "Give them once."
	case n > model.MaxQChars:
		b.Given = fmt.Sprintf("These words are %d characters long.", n)
		b.Rule = fmt.Sprintf("Words can be at most %d characters.", model.MaxQChars)
	default:
		b.Given = quote(strings.Join(given, "")) + " holds characters that are not text."
		b.Rule = "Words must be plain text."
	}
}

// explainPage explains a page number that is not one, or one deeper than
// a search for words reaches (f.Maximum) at the page size v gives.
func explainPage(b *badValue, f *failure.Error, given []string, v url.Values) {
	b.ClearText = "Go to the first page"
	page, err := strconv.Atoi(strings.TrimSpace(strings.Join(given, "")))
	if f.Maximum != nil && *f.Maximum < model.MaxPage && err == nil && page > int(*f.Maximum) {
		size := model.DefaultPageSize
		if s, err := strconv.Atoi(strings.TrimSpace(v.Get("page_size"))); err == nil {
			size = s
		}
		b.Given = fmt.Sprintf("Page %d is deeper than a search for words reaches: %d results at most, "+
			"so at %d signals a page the last page is %d.", page, model.MaxQDepth, size, *f.Maximum)
		b.Rule = "Narrow the filters to reach older signals."
	} else {
		b.Given = quote(strings.Join(given, ", ")) + " is not a page number."
		b.Rule = fmt.Sprintf("Page must be a whole number from 1 to %d.", model.MaxPage)
	}
}

// choices are the options of an enumeration, for a reader without the form.
func choices(values []string, name func(string) string) []option {
	out := make([]option, len(values))
	for i, x := range values {
		out[i] = option{Value: x, Label: name(x)}
	}
	return out
}

// maxQuoted is the longest value an explanation quotes whole.
const maxQuoted = 60

// quote quotes a value someone gave, cut to maxQuoted characters, with the
// characters a page cannot hold dropped.
func quote(s string) string {
	s = layout.Text(s)
	if r := []rune(s); len(r) > maxQuoted {
		s = string(r[:maxQuoted]) + "…"
	}
	return "“" + s + "”"
}

// quoteAll quotes each value: "“a”", "“a” and “b”", "“a”, “b” and “c”".
func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, x := range values {
		q[i] = quote(x)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
