package failure

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxSuggested is how many close values a refusal names at most.
const MaxSuggested = 5

// maxTyped is the longest value, in code points, that is compared with
// each allowed value for typing mistakes; no key is nearly that long.
const maxTyped = 64

// maxQuoted is how much of a refused value a detail quotes, in code points:
// enough to recognise it, never enough to make the refusal long.
const maxQuoted = 40

// NotAllowed reports value, given for param, as outside the allowed values.
// The detail quotes the value and asks whether one of the closest allowed
// values was meant (Suggest); aliases map other common names of a value
// (usa, uk) to it.
func NotAllowed(param, value, message string, allowed []string, aliases map[string]string) *Error {
	e := Invalid(param, message, allowed)
	e.SuggestedValues = Suggest(value, allowed, aliases)
	e.Detail += ", got " + quote(value)
	if len(e.SuggestedValues) > 0 {
		e.Detail += "; did you mean " + orList(e.SuggestedValues) + "?"
	}
	return e
}

// Suggest returns up to MaxSuggested values of allowed that value may have
// meant, closest first: the value written as a key (case, spaces and
// hyphens aside), an alias of it, an allowed value that it starts (united
// for united_states) or that starts it (english for en), one that contains
// it (korea for south_korea), then values within a few typing mistakes of
// it (frnace for france).
func Suggest(value string, allowed []string, aliases map[string]string) []string {
	key := strings.Join(strings.FieldsFunc(strings.ToLower(value), func(r rune) bool {
		return r == ' ' || r == '-' || r == '_' || r == '.' || r == '\''
	}), "_")
	if key == "" {
		return nil
	}
	type scored struct {
		value string
		rank  int
		order int
	}
	var found []scored
	typos := utf8.RuneCountInString(key) <= maxTyped
	for i, a := range allowed {
		rank := -1
		switch {
		case a == key:
			rank = 0
		case aliases[key] == a:
			rank = 1
		case strings.HasPrefix(a, key), strings.HasPrefix(key, a):
			rank = 2
		case strings.Contains(a, key) && utf8.RuneCountInString(key) >= 3:
			rank = 3
		case typos:
			if d := distance(key, a); d <= max(1, utf8.RuneCountInString(a)/3) {
				rank = 3 + d
			}
		}
		if rank >= 0 {
			found = append(found, scored{a, rank, i})
		}
	}
	slices.SortStableFunc(found, func(x, y scored) int { return x.rank - y.rank })
	out := make([]string, 0, min(len(found), MaxSuggested))
	for _, f := range found[:min(len(found), MaxSuggested)] {
		out = append(out, f.value)
	}
	return out
}

// distance is the Levenshtein distance between a and b, in code points.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// quote quotes a refused value, cut to maxQuoted code points.
func quote(v string) string {
	if utf8.RuneCountInString(v) > maxQuoted {
		v = string([]rune(v)[:maxQuoted]) + "…"
	}
	return strconv.Quote(v)
}

// orList writes values as "a", "a or b", "a, b or c".
func orList(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
