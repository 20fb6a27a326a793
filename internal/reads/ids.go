package reads

import (
	"net/url"
	"strings"

	"signals/internal/model"
)

// PagesPath is where the website gives each public signal its page, under
// its URL-encoded id; MarkdownSuffix after the page's path is the address
// of its Markdown.
const (
	PagesPath      = "/signals/"
	MarkdownSuffix = ".md"
)

// PagePath is the path of the page of the signal id.
func PagePath(id string) string { return PagesPath + url.PathEscape(id) }

// MaxIDRefChars bounds what get_signal and GET /api/v1/signals/{id} take
// for an id: an id, or the page address of one, which is longer.
const MaxIDRefChars = 2048

// IDsOf returns the ids that ref, as given to get_signal or to
// GET /api/v1/signals/{id}, may stand for, most literal first; a read
// takes the first that names a public signal. Ids are opaque (they may
// hold spaces, slashes and ":"), so ref itself always comes first. Then
// come the forms people copy instead of the id:
//
//   - the id with stray spaces around it;
//   - the signal's page address on this service (base is its public base
//     URL), whole or as a path: {base}/signals/{id} with any query or
//     fragment;
//   - the page's Markdown address, {base}/signals/{id}.md.
func IDsOf(ref, base string) []string {
	var ids []string
	add := func(id string) {
		for _, seen := range ids {
			if seen == id {
				return
			}
		}
		if model.PlausibleID(id) {
			ids = append(ids, id)
		}
	}
	add(ref)
	trimmed := strings.TrimSpace(ref)
	add(trimmed)
	if id, ok := pageID(trimmed, base); ok {
		add(id)
		if md, ok := strings.CutSuffix(id, MarkdownSuffix); ok {
			add(md)
		}
	}
	return ids
}

// pageID returns the id in ref when ref is the address of a signal's page
// on the service at base: absolute on base's host, or a path from its
// root.
func pageID(ref, base string) (string, bool) {
	if len(ref) > MaxIDRefChars || !strings.Contains(ref, PagesPath) {
		return "", false
	}
	u, err := url.Parse(ref)
	if err != nil || u.User != nil || u.Opaque != "" {
		return "", false
	}
	prefix := PagesPath
	if u.Host != "" || u.Scheme != "" {
		b, err := url.Parse(base)
		if err != nil || !strings.EqualFold(u.Host, b.Host) || (u.Scheme != "http" && u.Scheme != "https") {
			return "", false
		}
		// A service behind a path (https://example.org/signals-app) has
		// its pages under that path.
		prefix = strings.TrimSuffix(b.EscapedPath(), "/") + PagesPath
	}
	escaped, ok := strings.CutPrefix(u.EscapedPath(), prefix)
	if !ok || escaped == "" {
		return "", false
	}
	id, err := url.PathUnescape(escaped)
	return id, err == nil
}
