// Command goclient calls the HTTP API through a client that oapi-codegen
// generated from the served /openapi.json, as a Go program using the
// document would. test/mcp-client/clients.mjs copies this module into a
// temporary folder, generates the client there as package signals, and runs
// it against `signals serve --demo`:
//
//	go run . BASE_URL API_KEY
//
// The generated code is never committed, so this module cannot build in
// place; it is a module of its own so that the client's runtime dependency
// stays out of the service's go.mod.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"

	"goclient/signals"
)

var failed int

func check(name string, ok bool, detail any) {
	if ok {
		fmt.Println("ok   Go client: " + name)
		return
	}
	failed++
	fmt.Printf("FAIL Go client: %s: %+v\n", name, detail)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . BASE_URL API_KEY")
		os.Exit(2)
	}
	base, key := os.Args[1], os.Args[2]
	ctx := context.Background()
	c, err := signals.NewClientWithResponses(base, signals.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	language := signals.LanguageEn
	tags := signals.Tags{signals.TagFunding, signals.TagJob, signals.TagProductLaunch}
	three := 3
	list, err := c.ListSignalsWithResponse(ctx, &signals.ListSignalsParams{Language: &language, Tags: &tags, PageSize: &three})
	check("list: a page of 3 English signals", err == nil && list.JSON200 != nil && len(list.JSON200.Signals) == 3 &&
		list.JSON200.Signals[0].Language == signals.LanguageEn, errOr(err, list))

	// Ids may hold /, ?, #, %, +, spaces and non-ASCII. Read back one id for
	// each character that needs URL-encoding among the first 100 signals.
	covered := map[string]bool{}
	var odd []string
	fifty := 50
	for _, n := range []int{1, 2} {
		page, err := c.ListSignalsWithResponse(ctx, &signals.ListSignalsParams{Page: &n, PageSize: &fifty})
		check(fmt.Sprintf("list: page %d of 50", n), err == nil && page.JSON200 != nil && len(page.JSON200.Signals) == 50, errOr(err, page))
		if err != nil || page.JSON200 == nil {
			continue
		}
		for _, s := range page.JSON200.Signals {
			added := false
			for _, class := range reserved(s.Id) {
				added = added || !covered[class]
				covered[class] = true
			}
			if added {
				odd = append(odd, s.Id)
			}
		}
	}
	check("list: the first 100 signals have ids with /, ?, #, %, a space and non-ASCII",
		covered["/"] && covered["?"] && covered["#"] && covered["%"] && covered[" "] && covered["non-ASCII"], covered)
	for _, id := range odd {
		one, err := c.GetSignalWithResponse(ctx, id)
		ok := err == nil && one.JSON200 != nil && one.JSON200.Id == id && one.JSON200.Text != "" &&
			one.JSON200.TextCharsAlias == one.JSON200.TextChars
		check(fmt.Sprintf("read %q: that signal with its text", id), ok, errOr(err, one))
	}

	limit := 5
	found, err := c.SearchSignalsWithResponse(ctx, signals.SearchRequest{Query: "funding round for an AI startup", Limit: &limit})
	check("search: matches with cache_hit and searches_remaining", err == nil && found.JSON200 != nil &&
		len(found.JSON200.Matches) <= 5 && found.JSON200.SearchedAtAlias.Equal(found.JSON200.SearchedAt), errOr(err, found))

	ninetyNine := 99
	bad, err := c.ListSignalsWithResponse(ctx, &signals.ListSignalsParams{PageSize: &ninetyNine})
	check("list with page_size 99: a 400 problem", err == nil && bad.StatusCode() == http.StatusBadRequest &&
		bad.ApplicationproblemJSON400 != nil, errOr(err, bad))

	usage, err := c.GetUsageWithResponse(ctx)
	check("usage: counters with their deprecated aliases", err == nil && usage.JSON200 != nil &&
		usage.JSON200.DailyRequests.Used >= 5+len(odd) &&
		reflect.DeepEqual(usage.JSON200.DailyRequestsAlias, usage.JSON200.DailyRequests) &&
		usage.JSON200.ResetAtAlias.Equal(usage.JSON200.ResetAt), errOr(err, usage))

	if failed > 0 {
		os.Exit(1)
	}
}

// reserved returns what in id needs URL-encoding in a path: each ASCII
// character outside the unreserved set, and "non-ASCII".
func reserved(id string) []string {
	var out []string
	for _, r := range id {
		switch {
		case r >= 0x80:
			out = append(out, "non-ASCII")
		case !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~", r):
			out = append(out, string(r))
		}
	}
	return out
}

// errOr is what a failed check shows: the error, or the response body.
func errOr(err error, resp interface{ StatusCode() int }) any {
	if err != nil {
		return err
	}
	if b := reflect.ValueOf(resp).Elem().FieldByName("Body"); b.IsValid() {
		return fmt.Sprintf("%d %s", resp.StatusCode(), b.Bytes())
	}
	return resp.StatusCode()
}
