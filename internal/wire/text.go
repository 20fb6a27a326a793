package wire

import (
	"bytes"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// InvalidText finds the member of the JSON object data whose name or value
// holds text that is not Unicode: bytes that are not UTF-8, or an escaped
// surrogate ("\ud800") without its pair. JSON decoders put U+FFFD in their
// place without a word, so they are looked for in the raw text. It returns
// the first such member in sorted order; ok is false when there is none or
// data is not an object (decoding it says what is wrong).
func InvalidText(data []byte) (name string, ok bool) {
	if utf8.Valid(data) && !hasSurrogateEscape(data) {
		return "", false // every valid line takes only this path
	}
	var members map[string]jsontext.Value
	if err := json.Unmarshal(data, &members, jsontext.AllowInvalidUTF8(true)); err != nil {
		return "", false
	}
	for _, name := range slices.Sorted(maps.Keys(members)) {
		if !utf8.ValidString(name) || !members[name].IsValid() {
			return name, true
		}
	}
	return "", false
}

// hasSurrogateEscape reports whether data may hold an escaped UTF-16
// surrogate (\uD800 to \uDFFF).
func hasSurrogateEscape(data []byte) bool {
	for {
		i := bytes.Index(data, []byte(`\u`))
		if i < 0 || i+3 > len(data)-1 {
			return false
		}
		if (data[i+2] == 'd' || data[i+2] == 'D') && bytes.IndexByte([]byte("89abcdefABCDEF"), data[i+3]) >= 0 {
			return true
		}
		data = data[i+2:]
	}
}
