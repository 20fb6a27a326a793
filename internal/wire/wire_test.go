package wire_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/wire"
)

var colour = wire.Enum{Name: "Colour", Doc: "A colour.", Values: []string{"red", "green"}}

type meta struct {
	ID        string      `json:"id"`
	Seen      *model.Time `json:"seen"`
	Size      int         `json:"size"`
	SizeAlias int         `json:"sizeAlias"`
}

type item struct {
	meta
	Colour *string `json:"colour"`
	Note   string  `json:"note"`
}

type page struct {
	Items []item `json:"items"`
	Next  *int   `json:"next"`
}

type request struct {
	Name    string   `json:"name"`
	Colours []string `json:"colours,omitempty"`
	Count   *int     `json:"count,omitempty"`
	When    *string  `json:"when,omitempty"`
}

func init() {
	wire.Describe[meta]("", wire.Fields{
		"id":        {Doc: "The id.", Length: wire.Between(1, 10)},
		"seen":      {Doc: "When it was seen."},
		"size":      {Doc: "Its size.", Range: wire.AtLeast(0)},
		"sizeAlias": {AliasOf: "size"},
	})
	wire.Describe[item]("An item.", wire.Fields{
		"colour": {Doc: "Its colour, or null.", Enum: &colour},
		"note":   {Doc: "A note."},
	})
	wire.Describe[page]("A page.", wire.Fields{
		"items": {Doc: "The items.", MaxItems: 5},
		"next":  {Doc: "The next page, or null.", Range: wire.AtLeast(2)},
	})
	wire.Describe[request]("A request.", wire.Fields{
		"name":    {Doc: "A name.", Length: wire.Between(1, 20), Unit: "bytes", Rule: "must be a short name"},
		"colours": {Doc: "Colours.", Enum: &colour},
		"count":   {Doc: "How many.", Range: wire.Between(1, 9), Default: 3},
		"when":    {Doc: "When.", Format: "date-time", Rule: "must be a timestamp"},
	})
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSchemaInPlace(t *testing.T) {
	got := marshal(t, wire.Schema[page]())
	want := `{"type":"object","properties":{` +
		`"items":{"type":"array","items":{"type":"object","properties":{` +
		`"id":{"type":"string","description":"The id.","minLength":1,"maxLength":10},` +
		`"seen":{"description":"When it was seen.","anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},` +
		`"size":{"type":"integer","description":"Its size.","minimum":0},` +
		`"sizeAlias":{"type":"integer","description":"Deprecated alias of ` + "`size`" + `, with the identical value.","deprecated":true,"minimum":0},` +
		`"colour":{"description":"Its colour, or null.","anyOf":[{"type":"string","enum":["red","green"]},{"type":"null"}]},` +
		`"note":{"type":"string","description":"A note."}},` +
		`"required":["id","seen","size","sizeAlias","colour","note"],"additionalProperties":false,"description":"An item."},` +
		`"description":"The items.","maxItems":5},` +
		`"next":{"description":"The next page, or null.","anyOf":[{"type":"integer","minimum":2},{"type":"null"}]}},` +
		`"required":["items","next"],"additionalProperties":false}`
	if normal(t, got) != normal(t, want) {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
}

// A filter takes lists that a single value may stand for, of a short and of
// a long enumeration.
type filter struct {
	Colours wire.List `json:"colours,omitempty"`
	Codes   wire.List `json:"codes,omitempty"`
}

var code = wire.Enum{Name: "Code", Values: strings.Fields("aa ab ac ad ae af ag ah ai aj ak al am"),
	Noun: "codes such as aa", Pattern: "^[a-z]{2}$", Resource: "test://codes"}

func init() {
	wire.Describe[filter]("A filter.", wire.Fields{
		"colours": {Doc: "Colours.", Enum: &colour},
		"codes":   {Doc: "Codes.", Enum: &code},
	})
}

func TestListSchema(t *testing.T) {
	got := marshal(t, wire.Schema[filter]())
	want := `{"type":"object","properties":{` +
		`"colours":{"description":"Colours.","anyOf":[{"type":"string","enum":["red","green"]},{"type":"array","items":{"type":"string","enum":["red","green"]}}]},` +
		`"codes":{"description":"Codes. Listed at test://codes.","anyOf":[{"type":"string","pattern":"^[a-z]{2}$"},{"type":"array","items":{"type":"string","pattern":"^[a-z]{2}$"}}]}},` +
		`"additionalProperties":false}`
	if normal(t, got) != normal(t, want) {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	cs := wire.NewComponents("#/c/")
	props := marshal(t, cs.Properties(reflect.TypeFor[filter]())[1].Schema)
	if want := `{"description":"Codes.","anyOf":[{"$ref":"#/c/Code"},{"type":"array","items":{"$ref":"#/c/Code"}}]}`; normal(t, props) != normal(t, want) {
		t.Errorf("component property\n got %s\nwant %s", props, want)
	}
}

func TestOutputSchemaIsBrief(t *testing.T) {
	got := marshal(t, wire.OutputSchema[page]())
	want := `{"type":"object","properties":{` +
		`"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"seen":{"anyOf":[{"type":"string"},{"type":"null"}]},` +
		`"size":{"type":"integer"},"colour":{"anyOf":[{"type":"string"},{"type":"null"}]},"note":{"type":"string"}}}},` +
		`"next":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["items","next"]}`
	if normal(t, got) != normal(t, want) {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
}

func TestDecodeList(t *testing.T) {
	for _, tc := range []struct{ body, want, err string }{
		{body: `{"colours":"red"}`, want: `{"colours":["red"]}`},
		{body: `{"colours":["red","green"],"codes":"zz"}`, want: `{"colours":["red","green"],"codes":["zz"]}`},
		{body: `{"colours":[]}`, want: `{}`},
		{body: `{"colours":5}`, err: "colours must be one of: red, green (or an array of them)"},
		{body: `{"codes":{"aa":1}}`, err: "codes must be one of the codes such as aa (or an array of them)"},
		{body: `{"colours":["red",1]}`, err: "colours must be one of: red, green (or an array of them)"},
	} {
		var got filter
		err := wire.Decode([]byte(tc.body), &got)
		if tc.err != "" {
			if p, ok := failure.As(err); !ok || p.Detail != tc.err {
				t.Errorf("%s: %v, want %q", tc.body, err, tc.err)
			}
			continue
		}
		if err != nil || marshal(t, got) != tc.want {
			t.Errorf("%s: decoded %s (%v), want %s", tc.body, marshal(t, got), err, tc.want)
		}
	}
}

func TestComponents(t *testing.T) {
	cs := wire.NewComponents("#/c/")
	cs.Ref(reflect.TypeFor[page]())
	cs.Ref(reflect.TypeFor[request]())
	c := cs.Schemas()
	if got := strings.Join(slices.Sorted(maps.Keys(c)), ","); got != "Colour,item,page,request" {
		t.Fatalf("components %s", got)
	}
	for name, want := range map[string]string{
		"Colour": `{"type":"string","description":"A colour.","enum":["red","green"]}`,
		"page": `{"type":"object","description":"A page.","properties":{"items":{"type":"array","description":"The items.","maxItems":5,"items":{"$ref":"#/c/item"}},` +
			`"next":{"type":["null","integer"],"description":"The next page, or null.","minimum":2}},"required":["items","next"],"additionalProperties":false}`,
		"request": `{"type":"object","description":"A request.","properties":{` +
			`"name":{"type":"string","description":"A name.","minLength":1,"maxLength":20},` +
			`"colours":{"type":"array","description":"Colours.","items":{"$ref":"#/c/Colour"}},` +
			`"count":{"type":"integer","description":"How many.","minimum":1,"maximum":9,"default":3},` +
			`"when":{"type":"string","description":"When.","format":"date-time"}},"required":["name"],"additionalProperties":false}`,
	} {
		if got := marshal(t, c[name]); normal(t, got) != normal(t, want) {
			t.Errorf("%s\n got %s\nwant %s", name, got, want)
		}
	}
	props := marshal(t, c["item"].Properties)
	for _, want := range []string{
		`"colour":{"description":"Its colour, or null.","anyOf":[{"$ref":"#/c/Colour"},{"type":"null"}]}`,
		`"sizeAlias":{"type":"integer","description":"Deprecated alias of ` + "`size`" + `, with the identical value.","deprecated":true,"minimum":0,"x-deprecated-reason":"Use ` + "`size`" + `; the camelCase aliases are kept during a migration.","x-go-name":"SizeAlias"}`,
	} {
		if !strings.Contains(props, want) {
			t.Errorf("item properties %s\nlack %s", props, want)
		}
	}
}

func TestDescribeRefusesUndocumentedFields(t *testing.T) {
	type two struct {
		A string `json:"a"`
		B string `json:"b"`
	}
	for name, fields := range map[string]wire.Fields{
		"missing": {"a": {Doc: "A."}},
		"extra":   {"a": {Doc: "A."}, "b": {Doc: "B."}, "c": {Doc: "C."}},
		"alias":   {"a": {Doc: "A."}, "b": {AliasOf: "z"}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			wire.Describe[two]("", fields)
		})
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       failure.Code
		param      string
		detail     string
		want       request
	}{
		{name: "minimal", body: `{"name":"x"}`, want: request{Name: "x"}},
		{name: "whole numbers", body: `{"name":"x","count":5.0}`, want: request{Name: "x", Count: ptr(5)}},
		{name: "exponent", body: `{"name":"x","count":0.5e1}`, want: request{Name: "x", Count: ptr(5)}},
		{name: "invalid UTF-8", body: "{\"name\":\"a\xffb\"}", code: failure.CodeInvalidParameter, param: "name",
			detail: "name must be valid Unicode text in UTF-8: it holds bytes that are not UTF-8 or an unpaired surrogate escape"},
		{name: "lone surrogate", body: `{"name":"a\ud800"}`, code: failure.CodeInvalidParameter, param: "name"},
		{name: "lone low surrogate in an array", body: `{"name":"x","colours":["red","\uDC00"]}`, code: failure.CodeInvalidParameter, param: "colours"},
		{name: "surrogate pair", body: `{"name":"\ud83d\ude00"}`, want: request{Name: "\U0001F600"}},
		{name: "escaped backslash before u", body: `{"name":"\\ud800"}`, want: request{Name: `\ud800`}},
		{name: "fraction", body: `{"name":"x","count":5.5}`, code: failure.CodeInvalidParameter, param: "count", detail: "count must be an integer from 1 to 9"},
		{name: "huge", body: `{"name":"x","count":1e400}`, code: failure.CodeInvalidParameter, param: "count"},
		{name: "number as string", body: `{"name":"x","count":"5"}`, code: failure.CodeInvalidParameter, param: "count"},
		{name: "missing", body: `{"count":1}`, code: failure.CodeMissingParameter, param: "name"},
		{name: "null", body: `{"name":"x","when":null}`, code: failure.CodeInvalidParameter, param: "when", detail: "when must be a timestamp"},
		{name: "wrong type with a rule", body: `{"name":7}`, code: failure.CodeInvalidParameter, param: "name", detail: "name must be a short name"},
		{name: "array of wrong items", body: `{"name":"x","colours":["red",1]}`, code: failure.CodeInvalidParameter, param: "colours", detail: "colours must be an array of: red, green"},
		{name: "other case", body: `{"NAME":"x"}`, code: failure.CodeUnknownParameter, param: "NAME"},
		{name: "unknown names sorted", body: `{"name":"x","zz":1,"b":2,"m":3}`, code: failure.CodeUnknownParameter, param: "b"},
		{name: "duplicate", body: `{"name":"x","name":"y"}`, code: failure.CodeInvalidJSON, detail: `the member "name" is given twice; give each member once`},
		{name: "array", body: `[]`, code: failure.CodeInvalidJSON, detail: "expected one JSON object, got an array"},
		{name: "null body", body: `null`, code: failure.CodeInvalidJSON},
		{name: "two objects", body: `{"name":"x"}{}`, code: failure.CodeInvalidJSON},
		{name: "empty", body: ``, code: failure.CodeInvalidJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got request
			err := wire.Decode([]byte(tc.body), &got)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if marshal(t, got) != marshal(t, tc.want) {
					t.Errorf("decoded %s, want %s", marshal(t, got), marshal(t, tc.want))
				}
				return
			}
			p, ok := failure.As(err)
			if !ok {
				t.Fatalf("error %v is not a failure", err)
			}
			if problem.Status(p.Code) != 400 || p.Code != tc.code || p.Param != tc.param || tc.detail != "" && p.Detail != tc.detail {
				t.Errorf("problem %d %s %q %q, want %s %q %q", problem.Status(p.Code), p.Code, p.Param, p.Detail, tc.code, tc.param, tc.detail)
			}
		})
	}
}

func TestInvalidIsWhatDecodeSays(t *testing.T) {
	var r request
	err := wire.Decode([]byte(`{"name":["x"]}`), &r)
	if want := wire.Invalid[request]("name"); marshal(t, err) != marshal(t, want) {
		t.Errorf("Decode said %s, Invalid says %s", marshal(t, err), marshal(t, want))
	}
}

func ptr(n int) *int { return &n }

// normal returns JSON text with object keys sorted.
func normal(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return marshal(t, v)
}

func BenchmarkDecode(b *testing.B) {
	body := []byte(`{"name":"seed round for a robotics startup","colours":["red","green"],"count":5,"when":"2026-01-01T00:00:00Z"}`)
	b.ReportAllocs()
	for b.Loop() {
		var r request
		if err := wire.Decode(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}
