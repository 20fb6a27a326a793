package api_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// Lists are kept encoded until the data changes: an import or a change of
// status shows on the next request, and the quota headers stay each
// request's own.
func TestListCacheFollowsTheData(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(storetest.Sig("first", 1))
	const path = "/api/v1/signals?page_size=5&tags=funding"
	resp, before := ta.Get(path)
	apptest.WantStatus(t, resp, before, http.StatusOK)
	first := resp.Header.Get("RateLimit")
	resp, again := ta.Get(path)
	if !bytes.Equal(before, again) {
		t.Fatalf("the same list twice differs:\n%s\n%s", before, again)
	}
	if resp.Header.Get("RateLimit") == first {
		t.Errorf("RateLimit %q did not count the second request", first)
	}
	ta.Put(storetest.Sig("second", 2))
	_, after := ta.Get(path)
	if !bytes.Contains(after, []byte(`"id":"second"`)) {
		t.Fatalf("an imported signal is missing from the next list:\n%s", after)
	}
	if err := ta.Store().SetStatus(context.Background(), "second", model.StatusHidden, nil); err != nil {
		t.Fatal(err)
	}
	_, hidden := ta.Get(path)
	if bytes.Contains(hidden, []byte(`"id":"second"`)) {
		t.Fatalf("a hidden signal stays in the list:\n%s", hidden)
	}
	if !bytes.Equal(hidden, before) {
		t.Fatalf("after hiding the new signal the list differs from the first:\n%s\n%s", hidden, before)
	}
	// The same filter written differently is the same list.
	if _, other := ta.Get("/api/v1/signals?tags=funding&page_size=5&page=1"); !bytes.Equal(other, before) {
		t.Errorf("an equal query gives another body:\n%s\n%s", other, before)
	}
}
