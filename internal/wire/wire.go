// Package wire describes the service's JSON wire formats once, from their Go
// types. Each request and response type documents its fields in one table
// next to it (Describe); the JSON Schemas of the OpenAPI document and of
// the MCP tools are generated from the types and those tables (Schema,
// Components), and request objects are decoded strictly with problems that
// say what each field accepts (Decode).
package wire

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Field documents one JSON property: what it means and what it accepts.
type Field struct {
	// Doc is the property's description.
	Doc string
	// Enum lists the values of a string, or of the items of an array.
	Enum *Enum
	// Range bounds a number, both ends included.
	Range *Range
	// Length bounds a string, counted in Unit (JSON Schema counts code
	// points, which never exceed UTF-16 code units).
	Length *Range
	// Unit names what Length counts in problems; "characters" if empty.
	Unit string
	// Rule says what the property accepts, for problems about it, where the
	// enumeration, range or length alone would not say it well.
	Rule string
	// MaxItems caps an array.
	MaxItems int
	// Format and Pattern constrain a string (Format "date-time", "uri").
	Format  string
	Pattern string
	// Default is the value an absent optional property stands for.
	Default any
	// AliasOf marks a deprecated camelCase alias carrying the same value as
	// the named property: its schema is that property's, marked deprecated.
	AliasOf string
}

// Fields documents the JSON properties of one type, by JSON name.
type Fields map[string]Field

// Enum is an enumeration of strings. A named one is a component of its
// own in the OpenAPI document; MCP schemas write a short one in place and
// a long one (Long) as its Pattern, pointing to its Resource.
type Enum struct {
	Name   string
	Doc    string
	Values []string
	// Noun describes the values in problems when the list is too long to
	// print, e.g. "country keys such as canada or united_states".
	Noun string
	// Pattern matches every value; a long enumeration must have one.
	Pattern string
	// Resource is the URI of the MCP resource that lists the values.
	Resource string
}

// LongEnum is the length beyond which an enumeration is long: tool schemas
// give its pattern instead of its values, which a resource lists, and tool
// results leave it out of problems (docs/api.md: beyond a dozen values).
const LongEnum = 12

// Long reports whether e is too long to repeat in each tool's schema.
func (e Enum) Long() bool { return len(e.Values) > LongEnum }

// List is a list of strings that a JSON document may also give as one
// string, a list of one: {"country": "france"} is {"country": ["france"]}.
// Its schema says so (anyOf a value or an array of values).
type List []string

// Range is an inclusive interval; a nil end is unbounded.
type Range struct {
	Min, Max *float64
}

// Between is the range [lo, hi].
func Between(lo, hi float64) *Range { return &Range{Min: &lo, Max: &hi} }

// AtLeast is the range [lo, ∞).
func AtLeast(lo float64) *Range { return &Range{Min: &lo} }

// AtMost is the range (-∞, hi].
func AtMost(hi float64) *Range { return &Range{Max: &hi} }

// object is a described struct type.
type object struct {
	doc    string
	fields Fields
}

var (
	mu      sync.RWMutex
	objects = map[reflect.Type]object{}
)

// Describe documents the struct type T: doc is its description and fields
// documents each JSON property T declares itself (those of embedded structs
// are documented by their own type). It panics when a property is left
// undocumented or a field names no property, so a new field without
// documentation fails at start.
func Describe[T any](doc string, fields Fields) {
	t := reflect.TypeFor[T]()
	own := map[string]bool{}
	for _, p := range properties(t) {
		if p.embeddedIn == nil {
			own[p.name] = true
		}
	}
	var problems []string
	for name := range own {
		if _, ok := fields[name]; !ok {
			problems = append(problems, name+" is not documented")
		}
	}
	for name, f := range fields {
		if !own[name] {
			problems = append(problems, "documents "+name+", which is not a property of the type")
		}
		if f.AliasOf != "" && !own[f.AliasOf] {
			problems = append(problems, name+" is an alias of "+f.AliasOf+", which is not a property of the type")
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		panic(fmt.Sprintf("wire.Describe[%s]: %s", t, strings.Join(problems, "; ")))
	}
	mu.Lock()
	defer mu.Unlock()
	objects[t] = object{doc, fields}
}

// lookup returns the documentation of t and whether t is described.
func lookup(t reflect.Type) (object, bool) {
	mu.RLock()
	defer mu.RUnlock()
	o, ok := objects[t]
	return o, ok
}

// property is one JSON property of a struct type with the Go field it
// comes from.
type property struct {
	name     string
	goName   string
	typ      reflect.Type
	optional bool // omitempty or omitzero: absent rather than zero
	// embeddedIn is the embedded struct type that declares the field, nil
	// for the type's own fields.
	embeddedIn reflect.Type
}

// properties lists the JSON properties of struct type t in the order
// encoding/json writes them, as jsonschema.For names them.
func properties(t reflect.Type) []property {
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("wire: %s is not a struct type", t))
	}
	var out []property
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := property{name: name, goName: f.Name, typ: f.Type,
			optional: slices.Contains(strings.Split(opts, ","), "omitempty") || slices.Contains(strings.Split(opts, ","), "omitzero")}
		if len(f.Index) > 1 {
			p.embeddedIn = t.FieldByIndex(f.Index[:len(f.Index)-1]).Type
		}
		out = append(out, p)
	}
	return out
}

// fieldsOf returns the documentation of every property of t, its own and
// those of the structs it embeds.
func fieldsOf(t reflect.Type) (object, Fields) {
	o, ok := lookup(t)
	if !ok {
		panic(fmt.Sprintf("wire: %s is not described (wire.Describe)", t))
	}
	all := Fields{}
	for _, p := range properties(t) {
		if p.embeddedIn == nil {
			all[p.name] = o.fields[p.name]
			continue
		}
		e, ok := lookup(p.embeddedIn)
		if !ok {
			panic(fmt.Sprintf("wire: %s embeds %s, which is not described", t, p.embeddedIn))
		}
		all[p.name] = e.fields[p.name]
	}
	return o, all
}

// Names returns the JSON names of the properties of struct type T, in
// their JSON order.
func Names[T any]() []string { return propertyNames(properties(reflect.TypeFor[T]())) }
