package session

import (
	"net/url"
	"strings"
)

// maxNext bounds the length of a return path.
const maxNext = 2048

// LocalPath returns next if it is a path on this site (with its query), and
// "" otherwise: absolute URLs, scheme-relative ones ("//evil.example/"),
// backslashes that browsers read as slashes, and control characters are
// all refused, so that a sign-in link can never send anyone elsewhere.
func LocalPath(next string) string {
	if next == "" || len(next) > maxNext || next[0] != '/' {
		return ""
	}
	if strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\x00") {
		return ""
	}
	for _, c := range next {
		if c < 0x20 || c == 0x7f {
			return ""
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return ""
	}
	// A path that cleans to a scheme-relative one ("/./" + "/evil") would
	// still be read as a host by some clients.
	if strings.HasPrefix(u.EscapedPath(), "//") {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.RequestURI()
}
