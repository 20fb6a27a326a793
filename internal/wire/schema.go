package wire

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"signals/internal/model"
)

// typeSchemas are the schemas of types whose JSON is not what their Go
// fields suggest.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[model.Time](): {Type: "string", Format: "date-time"},
}

// Schema returns the JSON Schema of the described struct type T with every
// nested type and enumeration written in place, as MCP tool schemas carry
// them.
func Schema[T any]() *jsonschema.Schema {
	s := (&builder{}).object(reflect.TypeFor[T]())
	s.Description = "" // a tool's own description says what it takes
	return s
}

// OutputSchema is Schema for a type the service writes, as brief as it can
// be while it still checks the shape of every body: the type of each
// property a body always has, and which those are at its top level. It leaves out what would only cost a
// reader's context, and that the tool's description or the OpenAPI
// document says: descriptions, enumerations, bounds and formats (every
// value the service writes is valid), the properties a body may leave out
// and the deprecated aliases (the objects stay open to them).
func OutputSchema[T any]() *jsonschema.Schema {
	return (&builder{brief: true}).object(reflect.TypeFor[T]())
}

// Components generates the schemas of an OpenAPI document: every described
// struct type and named enumeration it meets is a component, named after
// the Go type or the enumeration, that the others refer to as ref+name.
type Components struct {
	b *builder
}

// NewComponents returns an empty set of components referred to as
// ref+name (for OpenAPI, "#/components/schemas/").
func NewComponents(ref string) *Components {
	return &Components{&builder{ref: ref, components: map[string]*jsonschema.Schema{}}}
}

// Ref returns a reference to the component of the described struct type t,
// adding it and what it uses.
func (c *Components) Ref(t reflect.Type) *jsonschema.Schema { return c.b.use(t) }

// Property is one JSON property of a described type, as a schema describes
// it.
type Property struct {
	Name     string
	Required bool
	Field    Field
	Schema   *jsonschema.Schema
}

// Properties returns the properties of the described struct type t in their
// JSON order, adding the components they use (but not one for t).
func (c *Components) Properties(t reflect.Type) []Property {
	s := c.b.object(t)
	_, fields := fieldsOf(t)
	var out []Property
	for _, name := range s.PropertyOrder {
		out = append(out, Property{Name: name, Required: slices.Contains(s.Required, name), Field: fields[name], Schema: s.Properties[name]})
	}
	return out
}

// Schemas returns the components by name.
func (c *Components) Schemas() map[string]*jsonschema.Schema { return c.b.components }

// builder generates schemas: in place when ref is empty, else with named
// types and enumerations as components referred to by ref+name.
type builder struct {
	ref        string
	components map[string]*jsonschema.Schema
	brief      bool // see OutputSchema
}

// use returns the schema of a use of struct type t: a reference to its
// component, or its schema in place.
func (b *builder) use(t reflect.Type) *jsonschema.Schema {
	if b.ref == "" {
		s := b.object(t)
		if b.brief {
			// The body's own required properties tell a success from a
			// problem; those of the objects inside it add only length.
			s.Required = nil
		}
		return s
	}
	name := t.Name()
	if _, ok := b.components[name]; !ok {
		b.components[name] = nil // placeholder while building, against cycles
		b.components[name] = b.object(t)
	}
	return &jsonschema.Schema{Ref: b.ref + name}
}

// object returns the schema of the described struct type t: the one
// jsonschema.For infers, made exact by the documentation of its fields.
func (b *builder) object(t reflect.Type) *jsonschema.Schema {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(err)
	}
	o, fields := fieldsOf(t)
	s.Description = o.doc
	var aliases, optional []property
	for _, p := range properties(t) {
		f := fields[p.name]
		if f.AliasOf != "" {
			aliases = append(aliases, p)
			continue
		}
		if b.brief && p.optional {
			optional = append(optional, p)
			continue
		}
		s.Properties[p.name] = b.property(p, f, s.Properties[p.name])
	}
	if b.brief {
		s.Description, s.AdditionalProperties = "", nil
		for _, p := range append(aliases, optional...) {
			delete(s.Properties, p.name)
			s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return n == p.name })
			s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(n string) bool { return n == p.name })
		}
		return s
	}
	for _, p := range aliases {
		of := fields[p.name].AliasOf
		a := s.Properties[of].CloneSchemas()
		a.Description = "Deprecated alias of `" + of + "`, with the identical value."
		a.Deprecated = true
		if b.ref != "" {
			// Code generators name a property after its JSON name without
			// case and underscores, so the alias would clash with the field
			// it aliases; x-go-name (oapi-codegen) names it apart.
			a.Extra = map[string]any{"x-go-name": p.goName, "x-deprecated-reason": "Use `" + of + "`; the camelCase aliases are kept during a migration."}
		}
		s.Properties[p.name] = a
	}
	return s
}

