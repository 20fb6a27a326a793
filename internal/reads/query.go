package reads

import (
	"net/http"
	"net/url"
	"strings"

	"signals/internal/failure"
)

// ParseQuery parses a query string as url.ParseQuery does, but refuses what
// url.ParseQuery would drop in silence: a pair holding a semicolon and bad
// percent-encoding. The failure names the parameter at fault, so that a
// filter is never ignored without a word.
func ParseQuery(raw string) (url.Values, error) {
	v := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		name, kerr := url.QueryUnescape(key)
		if kerr != nil {
			name = key
		}
		if strings.Contains(pair, ";") {
			return nil, failure.Malformed(name, "holds a semicolon; separate parameters with & and percent-encode a semicolon in a value as %3B")
		}
		if kerr != nil {
			return nil, failure.Malformed(name, "is not a valid percent-encoded parameter name")
		}
		value, err := url.QueryUnescape(value)
		if err != nil {
			return nil, failure.Malformed(name, "has a value that is not valid percent-encoding: write % as %25")
		}
		v[name] = append(v[name], value)
	}
	return v, nil
}

// Query is ParseQuery of r's query string.
func Query(r *http.Request) (url.Values, error) { return ParseQuery(r.URL.RawQuery) }
