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
	return (&builder{}).object(reflect.TypeFor[T]())
}

// OutputSchema is Schema for a type the service writes: it leaves out the
// enumerations too long to print (those with a Noun), which would only
// cost a reader's context, since every value the service writes is valid.
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
		return b.object(t)
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
	var aliases []property
	for _, p := range properties(t) {
		f := fields[p.name]
		if f.AliasOf != "" {
			aliases = append(aliases, p)
			continue
		}
		s.Properties[p.name] = b.property(p, f, s.Properties[p.name])
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
	s.Description = f.Doc
	if f.Enum != nil && !(b.brief && f.Enum.Noun != "") {
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
	return s
}

// enum applies an enumeration to the schema of a string or of an array of
// strings.
func (b *builder) enum(s *jsonschema.Schema, e Enum, nullable bool) *jsonschema.Schema {
	if s.Type == "array" {
		s.Items = b.enumValue(e)
		return s
	}
	v := b.enumValue(e)
	if !nullable {
		v.Description = s.Description
		return v
	}
	if b.ref == "" {
		v.Type, v.Types = "", []string{"null", "string"}
		v.Enum = append(v.Enum, nil)
		v.Description = s.Description
		return v
	}
	return &jsonschema.Schema{Description: s.Description, AnyOf: []*jsonschema.Schema{v, {Type: "null"}}}
}

// enumValue returns the schema of one value of e: a reference to its
// component or the enumeration in place.
func (b *builder) enumValue(e Enum) *jsonschema.Schema {
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
