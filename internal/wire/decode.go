package wire

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"signals/internal/failure"
)

// Decode decodes data, one JSON object, into v, a pointer to a described
// struct, by the service's rules:
//   - names match exactly and once each: a name in another case is
//     unknown, and a name given twice makes the object ambiguous
//     (invalid_json);
//   - an unknown name, a null and a value of the wrong JSON type are
//     problems naming the property and what it accepts, the first name in
//     sorted order when there are several, so the answer never varies;
//   - a required property (one without omitempty) left out is
//     missing_parameter;
//   - a whole number such as 5.0 is an integer, as JSON Schema counts it.
//   - text that is not Unicode (bytes that are not UTF-8, a lone escaped
//     surrogate) is invalid_parameter naming its property, never replaced
//     by U+FFFD.
func Decode(data []byte, v any) error {
	pl := planOf(reflect.TypeOf(v).Elem())
	props, fields := pl.props, pl.fields
	if name, bad := InvalidText(data); bad {
		return failure.Malformed(name, "must be valid Unicode text in UTF-8: it holds bytes that are not UTF-8 or an unpaired surrogate escape")
	}
	var members map[string]jsontext.Value
	if err := json.Unmarshal(data, &members, jsontext.AllowInvalidUTF8(true)); err != nil {
		return syntaxProblem(err)
	}
	if members == nil {
		return invalidJSON("expected one JSON object, got null")
	}
	for _, name := range slices.Sorted(maps.Keys(members)) {
		p, ok := propertyNamed(props, name)
		if !ok {
			return failure.Unknown(name, pl.names)
		}
		if members[name].Kind() == 'n' {
			return fieldProblem(p, fields[name])
		}
	}
	err := json.Unmarshal(data, v, wholeNumbers, jsontext.AllowInvalidUTF8(true))
	var se *json.SemanticError
	if errors.As(err, &se) {
		name, _, _ := strings.Cut(strings.TrimPrefix(string(se.JSONPointer), "/"), "/")
		if p, ok := propertyNamed(props, name); ok {
			return fieldProblem(p, fields[name])
		}
	}
	if err != nil {
		return syntaxProblem(err)
	}
	for _, p := range props {
		if _, ok := members[p.name]; !ok && !p.optional {
			return failure.Missing(p.name)
		}
	}
	return nil
}

// plan is what decoding a struct type needs to know of it.
type plan struct {
	props  []property
	fields Fields
	names  []string
}

var plans sync.Map // reflect.Type -> *plan

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	_, fields := fieldsOf(t)
	props := properties(t)
	p, _ := plans.LoadOrStore(t, &plan{props, fields, propertyNames(props)})
	return p.(*plan)
}

// Invalid returns the problem for property name of the described struct
// type T holding a value it does not accept: what Decode answers for a
// value of the wrong JSON type, for validation to answer alike.
func Invalid[T any](name string) *failure.Error {
	pl := planOf(reflect.TypeFor[T]())
	p, ok := propertyNamed(pl.props, name)
	if !ok {
		panic(fmt.Sprintf("wire: %T has no property %s", *new(T), name))
	}
	return fieldProblem(p, pl.fields[name])
}

// fieldProblem says what property p, documented by f, accepts.
func fieldProblem(p property, f Field) *failure.Error {
	name := p.name
	array := p.typ.Kind() == reflect.Slice
	switch {
	case f.Enum != nil:
		what := ": " + strings.Join(f.Enum.Values, ", ")
		if f.Enum.Noun != "" {
			what = " the " + f.Enum.Noun
		}
		switch {
		case p.typ == reflect.TypeFor[List]():
			return failure.Invalid(name, "must be one of"+what+" (or an array of them)", f.Enum.Values)
		case array:
			return failure.Invalid(name, "must be an array of"+strings.TrimPrefix(what, " the"), f.Enum.Values)
		}
		return failure.Invalid(name, "must be one of"+what, f.Enum.Values)
	case f.Range != nil && f.Range.Min != nil && f.Range.Max != nil:
		return failure.OutOfRange(name, int64(*f.Range.Min), int64(*f.Range.Max))
	case f.Length != nil && f.Length.Min != nil && f.Length.Max != nil:
		unit := f.Unit
		if unit == "" {
			unit = "characters"
		}
		e := failure.TooLong(name, int64(*f.Length.Min), int64(*f.Length.Max), unit)
		if f.Rule != "" {
			e.WithMessage(f.Rule)
		}
		return e
	case f.Rule != "":
		return failure.Malformed(name, f.Rule)
	}
	return failure.Malformed(name, "has the wrong type")
}

// syntaxProblem describes a body that is not one JSON object.
func syntaxProblem(err error) *failure.Error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) && errors.Is(err, jsontext.ErrDuplicateName) {
		name := string(syn.JSONPointer)
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		return invalidJSON(fmt.Sprintf("the member %q is given twice; give each member once", name))
	}
	var se *json.SemanticError
	if errors.As(err, &se) && se.JSONPointer == "" {
		return invalidJSON("expected one JSON object, got " + kindName(se.JSONKind))
	}
	msg := err.Error()
	for _, prefix := range []string{"jsontext: ", "json: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return invalidJSON("expected one JSON object: " + msg)
}

func invalidJSON(detail string) *failure.Error {
	return failure.New(failure.CodeInvalidJSON, detail)
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "something else"
}

func propertyNamed(props []property, name string) (property, bool) {
	for _, p := range props {
		if p.name == name {
			return p, true
		}
	}
	return property{}, false
}

func propertyNames(props []property) []string {
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.name
	}
	return names
}

// errNotWhole reports a number that is not a whole number within int.
var errNotWhole = errors.New("not a whole number")

// wholeNumbers decodes integers written as whole numbers in any JSON form
// (5, 5.0, 5e0, 0.5e1): JSON Schema's "integer" is a number without a
// fractional part, whatever its notation.
var wholeNumbers = json.WithUnmarshalers(json.UnmarshalFunc(func(v []byte, n *int) error {
	if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		*n = int(i)
		return nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return errNotWhole
	}
	*n = int(f)
	return nil
}))

// errNotStrings reports a List given as something other than a string or an
// array of strings.
var errNotStrings = errors.New("not a string or an array of strings")

// UnmarshalJSON reads a string as a list of one, and an array of strings
// as it is.
func (l *List) UnmarshalJSON(b []byte) error {
	switch jsontext.Value(b).Kind() {
	case '"':
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*l = List{one}
		return nil
	case '[':
		var many []string
		if err := json.Unmarshal(b, &many); err != nil {
			return err
		}
		*l = many
		return nil
	}
	return errNotStrings
}
