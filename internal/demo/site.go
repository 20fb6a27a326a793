package demo

import (
	"embed"
	"io/fs"

	"signals/internal/model"
)

//go:embed articles/*.md
var articleFiles embed.FS

// Articles returns the demo articles: Markdown files with front matter.
func Articles() fs.FS {
	sub, err := fs.Sub(articleFiles, "articles")
	if err != nil {
		panic(err) // the folder is embedded above
	}
	return sub
}

// Hubs are the feed hubs of the demo, with filters in canonical form.
var Hubs = []model.Hub{
	{Slug: "funding", Title: "AI funding rounds", Description: "Who raised what, newest first.", Filter: "tags=funding"},
	{Slug: "physical-ai", Title: "Physical AI", Description: "Robots, sensors and machines that act in the world.", Filter: "tags=physical_ai"},
	{Slug: "france", Title: "AI in France", Description: "Every kind of signal from France, in French and English.", Filter: "country=france"},
}
