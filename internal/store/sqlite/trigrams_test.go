package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"testing"

	"signals/internal/model"
	"signals/internal/store/storetest"
)

// The trigrams listed for short substrings are exactly those the index's
// tokenizer made of the same signals, whatever their characters.
func TestTrigramTermsAreTheIndexTerms(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	storetest.Put(t, db,
		storetest.Sig("a", 1, func(s *model.Signal) { s.Text = "Line one\n\nline two, tabs\tand “quotes” 🤖🤖 东京 ÉCOLE" }),
		storetest.Sig("b", 2, func(s *model.Signal) { s.AuthorName = "Øy"; s.AuthorHeadline = "" }),
		storetest.Sig("c", 3, func(s *model.Signal) { s.Text = "a\u0301 combining, ZWJ 👩\u200d💻, \U0010FFFD" }),
	)
	if _, err := db.IndexTrigrams(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	if _, err := conn.Exec(`CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, signal_trigrams, row)`); err != nil {
		t.Fatal(err)
	}
	terms := func(query string) []string {
		rows, err := conn.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	index := terms(`SELECT term FROM vocab ORDER BY term`)
	listed := terms(`SELECT term FROM signal_trigram_terms ORDER BY term`)
	if len(index) < 100 || !slices.Equal(index, listed) {
		t.Errorf("the index holds %d trigrams, %d listed; differ: %v",
			len(index), len(listed), symmetricDifference(index, listed))
	}
}

func symmetricDifference(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, "index only: "+s)
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			out = append(out, "listed only: "+s)
		}
	}
	return out
}
