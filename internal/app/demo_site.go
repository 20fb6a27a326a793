package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"signals/internal/article"
	"signals/internal/demo"
	"signals/internal/store"
)

// loadDemoSite registers the demo hubs and imports the demo articles,
// leaving alone any hub the database already has under the same slug.
func loadDemoSite(ctx context.Context, st store.Store, log *slog.Logger) error {
	added := 0
	for _, h := range demo.Hubs {
		switch err := st.CreateHub(ctx, h); {
		case err == nil:
			added++
		case !errors.Is(err, store.ErrExists):
			return err
		}
	}
	articles, problems, err := article.ReadFS(demo.Articles())
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("demo articles: %v", problems)
	}
	if err := st.PutArticles(ctx, articles); err != nil {
		return err
	}
	log.Info("loaded demo site content", "hubs", added, "articles", len(articles))
	return nil
}
