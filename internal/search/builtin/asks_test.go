package builtin

import (
	"math"
	"slices"
	"testing"
)

// TestRead pins what the reader takes a query to ask for, above all where
// a word of a table means something else in its phrase.
//
// text is the subject, folded, with the stop words the analyser drops.
func TestRead(t *testing.T) {
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query     string
		kinds     []string
		countries []string
		names     []string
		browse    bool
		text      string
	}{
		// A kind word in a phrase about a subject, or someone's, asks for
		// no kind.
		{query: "will automation take people's jobs away", text: "will automation take jobs away"},
		{query: "are robots taking our jobs", text: "are robots taking our jobs"},
		{query: "job losses from automation", text: "job losses from automation"},
		{query: "who is hiring", kinds: []string{"job"}, browse: true, text: "is"},
		// French expressions are read whole: "retours d'expérience" frames
		// the question, "retours" alone asks for feedback.
		{query: "retours d'expérience sur les robots dans les entrepôts", text: "sur les robots dans les entrepots"},
		{query: "retours clients sur Parla", kinds: []string{"product_feedback"}, names: []string{"parla"}, text: "clients sur parla"},
		// Every kind phrase asks for its kind on its own; the words of
		// physical AI name a subject, "physical AI" the kind.
		{query: "hiring", kinds: []string{"job"}, browse: true},
		{query: "physical AI", kinds: []string{"physical_ai"}, browse: true},
		{query: "warehouse robots", text: "warehouse robots"},
		{query: "humanoid robot funding", kinds: []string{"funding"}, text: "humanoid robot"},
		// Places joined by and, or, et, ou.
		{query: "warehouse robots in Spain and Mexico", countries: []string{"mexico", "spain"}, text: "warehouse robots in and"},
		{query: "robotique en France ou en Belgique", countries: []string{"belgium", "france"}, text: "robotique en en"},
		{query: "jobs in Canada or Kenya", kinds: []string{"job"}, countries: []string{"canada", "kenya"}, browse: true, text: "in or"},
		// The framing of a question carries no subject.
		{query: "who is criticising AI coding assistants", kinds: []string{"product_feedback"}, text: "is coding assistants"},
		{query: "how are companies preparing for the EU AI Act", text: "how are the eu ai act"},
		{query: "AI Act", text: "ai act"},
		{query: "lessons learned running AI customer service chatbots", text: "running customer service chatbots"},
		// An amount with a currency is asked for, not scored.
		{query: "funding rounds of more than $50M", kinds: []string{"funding"}, browse: true, text: "of"},
	} {
		a := b.rd.read(tc.query)
		if !slices.Equal(a.kinds, tc.kinds) || !slices.Equal(a.countries, tc.countries) || !slices.Equal(a.nameWords, tc.names) ||
			a.browse() != tc.browse || a.text != tc.text {
			t.Errorf("read(%q) = kinds %v countries %v names %v browse %v text %q\nwant kinds %v countries %v names %v browse %v text %q",
				tc.query, a.kinds, a.countries, a.nameWords, a.browse(), a.text, tc.kinds, tc.countries, tc.names, tc.browse, tc.text)
		}
	}
	if a := b.rd.read("rounds of more than $50M"); a.amount == nil || a.amount.min != 50e6 || !math.IsInf(a.amount.max, 1) {
		t.Errorf("amount %+v, want at least 50e6", a.amount)
	}
}
