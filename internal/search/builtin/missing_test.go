package builtin

import (
	"context"
	"testing"

	"signals/internal/search"
)

// A candidate without a stored vector (one the indexer has not reached)
// scores as it would with its vector stored: the scorer embeds the
// missing ones at search time.
func TestMissingVectorsScoreAlike(t *testing.T) {
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	texts := []string{"Seed round for a robotics startup in Montréal.", "We are hiring ML engineers in Paris.",
		"Launch notes for our open-source agent toolkit.", "A meetup on AI agents next week in Berlin."}
	vecs, err := b.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	stored := make([]search.Candidate, len(texts))
	partial := make([]search.Candidate, len(texts))
	for i, text := range texts {
		stored[i] = search.Candidate{ID: text, Text: text, Vector: vecs[i], Tag: "other"}
		partial[i] = stored[i]
		if i%2 == 0 {
			partial[i].Vector = nil
		}
	}
	for _, q := range []string{"robotics funding", "who is hiring engineers", "agent toolkit launch"} {
		want, err := b.Score(ctx, q, stored)
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.Score(ctx, q, partial)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if d := got[i] - want[i]; d > 1e-6 || d < -1e-6 {
				t.Errorf("%q, candidate %d: %v with its vector missing, %v with it stored", q, i, got[i], want[i])
			}
		}
	}
}
