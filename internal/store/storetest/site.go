package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

func testHubs(t *testing.T, st store.Store) {
	ctx := context.Background()
	funding := model.Hub{Slug: "funding", Title: "Funding", Description: "Rounds", Filter: "tags=funding"}
	canada := model.Hub{Slug: "canada", Title: "Canada", Filter: "country=canada"}
	for _, h := range []model.Hub{funding, canada} {
		if err := st.CreateHub(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CreateHub(ctx, model.Hub{Slug: "funding", Title: "Again", Filter: "tags=job"}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second hub with the same slug: %v, want ErrExists", err)
	}
	got, err := st.Hub(ctx, "funding")
	if err != nil || got != funding {
		t.Fatalf("Hub = %+v, %v; want %+v", got, err, funding)
	}
	list, err := st.Hubs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []model.Hub{canada, funding}; !slices.Equal(list, want) {
		t.Errorf("Hubs = %+v, want %+v", list, want)
	}
	if err := st.RemoveHub(ctx, "canada"); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{st.RemoveHub(ctx, "canada"), second(st.Hub(ctx, "canada"))} {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("removed hub: %v, want ErrNotFound", err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func testArticles(t *testing.T, st store.Store) {
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 3, d, 9, 0, 0, 0, time.UTC) }
	old := model.Article{Slug: "old", Title: "Old", PublishedAt: day(1), Body: "old body"}
	newer := model.Article{Slug: "newer", Title: "Newer", Summary: "S", PublishedAt: day(5), Body: "**new**"}
	if err := st.PutArticles(ctx, []model.Article{old, newer}); err != nil {
		t.Fatal(err)
	}
	old.Title, old.Body = "Old, revised", "revised body"
	if err := st.PutArticles(ctx, []model.Article{old}); err != nil {
		t.Fatal(err)
	}
	list, err := st.Articles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []model.Article{newer, old}; !slices.Equal(list, want) {
		t.Errorf("Articles = %+v, want %+v (newest first, the revision replacing the first import)", list, want)
	}
	got, err := st.Article(ctx, "old")
	if err != nil || got != old {
		t.Errorf("Article = %+v, %v", got, err)
	}
	if _, err := st.Article(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing article: %v", err)
	}
}

func testPublicCountries(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("a", 1, func(s *model.Signal) { s.Country = "france" }),
		Sig("b", 2, func(s *model.Signal) { s.Country = "canada" }),
		Sig("c", 3, func(s *model.Signal) { s.Country = "" }),
		Sig("d", 4, func(s *model.Signal) { s.Country = "japan"; s.Status = model.StatusHidden }),
		Sig("e", 5, func(s *model.Signal) { s.Country = "kenya"; s.MarketOnly = true }),
		Sig("f", 6, func(s *model.Signal) { s.Country = "france" }),
	)
	got, err := st.PublicCountries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"canada", "france"}; !slices.Equal(got, want) {
		t.Errorf("PublicCountries = %v, want %v (public signals only, each once, sorted)", got, want)
	}
}
