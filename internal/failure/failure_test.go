package failure

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestCodesAreListed keeps Codes the one list: every Code constant is in
// it once, with a title and a meaning.
func TestCodesAreListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "failure.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var constants []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			if v := s.(*ast.ValueSpec); v.Type != nil && v.Type.(*ast.Ident).Name == "Code" {
				for _, n := range v.Names {
					constants = append(constants, n.Name)
				}
			}
		}
	}
	if len(constants) != len(Codes) {
		t.Errorf("%d Code constants, %d listed codes", len(constants), len(Codes))
	}
	seen := map[Code]bool{}
	for _, i := range Codes {
		if seen[i.Code] || i.Title == "" || i.Meaning == "" {
			t.Errorf("%+v: listed twice, or without a title or meaning", i)
		}
		seen[i.Code] = true
		if i.Code.Info() != i {
			t.Errorf("Info of %s = %+v", i.Code, i.Code.Info())
		}
	}
}

func TestWrappedFailuresKeepTheirCode(t *testing.T) {
	err := fmtWrap(fmtWrap(Missing("query")))
	if f, ok := As(err); !ok || f.Code != CodeMissingParameter || f.Param != "query" {
		t.Errorf("As(%v) = %+v, %v", err, f, ok)
	}
	if !Is(err, CodeMissingParameter) || Is(err, CodeNotFound) || Is(nil, CodeNotFound) {
		t.Error("Is does not follow the chain")
	}
}

func fmtWrap(err error) error { return fmt.Errorf("store: op: %w", err) }
