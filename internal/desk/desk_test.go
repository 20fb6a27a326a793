package desk

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"signals/internal/failure"
	"signals/internal/model"
)

func TestReadFilters(t *testing.T) {
	for _, tt := range []struct {
		query   string
		want    filters
		address string
		code    failure.Code
	}{
		{"", filters{Status: "pending"}, "/desk", ""},
		{"status=all&tag=job&q=+robots+", filters{Status: "all", Tag: "job", Words: "robots"}, "/desk?q=robots&status=all&tag=job", ""},
		{"status=pending&source=microblog&language=fr", filters{Status: "pending", Source: "microblog", Language: "fr"}, "/desk?language=fr&source=microblog", ""},
		{"done=publish&n=3", filters{Status: "pending"}, "/desk", ""},
		{"status=published", filters{}, "", failure.CodeInvalidParameter},
		{"tag=fundraising", filters{}, "", failure.CodeInvalidParameter},
		{"sort=new", filters{}, "", failure.CodeUnknownParameter},
		{"q=" + strings.Repeat("a", 201), filters{}, "", failure.CodeInvalidParameter},
	} {
		q, _ := url.ParseQuery(tt.query)
		f, err := readFilters(q)
		if tt.code != "" {
			if fe, ok := failure.As(err); !ok || fe.Code != tt.code {
				t.Errorf("%q: error %v, want %s", tt.query, err, tt.code)
			}
			continue
		}
		if err != nil || f != tt.want || f.address() != tt.address {
			t.Errorf("%q: %+v %q (%v), want %+v %q", tt.query, f, f.address(), err, tt.want, tt.address)
		}
	}
}

func TestReadDecision(t *testing.T) {
	str := func(s string) *string { return &s }
	yes := true
	for _, tt := range []struct {
		form string
		want model.Change
		code failure.Code
	}{
		{"id=a&action=publish", model.Change{Status: str("public")}, ""},
		{"id=a&id=b&action=hide&reason=spam", model.Change{Status: str("hidden")}, ""},
		{"id=a&action=market-only", model.Change{MarketOnly: &yes}, ""},
		{"id=a&action=save&tag=job&language=fr&country=", model.Change{Tag: str("job"), Language: str("fr"), Country: str("")}, ""},
		{"id=a&action=save&country=none", model.Change{Country: str("")}, ""},
		{"id=a&action=publish&country=france", model.Change{Status: str("public"), Country: str("france")}, ""},
		{"id=a&action=save&tag=", model.Change{}, ""},
		{"action=publish", model.Change{}, failure.CodeMissingParameter},
		{"id=a", model.Change{}, failure.CodeInvalidParameter},
		{"id=a&action=delete", model.Change{}, failure.CodeInvalidParameter},
		{"id=a&action=save&country=atlantis", model.Change{}, failure.CodeInvalidParameter},
		{"id=a&action=save&language=de", model.Change{}, failure.CodeInvalidParameter},
		{"id=a&action=publish&reason=" + strings.Repeat("x", 501), model.Change{}, failure.CodeInvalidParameter},
		{"id=a" + strings.Repeat("&id=a", 100) + "&action=publish", model.Change{}, failure.CodeInvalidParameter},
	} {
		f, _ := url.ParseQuery(tt.form)
		d, err := readDecision(f)
		if tt.code != "" {
			if fe, ok := failure.As(err); !ok || fe.Code != tt.code {
				t.Errorf("%.60q: error %v, want %s", tt.form, err, tt.code)
			}
			continue
		}
		if err != nil || !sameChange(d.change, tt.want) {
			t.Errorf("%q: %+v (%v), want %+v", tt.form, d.change, err, tt.want)
		}
	}
}

func sameChange(a, b model.Change) bool {
	eq := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return eq(a.Status, b.Status) && eq(a.Tag, b.Tag) && eq(a.Country, b.Country) && eq(a.Language, b.Language) &&
		(a.MarketOnly == nil) == (b.MarketOnly == nil) && (a.MarketOnly == nil || *a.MarketOnly == *b.MarketOnly)
}

