package sqlstore

import "fmt"

// intDest scans an integer column into *p. database/sql would otherwise
// format the value as text and parse it back for an int, and convert by
// reflection for an int64: a cost on every row of every listing.
type intDest[T ~int | ~int64] struct{ p *T }

// integer returns the destination of an integer column.
func integer[T ~int | ~int64](p *T) intDest[T] { return intDest[T]{p} }

func (d intDest[T]) Scan(src any) error {
	n, ok := src.(int64)
	if !ok {
		return fmt.Errorf("an integer column holds %T", src)
	}
	*d.p = T(n)
	return nil
}

// optionalInt reads an integer column scanned into an any (which
// database/sql fills without conversion): false when it is NULL.
func optionalInt(v any) (int64, bool) {
	n, ok := v.(int64)
	return n, ok
}
