package builtin

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Amounts of money: "funding rounds of more than $50M" and "levées de plus
// de 10 M€" ask for signals whose stated amounts agree. A signal that states
// no amount is not judged on it; one that states amounts agrees when one of
// them does. Amounts in other currencies are compared in US dollars at
// rounded rates (toUSD): near a bound, "more than $50M" and "€46M" may
// agree either way.

// amountAsk is an amount a query asks for: at least Min, at most Max, in
// US dollars (0 and +Inf where open).
type amountAsk struct{ min, max float64 }

// agrees reports whether one of amounts (in US dollars) is within a.
func (a amountAsk) agrees(amounts []float64) bool {
	for _, x := range amounts {
		if x >= a.min && x <= a.max {
			return true
		}
	}
	return false
}

// toUSD are rounded exchange rates, enough to compare the size of rounds.
var toUSD = map[string]float64{
	"$": 1, "us$": 1, "usd": 1, "dollar": 1, "dollars": 1,
	"€": 1.1, "eur": 1.1, "euro": 1.1, "euros": 1.1,
	"£": 1.3, "gbp": 1.3, "pound": 1.3, "pounds": 1.3,
	"chf": 1.1, "c$": 0.73, "ca$": 0.73, "cad": 0.73,
}

// scales are the multipliers written after a number.
var scales = map[string]float64{
	"": 1, "k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6,
	"b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "md": 1e9, "mds": 1e9, "milliard": 1e9, "milliards": 1e9,
}

const (
	number   = `(\d{1,3}(?:[ ,.]\d{3})+|\d+(?:[.,]\d+)?)`
	scale    = `(k|thousand|mm|mn|millions?|milliards?|mds?|billions?|bn|m|b)?`
	currency = `(us\$|c\$|ca\$|\$|€|£|usd|eur|gbp|chf|cad)`
	// A currency after the number, as in "10 M€" or "12 millions d'euros".
	currencyAfter = `(?:d['’]|de\s+)?(us\$|c\$|ca\$|\$|€|£|usd|eur|gbp|chf|cad|dollars?|euros?|pounds?)`
)

var (
	amountBefore = regexp.MustCompile(`(?i)` + currency + `\s?` + number + `\s?` + scale + `\b`)
	amountAfter  = regexp.MustCompile(`(?i)\b` + number + `\s?` + scale + `\s?` + currencyAfter)
	// comparators before an amount in a query: the bound it sets.
	atLeast = regexp.MustCompile(`(?i)(more than|over|above|at least|greater than|larger than|bigger than|exceeding|in excess of|north of|upwards of|plus de|au moins|au[- ]del[aà] de|sup[ée]rieure?s? [aà]|>|≥)\s*$`)
	atMost  = regexp.MustCompile(`(?i)(less than|under|below|at most|up to|smaller than|moins de|jusqu['’][aà]|inf[ée]rieure?s? [aà]|<|≤)\s*$`)
)

// span is an amount found in a text, in US dollars, at text[start:end].
type span struct {
	usd        float64
	start, end int
}

// findAmounts returns the amounts of money text states, in order.
func findAmounts(text string) []span {
	var out []span
	for _, m := range amountBefore.FindAllStringSubmatchIndex(text, -1) {
		if v, ok := amountValue(text[m[4]:m[5]], sub(text, m, 3), text[m[2]:m[3]]); ok {
			out = append(out, span{v, m[0], m[1]})
		}
	}
	for _, m := range amountAfter.FindAllStringSubmatchIndex(text, -1) {
		if overlaps(out, m[0], m[1]) {
			continue
		}
		if v, ok := amountValue(text[m[2]:m[3]], sub(text, m, 2), text[m[6]:m[7]]); ok {
			out = append(out, span{v, m[0], m[1]})
		}
	}
	return out
}

// sub returns submatch i of m in text, "" if it did not match.
func sub(text string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return text[m[2*i]:m[2*i+1]]
}

func overlaps(spans []span, start, end int) bool {
	for _, s := range spans {
		if start < s.end && s.start < end {
			return true
		}
	}
	return false
}

// amountValue is the number num times the scale sc in the currency cur, in
// US dollars.
func amountValue(num, sc, cur string) (float64, bool) {
	rate, ok := toUSD[strings.ToLower(cur)]
	if !ok {
		return 0, false
	}
	mul, ok := scales[strings.ToLower(sc)]
	if !ok {
		return 0, false
	}
	x, ok := parseNumber(num)
	return x * mul * rate, ok
}

// digitGroups is a number written in groups of three digits.
var digitGroups = regexp.MustCompile(`^\d{1,3}(?:[ ,.]\d{3})+$`)

// parseNumber reads "50", "1.5", "1,5" (a decimal comma) and "1,000",
// "1.200.000" or "1 200 000" (groups of three digits).
func parseNumber(s string) (float64, bool) {
	if digitGroups.MatchString(s) {
		s = strings.NewReplacer(" ", "", ",", "", ".", "").Replace(s)
	} else {
		s = strings.Replace(s, ",", ".", 1)
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil && !math.IsInf(x, 0)
}

// readAmount returns the amount query asks for, if any, and query without
// the words that ask it. "More than $50M" is at least 50 million dollars;
// an amount with no comparator ("$50M rounds") is within a factor of two of
// it.
func readAmount(query string) (amountAsk, string, bool) {
	spans := findAmounts(query)
	if len(spans) == 0 {
		return amountAsk{}, query, false
	}
	s := spans[0]
	before := query[:s.start]
	a := amountAsk{s.usd / 2, s.usd * 2}
	if m := atLeast.FindStringIndex(before); m != nil {
		a, before = amountAsk{s.usd, math.Inf(1)}, before[:m[0]]
	} else if m := atMost.FindStringIndex(before); m != nil {
		a, before = amountAsk{0, s.usd}, before[:m[0]]
	}
	return a, strings.Join(strings.Fields(before+" "+query[s.end:]), " "), true
}
