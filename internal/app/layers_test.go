package app

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxLayers is the most floors the import graph may have.
const maxLayers = 10

// deliveryUnits are the packages through which requests and mail leave the
// service. They stand side by side: what they share lies below them, and
// only app wires them together.
var deliveryUnits = []string{"internal/web", "internal/api", "internal/mcp", "internal/account",
	"internal/desk", "internal/oauth", "internal/discovery", "internal/digest"}

// importUnits reads the production import graph from go list, by unit:
// each folder directly under internal/ (with its sub-folders), each
// command and each tool is one unit. Imports inside a unit and imports of
// other modules are left out.
func importUnits(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "signals/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		from, ok := unitOf(fields[0])
		if !ok {
			t.Fatalf("package %s is outside the module", fields[0])
		}
		if _, seen := graph[from]; !seen {
			graph[from] = nil
		}
		for _, imp := range fields[1:] {
			if to, ok := unitOf(imp); ok && to != from && !slices.Contains(graph[from], to) {
				graph[from] = append(graph[from], to)
			}
		}
	}
	return graph
}

// unitOf names the unit of a package of this module: "internal/web" for
// signals/internal/web/templates; false for a package of another module.
func unitOf(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "signals/")
	if !ok {
		return "", false
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) >= 2 && (parts[0] == "internal" || parts[0] == "cmd" || parts[0] == "tools") {
		return parts[0] + "/" + parts[1], true
	}
	return parts[0], true
}

// layers counts the floor of every unit: a unit that imports none of the
// others is on floor 1, any other stands one floor above the highest unit
// it imports.
func layers(graph map[string][]string) map[string]int {
	floor := map[string]int{}
	var of func(u string, path []string) int
	of = func(u string, path []string) int {
		if f, ok := floor[u]; ok {
			return f
		}
		if slices.Contains(path, u) {
			panic("import cycle through " + strings.Join(append(path, u), " → "))
		}
		f := 1
		for _, v := range graph[u] {
			f = max(f, of(v, append(path, u))+1)
		}
		floor[u] = f
		return f
	}
	for u := range graph {
		of(u, nil)
	}
	return floor
}

// chain is the longest run of imports down from u, one unit per floor.
func chain(graph map[string][]string, floor map[string]int, u string) []string {
	out := []string{u}
	for len(graph[u]) > 0 {
		next := slices.MaxFunc(graph[u], func(a, b string) int { return floor[a] - floor[b] })
		out = append(out, next)
		u = next
	}
	return out
}

func TestImportLayers(t *testing.T) {
	t.Parallel()
	graph := importUnits(t)
	for _, u := range deliveryUnits {
		if _, ok := graph[u]; !ok {
			t.Fatalf("go list names no unit %s", u)
		}
	}
	floor := layers(graph)
	top := ""
	for u, f := range floor {
		if top == "" || f > floor[top] || f == floor[top] && u < top {
			top = u
		}
	}
	if floor[top] > maxLayers {
		t.Errorf("the import graph has %d layers, more than %d: %s", floor[top], maxLayers,
			strings.Join(chain(graph, floor, top), " → "))
	}
}

func TestDeliveryPackagesSideBySide(t *testing.T) {
	t.Parallel()
	graph := importUnits(t)
	for _, from := range deliveryUnits {
		for _, to := range graph[from] {
			if slices.Contains(deliveryUnits, to) {
				t.Errorf("%s imports %s; delivery packages share only what lies below them", from, to)
			}
		}
	}
}

func TestLayerCount(t *testing.T) {
	t.Parallel()
	// a → b → c, a → c, d alone: three floors, and the chain runs through b.
	graph := map[string][]string{"a": {"b", "c"}, "b": {"c"}, "c": nil, "d": nil}
	floor := layers(graph)
	if floor["a"] != 3 || floor["b"] != 2 || floor["c"] != 1 || floor["d"] != 1 {
		t.Errorf("floors = %v", floor)
	}
	if got := strings.Join(chain(graph, floor, "a"), " "); got != "a b c" {
		t.Errorf("chain = %q", got)
	}
}

// floorsPicture draws the floors from the top down, one line a floor, as
// docs/architecture.md shows them.
func floorsPicture(floor map[string]int) string {
	by := map[int][]string{}
	top := 0
	for u, f := range floor {
		by[f] = append(by[f], u)
		top = max(top, f)
	}
	var b strings.Builder
	for f := top; f >= 1; f-- {
		slices.Sort(by[f])
		fmt.Fprintf(&b, "%2d  %s\n", f, strings.Join(by[f], " "))
	}
	return b.String()
}

// TestArchitectureFloors checks the picture of the floors in
// docs/architecture.md against the import graph.
func TestArchitectureFloors(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- floors:")
	if !ok {
		t.Fatal("docs/architecture.md has no <!-- floors: --> block")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	shown, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the floors block is not closed")
	}
	if want := floorsPicture(layers(importUnits(t))); shown != want {
		t.Errorf("docs/architecture.md shows the floors as\n%s\nthe import graph has\n%s", shown, want)
	}
}

// TestNoImportUnderItsOwnName keeps a package's name its own: inside a
// production file no imported package answers to the importing package's
// name (internal/mcp imports the MCP SDK as sdk), so that a qualified name
// never reads as the package's own.
func TestNoImportUnderItsOwnName(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.Dir}}{{"\t"}}{{.Name}}{{"\t"}}{{join .GoFiles " "}}`, "signals/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{"\t"}}{{.Name}}`, "signals/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	names := map[string]string{} // import path -> package name
	for _, line := range strings.Split(strings.TrimSpace(string(deps)), "\n") {
		path, name, _ := strings.Cut(line, "\t")
		names[path] = name
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "\t", 3)
		dir, pkg := parts[0], parts[1]
		for _, name := range strings.Fields(parts[2]) {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				as := ""
				if imp.Name != nil {
					as = imp.Name.Name
				}
				if as == "_" || as == "." {
					continue
				}
				if cmp.Or(as, names[path]) == pkg {
					t.Errorf("%s imports %s as %s, its own package's name", filepath.Join(dir, name), path, pkg)
				}
			}
		}
	}
}

// Bounds on production code that keep it readable in one screen or a few.
const (
	maxFunctionLines = 80
	maxFileLines     = 600
)

// TestShortFunctionsAndFiles keeps every production function (its
// declaration to its closing brace) at most maxFunctionLines long and
// every production file at most maxFileLines.
func TestShortFunctionsAndFiles(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.Dir}}{{"\t"}}{{join .GoFiles " "}}`, "signals/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, files, _ := strings.Cut(line, "\t")
		for _, name := range strings.Fields(files) {
			path := filepath.Join(dir, name)
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
				t.Errorf("%s: %d lines, more than %d", path, n, maxFileLines)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFunctionLines {
					t.Errorf("%s: %s is %d lines long, more than %d", path, fd.Name.Name, n, maxFunctionLines)
				}
			}
		}
	}
}