// property returns the schema of one property: inferred is what
// jsonschema.For made of its Go type.
func (b *builder) property(p property, f Field, inferred *jsonschema.Schema) *jsonschema.Schema {
	s := inferred
	typ := p.typ
	nullable := false
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
		// An optional pointer is left out, never null; a required one is
		// null when it has no value.
		nullable = !p.optional
	}
	if typ.Kind() == reflect.Slice {
		// Lists are never null: responses write [], requests refuse null.
		s.Types, s.Type = nil, "array"
		if _, ok := lookup(typ.Elem()); ok && typ.Elem().Kind() == reflect.Struct {
			s.Items = b.use(typ.Elem())
		}
	} else if _, ok := lookup(typ); ok && typ.Kind() == reflect.Struct {
		if nullable {
			panic(fmt.Sprintf("wire: %s is a nullable struct; describe it as optional instead", p.name))
		}
		s = b.use(typ)
	} else if !nullable && len(s.Types) == 2 && s.Types[0] == "null" {
		s.Types, s.Type = nil, s.Types[1]
	}
	if b.brief {
		s.Format = ""
		return b.portable(s, nullable)
	}
	s.Description = f.Doc
	if f.Enum != nil {
		s = b.enum(s, *f.Enum, nullable)
	}
	if r := f.Range; r != nil {
		s.Minimum, s.Maximum = r.Min, r.Max
	}
	if r := f.Length; r != nil {
		s.MinLength, s.MaxLength = intPtr(r.Min), intPtr(r.Max)
	}
	if f.MaxItems > 0 {
		s.MaxItems = jsonschema.Ptr(f.MaxItems)
	}
	if f.Format != "" {
		s.Format = f.Format
	}
	s.Pattern = f.Pattern
	if f.Default != nil {
		d, err := json.Marshal(f.Default)
		if err != nil {
			panic(err)
		}
		s.Default = d
	}
	if typ == reflect.TypeFor[List]() {
		// One value stands for a list of one.
		one := s.Items.CloneSchemas()
		if one.Type == "" && one.Ref == "" {
			one.Type = "string"
		}
		d := s.Description
		s.Description = ""
		return &jsonschema.Schema{Description: d, AnyOf: []*jsonschema.Schema{one, s}}
	}
	return b.portable(s, nullable)
}

// portable returns the schema s of a property as tool schemas carry it: a
// nullable value, whose type jsonschema.For writes as a type array such as
// ["null","string"], becomes anyOf a string and a null. Both are JSON
// Schema, but clients that map tool schemas onto a dialect with one type
// per schema (the OpenAPI subset of some model providers) reject the
// array or drop its constraints. The OpenAPI document (3.1) keeps the
// array.
func (b *builder) portable(s *jsonschema.Schema, nullable bool) *jsonschema.Schema {
	if b.ref != "" || !nullable || len(s.Types) != 2 || s.Types[0] != "null" {
		return s
	}
	v := *s
	v.Types, v.Type, v.Description = nil, s.Types[1], ""
	return &jsonschema.Schema{Description: s.Description, AnyOf: []*jsonschema.Schema{&v, {Type: "null"}}}
}

// enum applies an enumeration to the schema of a string or of an array of
// strings.
func (b *builder) enum(s *jsonschema.Schema, e Enum, nullable bool) *jsonschema.Schema {
	if b.ref == "" && e.Long() {
		// The values are not repeated in each tool's schema: the
		// description says where they are listed.
		if e.Pattern == "" || e.Resource == "" {
			panic(fmt.Sprintf("wire: the long enumeration %s needs a Pattern and a Resource", e.Name))
		}
		s.Description += " Listed at " + e.Resource + "."
	}
	if s.Type == "array" {
		s.Items = b.enumValue(e)
		return s
	}
	v := b.enumValue(e)
	if !nullable {
		v.Description = s.Description
		return v
	}
	return &jsonschema.Schema{Description: s.Description, AnyOf: []*jsonschema.Schema{v, {Type: "null"}}}
}

// enumValue returns the schema of one value of e: a reference to its
// component or the enumeration in place.
func (b *builder) enumValue(e Enum) *jsonschema.Schema {
	if b.ref == "" && e.Long() {
		return &jsonschema.Schema{Type: "string", Pattern: e.Pattern}
	}
	values := make([]any, len(e.Values))
	for i, v := range e.Values {
		values[i] = v
	}
	s := &jsonschema.Schema{Type: "string", Enum: values}
	if b.ref == "" || e.Name == "" {
		return s
	}
	s.Description = e.Doc
	b.components[e.Name] = s
	return &jsonschema.Schema{Ref: b.ref + e.Name}
}

func intPtr(f *float64) *int {
	if f == nil {
		return nil
	}
	return jsonschema.Ptr(int(*f))
}
