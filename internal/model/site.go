package model

import (
	"regexp"
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
