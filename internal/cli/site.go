package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"

	"signals/internal/article"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/web"
)

func hubsAdd(ctx context.Context, args []string, env Env) error {
	c := newCommand("hubs add", env)
	title := c.fs.String("title", "", "the hub's title (required)")
	description := c.fs.String("description", "", "one sentence under the title")
	filter := c.fs.String("filter", "", "the hub's filter as a query string, such as 'tags=funding&country=canada' (required)")
	pos, err := c.parse(args, 1, "one argument: SLUG")
	if err != nil {
		return err
	}
	h, err := newHub(pos[0], *title, *description, *filter)
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.CreateHub(ctx, h); err != nil {
			return taken(err, "a hub with slug %q exists; remove it first with: signals hubs remove %s", h.Slug, h.Slug)
		}
		fmt.Fprintf(env.Stderr, "added hub %s at /hubs/%s: %s\n", h.Slug, h.Slug, h.Filter)
		return nil
	})
}

// newHub validates a hub as the command line gives it: a bad filter is a
// usage error that names the parameter and what it accepts.
func newHub(slug, title, description, filter string) (model.Hub, error) {
	h := model.Hub{Slug: slug, Title: title, Description: description}
	switch {
	case !model.ValidSlug(slug):
		return h, fmt.Errorf("%w: SLUG must be lower-case letters, digits and single hyphens, at most %d characters", errUsage, model.MaxSlugChars)
	case title == "":
		return h, fmt.Errorf("%w: --title is required", errUsage)
	case filter == "":
		return h, fmt.Errorf("%w: --filter is required, such as 'tags=funding&country=canada'", errUsage)
	}
	q, err := web.ParseHubFilter(filter)
	if err != nil {
		var p *failure.Error
		if errors.As(err, &p) {
			return h, fmt.Errorf("%w: --filter: %s", errUsage, p.Detail)
		}
		return h, err
	}
	h.Filter = model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q})
	return h, nil
}

func hubsList(ctx context.Context, args []string, env Env) error {
	c := newCommand("hubs list", env)
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		hubs, err := st.Hubs(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SLUG\tTITLE\tFILTER")
		for _, h := range hubs {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", h.Slug, h.Title, h.Filter)
		}
		return tw.Flush()
	})
}

func hubsRemove(ctx context.Context, args []string, env Env) error {
	c := newCommand("hubs remove", env)
	pos, err := c.parse(args, 1, "one argument: SLUG")
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.RemoveHub(ctx, pos[0]); err != nil {
			return missing(err, "no hub with slug %q", pos[0])
		}
		fmt.Fprintf(env.Stderr, "removed hub %s\n", pos[0])
		return nil
	})
}

// articlesImport imports a folder of articles, all or nothing: one bad
// file and nothing is written, every problem reported as FILE: field:
// reason.
func articlesImport(ctx context.Context, args []string, env Env) error {
	c := newCommand("articles import", env)
	pos, err := c.parse(args, 1, "one argument: DIR")
	if err != nil {
		return err
	}
	if st, err := os.Stat(pos[0]); err != nil || !st.IsDir() {
		return fmt.Errorf("%w: %s is not a folder", errUsage, pos[0])
	}
	articles, problems, err := article.ReadFS(os.DirFS(pos[0]))
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(env.Stderr, p)
		}
		fmt.Fprintf(env.Stderr, "%d problems; nothing was imported\n", len(problems))
		return errReported
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.PutArticles(ctx, articles); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "imported %d articles\n", len(articles))
		return nil
	})
}
