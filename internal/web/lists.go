package web

import (
	"fmt"
	"net/http"
	"strings"

	"signals/internal/model"
)

// card is one entry of a list page.
type card struct {
	Href, Title, Meta, Text string
	// Feeds are the card's feeds (a hub's), which its Markdown lists;
	// its HTML leads to Subscribe, the page that explains them.
	Feeds     []link
	Subscribe string
}

// cardsView is the content of a list page.
type cardsView struct {
	Heading, Lede, Empty string
	Cards                []card
}

// hubList serves /hubs.
func (s *Site) hubList(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	hubs, err := s.cfg.Store.Hubs(r.Context())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := cardsView{Heading: "Hubs", Lede: "Feeds with a fixed filter, each with its own JSON Feed, RSS and Atom.",
		Empty: "No hubs yet."}
	for _, h := range hubs {
		q, err := ParseHubFilter(h.Filter)
		if err != nil {
			s.Error(w, r, fmt.Errorf("web: hub %s: stored filter: %w", h.Slug, err))
			return
		}
		v.Cards = append(v.Cards, card{Href: "/hubs/" + h.Slug, Title: h.Title, Text: h.Description,
			Meta: "Shows " + strings.Join(filterSummary(q), "; "), Feeds: feedLinks("/hubs/" + h.Slug),
			Subscribe: "/hubs/" + h.Slug + SubscribePath})
	}
	s.writeCards(w, r, format, "/hubs", v)
}

// articleList serves /articles.
func (s *Site) articleList(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	articles, err := s.cfg.Store.Articles(r.Context())
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := cardsView{Heading: "Articles", Lede: "Notes from the people who run Signals.", Empty: "No articles yet."}
	for _, a := range articles {
		if model.IsPageSlug(a.Slug) {
			continue
		}
		v.Cards = append(v.Cards, card{Href: "/articles/" + a.Slug, Title: a.Title, Text: a.Summary,
			Meta: a.PublishedAt.UTC().Format("2 January 2006")})
	}
	s.writeCards(w, r, format, "/articles", v)
}

func (s *Site) writeCards(w http.ResponseWriter, r *http.Request, format, path string, v cardsView) {
	pageHeaders(w.Header())
	if format == Markdown {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n%s\n", v.Heading, v.Lede)
		if len(v.Cards) == 0 {
			fmt.Fprintf(&b, "\n%s\n", v.Empty)
		}
		for _, c := range v.Cards {
			fmt.Fprintf(&b, "\n## [%s](%s)\n\n", mdText(c.Title), s.absolute(c.Href))
			if c.Meta != "" {
				fmt.Fprintf(&b, "%s\n\n", mdText(c.Meta))
			}
			if c.Text != "" {
				fmt.Fprintf(&b, "%s\n", mdText(c.Text))
			}
			for i, f := range c.Feeds {
				if i == 0 {
					b.WriteString("\nFeeds: ")
				} else {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "[%s](%s)", f.Title, s.absolute(f.Href))
				if i == len(c.Feeds)-1 {
					b.WriteString("\n")
				}
			}
		}
		canonicalLink(w.Header(), s.absolute(path))
		writeMarkdown(w, r, http.StatusOK, []byte(b.String()))
		return
	}
	body, err := s.render(r, "cards", view{Title: v.Heading, Description: v.Lede, Section: path, Content: v})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}
