package builtin

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadTable(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		fields  int
		keyed   bool
		want    [][]string
		wantErr string // a part of the error; "" for none
	}{
		{name: "pairs", data: "hiring = job\nopen roles = job\n", fields: 2, keyed: true,
			want: [][]string{{"hiring", "job"}, {"open roles", "job"}}},
		{name: "comments and blank lines", data: "# jobs\n\n  # indented\nhiring = job\n\n", fields: 2, keyed: true,
			want: [][]string{{"hiring", "job"}}},
		{name: "runs of spaces and tabs read as one", data: "  open\t roles   =  job  \r\n", fields: 2, keyed: true,
			want: [][]string{{"open roles", "job"}}},
		{name: "one field", data: "l'\nqu'\n", fields: 1, keyed: true, want: [][]string{{"l'"}, {"qu'"}}},
		{name: "a hash inside a field", data: "c# = csharp\n", fields: 2, keyed: true, want: [][]string{{"c#", "csharp"}}},
		{name: "a repeated first field, unkeyed", data: "events = expo\nevents = contest\n", fields: 2,
			want: [][]string{{"events", "expo"}, {"events", "contest"}}},
		{name: "empty file", data: "# nothing yet\n", fields: 2, keyed: true},
		{name: "too few fields", data: "# jobs\nhiring job\n", fields: 2, keyed: true,
			wantErr: `t.txt:2: fields separated by "=": got 1, want 2`},
		{name: "too many fields", data: "hiring = job = funding\n", fields: 2, keyed: true,
			wantErr: `t.txt:1: fields separated by "=": got 3, want 2`},
		{name: "a separator in a one-field table", data: "a\nb = c\n", fields: 1, keyed: true,
			wantErr: `t.txt:2: fields separated by "=": got 2, want 1`},
		{name: "empty key", data: " = job\n", fields: 2, keyed: true, wantErr: "t.txt:1: field 1 is empty"},
		{name: "empty value", data: "hiring =  \n", fields: 2, keyed: true, wantErr: "t.txt:1: field 2 is empty"},
		{name: "duplicate key", data: "hiring = job\n\nopen roles = job\nhiring  =  funding\n", fields: 2, keyed: true,
			wantErr: `t.txt:4: "hiring" is already on line 1`},
		{name: "duplicate word", data: "me\non\nme\n", fields: 1, keyed: true,
			wantErr: `t.txt:3: "me" is already on line 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := readTable("t.txt", []byte(tc.data), tc.fields, tc.keyed)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for _, l := range ls {
				got = append(got, l.fields)
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadTablesFails checks that a malformed table file fails the reading
// of the tables, and so the scorer's loading, with an error that names the
// file and the line.
func TestReadTablesFails(t *testing.T) {
	tests := []struct {
		name    string
		file    string // the table file that add is appended to
		add     string
		wantErr string // %d is the first added line
	}{
		{"wrong field count", "kinds.txt", "pros and cons\n",
			`builtin: read tables: tables/kinds.txt:%d: fields separated by "=": got 1, want 2`},
		{"duplicate key", "aliases.txt", "llm = large language model\n",
			`builtin: read tables: tables/aliases.txt:%d: "llm" is already on line `},
		{"duplicate word", "stopwords.txt", "the\n",
			`builtin: read tables: tables/stopwords.txt:%d: "the" is already on line `},
		{"unknown country", "places-cities.txt", "atlantis = atlantis\n",
			`builtin: read tables: tables/places-cities.txt:%d: "atlantis" is no country key`},
		{"region defined later", "places-regions.txt", "near east = levant\nlevant = lebanon israel\n",
			`builtin: read tables: tables/places-regions.txt:%d: "levant" is neither a country key nor a region of an earlier line`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := tableCopy(t)
			f := fsys["tables/"+tc.file]
			line := bytes.Count(f.Data, []byte("\n")) + 1
			f.Data = append(f.Data, tc.add...)
			var tb tables
			err := tb.read(fsys)
			if want := fmt.Sprintf(tc.wantErr, line); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("err = %v, want %s", err, want)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		fsys := tableCopy(t)
		delete(fsys, "tables/generic.txt")
		var tb tables
		if err := tb.read(fsys); err == nil || !strings.HasPrefix(err.Error(), "builtin: read tables: open tables/generic.txt") {
			t.Errorf("err = %v, want one about tables/generic.txt", err)
		}
	})
}

// TestEveryTableFileIsRead checks that the tables read every file of
// tables/, so that no file is edited in vain.
func TestEveryTableFileIsRead(t *testing.T) {
	fsys := tableCopy(t)
	var read []string
	var tb tables
	if err := tb.read(recordingFS{fsys, &read}); err != nil {
		t.Fatal(err)
	}
	for name := range fsys {
		if !slices.Contains(read, name) {
			t.Errorf("%s is not read", name)
		}
	}
}

// TestPhrasesFitTheReader checks that the entries of the tables that
// queries are read with are no longer than the reader reads
// (maxPhraseWords), so that each can match.
func TestPhrasesFitTheReader(t *testing.T) {
	fsys := tableCopy(t)
	for file, fields := range map[string]int{"kinds.txt": 2, "generic.txt": 1, "places-countries.txt": 2,
		"places-adjectives.txt": 2, "places-cities.txt": 2, "places-regions.txt": 2,
		"places-capital-only.txt": 1, "places-upper-only.txt": 1} {
		ls, err := readTable("tables/"+file, fsys["tables/"+file].Data, fields, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			if n := len(strings.Fields(l.fields[0])); n > maxPhraseWords {
				t.Errorf("tables/%s:%d: %q has %d words, more than the %d a query is read by", file, l.n, l.fields[0], n, maxPhraseWords)
			}
		}
	}
}

// recordingFS is an fs.FS that records the names it opens.
type recordingFS struct {
	fs.FS
	names *[]string
}

func (r recordingFS) Open(name string) (fs.File, error) {
	*r.names = append(*r.names, name)
	return r.FS.Open(name)
}

// tableCopy returns a copy of the shipped table files that a test may
// change.
func tableCopy(t testing.TB) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := fs.WalkDir(tableFiles, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(tableFiles, name)
		fsys[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// FuzzReadTable checks that any file either fails with an error that names
// it and a line, or reads into entries of the asked number of non-empty
// fields, in single-spaced words, that read the same once written back.
func FuzzReadTable(f *testing.F) {
	for _, seed := range []struct {
		data   string
		fields uint8
		keyed  bool
	}{
		{"hiring = job\nopen roles = job\n", 2, true},
		{"# jobs\n\n  # indented comment\nhiring = job\n", 2, true},
		{"  open\t roles   =  job  \r\n", 2, true},
		{"l'\nqu'\n", 1, true},
		{"events = expo\nevents = contest\n", 2, false},
		{"hiring job\n", 2, true},
		{"hiring = job = funding\n", 2, true},
		{" = job\nhiring =\n", 2, true},
		{"hiring = job\nhiring = funding\n", 2, true},
		{"eu = austria belgium\neurope = norway eu\n", 2, true},
		{"a=b=c\n#=\n=\n\xff = \u00a0\n", 3, false},
	} {
		f.Add(seed.data, seed.fields, seed.keyed)
	}
	for _, file := range tableCopy(f) { // the shipped tables, read as either shape
		f.Add(string(file.Data), uint8(1), true)
		f.Add(string(file.Data), uint8(2), false)
	}
	f.Fuzz(func(t *testing.T, data string, fields uint8, keyed bool) {
		n := max(1, int(fields%4)) // 1 to 3 fields
		ls, err := readTable("t.txt", []byte(data), n, keyed)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "t.txt:") {
				t.Fatalf("error %q names no file and line", err)
			}
			return
		}
		var back strings.Builder
		keys := map[string]bool{}
		for _, l := range ls {
			if len(l.fields) != n {
				t.Fatalf("line %d: %d fields, want %d", l.n, len(l.fields), n)
			}
			for _, f := range l.fields {
				if f == "" || f != strings.Join(strings.Fields(f), " ") || strings.Contains(f, tableSeparator) {
					t.Fatalf("line %d: field %q", l.n, f)
				}
			}
			if keyed && keys[l.fields[0]] {
				t.Fatalf("line %d: key %q twice", l.n, l.fields[0])
			}
			keys[l.fields[0]] = true
			back.WriteString(strings.Join(l.fields, " "+tableSeparator+" ") + "\n")
		}
		again, err := readTable("t.txt", []byte(back.String()), n, keyed)
		if err != nil {
			t.Fatalf("entries written back: %v", err)
		}
		if !slices.EqualFunc(ls, again, func(a, b tableLine) bool { return slices.Equal(a.fields, b.fields) }) {
			t.Fatalf("entries written back read as %v, not %v", again, ls)
		}
	})
}
