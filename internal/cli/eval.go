package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/store/sqlite"
)

// evalSearch measures the configured scorer on the labelled evaluation set
// over the bundled demo data: recall of the labelled signals at the cutoff,
// precision of the matches and nDCG@10. With --fit it first fits the openai
// provider's calibration to its model and prints the settings to use.
func evalSearch(ctx context.Context, args []string, env Env) error {
	c := newScratchCommand("eval-search", env)
	c.searchFlags()
	set := c.fs.String("set", "", "an evaluation set (JSON); default: the bundled set over the demo data")
	verbose := c.fs.Bool("v", false, "print one line per query")
	fit := c.fs.Bool("fit", false, "fit the openai provider's calibration (threshold and slope) on the set and print it")
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
	evalSet, err := search.ReadEvalSet(r)
	if err != nil {
		return err
	}
	var report search.Report
	if *fit {
		o, ok := scorer.(*search.OpenAI)
		if !ok {
			return fmt.Errorf("%w: --fit calibrates the openai provider; the builtin calibration is fitted by its tests (internal/search/fit_test.go)", errUsage)
		}
		fitted, rep, err := search.FitOpenAI(ctx, o, docs, evalSet)
		if err != nil {
			return err
		}
		cal := fitted.Calibration()
		fmt.Fprintf(env.Stdout, "fitted for %s: a cosine of %s scores %.2f, slope %s; to use it:\n",
			fitted.Model(), formatFloat(cal.Threshold), search.Cutoff, formatFloat(cal.Slope))
		fmt.Fprintf(env.Stdout, "  SIGNALS_SEARCH_THRESHOLD=%s SIGNALS_SEARCH_SLOPE=%s\n",
			formatFloat(cal.Threshold), formatFloat(cal.Slope))
		report = rep
	} else if report, err = search.EvaluateSet(ctx, scorer, docs, evalSet); err != nil {
		return err
	}
	if *verbose {
		fmt.Fprint(env.Stdout, report.String())
		return nil
	}
	fmt.Fprintf(env.Stdout, "scorer %s over %d public demo signals\n", report.Model, len(docs))
	fmt.Fprintf(env.Stdout, "recall at %.2f   %.3f\nprecision        %.3f\nnDCG@10          %.3f\n",
		search.Cutoff, report.Recall, report.Precision, report.NDCG10)
	return nil
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

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
