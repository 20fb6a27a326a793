package cli

import (
	"context"
	"fmt"
	"os"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/store/sqlite"
)

// evalSearch measures the configured scorer on the labelled evaluation set
// over the bundled demo data: recall of the labelled signals at the cutoff,
// precision of the matches and nDCG@10.
func evalSearch(ctx context.Context, args []string, env Env) error {
	c := newCommand("eval-search", env)
	c.stringVar(&c.cfg.Search.Provider, "search-provider", "SIGNALS_SEARCH_PROVIDER", "builtin",
		"semantic search scorer: builtin or openai")
	c.stringVar(&c.cfg.Search.URL, "search-url", "SIGNALS_SEARCH_URL", "", "base URL of the embeddings server (openai provider)")
	c.stringVar(&c.cfg.Search.Model, "search-model", "SIGNALS_SEARCH_MODEL", "", "embedding model name (openai provider)")
	c.cfg.Search.APIKey = env.Getenv("SIGNALS_SEARCH_API_KEY")
	set := c.fs.String("set", "", "an evaluation set (JSON); default: the bundled set over the demo data")
	verbose := c.fs.Bool("v", false, "print one line per query")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	scorer, err := app.NewScorer(c.cfg.Search)
	if err != nil {
		return err
	}
	docs, err := demoDocs(ctx)
	if err != nil {
		return err
	}
	r := search.DemoEvalSet()
	if *set != "" {
		f, err := os.Open(*set)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	report, err := search.Evaluate(ctx, scorer, docs, r)
	if err != nil {
		return err
	}
	if *verbose {
		fmt.Fprint(env.Stdout, report.String())
		return nil
	}
	fmt.Fprintf(env.Stdout, "scorer %s over %d public demo signals\n", scorer.Model(), len(docs))
	fmt.Fprintf(env.Stdout, "recall at %.2f   %.3f\nprecision        %.3f\nnDCG@10          %.3f\n",
		search.Cutoff, report.Recall, report.Precision, report.NDCG10)
	return nil
}

// demoDocs loads the demo data into a scratch database and returns its
// public signals as the evaluation corpus, exactly as search sees them.
func demoDocs(ctx context.Context) ([]search.Doc, error) {
	dir, err := os.MkdirTemp("", "signals-eval")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, dir+"/eval.db")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := importer.Import(ctx, demo.Records(), db, importer.Options{}); err != nil {
		return nil, err
	}
	list, err := db.Candidates(ctx, model.Filter{}, "", search.CandidateChars, 1<<20)
	if err != nil {
		return nil, err
	}
	docs := make([]search.Doc, len(list))
	for i, c := range list {
		docs[i] = search.Doc{ID: c.Signal.ID, Text: c.Signal.Text, Tag: c.Signal.Tag}
	}
	return docs, nil
}
