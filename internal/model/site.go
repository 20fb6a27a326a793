package model

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Hub is a registered feed hub: a public page and feeds of the signals that
// one fixed filter selects.
type Hub struct {
	Slug        string
	Title       string
	Description string
	// Filter is the canonical query string of the filter (CanonicalQuery).
	Filter string
}

// Article is a page of the website written in Markdown.
type Article struct {
	Slug        string
	Title       string
	Summary     string
	PublishedAt time.Time
	// Body is the Markdown source, front matter removed.
	Body string
}

// Slugs of the pages an article can replace; such articles are not listed
// among the others.
const (
	AboutSlug   = "about"
	ContactSlug = "contact"
)

// IsPageSlug reports whether slug names the About or Contact page.
func IsPageSlug(slug string) bool { return slug == AboutSlug || slug == ContactSlug }

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// MaxSlugChars bounds a hub's or an article's slug.
const MaxSlugChars = 80

// ValidSlug reports whether s can name a hub or an article in a path:
// lower-case letters, digits and single hyphens.
func ValidSlug(s string) bool { return len(s) <= MaxSlugChars && slugPattern.MatchString(s) }

// FilterParams are the parameters of a feed or a hub filter: a listing's,
// without paging.
var FilterParams = []string{"tags", "sources", "language", "country", "q", "observed_after"}

// CanonicalQuery writes the filter of q as a query string in a fixed order
// (tags and sources comma-separated), adding page and page_size when they
// differ from their defaults. Equal filters give equal strings.
func CanonicalQuery(q ListQuery) string {
	v := FilterValues(q.Filter, q.Q)
	s := encodeOrdered(v, FilterParams)
	add := func(name string, n, def int) {
		if n != def && n != 0 {
			if s != "" {
				s += "&"
			}
			s += name + "=" + strconv.Itoa(n)
		}
	}
	add("page_size", q.PageSize, DefaultPageSize)
	add("page", q.Page, 1)
	return s
}

// FilterValues returns the parameters that express f and q.
func FilterValues(f Filter, q string) url.Values {
	v := url.Values{}
	if len(f.Tags) > 0 {
		v.Set("tags", strings.Join(f.Tags, ","))
	}
	if len(f.Sources) > 0 {
		v.Set("sources", strings.Join(f.Sources, ","))
	}
	if len(f.Languages) > 0 {
		v.Set("language", f.Languages[0])
	}
	if len(f.Countries) > 0 {
		v.Set("country", f.Countries[0])
	}
	if q != "" {
		v.Set("q", q)
	}
	if f.ObservedAfter != nil {
		v.Set("observed_after", f.ObservedAfter.String())
	}
	return v
}

func encodeOrdered(v url.Values, order []string) string {
	var parts []string
	for _, name := range order {
		if x := v.Get(name); x != "" {
			// Commas separate values; they need no escaping.
			parts = append(parts, name+"="+strings.ReplaceAll(url.QueryEscape(x), "%2C", ","))
		}
	}
	return strings.Join(parts, "&")
}

// SafeURL returns a source link that is an absolute http(s) URL with every
// byte that could end a Markdown link or an HTML attribute percent-encoded,
// or "" when the stored value is not one (imports refuse those).
func SafeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	s := u.String()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`<>()[]"'\`+"`", c) >= 0 {
			b.WriteString("%")
			b.WriteString(strings.ToUpper(string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
