package article

import (
	"slices"
	"testing"
	"testing/fstest"
	"time"
)

func TestParse(t *testing.T) {
	good := "---\ntitle: Hello\nslug: hello-world\npublished_at: 2026-03-02\nsummary: \"Short\"\n---\nBody *text*.\n"
	a, problems := Parse("hello.md", []byte(good))
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if a.Title != "Hello" || a.Slug != "hello-world" || a.Summary != "Short" || a.Body != "Body *text*.\n" ||
		!a.PublishedAt.Equal(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("parsed %+v", a)
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"no front matter", "# Title\n", []string{"x.md: front matter: the file must open with a line \"---\", the fields, and a closing \"---\""}},
		{"missing fields", "---\nsummary: s\n---\nbody\n", []string{"x.md: title: is required", "x.md: slug: is required", "x.md: published_at: is required"}},
		{"bad values", "---\ntitle: T\nslug: Not A Slug\npublished_at: March\nauthor: me\n---\n\n", []string{
			"x.md: author: is not a front matter field; use title, slug, published_at, summary",
			"x.md: slug: must be lower-case letters, digits and single hyphens, at most 80 characters",
			"x.md: published_at: must be a date (2026-03-02) or an RFC 3339 timestamp with a timezone",
			"x.md: body: is empty"}},
		{"timestamp", "---\ntitle: T\nslug: t\npublished_at: 2026-03-02T10:00:00+01:00\n---\nb\n", nil},
		{"not utf-8", "---\ntitle: \xff\n---\n", []string{"x.md: file: is not UTF-8 text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := Parse("dir/x.md", []byte(tt.src))
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestReadFSIsAllOrNothing(t *testing.T) {
	ok := "---\ntitle: A\nslug: a\npublished_at: 2026-03-02\n---\nbody\n"
	fsys := fstest.MapFS{
		"a.md":      {Data: []byte(ok)},
		"b.md":      {Data: []byte(ok)}, // the same slug
		"c.md":      {Data: []byte("no front matter")},
		"notes.txt": {Data: []byte("ignored")},
	}
	articles, problems, err := ReadFS(fsys)
	if err != nil || articles != nil || len(problems) != 2 {
		t.Fatalf("articles %v, problems %v, err %v", articles, problems, err)
	}
	if got := problems[0].String(); got != `b.md: slug: "a" is also the slug of a.md` {
		t.Errorf("problem %q", got)
	}
	delete(fsys, "b.md")
	delete(fsys, "c.md")
	if articles, problems, err := ReadFS(fsys); err != nil || len(problems) > 0 || len(articles) != 1 {
		t.Errorf("valid folder: %v %v %v", articles, problems, err)
	}
}