// FuzzReadDecision checks that any posted form is either refused with a
// stable code or read into a decision the store can take as it is.
func FuzzReadDecision(f *testing.F) {
	for _, seed := range []string{"id=a&action=publish", "id=a&id=b&action=save&tag=job&country=none&language=fr",
		"id=%00&action=hide&reason=%E2%80%AE", "action=save&country=Fr", "id=a&action=market-only&country=c%C3%B4te"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		form, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		d, err := readDecision(form)
		if err != nil {
			if fe, ok := failure.As(err); !ok || fe.Code == "" || fe.Detail == "" {
				t.Fatalf("%q: refused without a code and a detail: %v", raw, err)
			}
			return
		}
		if len(d.ids) == 0 || len(d.ids) > maxBulk || !model.IsOneOf(d.action, actions) || model.Chars(d.reason) > maxReason {
			t.Fatalf("%q: accepted %+v", raw, d)
		}
		c := d.change
		if c.Tag != nil && !model.IsOneOf(*c.Tag, model.Tags) || c.Language != nil && !model.IsOneOf(*c.Language, model.Languages) ||
			c.Country != nil && *c.Country != "" && !model.IsOneOf(*c.Country, model.Countries) ||
			c.Status != nil && !model.IsOneOf(*c.Status, model.Statuses) {
			t.Fatalf("%q: accepted a value outside its list: %+v", raw, c)
		}
	})
}

func TestNotice(t *testing.T) {
	for _, tt := range []struct{ done, n, want string }{
		{"publish", "1", "Published: 1 signal."},
		{"hide", "3", "Hidden from every public surface: 3 signals."},
		{"save", "0", "Nothing changed: the signals were so already."},
		{"publish", "-1", ""},
		{"publish", "1000", ""},
		{"<script>", "1", ""},
		{"publish", "x", ""},
	} {
		if got := notice(tt.done, tt.n); got != tt.want {
			t.Errorf("notice(%q, %q) = %q, want %q", tt.done, tt.n, got, tt.want)
		}
	}
}

func TestWhat(t *testing.T) {
	for _, tt := range []struct {
		d    model.Decision
		want string
	}{
		{model.Decision{Action: model.ActionSetStatus, Before: map[string]any{"status": "pending", "market_only": false},
			After: map[string]any{"status": "public", "market_only": true}}, "market-only no → yes; status pending → public"},
		{model.Decision{Action: model.ActionSet, Before: map[string]any{"tag": "funding", "country": ""},
			After: map[string]any{"tag": "events", "country": "cote_d_ivoire"}}, "country none → Côte d'Ivoire; kind Funding → Events"},
		{model.Decision{Action: model.ActionDelete, Before: map[string]any{"status": "public"}}, "taken down"},
		{model.Decision{Action: model.ActionRestore}, "restored"},
	} {
		if got := what(tt.d); got != tt.want {
			t.Errorf("what(%+v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestAnchorHoldsNoSpace(t *testing.T) {
	for _, id := range []string{"a b", "tab\there", "x\u00a0y", "é/?#"} {
		if a := anchor(id); strings.ContainsAny(a, " \t\n\f\r") || !strings.HasPrefix(a, "s-") {
			t.Errorf("anchor(%q) = %q", id, a)
		}
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("word ", 100)
	if got := snippet(long); model.Chars(got) != similarChars || !strings.HasSuffix(got, "…") {
		t.Errorf("snippet of a long text: %d characters %q", model.Chars(got), got)
	}
	if got := snippet("two\nlines  here"); got != "two lines here" {
		t.Errorf("snippet = %q", got)
	}
}

// The queue, shown again after each decision, embeds only the pending
// texts it has not embedded before.
func TestEmbedKeepsVectors(t *testing.T) {
	var asked []string
	p := New(Config{Embed: func(_ context.Context, texts []string) ([][]float32, error) {
		asked = append(asked, texts...)
		out := make([][]float32, len(texts))
		for i, s := range texts {
			out[i] = []float32{float32(len(s))}
		}
		return out, nil
	}})
	ctx := context.Background()
	if _, err := p.embed(ctx, []string{"a", "bb"}); err != nil {
		t.Fatal(err)
	}
	got, err := p.embed(ctx, []string{"bb", "ccc", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(asked, " ") != "a bb ccc" {
		t.Errorf("embedded %q, want each text once", asked)
	}
	if len(got) != 3 || got[0][0] != 2 || got[1][0] != 3 || got[2][0] != 1 {
		t.Errorf("vectors %v, want those of bb, ccc, a in order", got)
	}
}
