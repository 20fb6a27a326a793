package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// CreateHub registers a hub; ErrExists if its slug is taken.
func (q *Queries) CreateHub(ctx context.Context, h model.Hub) error {
	n, err := q.exec(ctx, `INSERT INTO hubs (slug, title, description, filter) VALUES (?, ?, ?, ?)
		ON CONFLICT (slug) DO NOTHING`, h.Slug, h.Title, h.Description, h.Filter)
	if err == nil && n == 0 {
		err = store.ErrExists
	}
	return Wrap("create hub", err)
}

// Hubs lists the hubs by slug.
func (q *Queries) Hubs(ctx context.Context) ([]model.Hub, error) {
	out, err := readAll(ctx, q, func(rows *sql.Rows) (model.Hub, error) {
		var h model.Hub
		return h, rows.Scan(&h.Slug, &h.Title, &h.Description, &h.Filter)
	}, `SELECT slug, title, description, filter FROM hubs ORDER BY slug`)
	return out, Wrap("list hubs", err)
}

// Hub finds a hub by slug.
func (q *Queries) Hub(ctx context.Context, slug string) (model.Hub, error) {
	h := model.Hub{Slug: slug}
	err := q.queryRow(ctx, `SELECT title, description, filter FROM hubs WHERE slug = ?`, slug).
		Scan(&h.Title, &h.Description, &h.Filter)
	return h, Wrap("hub", err)
}

// RemoveHub removes a hub.
func (q *Queries) RemoveHub(ctx context.Context, slug string) error {
	err := changedRow(q.exec(ctx, `DELETE FROM hubs WHERE slug = ?`, slug))
	return Wrap("remove hub", err)
}

// PutArticles upserts articles by slug in one transaction.
func (q *Queries) PutArticles(ctx context.Context, articles []model.Article) error {
	args := make([][]any, len(articles))
	for i, a := range articles {
		args[i] = []any{a.Slug, a.Title, a.Summary, a.PublishedAt.UnixNano(), a.Body}
	}
	return Wrap("put articles", q.execEach(ctx, `INSERT INTO articles (slug, title, summary, published_ns, body)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (slug) DO UPDATE SET title = excluded.title,
		summary = excluded.summary, published_ns = excluded.published_ns, body = excluded.body`, args))
}

const articleColumns = `slug, title, summary, published_ns, body`

func scanArticle(row interface{ Scan(...any) error }) (model.Article, error) {
	var a model.Article
	var ns int64
	if err := row.Scan(&a.Slug, &a.Title, &a.Summary, integer(&ns), &a.Body); err != nil {
		return model.Article{}, err
	}
	a.PublishedAt = time.Unix(0, ns).UTC()
	return a, nil
}

// Articles lists every article, newest published first.
func (q *Queries) Articles(ctx context.Context) ([]model.Article, error) {
	out, err := readAll(ctx, q, func(rows *sql.Rows) (model.Article, error) { return scanArticle(rows) },
		`SELECT `+articleColumns+` FROM articles ORDER BY published_ns DESC, slug`)
	return out, Wrap("list articles", err)
}

// Article finds an article by slug.
func (q *Queries) Article(ctx context.Context, slug string) (model.Article, error) {
	a, err := scanArticle(q.queryRow(ctx, `SELECT `+articleColumns+` FROM articles WHERE slug = ?`, slug))
	return a, Wrap("article", err)
}

// PublicCountries lists the countries of public signals, walking the
// public-country index.
func (q *Queries) PublicCountries(ctx context.Context) ([]string, error) {
	out, err := readAll(ctx, q, func(rows *sql.Rows) (string, error) {
		var c string
		return c, rows.Scan(&c)
	}, `SELECT DISTINCT country FROM signals WHERE `+q.dialect.PublicOnly+` AND country IS NOT NULL ORDER BY country`)
	return out, Wrap("public countries", err)
}
